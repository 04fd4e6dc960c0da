import { conflict, invalidTransition, validationError } from "../errors";
import { type Actor, isTerminalPlan, type NewStep, type PlanState, type Step } from "./model";
import type { Budget } from "./budget";
import { answerBudgetReview } from "./budget-review";
import { answerApproval, type StepEdit } from "./approval";
import { assertApprovedVersion, assertApprover, assertPersonDecides, type ReviewAuthority } from "./approval-authority";
import { assigneeOf } from "./review-assignee";
import { settle } from "./settle";
import { findStep, insertAfter, replaceStep, snapshot } from "./step-list";
import type { NewId, PlanModification, Transition } from "./transition";

// ---------------------------------------------------------------- review

export function requestReview(
  state: PlanState,
  request: { stepId: string; claimId: string; presentation: string; questions: string[]; assignee?: string | null },
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
    review: {
      presentation: request.presentation,
      questions: request.questions,
      requestedAt: now,
      decision: null,
      feedback: null,
      decidedAt: null,
      decidedBy: null,
      ...(request.assignee ? { assignee: request.assignee } : {}),
    },
  };
  const settled = settle(replaceStep(state, waiting), now);
  return { state: settled.state, events: [{ action: "review.requested", stepId: step.stepId, detail: { questions: request.questions.length, ...(request.assignee ? { assignee: request.assignee } : {}) } }, ...settled.events], modifications: [] };
}

export interface ReviewDecision {
  /** The step awaiting review, or the reviewId of a plan review (approval, budget). */
  stepId: string;
  decision: "approve" | "revise" | "reject";
  feedback: string | null;
  followUpSteps: NewStep[];
  /** Approving a budget review: the raised limits; revising an approval: the new ones. */
  budget?: Budget;
  /** Revising an approval: steps to change or remove. */
  stepEdits?: StepEdit[];
  /** Who answers: without it, the assistant (which never starts a plan that needs a person's approval). */
  authority?: ReviewAuthority;
  /** Approving or revising an approval: the plan version the person saw. */
  planVersion?: number;
}

/** Step edits revise a plan's approval; any other review (a step's, a budget's) refuses them rather than drop them. */
function assertNoStepEdits(decision: ReviewDecision): void {
  if ((decision.stepEdits?.length ?? 0) > 0) throw validationError("Step edits revise a plan's approval review, not this review.", [{ path: "edits", message: "Only for an approval review" }]);
}

export function submitReview(state: PlanState, decision: ReviewDecision, actor: Actor, now: number, newId: NewId): Transition {
  const assignee = assigneeOf(state, decision.stepId, decision.stepId);
  const transition = decideReview(state, decision, actor, now, newId);
  if (!assignee) return transition;
  // The audit says who was meant to decide beside who did (the entry's actor).
  const decided = `review.${decision.decision}`;
  return { ...transition, events: transition.events.map((event) => (event.action === decided ? { ...event, detail: { ...event.detail, assignee } } : event)) };
}

function decideReview(state: PlanState, decision: ReviewDecision, actor: Actor, now: number, newId: NewId): Transition {
  if (isTerminalPlan(state.plan)) throw invalidTransition(`The plan is ${state.plan.status}.`);
  const planReview = state.plan.reviews?.find((review) => review.reviewId === decision.stepId);
  if (planReview) {
    if (planReview.decision !== null) throw invalidTransition(`The ${planReview.kind} review was already answered (${planReview.decision}).`);
    if (planReview.kind !== "approval") assertNoStepEdits(decision);
    if (planReview.kind === "approval" && decision.decision !== "reject") {
      assertPersonDecides(decision.authority, "approve_plan");
      assertApprover(decision.authority);
      assertApprovedVersion(state, decision.planVersion);
    }
    // A budget stops spending until a person decides it goes on: the assistant ends the plan (reject) but never raises it.
    if (planReview.kind === "budget" && decision.decision === "approve") assertPersonDecides(decision.authority, "raise_budget");
    return planReview.kind === "budget" ? answerBudgetReview(state, planReview, decision, actor, now) : answerApproval(state, planReview, decision, actor, now, newId);
  }
  const step = findStep(state, decision.stepId);
  if (step.status !== "awaiting_input" || !step.review) throw invalidTransition(`Step ${step.stepOrder} is ${step.status}; there is no review to answer.`);
  assertNoStepEdits(decision);
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

