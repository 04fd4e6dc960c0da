import { invalidTransition, validationError } from "../errors";
import { type Budget, budgetLines, describeLine, normalizeBudget } from "./budget";
import { assertBudget, usageOf, withDecidedReview } from "./budget-review";
import { type Actor, LIMITS, type NewStep, type PlanReview, type PlanState, type Step } from "./model";
import { settle } from "./settle";
import { stepPurpose } from "./step-purpose";
import { assertStepCount, findStep, insertAfter, replaceStep, snapshot, withSteps } from "./step-list";
import type { NewId, PlanEvent, PlanModification, Transition } from "./transition";

/**
 * The approval gate: a plan created with approval required waits, before its first
 * step, for a person to approve it, revise it (edit steps or budget, with a note the
 * assistant receives with its next step) or reject it. The gate lives on the plan,
 * beside budget reviews, never in the step list.
 */

export const APPROVAL_MODES = ["required", "optional"] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** What a person revising the plan at approval changes: a step's instructions, or removes it. */
export interface StepEdit {
  stepId: string;
  instructions?: string;
  remove?: boolean;
}

// Bounded so that the largest plan (60 steps, long instructions) still shows every step within APPROVAL_PRESENTATION_MAX.
const STEP_LINE_CHARS = 160;
const QUESTION_CHARS = 1_000;
const RATIONALE_CHARS = 1_500;
export const APPROVAL_PRESENTATION_MAX = 16_000;

const clip = (text: string, chars: number) => (text.length <= chars ? text : `${text.slice(0, chars - 1)}…`);


/** What the approval request shows: the question, the steps, the budget and why the plan is built this way. */
export function approvalPresentation(state: PlanState, now: number): string {
  const { plan, steps } = state;
  const lines = budgetLines(plan.budget, usageOf(plan), plan.createdAt, now);
  const budget = lines.length ? lines.map(describeLine).join("; ") : "none set";
  // Parts apart by blank lines, steps one to a line: the faces render it as Markdown (a numbered list of steps),
  // and a line straight after a list would run on as part of its last item.
  return [
    `Research question: ${clip(plan.researchQuestion, QUESTION_CHARS)}`,
    [`Steps (${steps.length}):`, ...steps.map((step) => `${step.stepOrder}. [${step.stepType}${step.parallelGroup ? `, parallel ${step.parallelGroup}` : ""}] ${stepPurpose(step.instructions, STEP_LINE_CHARS)}`)].join("\n"),
    `Budget: ${budget}`,
    `Design rationale: ${clip(plan.planDesignRationale, RATIONALE_CHARS)}`,
  ].join("\n\n");
}

const APPROVAL_QUESTIONS = ["Approve the plan as it stands, revise it (edit steps or budget, with a note for the assistant), or reject it?"];

/** Puts a new plan on hold for approval: nothing starts until a person answers. */
export function openApproval(state: PlanState, now: number, newId: NewId): Transition {
  const review: PlanReview = {
    reviewId: newId("review"),
    kind: "approval",
    presentation: approvalPresentation(state, now),
    questions: APPROVAL_QUESTIONS,
    requestedAt: now,
    decision: null,
    feedback: null,
    decidedAt: null,
    decidedBy: null,
  };
  const settled = settle({ ...state, plan: { ...state.plan, reviews: [...(state.plan.reviews ?? []), review] } }, now);
  return {
    state: settled.state,
    events: [{ action: "review.requested", stepId: null, detail: { reviewId: review.reviewId, kind: "approval", questions: APPROVAL_QUESTIONS.length } }, ...settled.events],
    modifications: [],
  };
}

/**
 * A plan already approved asks again after a change that goes beyond what the person approved (added
 * steps, a raised budget): nothing new starts until a person answers. `reason` goes to the audit log.
 */
export function reopenApproval(state: PlanState, now: number, newId: NewId, reason: string): Transition {
  const reopened = openApproval(state, now, newId);
  return { ...reopened, events: reopened.events.map((event) => (event.action === "review.requested" ? { ...event, detail: { ...event.detail, reason } } : event)) };
}

export interface ApprovalDecision {
  decision: "approve" | "revise" | "reject";
  feedback: string | null;
  followUpSteps: NewStep[];
  stepEdits?: StepEdit[];
  budget?: Budget;
}

/** Approve starts the plan as it is; revise applies the person's edits and starts it; reject ends it before anything is spent. */
export function answerApproval(state: PlanState, pending: PlanReview, decision: ApprovalDecision, actor: Actor, now: number, newId: NewId): Transition {
  const edits = decision.stepEdits ?? [];
  const changes = edits.length > 0 || decision.followUpSteps.length > 0 || decision.budget !== undefined;
  if (decision.decision !== "revise" && changes) {
    throw validationError("Edits to steps or budget come with decision revise.", [{ path: "decision", message: "revise to change the plan" }]);
  }
  if (decision.decision !== "approve" && !decision.feedback?.trim()) {
    throw validationError(`feedback is required to ${decision.decision}.`, [{ path: "feedback", message: "Required unless approving" }]);
  }
  const review: PlanReview = { ...pending, decision: decision.decision, feedback: decision.feedback, decidedAt: now, decidedBy: actor.userId, noteDeliveredAt: null };
  const events: PlanEvent[] = [{ action: `review.${decision.decision}`, stepId: null, detail: { reviewId: review.reviewId, kind: "approval", feedback: decision.feedback } }];
  if (decision.decision === "reject") {
    const failureReason = `Rejected at approval: ${decision.feedback}`;
    const next = withDecidedReview({ ...state, plan: { ...state.plan, status: "failed", failureReason, finishedAt: now, updatedAt: now } }, review);
    events.push({ action: "plan.failed", stepId: null, detail: { reason: "rejected at approval" } });
    return { state: next, events, modifications: [] };
  }
  let next = withDecidedReview(state, review);
  const modifications: PlanModification[] = [];
  if (decision.decision === "revise" && changes) {
    const revised = revisePlan(next, edits, decision.followUpSteps, decision.budget, now, newId);
    const version = next.plan.version + 1;
    next = { ...revised.state, plan: { ...revised.state.plan, version } };
    modifications.push({ version, kind: "approval_revision", rationale: decision.feedback ?? "", before: revised.before.map(snapshot), after: revised.after.map(snapshot) });
    events.push({ action: "plan.modified.approval", stepId: null, detail: { version, rationale: decision.feedback, ...(decision.budget ? { budget: next.plan.budget } : {}) } });
  }
  const settled = settle(next, now);
  return { state: settled.state, events: [...events, ...settled.events], modifications };
}

function revisePlan(state: PlanState, edits: StepEdit[], added: NewStep[], budget: Budget | undefined, now: number, newId: NewId) {
  const seen = new Set<string>();
  const before: Step[] = [];
  const after: Step[] = [];
  let next = state;
  edits.forEach((edit, index) => {
    if (seen.has(edit.stepId)) throw validationError(`Step ${edit.stepId} is edited twice.`, [{ path: `edits.${index}.stepId`, message: "Edit each step once" }]);
    seen.add(edit.stepId);
    const step = findStep(next, edit.stepId);
    if (step.status !== "pending") throw invalidTransition(`Step ${step.stepOrder} is ${step.status}; only pending steps are edited at approval.`);
    if (edit.remove === true && edit.instructions !== undefined) throw validationError(`Step ${step.stepOrder}: an edit either gives instructions or removes the step, not both.`, [{ path: `edits.${index}`, message: "instructions or remove, not both" }]);
    if (edit.remove === true) {
      before.push(step);
      next = withSteps(next, next.steps.filter((candidate) => candidate.stepId !== step.stepId));
      return;
    }
    if (edit.instructions === undefined || edit.instructions.trim() === "") throw validationError("A step edit gives instructions or remove.", [{ path: `edits.${index}`, message: "instructions or remove" }]);
    if (edit.instructions.length > LIMITS.instructionsChars) {
      throw validationError(`Step ${step.stepOrder}'s instructions are longer than ${LIMITS.instructionsChars} characters.`, [{ path: `edits.${index}.instructions`, message: `At most ${LIMITS.instructionsChars} characters` }]);
    }
    const updated = { ...step, instructions: edit.instructions };
    before.push(step);
    after.push(updated);
    next = replaceStep(next, updated);
  });
  if (added.length > 0) {
    const inserted = insertAfter(next, null, added, "review", newId);
    next = inserted.state;
    after.push(...inserted.added);
  }
  // Skipped steps do not count: a plan left with nothing to do would start only to finish empty.
  if (!next.steps.some((step) => step.status === "pending")) throw validationError("A plan keeps at least one step to do; reject it instead.", [{ path: "edits", message: "Leaves no step" }]);
  assertStepCount(next.steps.length);
  if (budget !== undefined) {
    assertBudget(budget, now);
    next = { ...next, plan: { ...next.plan, budget: normalizeBudget({ ...(next.plan.budget ?? {}), ...budget }) } };
  }
  const orderOf = new Map(next.steps.map((step) => [step.stepId, step]));
  return { state: next, before, after: after.map((step) => orderOf.get(step.stepId) ?? step) };
}

/**
 * The reviewers' notes not yet handed to the assistant, and the plan with them marked
 * handed: a revised or answered plan review's feedback reaches the assistant once, with its next step.
 */
export function takeReviewNotes(state: PlanState, now: number): { state: PlanState; notes: string[] } {
  const undelivered = (state.plan.reviews ?? []).filter((review) => review.decision !== null && review.feedback && !review.noteDeliveredAt);
  if (undelivered.length === 0) return { state, notes: [] };
  const ids = new Set(undelivered.map((review) => review.reviewId));
  const reviews = (state.plan.reviews ?? []).map((review) => (ids.has(review.reviewId) ? { ...review, noteDeliveredAt: now } : review));
  return { state: { ...state, plan: { ...state.plan, reviews } }, notes: undelivered.map((review) => `${review.kind} review (${review.decision}): ${review.feedback}`) };
}

/**
 * Plans stored by earlier versions kept a budget review as a checkpoint step (origin
 * "budget"). Read them as plan reviews: the step leaves the list, its review (waiting or
 * decided) moves onto the plan under the step's id, so answering it by that id still works.
 */
export function liftLegacyReviews(state: PlanState): PlanState {
  const legacy = state.steps.filter((step) => step.origin === "budget");
  if (legacy.length === 0) return state;
  const known = new Set((state.plan.reviews ?? []).map((review) => review.reviewId));
  const lifted: PlanReview[] = legacy.flatMap((step) =>
    known.has(step.stepId) || !step.review ? [] : [{ ...step.review, reviewId: step.stepId, kind: "budget" as const, noteDeliveredAt: step.review.decision ? step.review.decidedAt : null }],
  );
  const reviews = [...(state.plan.reviews ?? []), ...lifted].sort((a, b) => a.requestedAt - b.requestedAt);
  const rest = withSteps(state, state.steps.filter((step) => step.origin !== "budget"));
  return { ...rest, plan: { ...rest.plan, reviews } };
}
