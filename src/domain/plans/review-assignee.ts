import { invalidTransition, notFound } from "../errors";
import { isTerminalPlan, type PlanState, type Review } from "./model";
import { replaceStep } from "./step-list";
import type { Transition } from "./transition";

/**
 * Named reviewers: a review waiting for a person may name the member meant to decide it (its assignee, a user id).
 * The assignee is who is notified and whose inbox lists it first; anyone who may answer the review still may (an
 * approval's deciders are the org's approver group, approval-authority.ts). Who is a member is the faces' to check.
 */

/** The review waiting under `reviewId` (a plan review's id, or the step id of a checkpoint step), or a clear refusal. */
function waitingReview(state: PlanState, reviewId: string): { review: Review; stepId: string | null } {
  const planReview = state.plan.reviews?.find((review) => review.reviewId === reviewId);
  if (planReview) {
    if (planReview.decision !== null) throw invalidTransition(`The ${planReview.kind} review was already answered (${planReview.decision}).`);
    return { review: planReview, stepId: null };
  }
  const step = state.steps.find((candidate) => candidate.stepId === reviewId);
  if (!step) throw notFound("review waiting in this plan", reviewId);
  if (step.status !== "awaiting_input" || !step.review || step.review.decision !== null) {
    throw invalidTransition(`Step ${step.stepOrder} is ${step.status}; there is no review waiting to assign.`);
  }
  return { review: step.review, stepId: step.stepId };
}

/** Assigns a waiting review to a member (or to no one: null), audited as review.assigned with who it was and is. */
export function assignReview(state: PlanState, request: { reviewId: string; assignee: string | null }, now: number): Transition {
  if (isTerminalPlan(state.plan)) throw invalidTransition(`The plan is ${state.plan.status}.`);
  const { review, stepId } = waitingReview(state, request.reviewId);
  const from = review.assignee ?? null;
  if (from === request.assignee) return { state, events: [], modifications: [] };
  const plan = { ...state.plan, updatedAt: now };
  const step = stepId === null ? undefined : state.steps.find((candidate) => candidate.stepId === stepId);
  const next = step
    ? replaceStep({ ...state, plan }, { ...step, review: { ...review, assignee: request.assignee } })
    : { ...state, plan: { ...plan, reviews: (plan.reviews ?? []).map((candidate) => (candidate.reviewId === request.reviewId ? { ...candidate, assignee: request.assignee } : candidate)) } };
  return {
    state: next,
    events: [{ action: "review.assigned", stepId, detail: { reviewId: request.reviewId, from, to: request.assignee } }],
    modifications: [],
  };
}

/** The assignee of the review an event is about (a plan review by its id, else the step's), or null. */
export function assigneeOf(state: PlanState, reviewId: string | null | undefined, stepId: string | null | undefined): string | null {
  const planReview = reviewId ? state.plan.reviews?.find((review) => review.reviewId === reviewId) : undefined;
  if (planReview) return planReview.assignee ?? null;
  const step = stepId ? state.steps.find((candidate) => candidate.stepId === stepId) : undefined;
  return step?.review?.assignee ?? null;
}
