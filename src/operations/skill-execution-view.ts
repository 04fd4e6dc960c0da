import { z } from "zod";
import { SKILL_EXECUTION_STATUSES, type SkillExecution } from "../domain/skill-executions";
import { isoOrNull } from "./params";

/** How a skill execution leaves the server, on both faces. */
export const SkillExecutionView = z.object({
  executionId: z.string(),
  skillName: z.string(),
  status: z.enum(SKILL_EXECUTION_STATUSES),
  sessionId: z.string().nullable(),
  planId: z.string().nullable(),
  userId: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  errorMessage: z.string().nullable(),
  closedReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
});

export type SkillExecutionView = z.infer<typeof SkillExecutionView>;

export function toSkillExecutionView(execution: SkillExecution): SkillExecutionView {
  return {
    executionId: execution.executionId,
    skillName: execution.skillName,
    status: execution.status,
    sessionId: execution.sessionId,
    planId: execution.planId,
    userId: execution.userId,
    metadata: execution.metadata,
    errorMessage: execution.errorMessage,
    closedReason: execution.closedReason,
    createdAt: new Date(execution.createdAt).toISOString(),
    updatedAt: new Date(execution.updatedAt).toISOString(),
    completedAt: isoOrNull(execution.completedAt),
  };
}
