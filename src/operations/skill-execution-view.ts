import { z } from "zod";
import { clipRecord } from "../domain/clip";
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

/**
 * What one read shows of the metadata (up to 64 KiB stored): strings cut at 1,000 characters, and the keys that no
 * longer fit in 12,000 characters left out. `metadataClipped` names them; `field` reads one whole.
 */
export const METADATA_VIEW = { stringChars: 1_000, budget: 12_000 } as const;

/** How a skill execution leaves the server, on both faces. */
export const SkillExecutionView = SkillExecutionFields.extend({
  metadata: z.record(z.string(), z.unknown()),
  metadataClipped: z.array(z.string()),
});

/** log_skill_execution's acknowledgement: the record without the metadata it was just given, but the keys stored. */
/**
 * What log_skill_execution acknowledges: the execution it acted on, the status it is in now and the plan it is
 * linked to. Nothing the caller sent comes back (get_skill_execution reads the record).
 */
export const SkillExecutionAck = z.object({ executionId: z.string(), status: z.string(), planId: z.string().nullable() });

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

export const toSkillExecutionView = (execution: SkillExecution): z.infer<typeof SkillExecutionView> => {
  const { record, clippedKeys } = clipRecord(execution.metadata, METADATA_VIEW);
  return { ...fieldsOf(execution), metadata: record, metadataClipped: clippedKeys };
};

export const toSkillExecutionAck = (execution: SkillExecution): z.infer<typeof SkillExecutionAck> => ({
  executionId: execution.executionId,
  status: execution.status,
  planId: execution.planId,
});

export const toSkillExecutionSummaryView = (summary: SkillExecutionSummary): z.infer<typeof SkillExecutionSummaryView> => ({
  ...fieldsOf(summary),
  topic: summary.topic,
  delegatedTo: summary.delegatedTo,
});
