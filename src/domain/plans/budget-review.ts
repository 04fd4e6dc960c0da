import { validationError } from "../errors";
import { type Budget, type BudgetLine, budgetLines, describeLine, EMPTY_USAGE, exhaustedLines, raiseBudget, type Usage } from "./budget";
import { type Actor, isTerminalPlan, type Plan, type PlanReview, type PlanState, pendingPlanReview, type Step } from "./model";
import { settle } from "./settle";
import type { NewId, PlanEvent, Transition } from "./transition";

/**
 * What a spent budget does to a plan: it opens a budget review on the plan (not a
 * step: the step list and its progress stay as they are), and that review is
 * answered by raising the budget or by ending the plan with what it has. Steps in
 * flight may still finish; no new step starts while the review waits.
 */

export const usageOf = (plan: Pick<Plan, "usage">): Usage => plan.usage ?? EMPTY_USAGE;

export const budgetLinesOf = (state: PlanState, now: number): BudgetLine[] =>
  budgetLines(state.plan.budget, usageOf(state.plan), state.plan.createdAt, now);

export const pendingBudgetReview = (state: PlanState): PlanReview | undefined => {
  const review = pendingPlanReview(state.plan);
  return review?.kind === "budget" ? review : undefined;
};

export const budgetEventDetail = (lines: BudgetLine[]) => ({
  exhausted: lines.map(({ dimension, used, limit }) => ({ dimension, used, limit })),
});

/** Opens a budget review when a limit is reached and a step is still to start; otherwise changes nothing. */
export function pauseForBudget(state: PlanState, now: number, newId: NewId): Transition {
  const unchanged: Transition = { state, events: [], modifications: [] };
  // One plan review waits at a time: a plan still waiting for approval has spent nothing it could be stopped for.
  if (isTerminalPlan(state.plan) || pendingPlanReview(state.plan)) return unchanged;
  const reached = exhaustedLines(budgetLinesOf(state, now));
  if (reached.length === 0 || !state.steps.some((step) => step.status === "pending")) return unchanged;
  const spent = reached.map(describeLine).join("; ");
  const review: PlanReview = {
    reviewId: newId("review"),
    kind: "budget",
    presentation: `The plan's budget is spent: ${spent}.`,
    questions: ["Raise the budget (approve with new limits), or end the plan with what it has (reject)?"],
    requestedAt: now,
    decision: null,
    feedback: null,
    decidedAt: null,
    decidedBy: null,
  };
  const settled = settle({ ...state, plan: { ...state.plan, reviews: [...(state.plan.reviews ?? []), review] } }, now);
  return {
    state: settled.state,
    events: [{ action: "plan.budget_exhausted", stepId: null, detail: { reviewId: review.reviewId, ...budgetEventDetail(reached) } }, ...settled.events],
    modifications: [],
  };
}

/** The plan with one of its reviews decided. */
export const withDecidedReview = (state: PlanState, review: PlanReview): PlanState => ({
  ...state,
  plan: { ...state.plan, reviews: (state.plan.reviews ?? []).map((candidate) => (candidate.reviewId === review.reviewId ? review : candidate)) },
});

/** Answers a budget review: approve raises the budget (every spent limit must leave room), reject ends the plan with what it has. */
export function answerBudgetReview(
  state: PlanState,
  pending: PlanReview,
  decision: { decision: "approve" | "revise" | "reject"; feedback: string | null; budget?: Budget },
  actor: Actor,
  now: number,
): Transition {
  if (decision.decision === "revise") {
    throw validationError("A budget review is approved with a raised budget, or rejected to end the plan with what it has.", [
      { path: "decision", message: "approve (with budget) or reject" },
    ]);
  }
  const review: PlanReview = { ...pending, decision: decision.decision, feedback: decision.feedback, decidedAt: now, decidedBy: actor.userId, noteDeliveredAt: null };
  const events: PlanEvent[] = [{ action: `review.${decision.decision}`, stepId: null, detail: { reviewId: review.reviewId, kind: "budget", feedback: decision.feedback } }];
  if (decision.decision === "approve") {
    const budget = raiseBudget(state.plan.budget ?? null, decision.budget, usageOf(state.plan), state.plan.createdAt, now);
    const next = withDecidedReview({ ...state, plan: { ...state.plan, budget } }, review);
    events.push({ action: "plan.budget_raised", stepId: null, detail: { reviewId: review.reviewId, budget } });
    const settled = settle(next, now);
    return { state: settled.state, events: [...events, ...settled.events], modifications: [] };
  }
  const note = "Not started: the plan ended at its budget review.";
  const steps = state.steps.map((candidate): Step => (candidate.status === "pending" ? { ...candidate, status: "skipped", note, finishedAt: now } : candidate));
  const skipped = steps.filter((candidate, index) => candidate.status === "skipped" && state.steps[index]?.status === "pending").length;
  events.push({ action: "plan.ended_at_budget", stepId: null, detail: { reviewId: review.reviewId, skipped } });
  const settled = settle(withDecidedReview({ ...state, steps }, review), now);
  return { state: settled.state, events: [...events, ...settled.events], modifications: [] };
}

/** When the plan's alarm must fire for its deadline, or null: only while a step is still to start and no plan review waits. */
export function nextBudgetAlarm(state: PlanState, now: number): number | null {
  const deadline = state.plan.budget?.deadline;
  if (deadline === undefined || isTerminalPlan(state.plan) || pendingPlanReview(state.plan)) return null;
  if (!state.steps.some((step) => step.status === "pending")) return null;
  return Math.max(deadline, now + 1);
}

/** A budget given with a new plan or a modification: limits positive, the deadline in the future. */
export function assertBudget(budget: Budget, now: number, path = "budget"): void {
  if (budget.deadline !== undefined && budget.deadline <= now) {
    throw validationError(`${path}.deadline ${new Date(budget.deadline).toISOString()} has already passed.`, [{ path: `${path}.deadline`, message: "Must be in the future" }]);
  }
}
