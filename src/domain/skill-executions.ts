import { invalidTransition, payloadTooLarge, validationError } from "./errors";

/** Seed 000: a research skill invocation, from the interview to delivery. */
export const SKILL_EXECUTION_STATUSES = ["started", "executing", "completed", "failed"] as const;
export type SkillExecutionStatus = (typeof SKILL_EXECUTION_STATUSES)[number];

export const ORIGINAL_QUERY_MAX_CHARS = 5000;
export const METADATA_MAX_BYTES = 64 * 1024;

export type Metadata = Record<string, unknown>;

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
