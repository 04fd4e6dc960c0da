import { z } from "zod";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../domain/pagination";
import { clipNullable } from "../domain/clip";
import type { ResearchOutputSummary } from "../domain/research/outputs";
import { OutputSummaryView } from "./get-research-output";
import { defineOperation } from "./operation";
import { ParamCursor, ParamId, ParamLimit } from "./params";

/** A list row: no citations (their count instead) and the instructions' start, so a page of 20 stays small (issue 4). */
const OutputListView = OutputSummaryView.omit({ citations: true });

const outputListView = (output: ResearchOutputSummary): z.infer<typeof OutputListView> => ({
  outputId: output.outputId,
  planId: output.planId,
  executionId: output.executionId,
  title: output.title,
  mediaType: output.mediaType,
  formattingInstructions: clipNullable(output.formattingInstructions, 200),
  citationCount: output.citations.length,
  version: output.version,
  createdAt: new Date(output.createdAt).toISOString(),
  updatedAt: new Date(output.updatedAt).toISOString(),
});

export const listResearchOutputs = defineOperation({
  name: "list_research_outputs",
  title: "List research outputs",
  description: "List your organization's deliverables, latest update first.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ planId: ParamId("plan").optional(), limit: ParamLimit.optional(), cursor: ParamCursor.optional() }),
  output: z.object({ outputs: z.array(OutputListView), nextCursor: z.string().nullable() }),
  rest: { method: "get", path: "/outputs" },
  async handler(input, ctx) {
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await ctx.services.outputs.list(ctx.principal.orgId, { planId: input.planId }, { ...(input.cursor ? { after: decodeCursor(input.cursor) } : {}), limit: limit + 1 });
    const page = toPage(rows, limit, (row) => ({ createdAt: row.updatedAt, id: row.outputId }));
    return { outputs: page.items.map(outputListView), nextCursor: page.nextCursor };
  },
});
