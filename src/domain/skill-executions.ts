import { invalidTransition, payloadTooLarge, type ValidationIssue, validationError } from "./errors";

/** Seed 000: a research skill invocation, from the interview to delivery. */
export const SKILL_EXECUTION_STATUSES = ["started", "executing", "completed", "failed"] as const;
export type SkillExecutionStatus = (typeof SKILL_EXECUTION_STATUSES)[number];

export const ORIGINAL_QUERY_MAX_CHARS = 5000;
export const METADATA_MAX_BYTES = 64 * 1024;

export type Metadata = Record<string, unknown>;

/**
 * The interview record's known fields (seed 000 phases 1–3, 6): the operation's input schema is built
 * from these, and an imported record is held to them (`storedMetadataIssue`). Unknown keys are kept.
 */
export const RESEARCH_TYPES = ["general_topic", "competitive_analysis", "decision_support"] as const;
export const DELEGATION_TARGETS = ["scan", "deep"] as const;
export const PRIOR_RESEARCH_DECISIONS = ["none_found", "use_existing", "refresh", "unique"] as const;
export const METADATA_TEXT_CHARS = {
  topic: 500,
  scope: 2000,
  decisionContext: 4000,
  knownContext: 8000,
  outputMediaType: 100,
  outputFormattingInstructions: 4000,
  skipQuestionsReason: 2000,
  routingRationale: 8000,
} as const;
export const METADATA_LIST_LIMITS = {
  depthSignals: 20,
  depthSignalChars: 200,
  clarifyingQuestions: 2,
  questionChars: 2000,
  answerChars: 8000,
  priorArtifactIds: 50,
  priorArtifactIdChars: 64,
  exchangeChars: 8000,
} as const;

const issue = (path: string, message: string): ValidationIssue => ({ path: `metadata.${path}`, message });
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The first way stored metadata breaks what log_skill_execution accepts (as stored: `originalQuery`
 * already capped), or null. For records that did not come through the operation: imports.
 */
export function storedMetadataIssue(metadata: unknown): ValidationIssue | null {
  if (!isPlainObject(metadata)) return { path: "metadata", message: "Must be an object" };
  for (const [key, max] of Object.entries(METADATA_TEXT_CHARS)) {
    const value = metadata[key];
    if (value !== undefined && (typeof value !== "string" || value.length > max)) return issue(key, `Must be text of at most ${max} characters`);
  }
  const enums: [string, readonly string[]][] = [
    ["researchType", RESEARCH_TYPES],
    ["delegatedTo", DELEGATION_TARGETS],
  ];
  for (const [key, values] of enums) {
    const value = metadata[key];
    if (value !== undefined && !values.includes(value as string)) return issue(key, `Must be one of ${values.join(", ")}`);
  }
  const query = metadata.originalQuery;
  if (query !== undefined && (typeof query !== "string" || query.length > ORIGINAL_QUERY_MAX_CHARS)) return issue("originalQuery", `Must be text of at most ${ORIGINAL_QUERY_MAX_CHARS} characters`);
  for (const key of ["stepsCompleted", "artifactsStored"]) {
    const value = metadata[key];
    if (value !== undefined && !(typeof value === "number" && Number.isSafeInteger(value) && value >= 0)) return issue(key, "Must be a whole number, 0 or more");
  }
  const signals = metadata.depthSignals;
  if (signals !== undefined) {
    const { depthSignals: max, depthSignalChars: chars } = METADATA_LIST_LIMITS;
    if (!Array.isArray(signals) || signals.length > max || signals.some((s) => typeof s !== "string" || s.length > chars)) {
      return issue("depthSignals", `At most ${max} texts of at most ${chars} characters`);
    }
  }
  const questions = metadata.clarifyingQuestions;
  if (questions !== undefined) {
    const { clarifyingQuestions: max, questionChars, answerChars } = METADATA_LIST_LIMITS;
    const fits = (q: unknown) =>
      isPlainObject(q) &&
      Object.keys(q).every((k) => k === "question" || k === "answer") &&
      typeof q.question === "string" &&
      q.question.length <= questionChars &&
      typeof q.answer === "string" &&
      q.answer.length <= answerChars;
    if (!Array.isArray(questions) || questions.length > max || !questions.every(fits)) return issue("clarifyingQuestions", `Never more than ${max} {question, answer} pairs`);
  }
  const prior = metadata.priorResearchCheck;
  if (prior !== undefined) {
    const { priorArtifactIds: max, priorArtifactIdChars: chars, exchangeChars } = METADATA_LIST_LIMITS;
    if (!isPlainObject(prior) || !PRIOR_RESEARCH_DECISIONS.includes(prior.decision as never)) {
      return issue("priorResearchCheck.decision", `Must be one of ${PRIOR_RESEARCH_DECISIONS.join(", ")}`);
    }
    const ids = prior.artifactIds;
    if (ids !== undefined && (!Array.isArray(ids) || ids.length > max || ids.some((i) => typeof i !== "string" || i.length > chars))) {
      return issue("priorResearchCheck.artifactIds", `At most ${max} ids`);
    }
    if (prior.exchange !== undefined && (typeof prior.exchange !== "string" || prior.exchange.length > exchangeChars)) {
      return issue("priorResearchCheck.exchange", `Must be text of at most ${exchangeChars} characters`);
    }
  }
  return null;
}

export interface SkillExecution {
  executionId: string;
  orgId: string;
  userId: string;
  clientId: string | null;
  skillName: string;
  status: SkillExecutionStatus;
  sessionId: string | null;
  planId: string | null;
  metadata: Metadata;
  errorMessage: string | null;
  closedReason: string | null;
  /** Optimistic-concurrency counter: every write increments it. */
  version: number;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
}

/** A list entry: the record without its metadata, but with the two fields that say what it was about. */
export type SkillExecutionSummary = Omit<SkillExecution, "metadata"> & { topic: string | null; delegatedTo: string | null };

const TERMINAL: ReadonlySet<SkillExecutionStatus> = new Set(["completed", "failed"]);

export const isTerminalExecutionStatus = (status: SkillExecutionStatus) => TERMINAL.has(status);

/** `originalQuery` is capped at 5000 characters (seed 000): longer text is cut, and the cut reported. */
export function capOriginalQuery(metadata: Metadata): { metadata: Metadata; truncated: boolean } {
  const query = metadata.originalQuery;
  if (typeof query !== "string" || query.length <= ORIGINAL_QUERY_MAX_CHARS) return { metadata, truncated: false };
  return { metadata: { ...metadata, originalQuery: query.slice(0, ORIGINAL_QUERY_MAX_CHARS) }, truncated: true };
}

/** Shallow merge: a key in the patch replaces the stored key of that name; other keys are kept. */
export function mergeMetadata(current: Metadata, patch: Metadata | undefined): Metadata {
  return patch ? { ...current, ...patch } : current;
}

export function assertMetadataSize(metadata: Metadata): void {
  const bytes = new TextEncoder().encode(JSON.stringify(metadata)).byteLength;
  if (bytes > METADATA_MAX_BYTES) {
    throw payloadTooLarge(
      `metadata is ${bytes} bytes once merged; the limit is ${METADATA_MAX_BYTES}. Store long text as an artifact instead.`,
    );
  }
}

/**
 * The user chose existing research at the prior-research check (seed 000 phase 3): the session ends there, and
 * the lifecycle closes the execution with a closedReason naming what was used instead of a deliverable.
 */
const usedExistingResearch = (metadata: Metadata): boolean => {
  const check = metadata.priorResearchCheck;
  return typeof check === "object" && check !== null && (check as { decision?: unknown }).decision === "use_existing";
};

export interface ExecutionUpdate {
  status: SkillExecutionStatus;
  errorMessage?: string;
  closedReason?: string;
  planId?: string;
  metadata?: Metadata;
}

/**
 * The next state of an execution after an update, or an `invalid_transition` error.
 * started → executing | completed | failed; executing → completed | failed.
 * Repeating the current status is allowed (retries, late metadata); leaving a
 * terminal status, or returning to started, is not.
 */
export function applyExecutionUpdate(
  current: SkillExecution,
  update: ExecutionUpdate,
  now: number,
): { next: SkillExecution; originalQueryTruncated: boolean } {
  if (update.status === "started" && current.status !== "started") {
    throw invalidTransition(`Execution ${current.executionId} is ${current.status}; it cannot return to started.`);
  }
  if (update.status !== current.status && isTerminalExecutionStatus(current.status)) {
    throw invalidTransition(
      `Execution ${current.executionId} is already ${current.status}; it cannot become ${update.status}.`,
    );
  }
  const errorMessage = update.errorMessage ?? current.errorMessage;
  if (update.status === "failed" && !errorMessage) {
    throw validationError("errorMessage is required when status is failed.", [
      { path: "errorMessage", message: "Required when status is failed" },
    ]);
  }
  const { metadata, truncated } = capOriginalQuery(mergeMetadata(current.metadata, update.metadata));
  assertMetadataSize(metadata);
  const closes = isTerminalExecutionStatus(update.status) && !isTerminalExecutionStatus(current.status);
  const closedReason = update.closedReason ?? current.closedReason;
  if (closes && update.status === "completed" && usedExistingResearch(metadata) && !closedReason?.trim()) {
    throw validationError(
      'closedReason is required to complete an execution whose user chose existing research (priorResearchCheck decision use_existing): say what was used, e.g. "Used existing research: <artifact ids>".',
      [{ path: "closedReason", message: "Required when completing after priorResearchCheck decision use_existing" }],
    );
  }
  const next: SkillExecution = {
    ...current,
    status: update.status,
    errorMessage,
    closedReason,
    planId: update.planId ?? current.planId,
    metadata,
    version: current.version + 1,
    updatedAt: now,
    completedAt: closes ? now : current.completedAt,
  };
  return { next, originalQueryTruncated: truncated };
}
