import { z } from "zod";
import { SKILL_EXECUTION_STATUSES, type SkillExecution, type SkillExecutionSummary } from "../domain/skill-executions";
import { isoOrNull } from "./params";

const SkillExecutionFields = z.object({
  executionId: z.string(),
  skillName: z.string(),
  status: z.enum(SKILL_EXECUTION_STATUSES),
  sessionId: z.string().nullable(),
  planId: z.string().nullable(),
  userId: z.string(),
  errorMessage: z.string().nullable(),
  closedReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
});

/** How a skill execution leaves the server, on both faces. */
export const SkillExecutionView = SkillExecutionFields.extend({ metadata: z.record(z.string(), z.unknown()) });

/** A list entry: no metadata, but the fields that say what the run was about. */
export const SkillExecutionSummaryView = SkillExecutionFields.extend({
  topic: z.string().nullable(),
  delegatedTo: z.string().nullable(),
});

type Common = Omit<SkillExecution, "metadata">;

const fieldsOf = (execution: Common): z.infer<typeof SkillExecutionFields> => ({
  executionId: execution.executionId,
  skillName: execution.skillName,
  status: execution.status,
  sessionId: execution.sessionId,
  planId: execution.planId,
  userId: execution.userId,
  errorMessage: execution.errorMessage,
  closedReason: execution.closedReason,
  createdAt: new Date(execution.createdAt).toISOString(),
  updatedAt: new Date(execution.updatedAt).toISOString(),
  completedAt: isoOrNull(execution.completedAt),
});

export const toSkillExecutionView = (execution: SkillExecution): z.infer<typeof SkillExecutionView> => ({
  ...fieldsOf(execution),
  metadata: execution.metadata,
});

export const toSkillExecutionSummaryView = (summary: SkillExecutionSummary): z.infer<typeof SkillExecutionSummaryView> => ({
  ...fieldsOf(summary),
  topic: summary.topic,
  delegatedTo: summary.delegatedTo,
});
