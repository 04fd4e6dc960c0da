import { conflict, invalidTransition, validationError } from "../errors";
import { isTerminalPlan, isTerminalStep, LIMITS, type Actor, type BranchingCondition, type NewStep, type PlanReview, type PlanState, pendingPlanReview, type SeriesRunMark, type Step, type StepStatus } from "./model";
import { type ApprovalMode, openApproval, reopenApproval, takeReviewNotes } from "./approval";
import { approvalRequired, assertNotAwaitingApproval, raisesBudget } from "./approval-authority";
import { addUsage, type Budget, type BudgetLine, exhaustedLines, normalizeBudget, type StepUsage, toolCallsOf } from "./budget";
import { assertBudget, budgetLinesOf, pauseForBudget, pendingBudgetReview, usageOf } from "./budget-review";
import { settle } from "./settle";
import { stalledSteps } from "./status";
import { assertGroupsContiguous, assertStepCount, findStep, insertAfter, newStep, renumber, replaceStep, snapshot, withSteps } from "./step-list";
import type { NewId, PlanEvent, PlanModification, Transition } from "./transition";

/**
 * The plan state machine: pure functions from a state and a command to the next
 * state plus what happened. The Durable Object persists the result; nothing here
 * does I/O, so every rule can be tested in plain Node.
 */

export { settle } from "./settle";
export { assertGroupsContiguous, snapshot } from "./step-list";
export type { NewId, PlanEvent, PlanModification, StepSnapshot, Transition } from "./transition";
export { requestReview, type ReviewDecision, submitReview } from "./review";
export { APPROVAL_MODES, type ApprovalMode, liftLegacyReviews, type StepEdit } from "./approval";

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
  budget?: Budget | null;
  /** required: the plan waits for a person's approval before its first step. */
  approval?: ApprovalMode;
  /** Set by the scheduler on the runs it makes: the plan's status then says where it stands in its series. */
  seriesRun?: SeriesRunMark;
}

export function createPlan(input: CreatePlanInput, actor: Actor, now: number, newId: NewId): Transition {
  if (!/^\[(Scan|Deep)\] \S/.test(input.name)) {
    throw validationError('name must read "[Scan] <topic>" or "[Deep] <topic>".', [{ path: "name", message: "Must start with [Scan] or [Deep]" }]);
  }
  if (input.steps.length === 0) throw validationError("A plan needs at least one step.", [{ path: "steps", message: "At least one step" }]);
  assertStepCount(input.steps.length);
  const budget = normalizeBudget(input.budget);
  if (budget) assertBudget(budget, now);
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
      budget,
      usage: { steps: 0, inputTokens: 0, outputTokens: 0, toolCalls: 0 },
      ...(input.seriesRun ? { seriesRun: { seriesId: input.seriesRun.seriesId, runNumber: input.seriesRun.runNumber } } : {}),
    },
    steps,
  };
  const gated = input.approval === "required" ? openApproval(state, now, newId) : { state, events: [] };
  return {
    state: gated.state,
    events: [{ action: "plan.created", stepId: null, detail: { steps: steps.length, name: input.name, ...(input.approval === "required" ? { approval: "required" } : {}) } }, ...gated.events],
    modifications: [{ version: 1, kind: "create", rationale: input.planDesignRationale, before: [], after: steps.map(snapshot) }],
  };
}

// ---------------------------------------------------------------- get_next_step

export type NextStepOutcome =
  /** reviewNotes: what reviewers wrote for the assistant (approval revised, budget raised), handed over once. */
  | { status: "step"; step: Step; claimId: string; resumed: boolean; reviewNotes?: string[] }
  | { status: "plan_complete" }
  | { status: "awaiting_review"; steps: Step[]; reviews: PlanReview[] }
  | { status: "plan_failed"; reason: string }
  | { status: "waiting"; inProgress: Step[] }
  /** A limit of the plan's budget is reached: no new step starts until a person answers the budget review. */
  | { status: "budget_exhausted"; review: PlanReview; exhausted: BudgetLine[] };

/**
 * Hands the caller its next step. A sequential plan gives back the step in
 * progress (resume, from any session); a parallel group gives each worker a
 * different ready step and the same worker its own step again, never one step
 * to two workers. A group step past its stall deadline may be taken over: its
 * old claim then goes stale.
 */
export function nextStep(state: PlanState, workerId: string, now: number, newId: NewId): Transition & { outcome: NextStepOutcome } {
  const next = pullStep(state, workerId, now, newId);
  if (next.outcome.status !== "step") return next;
  const handed = takeReviewNotes(next.state, now);
  if (handed.notes.length === 0) return next;
  return { ...next, state: handed.state, outcome: { ...next.outcome, reviewNotes: handed.notes } };
}

function pullStep(state: PlanState, workerId: string, now: number, newId: NewId): Transition & { outcome: NextStepOutcome } {
  const { plan } = state;
  const unchanged = (outcome: NextStepOutcome) => ({ state, events: [], modifications: [], outcome });
  if (plan.status === "completed") return unchanged({ status: "plan_complete" });
  if (plan.status === "failed" || plan.status === "cancelled") {
    return unchanged({ status: "plan_failed", reason: plan.failureReason ?? (plan.status === "cancelled" ? "The plan was cancelled." : "The plan failed.") });
  }
  const awaiting = state.steps.filter((step) => step.status === "awaiting_input");
  const open = state.steps.filter((step) => !isTerminalStep(step));
  const planReview = pendingPlanReview(plan);
  if (planReview) {
    // Steps in flight may finish while a plan review waits: their workers get them back.
    const own = open.find((step) => step.status === "in_progress" && step.claimId && (step.parallelGroup === null || step.claimedBy === workerId));
    if (own) return resume(state, own, now);
    if (planReview.kind === "budget") return unchanged({ status: "budget_exhausted", review: planReview, exhausted: exhaustedLines(budgetLinesOf(state, now)) });
    return unchanged({ status: "awaiting_review", steps: awaiting, reviews: [planReview] });
  }
  if (awaiting.length > 0) return unchanged({ status: "awaiting_review", steps: awaiting, reviews: [] });
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

/** Starts a pending step (counted against the budget) or takes over an abandoned one (not counted again). */
function claim(state: PlanState, step: Step, workerId: string, now: number, newId: NewId): Transition & { outcome: NextStepOutcome } {
  const starting = step.status === "pending";
  if (starting) {
    const reached = exhaustedLines(budgetLinesOf(state, now));
    if (reached.length > 0) {
      const paused = pauseForBudget(state, now, newId);
      const review = pendingBudgetReview(paused.state);
      if (review) return { ...paused, outcome: { status: "budget_exhausted", review, exhausted: reached } };
    }
  }
  const claimed: Step = { ...step, status: "in_progress", claimId: newId("claim"), claimedBy: workerId, claimedAt: now, lastActivityAt: now };
  const usage = usageOf(state.plan);
  const counted = starting ? { ...state, plan: { ...state.plan, usage: { ...usage, steps: usage.steps + 1 } } } : state;
  const settled = settle(replaceStep(counted, claimed), now);
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
  /** What the client says the step cost; tool calls default to the entries of the execution report. */
  usage?: StepUsage;
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
  const usage = addUsage(usageOf(state.plan), submission.usage, toolCallsOf(submission.usage, submission.executionReport));
  let next = replaceStep({ ...state, plan: { ...state.plan, usage } }, completed);
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
  // A limit this result reached opens the budget review now, not when the next step is asked for.
  const paused = pauseForBudget(settled.state, now, newId);
  return {
    state: paused.state,
    events: [...events, ...settled.events, ...paused.events],
    modifications: [...modifications, ...paused.modifications],
    replayed: false,
  };
}

// ---------------------------------------------------------------- modify_plan

export type Modification =
  | { action: "add"; steps: NewStep[]; afterStepId?: string }
  | { action: "remove"; stepId: string }
  | { action: "reorder"; stepIds: string[] }
  | { action: "update"; stepId: string; instructions: string }
  | { action: "fail"; stepId: string; reason: string }
  | { action: "skip"; stepId: string; reason: string }
  | { action: "budget"; budget: Budget };

export function modifyPlan(state: PlanState, modification: Modification, rationale: string, now: number, newId: NewId): Transition {
  if (state.plan.status === "failed" || state.plan.status === "cancelled") {
    throw invalidTransition(`The plan is ${state.plan.status}; it can no longer be modified.`);
  }
  if (rationale.trim() === "") throw validationError("modificationRationale is required.", [{ path: "modificationRationale", message: "Required" }]);
  assertNotAwaitingApproval(state);
  const version = state.plan.version + 1;
  const requireStatus = (step: Step, allowed: StepStatus[], verb: string) => {
    if (!allowed.includes(step.status)) throw invalidTransition(`Step ${step.stepOrder} is ${step.status}; only ${allowed.join(" or ")} steps can be ${verb}.`);
  };
  if (modification.action === "budget") return setBudget(state, modification.budget, rationale, version, now, newId);
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
  // Added steps need a new approval, and one plan review waits at a time: a budget review waiting is answered first.
  if (modification.action === "add" && approvalRequired(state) && pendingBudgetReview(state)) {
    throw invalidTransition("The plan waits at its budget review; a person answers it before steps are added (added steps need a new approval).");
  }
  const asked = modification.action === "add" && approvalRequired(state) ? reopenApproval(settled.state, now, newId, "steps added after approval") : { state: settled.state, events: [] };
  return {
    state: asked.state,
    events: [{ action: `plan.modified.${modification.action}`, stepId: "stepId" in modification ? modification.stepId : null, detail: { version, rationale } }, ...settled.events, ...asked.events],
    modifications: [{ version, kind: modification.action, rationale, before: before.map(snapshot), after: after.map(snapshot) }],
  };
}

/** New limits for the plan (given fields replace the old ones); a limit set below what is used opens the budget review at once. */
function setBudget(state: PlanState, change: Budget, rationale: string, version: number, now: number, newId: NewId): Transition {
  if (pendingBudgetReview(state)) throw invalidTransition("The plan waits at its budget review; a person answers it with submit_review.");
  assertBudget(change, now);
  const budget = normalizeBudget({ ...(state.plan.budget ?? {}), ...change });
  const changed: PlanState = { ...state, plan: { ...state.plan, budget, version, updatedAt: now } };
  const asked = approvalRequired(state) && raisesBudget(state.plan.budget, budget) ? reopenApproval(changed, now, newId, "budget raised after approval") : { state: changed, events: [] };
  const paused = pauseForBudget(asked.state, now, newId);
  return {
    state: paused.state,
    events: [{ action: "plan.modified.budget", stepId: null, detail: { version, rationale, budget } }, ...asked.events, ...paused.events],
    modifications: [{ version, kind: "budget", rationale, before: [], after: [] }, ...paused.modifications],
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

/** What the plan's alarm does: mark a stall, and open the budget review once the deadline has passed. */
export function onAlarm(state: PlanState, now: number, newId: NewId): Transition {
  const stalled = markStalled(state, now);
  const paused = pauseForBudget(stalled.state, now, newId);
  return { state: paused.state, events: [...stalled.events, ...paused.events], modifications: paused.modifications };
}
