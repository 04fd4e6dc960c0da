import { z } from "zod";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../domain/pagination";
import { OutputSummaryView, outputSummaryView } from "./get-research-output";
import { defineOperation } from "./operation";
import { ParamCursor, ParamId, ParamLimit } from "./params";

export const listResearchOutputs = defineOperation({
  name: "list_research_outputs",
  title: "List research outputs",
  description: "List your organization's deliverables, most recently updated first, optionally of one plan. Pass nextCursor as cursor.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ planId: ParamId("plan").optional(), limit: ParamLimit.optional(), cursor: ParamCursor.optional() }),
  output: z.object({ outputs: z.array(OutputSummaryView), nextCursor: z.string().nullable() }),
  rest: { method: "get", path: "/outputs" },
  async handler(input, ctx) {
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await ctx.services.outputs.list(ctx.principal.orgId, { planId: input.planId }, { ...(input.cursor ? { after: decodeCursor(input.cursor) } : {}), limit: limit + 1 });
    const page = toPage(rows, limit, (row) => ({ createdAt: row.updatedAt, id: row.outputId }));
    return { outputs: page.items.map(outputSummaryView), nextCursor: page.nextCursor };
  },
});
