import { z } from "zod";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../domain/pagination";
import { defineOperation } from "./operation";
import { ParamCursor, ParamLimit } from "./params";

export const listActivePlans = defineOperation({
  name: "list_active_plans",
  title: "List active plans",
  description:
    "Your organization's unfinished plans (active, awaiting_review, stalled), latest update first, with progress. " +
    "Resume one with get_research_context and your sessionId.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ limit: ParamLimit.optional(), cursor: ParamCursor.optional() }),
  output: z.object({
    plans: z.array(
      z.object({
        planId: z.string(),
        name: z.string(),
        status: z.string(),
        derivedStatus: z.string(),
        progress: z.number(),
        stalled: z.boolean(),
        totalSteps: z.number(),
        currentStepOrder: z.number().nullable(),
        updatedAt: z.string(),
        /** A scheduled run nobody has started yet: listed first. */
        due: z.literal(true).optional(),
      }),
    ),
    nextCursor: z.string().nullable(),
  }),
  rest: { method: "get", path: "/plans" },
  core: { description: "Your organization's unfinished plans, most recently updated first. Paged: pass nextCursor as cursor." },
  async handler(input, ctx) {
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const after = input.cursor ? decodeCursor(input.cursor) : undefined;
    const { orgId } = ctx.principal;
    const rows = await ctx.services.planIndex.listActive(orgId, { ...(after ? { after: { updatedAt: after.createdAt, planId: after.id } } : {}), limit: limit + 1 });
    const page = toPage(rows, limit, (row) => ({ createdAt: row.updatedAt, id: row.planId }));
    // Due runs lead the page they are on (the order across pages stays the cursor's, so paging never skips a plan).
    const items = [...page.items.filter((row) => row.seriesRunDue), ...page.items.filter((row) => !row.seriesRunDue)];
    return {
      plans: items.map((row) => ({
        planId: row.planId,
        name: row.name,
        status: row.status,
        derivedStatus: row.derivedStatus,
        progress: row.progress,
        stalled: row.stalled,
        totalSteps: row.totalSteps,
        currentStepOrder: row.currentStepOrder,
        updatedAt: new Date(row.updatedAt).toISOString(),
        ...(row.seriesRunDue ? { due: true as const } : {}),
      })),
      nextCursor: page.nextCursor,
    };
  },
});
