import { invalidTransition, validationError } from "../errors";
import {
  type Budget,
  type BudgetLine,
  budgetLines,
  describeLine,
  EMPTY_USAGE,
  exhaustedLines,
  raiseBudget,
  type Usage,
} from "./budget";
import { type Actor, isTerminalPlan, type Plan, type PlanState, type Step } from "./model";
import { settle } from "./settle";
import { newStep, replaceStep, withSteps } from "./step-list";
import type { NewId, PlanEvent, Transition } from "./transition";

/**
 * What a spent budget does to a plan: it opens a budget review (a checkpoint step
 * awaiting a person, placed where the next step would start), and that review is
 * answered by raising the budget or by ending the plan with what it has. Steps in
 * flight may still finish; no new step starts while the review waits.
 */

export const usageOf = (plan: Pick<Plan, "usage">): Usage => plan.usage ?? EMPTY_USAGE;

export const budgetLinesOf = (state: PlanState, now: number): BudgetLine[] =>
  budgetLines(state.plan.budget, usageOf(state.plan), state.plan.createdAt, now);

export const pendingBudgetReview = (state: PlanState): Step | undefined =>
  state.steps.find((step) => step.origin === "budget" && step.status === "awaiting_input");

export const budgetEventDetail = (lines: BudgetLine[]) => ({
  exhausted: lines.map(({ dimension, used, limit }) => ({ dimension, used, limit })),
});

/** Opens a budget review when a limit is reached and a step is still to start; otherwise changes nothing. */
export function pauseForBudget(state: PlanState, now: number, newId: NewId): Transition {
  const unchanged: Transition = { state, events: [], modifications: [] };
  if (isTerminalPlan(state.plan) || pendingBudgetReview(state)) return unchanged;
  const reached = exhaustedLines(budgetLinesOf(state, now));
  const firstPending = state.steps.findIndex((step) => step.status === "pending");
  if (reached.length === 0 || firstPending < 0) return unchanged;
  // Where the next step would start, but never inside a parallel group already under way.
  let index = firstPending;
  const group = state.steps[index - 1]?.parallelGroup ?? null;
  if (group !== null && state.steps[index]?.parallelGroup === group) while (state.steps[index]?.parallelGroup === group) index++;
  const spent = reached.map(describeLine).join("; ");
  const review: Step = {
    ...newStep({ stepType: "checkpoint", instructions: `Budget review: ${spent}. A person raises the budget or ends the plan with what it has.` }, "budget", newId),
    status: "awaiting_input",
    lastActivityAt: now,
    review: {
      presentation: `The plan's budget is spent: ${spent}.`,
      questions: ["Raise the budget (approve with new limits), or end the plan with what it has (reject)?"],
      requestedAt: now,
      decision: null,
      feedback: null,
      decidedAt: null,
      decidedBy: null,
    },
  };
  const inserted = withSteps(state, [...state.steps.slice(0, index), review, ...state.steps.slice(index)]);
  const version = state.plan.version + 1;
  const settled = settle({ ...inserted, plan: { ...inserted.plan, version } }, now);
  const placed = settled.state.steps.find((step) => step.stepId === review.stepId) as Step;
  return {
    state: settled.state,
    events: [{ action: "plan.budget_exhausted", stepId: review.stepId, detail: budgetEventDetail(reached) }, ...settled.events],
    modifications: [
      {
        version,
        kind: "budget_review",
        rationale: `Budget spent: ${spent}.`,
        before: [],
        after: [{ stepId: placed.stepId, stepOrder: placed.stepOrder, stepType: placed.stepType, instructions: placed.instructions, status: placed.status, parallelGroup: null }],
      },
    ],
  };
}

/** Answers a budget review: approve raises the budget (every spent limit must leave room), reject ends the plan with what it has. */
export function answerBudgetReview(
  state: PlanState,
  step: Step,
  decision: { decision: "approve" | "revise" | "reject"; feedback: string | null; budget?: Budget },
  actor: Actor,
  now: number,
): Transition {
  if (!step.review) throw invalidTransition(`Step ${step.stepOrder} has no review to answer.`);
  if (decision.decision === "revise") {
    throw validationError("A budget review is approved with a raised budget, or rejected to end the plan with what it has.", [
      { path: "decision", message: "approve (with budget) or reject" },
    ]);
  }
  const review = { ...step.review, decision: decision.decision, feedback: decision.feedback, decidedAt: now, decidedBy: actor.userId };
  const events: PlanEvent[] = [{ action: `review.${decision.decision}`, stepId: step.stepId, detail: { feedback: decision.feedback } }];
  if (decision.decision === "approve") {
    const budget = raiseBudget(state.plan.budget ?? null, decision.budget, usageOf(state.plan), state.plan.createdAt, now);
    const decided: Step = { ...step, review, status: "completed", result: { review: { decision: "approve", feedback: decision.feedback, budget } }, finishedAt: now, lastActivityAt: now };
    const next = replaceStep({ ...state, plan: { ...state.plan, budget } }, decided);
    events.push({ action: "plan.budget_raised", stepId: step.stepId, detail: { budget } });
    const settled = settle(next, now);
    return { state: settled.state, events: [...events, ...settled.events], modifications: [] };
  }
  const note = "Not started: the plan ended at its budget review.";
  const steps = state.steps.map((candidate): Step => {
    if (candidate.stepId === step.stepId) return { ...candidate, review, status: "completed", result: { review: { decision: "reject", feedback: decision.feedback } }, finishedAt: now, lastActivityAt: now };
    return candidate.status === "pending" ? { ...candidate, status: "skipped", note, finishedAt: now } : candidate;
  });
  const skipped = steps.filter((candidate, index) => candidate.status === "skipped" && state.steps[index]?.status === "pending").length;
  events.push({ action: "plan.ended_at_budget", stepId: step.stepId, detail: { skipped } });
  const settled = settle({ ...state, steps }, now);
  return { state: settled.state, events: [...events, ...settled.events], modifications: [] };
}

/** When the plan's alarm must fire for its deadline, or null: only while a step is still to start and no review waits. */
export function nextBudgetAlarm(state: PlanState, now: number): number | null {
  const deadline = state.plan.budget?.deadline;
  if (deadline === undefined || isTerminalPlan(state.plan) || pendingBudgetReview(state)) return null;
  if (!state.steps.some((step) => step.status === "pending")) return null;
  return Math.max(deadline, now + 1);
}

/** A budget given with a new plan or a modification: limits positive, the deadline in the future. */
export function assertBudget(budget: Budget, now: number, path = "budget"): void {
  if (budget.deadline !== undefined && budget.deadline <= now) {
    throw validationError(`${path}.deadline ${new Date(budget.deadline).toISOString()} has already passed.`, [{ path: `${path}.deadline`, message: "Must be in the future" }]);
  }
}
