import { z } from "zod";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../domain/pagination";
import { SKILL_EXECUTION_STATUSES } from "../domain/skill-executions";
import { defineOperation } from "./operation";
import { ParamCursor, ParamId, ParamLimit, ParamSessionId } from "./params";
import { SkillExecutionSummaryView, toSkillExecutionSummaryView } from "./skill-execution-view";

export const listSkillExecutions = defineOperation({
  name: "list_skill_executions",
  title: "List skill executions",
  description:
    "List your organization's skill executions, newest first; get_skill_execution has the metadata.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    status: z.enum(SKILL_EXECUTION_STATUSES).optional(),
    skillName: z.string().min(1).max(100).optional(),
    sessionId: ParamSessionId.optional(),
    planId: ParamId("plan").optional(),
    limit: ParamLimit.optional(),
    cursor: ParamCursor.optional(),
  }),
  output: z.object({ executions: z.array(SkillExecutionSummaryView), nextCursor: z.string().nullable() }),
  rest: { method: "get", path: "/skill-executions" },
  async handler(input, ctx) {
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await ctx.services.skillExecutions.list(ctx.principal.orgId, {
      status: input.status,
      skillName: input.skillName,
      sessionId: input.sessionId,
      planId: input.planId,
      after: input.cursor ? decodeCursor(input.cursor) : undefined,
      limit: limit + 1,
    });
    const page = toPage(rows, limit, (row) => ({ createdAt: row.createdAt, id: row.executionId }));
    return {
      executions: page.items.map(toSkillExecutionSummaryView),
      nextCursor: page.nextCursor,
    };
  },
});
