import { z } from "zod";
import { conflict, notFound, validationError } from "../domain/errors";
import { newId } from "../domain/ids";
import type { AuditEntry } from "../domain/ports";
import {
  applyExecutionUpdate,
  assertMetadataSize,
  capOriginalQuery,
  DELEGATION_TARGETS,
  METADATA_LIST_LIMITS as LIST,
  METADATA_TEXT_CHARS as CHARS,
  PRIOR_RESEARCH_DECISIONS,
  RESEARCH_TYPES,
  type SkillExecution,
} from "../domain/skill-executions";
import { LIST_AS_DESCRIPTION } from "./listing";
import { defineOperation, type OperationContext, restPath } from "./operation";
import { ParamId, ParamSessionId } from "./params";
import { SkillExecutionAck, toSkillExecutionAck } from "./skill-execution-view";

const text = (max: number) => z.string().max(max, `At most ${max} characters`);

/** The interview record of seed 000 (phases 1–3, 6). Unknown keys are kept, so skills can add their own. */
export const ExecutionMetadata = z.looseObject({
  topic: text(CHARS.topic).optional(),
  researchType: z.enum(RESEARCH_TYPES).optional(),
  scope: text(CHARS.scope).optional(),
  depthSignals: z.array(text(LIST.depthSignalChars)).max(LIST.depthSignals).optional(),
  decisionContext: text(CHARS.decisionContext).optional(),
  knownContext: text(CHARS.knownContext).optional(),
  outputMediaType: text(CHARS.outputMediaType).optional(),
  outputFormattingInstructions: text(CHARS.outputFormattingInstructions).optional(),
  clarifyingQuestions: z
    .array(z.strictObject({ question: text(LIST.questionChars), answer: text(LIST.answerChars) }))
    .max(LIST.clarifyingQuestions, "Never more than 2 clarifying questions")
    .optional(),
  skipQuestionsReason: text(CHARS.skipQuestionsReason).optional(),
  routingRationale: text(CHARS.routingRationale).optional(),
  delegatedTo: z.enum(DELEGATION_TARGETS).optional(),
  originalQuery: z.string().max(100_000).optional(),
  stepsCompleted: z.number().int().min(0).optional(),
  artifactsStored: z.number().int().min(0).optional(),
  /** seed 000 phase 3: what search_sources found, what the user chose, and the exchange. */
  priorResearchCheck: z
    .looseObject({
      decision: z.enum(PRIOR_RESEARCH_DECISIONS),
      artifactIds: z.array(z.string().max(LIST.priorArtifactIdChars)).max(LIST.priorArtifactIds).optional(),
      exchange: text(LIST.exchangeChars).optional(),
    })
    .optional(),
});

const Input = z.strictObject({
  executionId: ParamId("skill execution").optional(),
  skillName: text(100).min(1).optional(),
  status: z.enum(["started", "executing", "completed", "failed"]).optional(),
  sessionId: ParamSessionId.optional(),
  planId: ParamId("plan").optional(),
  errorMessage: text(4000).optional(),
  closedReason: text(1000).optional(),
  metadata: ExecutionMetadata.meta({ [LIST_AS_DESCRIPTION]: true })
    .optional()
    .describe(
      "Interview record: topic, researchType (general_topic|competitive_analysis|decision_support), scope, " +
        "depthSignals[], decisionContext, knownContext, outputMediaType, outputFormattingInstructions, " +
        "clarifyingQuestions[{question,answer}] (≤2) or skipQuestionsReason, routingRationale, delegatedTo " +
        "(scan|deep), originalQuery, priorResearchCheck {decision: none_found|use_existing|" +
        "refresh|unique, artifactIds, exchange}; when done: stepsCompleted, artifactsStored, checkpointFeedback.",
    ),
});

const Output = SkillExecutionAck.extend({
  created: z.boolean(),
  /** Present when originalQuery was cut to its limit. */
  originalQueryTruncated: z.literal(true).optional(),
});

type LogInput = z.output<typeof Input>;

const MAX_UPDATE_ATTEMPTS = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const logSkillExecution = defineOperation({
  name: "log_skill_execution",
  title: "Log skill execution",
  description:
    "Track a research skill run. Without executionId: create it from skillName and interview " +
    "metadata. With executionId: move it to executing, completed (closedReason) or failed (errorMessage), merging " +
    "metadata.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: Input,
  output: Output,
  rest: {
    method: "post",
    path: "/skill-executions",
    creates: { location: (logged) => restPath`/skill-executions/${logged.executionId}`, isNew: (logged) => logged.created },
  },
  handler: (input, ctx) => (input.executionId ? update(input.executionId, input, ctx) : create(input, ctx)),
});

function auditOf(ctx: OperationContext, execution: SkillExecution, action: string, detail: Record<string, unknown>): AuditEntry {
  return {
    orgId: execution.orgId,
    actorUserId: ctx.principal.userId,
    actorClientId: ctx.principal.clientId ?? ctx.principal.apiKeyId ?? null,
    action,
    targetType: "skill_execution",
    targetId: execution.executionId,
    detail,
  };
}

async function create(input: LogInput, ctx: OperationContext) {
  if (!input.skillName) {
    throw validationError("skillName is required to create a skill execution.", [
      { path: "skillName", message: "Required when executionId is absent" },
    ]);
  }
  if (input.status && input.status !== "started") {
    throw validationError("A new skill execution starts with status started; pass executionId to update one.", [
      { path: "status", message: "Must be started when creating" },
    ]);
  }
  if (input.metadata?.clarifyingQuestions?.length && input.metadata.skipQuestionsReason) {
    throw validationError("Give clarifyingQuestions or skipQuestionsReason, not both.", [
      { path: "metadata.skipQuestionsReason", message: "Not allowed together with clarifyingQuestions" },
    ]);
  }
  const { metadata, truncated } = capOriginalQuery(input.metadata ?? {});
  assertMetadataSize(metadata);
  if (input.planId) await ctx.services.plans.read(ctx.principal.orgId, input.planId, false); // not_found for a plan not in this org
  const now = ctx.now();
  const execution: SkillExecution = {
    executionId: newId("exec"),
    orgId: ctx.principal.orgId,
    userId: ctx.principal.userId,
    clientId: ctx.principal.clientId ?? ctx.principal.apiKeyId ?? null,
    skillName: input.skillName,
    status: "started",
    sessionId: input.sessionId ?? null,
    planId: input.planId ?? null,
    metadata,
    errorMessage: input.errorMessage ?? null,
    closedReason: input.closedReason ?? null,
    version: 1,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
  await ctx.services.skillExecutions.insert(execution, auditOf(ctx, execution, "skill_execution.created", { status: "started" }));
  return { ...toSkillExecutionAck(execution), created: true, ...(truncated ? { originalQueryTruncated: true as const } : {}) };
}

async function update(executionId: string, input: LogInput, ctx: OperationContext) {
  if (input.sessionId !== undefined) {
    throw validationError("sessionId is set when the execution is created and cannot change.", [
      { path: "sessionId", message: "Not allowed on update" },
    ]);
  }
  if (input.planId) await ctx.services.plans.read(ctx.principal.orgId, input.planId, false); // not_found for a plan not in this org
  // Several writers may merge metadata at once: each round at least one compare-and-set wins,
  // so retrying (with jitter, to spread the losers out) keeps every merge.
  for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
    if (attempt > 0) await sleep(Math.random() * 10 * attempt);
    const current = await ctx.services.skillExecutions.get(ctx.principal.orgId, executionId);
    if (!current) throw notFound("skill execution", executionId);
    if (input.skillName !== undefined && input.skillName !== current.skillName) {
      throw validationError(`Execution ${executionId} belongs to skill ${current.skillName}, not ${input.skillName}.`, [
        { path: "skillName", message: "Does not match the stored skill" },
      ]);
    }
    const { next, originalQueryTruncated } = applyExecutionUpdate(
      current,
      {
        status: input.status ?? current.status,
        errorMessage: input.errorMessage,
        closedReason: input.closedReason,
        planId: input.planId,
        metadata: input.metadata,
      },
      ctx.now(),
    );
    const detail = { from: current.status, to: next.status, ...(input.closedReason ? { closedReason: input.closedReason } : {}) };
    if (await ctx.services.skillExecutions.replace(next, current.version, auditOf(ctx, next, "skill_execution.updated", detail))) {
      return { ...toSkillExecutionAck(next), created: false, ...(originalQueryTruncated ? { originalQueryTruncated: true as const } : {}) };
    }
  }
  throw conflict(`Execution ${executionId} is being updated by another call; try again.`);
}
