import { invalidTransition, validationError } from "../errors";
import { deriveBranches } from "./derive";
import type { SearchSession, SessionConfig, SessionStep, StepInput } from "./model";

export interface SessionIdentity {
  sessionId: string;
  orgId: string;
  createdBy: string;
}

export interface RecordOutcome {
  session: SearchSession;
  /** The same step sent again (a retry): nothing changed. */
  replayed: boolean;
}

const existing = (count: number) => (count === 0 ? "the session has no steps yet" : `the session has steps 1–${count}`);

const invalid = (path: string, message: string) => validationError(message, [{ path, message }]);

/** Every rule a step must satisfy against the steps before it. Throws the first broken one. */
export function checkStep(steps: readonly SessionStep[], input: StepInput, config: SessionConfig, isNew: boolean): void {
  const expected = steps.length + 1;
  if (expected > config.maxStepsPerSession) {
    throw invalidTransition(
      `This session has reached its limit of ${config.maxStepsPerSession} steps. Start a new session (stepNumber 1) and carry the summary over.`,
    );
  }
  if (input.stepNumber !== expected) {
    throw invalid(
      "stepNumber",
      isNew
        ? `A new session starts at stepNumber 1 (got ${input.stepNumber}); pass sessionId to continue an existing session.`
        : `Steps are numbered in sequence: expected stepNumber ${expected}, got ${input.stepNumber} (${existing(steps.length)}).`,
    );
  }
  if (input.isRevision === true && input.revisesStep === undefined) {
    throw invalid("revisesStep", "revisesStep is required when isRevision is true: name the step this one revises.");
  }
  if (input.revisesStep !== undefined) {
    if (input.isRevision === false) throw invalid("isRevision", "revisesStep is set but isRevision is false; set isRevision to true or drop revisesStep.");
    if (input.revisesStep < 1 || input.revisesStep > steps.length) {
      throw invalid("revisesStep", `revisesStep ${input.revisesStep} does not exist: ${existing(steps.length)}.`);
    }
  }
  if (input.branchFromStep !== undefined) {
    if (input.branchFromStep < 1 || input.branchFromStep > steps.length) {
      throw invalid("branchFromStep", `branchFromStep ${input.branchFromStep} does not exist: ${existing(steps.length)}.`);
    }
    const branch = input.branchId ? deriveBranches(steps).find((b) => b.branchId === input.branchId) : undefined;
    if (branch?.fromStep !== undefined && branch.fromStep !== null && branch.fromStep !== input.branchFromStep) {
      throw invalid("branchFromStep", `This branch started from step ${branch.fromStep}; use a new branchId to branch from step ${input.branchFromStep}.`);
    }
  }
}

function stepOf(input: StepInput, now: number): SessionStep {
  return {
    stepNumber: input.stepNumber,
    searchStep: input.searchStep,
    reasoning: input.reasoning ?? null,
    confidence: input.confidence ?? null,
    isRevision: input.revisesStep !== undefined,
    revisesStep: input.revisesStep ?? null,
    // A branch started without a name is named after its first step, so it can be continued.
    branchId: input.branchId ?? (input.branchFromStep !== undefined ? `branch-${input.stepNumber}` : null),
    branchFromStep: input.branchFromStep ?? null,
    knowledgeGap: input.knowledgeGap?.trim() || null,
    rejectedApproaches: input.rejectedApproaches ?? null,
    sources: (input.sources ?? []).map((source) => ({ url: source.url, title: source.title, snippet: source.snippet ?? null })),
    recordedAt: now,
  };
}

const expiryOf = (now: number, config: SessionConfig) => now + config.ttlMinutes * 60_000;

/** Step 1 of a new session. */
export function startSession(identity: SessionIdentity, input: StepInput, now: number, config: SessionConfig): SearchSession {
  checkStep([], input, config, true);
  return {
    ...identity,
    researchGoal: input.researchGoal?.trim() || null,
    sessionSummary: input.sessionSummary ?? null,
    totalStepsEstimate: input.totalStepsEstimate ?? null,
    startedAt: now,
    lastActivityAt: now,
    expiresAt: expiryOf(now, config),
    completedAt: input.nextStepNeeded ? null : now,
    steps: [stepOf(input, now)],
  };
}

/** Whether `input` is the last recorded step sent again (a client retry after a lost response). */
function isReplay(step: SessionStep | undefined, input: StepInput): boolean {
  if (!step || step.stepNumber !== input.stepNumber) return false;
  const again = stepOf(input, step.recordedAt);
  return JSON.stringify({ ...again, branchId: step.branchId }) === JSON.stringify(step);
}

/** The next step of an existing session; every step refreshes the expiry. */
export function appendStep(session: SearchSession, input: StepInput, now: number, config: SessionConfig): RecordOutcome {
  if (isReplay(session.steps[session.steps.length - 1], input)) return { session, replayed: true };
  if (session.completedAt !== null) {
    throw invalidTransition(
      `This session is complete (step ${session.steps.length} set nextStepNeeded=false); start a new session with stepNumber 1 to continue researching.`,
    );
  }
  checkStep(session.steps, input, config, false);
  return {
    replayed: false,
    session: {
      ...session,
      // The goal is set on step 1 and ignored later (seed 002).
      sessionSummary: input.sessionSummary ?? session.sessionSummary,
      totalStepsEstimate: input.totalStepsEstimate ?? session.totalStepsEstimate,
      lastActivityAt: now,
      expiresAt: expiryOf(now, config),
      completedAt: input.nextStepNeeded ? null : now,
      steps: [...session.steps, stepOf(input, now)],
    },
  };
}
