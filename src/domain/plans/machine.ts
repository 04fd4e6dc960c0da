import { conflict, invalidTransition, notFound, validationError } from "../errors";
import {
  type Actor,
  type BranchingCondition,
  isTerminalPlan,
  isTerminalStep,
  LIMITS,
  type NewStep,
  type PlanState,
  type Step,
  type StepStatus,
} from "./model";
import { derivePlanStatus, stalledSteps } from "./status";

/**
 * The plan state machine: pure functions from a state and a command to the next
 * state plus what happened. The Durable Object persists the result; nothing here
 * does I/O, so every rule can be tested in plain Node.
 */

export interface PlanEvent {
  action: string;
  stepId: string | null;
  detail: Record<string, unknown>;
}

export interface StepSnapshot {
  stepId: string;
  stepOrder: number;
  stepType: string;
  instructions: string;
  status: StepStatus;
  parallelGroup: string | null;
}

/** A plan version: one modification, why, and the steps it touched before and after. */
export interface PlanModification {
  version: number;
  kind: string;
  rationale: string;
  before: StepSnapshot[];
  after: StepSnapshot[];
}

export interface Transition {
  state: PlanState;
  events: PlanEvent[];
  modifications: PlanModification[];
}

export type NewId = (prefix: string) => string;

export const snapshot = (step: Step): StepSnapshot => ({
  stepId: step.stepId,
  stepOrder: step.stepOrder,
  stepType: step.stepType,
  instructions: step.instructions,
  status: step.status,
  parallelGroup: step.parallelGroup,
});

function newStep(spec: NewStep, origin: Step["origin"], newId: NewId): Step {
  return {
    stepId: newId("step"),
    stepOrder: 0,
    stepType: spec.stepType,
    instructions: spec.instructions,
    parallelGroup: spec.parallelGroup ?? null,
    critical: spec.critical ?? false,
    stallThresholdMinutes: spec.stallThresholdMinutes ?? null,
    status: "pending",
    claimId: null,
    claimedBy: null,
    claimedAt: null,
    lastActivityAt: null,
    finishedAt: null,
    result: null,
    resultHash: null,
    confidence: null,
    executionReport: null,
    outputFormattingNotes: null,
    review: null,
    note: null,
    origin,
  };
}

const renumber = (steps: Step[]): Step[] => steps.map((step, index) => (step.stepOrder === index + 1 ? step : { ...step, stepOrder: index + 1 }));

/**
 * The state with a new step list, renumbered. A branching condition names its step by
 * position, so it moves with its step; a condition whose step was removed can never fire and goes.
 */
function withSteps(state: PlanState, steps: Step[]): PlanState {
  const renumbered = renumber(steps);
  const orderOf = new Map(renumbered.map((step) => [step.stepId, step.stepOrder]));
  const branchingConditions = state.plan.branchingConditions.flatMap((condition) => {
    const stepId = state.steps[condition.afterStepOrder - 1]?.stepId;
    const order = stepId === undefined ? undefined : orderOf.get(stepId);
    if (order === undefined) return [];
    return order === condition.afterStepOrder ? [condition] : [{ ...condition, afterStepOrder: order }];
  });
  return { ...state, steps: renumbered, plan: { ...state.plan, branchingConditions } };
}

/** Steps that share a parallel group must stand together, or "the group" would mean two places. */
export function assertGroupsContiguous(steps: readonly Pick<Step, "parallelGroup">[]): void {
  const closed = new Set<string>();
  let current: string | null = null;
  steps.forEach((step, index) => {
    if (step.parallelGroup !== current) {
      if (current !== null) closed.add(current);
      if (step.parallelGroup !== null && closed.has(step.parallelGroup)) {
        throw validationError(`Steps of parallel group "${step.parallelGroup}" must be consecutive.`, [
          { path: `steps.${index}.parallelGroup`, message: "Group already closed earlier in the plan" },
        ]);
      }
      current = step.parallelGroup;
    }
  });
}

function assertStepCount(count: number): void {
  if (count > LIMITS.stepsPerPlan) {
    throw validationError(`A plan has at most ${LIMITS.stepsPerPlan} steps; this change would make ${count}.`, [
      { path: "steps", message: `At most ${LIMITS.stepsPerPlan} steps` },
    ]);
  }
}

function findStep(state: PlanState, stepId: string): Step {
  const step = state.steps.find((candidate) => candidate.stepId === stepId);
  if (!step) throw notFound("step", stepId);
  return step;
}

function replaceStep(state: PlanState, next: Step): PlanState {
  return { ...state, steps: state.steps.map((step) => (step.stepId === next.stepId ? next : step)) };
}

/** The stored status after a transition: terminal stays terminal, a failed critical step fails the plan, progress clears a stall. */
export function settle(state: PlanState, now: number): { state: PlanState; events: PlanEvent[] } {
  const { plan, steps } = state;
  if (plan.status === "failed" || plan.status === "cancelled") return { state, events: [] };
  const failedCritical = steps.find((step) => step.critical && step.status === "failed");
  if (failedCritical) {
    const reason = `Critical step ${failedCritical.stepOrder} (${failedCritical.stepType}) failed${failedCritical.note ? `: ${failedCritical.note}` : ""}`;
    return {
      state: { ...state, plan: { ...plan, status: "failed", failureReason: reason, finishedAt: now, updatedAt: now } },
      events: [{ action: "plan.failed", stepId: failedCritical.stepId, detail: { reason } }],
    };
  }
  const derived = derivePlanStatus(steps);
  let status: typeof plan.status = derived;
  if (derived === "active" && plan.status === "stalled" && stalledSteps(state, now).length > 0) status = "stalled";
  if (status === plan.status) return { state: { ...state, plan: { ...plan, updatedAt: now } }, events: [] };
  const events: PlanEvent[] = [];
  if (status === "completed") events.push({ action: "plan.completed", stepId: null, detail: {} });
  if (plan.status === "stalled") events.push({ action: "plan.stall_cleared", stepId: null, detail: {} });
  return {
    state: {
      ...state,
      plan: {
        ...plan,
        status,
        stalledAt: status === "stalled" ? plan.stalledAt : null,
        finishedAt: status === "completed" ? now : null,
        updatedAt: now,
      },
    },
    events,
  };
}

// ---------------------------------------------------------------- create

export interface CreatePlanInput {
  planId: string;
  orgId: string;
  name: string;
  researchQuestion: string;
  steps: NewStep[];
  branchingConditions: Omit<BranchingCondition, "conditionId" | "firedAt">[];
  planDesignRationale: string;
  outputFormattingNotes: string | null;
  sessionId: string | null;
  executionId: string | null;
  stallThresholdMinutes?: number | null;
}

export function createPlan(input: CreatePlanInput, actor: Actor, now: number, newId: NewId): Transition {
  if (!/^\[(Scan|Deep)\] \S/.test(input.name)) {
    throw validationError('name must read "[Scan] <topic>" or "[Deep] <topic>".', [{ path: "name", message: "Must start with [Scan] or [Deep]" }]);
  }
  if (input.steps.length === 0) throw validationError("A plan needs at least one step.", [{ path: "steps", message: "At least one step" }]);
  assertStepCount(input.steps.length);
  const steps = renumber(input.steps.map((spec) => newStep(spec, "plan", newId)));
  assertGroupsContiguous(steps);
  input.branchingConditions.forEach((condition, index) => {
    if (condition.afterStepOrder < 1 || condition.afterStepOrder > steps.length) {
      throw validationError(`Branching condition ${index + 1} names step ${condition.afterStepOrder}, but the plan has ${steps.length} steps.`, [
        { path: `branchingConditions.${index}.afterStepOrder`, message: "No such step" },
      ]);
    }
  });
  const state: PlanState = {
    plan: {
      planId: input.planId,
      orgId: input.orgId,
      name: input.name,
      researchQuestion: input.researchQuestion,
      planDesignRationale: input.planDesignRationale,
      outputFormattingNotes: input.outputFormattingNotes,
      sessionId: input.sessionId,
      executionId: input.executionId,
      status: "active",
      stallThresholdMinutes: input.stallThresholdMinutes ?? null,
      branchingConditions: input.branchingConditions.map((condition) => ({ ...condition, conditionId: newId("cond"), firedAt: null })),
      createdBy: actor,
      createdAt: now,
      updatedAt: now,
      version: 1,
      stalledAt: null,
      finishedAt: null,
      failureReason: null,
    },
    steps,
  };
  return {
    state,
    events: [{ action: "plan.created", stepId: null, detail: { steps: steps.length, name: input.name } }],
    modifications: [{ version: 1, kind: "create", rationale: input.planDesignRationale, before: [], after: steps.map(snapshot) }],
  };
}

// ---------------------------------------------------------------- get_next_step

export type NextStepOutcome =
  | { status: "step"; step: Step; claimId: string; resumed: boolean }
  | { status: "plan_complete" }
  | { status: "awaiting_review"; steps: Step[] }
  | { status: "plan_failed"; reason: string }
  | { status: "waiting"; inProgress: Step[] };

/**
 * Hands the caller its next step. A sequential plan gives back the step in
 * progress (resume, from any session); a parallel group gives each worker a
 * different ready step and the same worker its own step again, never one step
 * to two workers. A group step past its stall deadline may be taken over: its
 * old claim then goes stale.
 */
export function nextStep(state: PlanState, workerId: string, now: number, newId: NewId): Transition & { outcome: NextStepOutcome } {
  const { plan } = state;
  const unchanged = (outcome: NextStepOutcome) => ({ state, events: [], modifications: [], outcome });
  if (plan.status === "completed") return unchanged({ status: "plan_complete" });
  if (plan.status === "failed" || plan.status === "cancelled") {
    return unchanged({ status: "plan_failed", reason: plan.failureReason ?? (plan.status === "cancelled" ? "The plan was cancelled." : "The plan failed.") });
  }
  const awaiting = state.steps.filter((step) => step.status === "awaiting_input");
  if (awaiting.length > 0) return unchanged({ status: "awaiting_review", steps: awaiting });
  const open = state.steps.filter((step) => !isTerminalStep(step));
  const first = open[0];
  if (!first) return unchanged({ status: "plan_complete" });

  if (first.parallelGroup === null) {
    // A step added before the one in progress must not start a second line of work beside it.
    const current = open.find((step) => step.status === "in_progress" && step.parallelGroup === null && step.claimId);
    if (current) return resume(state, current, now);
    return claim(state, first, workerId, now, newId);
  }
  const group: Step[] = [];
  for (const step of open) {
    if (step.parallelGroup !== first.parallelGroup) break;
    group.push(step);
  }
  const mine = group.find((step) => step.status === "in_progress" && step.claimedBy === workerId && step.claimId);
  if (mine?.claimId) return resume(state, mine, now);
  const ready = group.find((step) => step.status === "pending");
  if (ready) return claim(state, ready, workerId, now, newId);
  const abandoned = stalledSteps(state, now).find((step) => group.includes(step));
  if (abandoned) return claim(state, abandoned, workerId, now, newId);
  return unchanged({ status: "waiting", inProgress: group });
}

/** The same step and claim again; coming back counts as activity, so it also clears a stall. */
function resume(state: PlanState, step: Step, now: number): Transition & { outcome: NextStepOutcome } {
  const touched: Step = { ...step, lastActivityAt: now };
  const settled = settle(replaceStep(state, touched), now);
  return { state: settled.state, events: settled.events, modifications: [], outcome: { status: "step", step: touched, claimId: touched.claimId ?? "", resumed: true } };
}

function claim(state: PlanState, step: Step, workerId: string, now: number, newId: NewId): Transition & { outcome: NextStepOutcome } {
  const claimed: Step = { ...step, status: "in_progress", claimId: newId("claim"), claimedBy: workerId, claimedAt: now, lastActivityAt: now };
  const settled = settle(replaceStep(state, claimed), now);
  const takeover = step.status === "in_progress";
  return {
    state: settled.state,
    events: [
      { action: takeover ? "step.taken_over" : "step.claimed", stepId: step.stepId, detail: { workerId, ...(takeover ? { from: step.claimedBy } : {}) } },
      ...settled.events,
    ],
    modifications: [],
    outcome: { status: "step", step: claimed, claimId: claimed.claimId ?? "", resumed: false },
  };
}

// ---------------------------------------------------------------- submit_step_result

export interface Submission {
  stepId: string;
  claimId: string;
  result: unknown;
  resultHash: string;
  resultSummary?: string;
  confidence: number;
  executionReport: Step["executionReport"];
  outputFormattingNotes: string | null;
}

export function submitResult(state: PlanState, submission: Submission, now: number, newId: NewId): Transition & { replayed: boolean } {
  const step = findStep(state, submission.stepId);
  if (step.status === "completed") {
    if (step.resultHash === submission.resultHash) return { state, events: [], modifications: [], replayed: true };
    throw conflict(`Step ${step.stepOrder} already has a different result; submit it once.`);
  }
  if (state.plan.status === "failed" || state.plan.status === "cancelled") {
    throw invalidTransition(`The plan is ${state.plan.status}; it takes no more results.`);
  }
  if (step.status === "pending") throw invalidTransition(`Step ${step.stepOrder} has not been started; claim it with get_next_step first.`);
  if (step.status === "awaiting_input") throw invalidTransition(`Step ${step.stepOrder} is waiting for review; answer it with submit_review.`);
  if (step.status !== "in_progress") throw invalidTransition(`Step ${step.stepOrder} is ${step.status}; it takes no result.`);
  if (step.claimId !== submission.claimId) throw conflict(`The claim for step ${step.stepOrder} is stale: another worker took the step over.`);

  const completed: Step = {
    ...step,
    status: "completed",
    result: submission.result,
    resultHash: submission.resultHash,
    resultSummary: submission.resultSummary ?? null,
    confidence: submission.confidence,
    executionReport: submission.executionReport,
    outputFormattingNotes: submission.outputFormattingNotes,
    finishedAt: now,
    lastActivityAt: now,
  };
  const events: PlanEvent[] = [{ action: "step.completed", stepId: step.stepId, detail: { confidence: submission.confidence } }];
  const modifications: PlanModification[] = [];
  let next = replaceStep(state, completed);
  for (const condition of next.plan.branchingConditions) {
    if (condition.firedAt !== null || condition.afterStepOrder !== step.stepOrder || submission.confidence >= condition.confidenceBelow) continue;
    if (next.steps.length + condition.insertSteps.length > LIMITS.stepsPerPlan) {
      // The worker's result is good; only the gate cannot act. Record that instead of refusing the result.
      events.push({ action: "plan.branch_skipped", stepId: step.stepId, detail: { conditionId: condition.conditionId, reason: "step limit" } });
      continue;
    }
    const inserted = insertAfter(next, step.stepId, condition.insertSteps, "branching", newId);
    const version = next.plan.version + 1;
    next = {
      ...inserted.state,
      plan: {
        ...inserted.state.plan,
        version,
        branchingConditions: inserted.state.plan.branchingConditions.map((c) => (c.conditionId === condition.conditionId ? { ...c, firedAt: now } : c)),
      },
    };
    const rationale = `Quality gate after step ${step.stepOrder}: confidence ${submission.confidence} < ${condition.confidenceBelow}. ${condition.rationale}`;
    modifications.push({ version, kind: "branch", rationale, before: [], after: inserted.added.map(snapshot) });
    events.push({ action: "plan.branched", stepId: step.stepId, detail: { conditionId: condition.conditionId, added: inserted.added.length } });
  }
  const settled = settle(next, now);
  return { state: settled.state, events: [...events, ...settled.events], modifications, replayed: false };
}

function insertAfter(state: PlanState, afterStepId: string | null, specs: NewStep[], origin: Step["origin"], newId: NewId) {
  assertStepCount(state.steps.length + specs.length);
  const added = specs.map((spec) => newStep(spec, origin, newId));
  let index = afterStepId === null ? state.steps.length : state.steps.findIndex((step) => step.stepId === afterStepId) + 1;
  // Steps the plan inserts on its own (quality gates, review follow-ups) go after the whole parallel group, never into it.
  const group = state.steps[index - 1]?.parallelGroup ?? null;
  if (origin !== "modification" && group !== null) while (state.steps[index]?.parallelGroup === group) index++;
  const next = withSteps(state, [...state.steps.slice(0, index), ...added, ...state.steps.slice(index)]);
  assertGroupsContiguous(next.steps);
  return { state: next, added: next.steps.filter((step) => added.some((a) => a.stepId === step.stepId)) };
}

// ---------------------------------------------------------------- modify_plan

export type Modification =
  | { action: "add"; steps: NewStep[]; afterStepId?: string }
  | { action: "remove"; stepId: string }
  | { action: "reorder"; stepIds: string[] }
  | { action: "update"; stepId: string; instructions: string }
  | { action: "fail"; stepId: string; reason: string }
  | { action: "skip"; stepId: string; reason: string };

export function modifyPlan(state: PlanState, modification: Modification, rationale: string, now: number, newId: NewId): Transition {
  if (state.plan.status === "failed" || state.plan.status === "cancelled") {
    throw invalidTransition(`The plan is ${state.plan.status}; it can no longer be modified.`);
  }
  if (rationale.trim() === "") throw validationError("modificationRationale is required.", [{ path: "modificationRationale", message: "Required" }]);
  const version = state.plan.version + 1;
  const requireStatus = (step: Step, allowed: StepStatus[], verb: string) => {
    if (!allowed.includes(step.status)) throw invalidTransition(`Step ${step.stepOrder} is ${step.status}; only ${allowed.join(" or ")} steps can be ${verb}.`);
  };
  let next: PlanState;
  let before: Step[] = [];
  let after: Step[] = [];
  switch (modification.action) {
    case "add": {
      if (modification.afterStepId) findStep(state, modification.afterStepId);
      const inserted = insertAfter(state, modification.afterStepId ?? null, modification.steps, "modification", newId);
      next = inserted.state;
      after = inserted.added;
      break;
    }
    case "remove": {
      const step = findStep(state, modification.stepId);
      requireStatus(step, ["pending"], "removed");
      if (state.steps.length === 1) throw invalidTransition("A plan keeps at least one step; cancel the plan instead.");
      next = withSteps(state, state.steps.filter((s) => s.stepId !== step.stepId));
      before = [step];
      break;
    }
    case "reorder": {
      const pending = state.steps.filter((s) => s.status === "pending");
      const ids = modification.stepIds;
      const samePending = ids.length === pending.length && new Set(ids).size === ids.length && pending.every((s) => ids.includes(s.stepId));
      if (!samePending) {
        throw validationError("stepIds must list every pending step exactly once, in the new order.", [{ path: "stepIds", message: "Not a permutation of the pending steps" }]);
      }
      // Pending steps keep the positions pending steps held; only their order among them changes.
      const queue = ids.map((id) => pending.find((s) => s.stepId === id) as Step);
      next = withSteps(state, state.steps.map((s) => (s.status === "pending" ? (queue.shift() as Step) : s)));
      const { steps } = next;
      assertGroupsContiguous(steps);
      before = pending;
      after = steps.filter((s) => s.status === "pending");
      break;
    }
    case "update": {
      const step = findStep(state, modification.stepId);
      requireStatus(step, ["pending", "in_progress"], "updated");
      const updated = { ...step, instructions: modification.instructions };
      next = replaceStep(state, updated);
      before = [step];
      after = [updated];
      break;
    }
    case "fail": {
      const step = findStep(state, modification.stepId);
      requireStatus(step, ["pending", "in_progress", "awaiting_input"], "failed");
      const failed: Step = { ...step, status: "failed", note: modification.reason, finishedAt: now, claimId: null };
      next = replaceStep(state, failed);
      before = [step];
      after = [failed];
      break;
    }
    case "skip": {
      const step = findStep(state, modification.stepId);
      requireStatus(step, ["pending"], "skipped");
      const skipped: Step = { ...step, status: "skipped", note: modification.reason, finishedAt: now };
      next = replaceStep(state, skipped);
      before = [step];
      after = [skipped];
      break;
    }
  }
  const reopened = state.plan.status === "completed" ? { ...next.plan, status: "active" as const, finishedAt: null } : next.plan;
  const settled = settle({ ...next, plan: { ...reopened, version } }, now);
  return {
    state: settled.state,
    events: [{ action: `plan.modified.${modification.action}`, stepId: "stepId" in modification ? modification.stepId : null, detail: { version, rationale } }, ...settled.events],
    modifications: [{ version, kind: modification.action, rationale, before: before.map(snapshot), after: after.map(snapshot) }],
  };
}

// ---------------------------------------------------------------- review

export function requestReview(
  state: PlanState,
  request: { stepId: string; claimId: string; presentation: string; questions: string[] },
  now: number,
): Transition {
  if (isTerminalPlan(state.plan)) throw invalidTransition(`The plan is ${state.plan.status}.`);
  const step = findStep(state, request.stepId);
  if (step.status === "awaiting_input") throw invalidTransition(`Step ${step.stepOrder} is already waiting for review.`);
  if (step.status !== "in_progress") throw invalidTransition(`Step ${step.stepOrder} is ${step.status}; claim it with get_next_step first.`);
  if (step.claimId !== request.claimId) throw conflict(`The claim for step ${step.stepOrder} is stale: another worker took the step over.`);
  const waiting: Step = {
    ...step,
    status: "awaiting_input",
    lastActivityAt: now,
    review: { presentation: request.presentation, questions: request.questions, requestedAt: now, decision: null, feedback: null, decidedAt: null, decidedBy: null },
  };
  const settled = settle(replaceStep(state, waiting), now);
  return { state: settled.state, events: [{ action: "review.requested", stepId: step.stepId, detail: { questions: request.questions.length } }, ...settled.events], modifications: [] };
}

export interface ReviewDecision {
  stepId: string;
  decision: "approve" | "revise" | "reject";
  feedback: string | null;
  followUpSteps: NewStep[];
}

export function submitReview(state: PlanState, decision: ReviewDecision, actor: Actor, now: number, newId: NewId): Transition {
  if (isTerminalPlan(state.plan)) throw invalidTransition(`The plan is ${state.plan.status}.`);
  const step = findStep(state, decision.stepId);
  if (step.status !== "awaiting_input" || !step.review) throw invalidTransition(`Step ${step.stepOrder} is ${step.status}; there is no review to answer.`);
  if (decision.decision !== "approve" && !decision.feedback?.trim()) {
    throw validationError(`feedback is required to ${decision.decision}.`, [{ path: "feedback", message: "Required unless approving" }]);
  }
  const review = { ...step.review, decision: decision.decision, feedback: decision.feedback, decidedAt: now, decidedBy: actor.userId };
  const decided: Step =
    decision.decision === "reject"
      ? { ...step, review, status: "failed", note: `Rejected at review: ${decision.feedback}`, finishedAt: now, claimId: null }
      : { ...step, review, status: "completed", result: { review: { decision: decision.decision, feedback: decision.feedback } }, finishedAt: now, lastActivityAt: now };
  let next = replaceStep(state, decided);
  const modifications: PlanModification[] = [];
  if (decision.decision === "revise") {
    const followUps = decision.followUpSteps.length
      ? decision.followUpSteps
      : [{ stepType: "custom" as const, instructions: `Address the reviewer's feedback on step ${step.stepOrder}: ${decision.feedback}` }];
    const inserted = insertAfter(next, step.stepId, followUps, "review", newId);
    const version = next.plan.version + 1;
    next = { ...inserted.state, plan: { ...inserted.state.plan, version } };
    modifications.push({ version, kind: "review_follow_up", rationale: decision.feedback ?? "", before: [], after: inserted.added.map(snapshot) });
  }
  if (decision.decision === "reject") {
    // A rejection ends the plan whatever the step's own criticality: the reviewer decided.
    const failureReason = `Rejected at review of step ${step.stepOrder}: ${decision.feedback}`;
    next = { ...next, plan: { ...next.plan, status: "failed", failureReason, finishedAt: now, updatedAt: now } };
  }
  const settled = settle(next, now);
  return {
    state: settled.state,
    events: [
      { action: `review.${decision.decision}`, stepId: step.stepId, detail: { feedback: decision.feedback } },
      ...(decision.decision === "reject" ? [{ action: "plan.failed", stepId: step.stepId, detail: { reason: "rejected at review" } }] : []),
      ...settled.events,
    ],
    modifications,
  };
}

// ---------------------------------------------------------------- cancel and stall

export function cancelPlan(state: PlanState, reason: string, now: number): Transition {
  if (state.plan.status === "cancelled") return { state, events: [], modifications: [] };
  if (isTerminalPlan(state.plan)) throw invalidTransition(`The plan is already ${state.plan.status}.`);
  return {
    state: { ...state, plan: { ...state.plan, status: "cancelled", failureReason: `Cancelled: ${reason}`, finishedAt: now, updatedAt: now } },
    events: [{ action: "plan.cancelled", stepId: null, detail: { reason } }],
    modifications: [],
  };
}

/** Marks the plan stalled when an in-progress step is past its deadline: once, however often it runs. */
export function markStalled(state: PlanState, now: number): Transition {
  if (isTerminalPlan(state.plan) || state.plan.status === "stalled") return { state, events: [], modifications: [] };
  const stalled = stalledSteps(state, now);
  if (stalled.length === 0) return { state, events: [], modifications: [] };
  return {
    state: { ...state, plan: { ...state.plan, status: "stalled", stalledAt: now, updatedAt: now } },
    events: [{ action: "plan.stalled", stepId: stalled[0]?.stepId ?? null, detail: { stepIds: stalled.map((s) => s.stepId) } }],
    modifications: [],
  };
}
