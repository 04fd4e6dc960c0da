import { z } from "zod";
import { notFound } from "../domain/errors";
import { defineOperation } from "./operation";
import { ParamExecutionId } from "./params";
import { SkillExecutionView, toSkillExecutionView } from "./skill-execution-view";

export const getSkillExecution = defineOperation({
  name: "get_skill_execution",
  title: "Get skill execution",
  description: "Read one skill execution of your organization: status, linked plan, interview metadata, outcome.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ executionId: ParamExecutionId }),
  output: SkillExecutionView,
  rest: { method: "get", path: "/skill-executions/{executionId}" },
  async handler({ executionId }, ctx) {
    const execution = await ctx.services.skillExecutions.get(ctx.principal.orgId, executionId);
    if (!execution) throw notFound("skill execution", executionId);
    return toSkillExecutionView(execution);
  },
});
