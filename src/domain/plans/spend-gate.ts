import { type CairnError, conflict, invalidTransition } from "../errors";
import { type ApprovalMode, reopenApproval } from "./approval";
import { approvalRequired, effectiveApproval } from "./approval-authority";
import { type Budget, normalizeBudget } from "./budget";
import { usageOf } from "./budget-review";
import type { CreatePlanInput } from "./machine";
import { isTerminalPlan, type PlanState } from "./model";
import { runPlanName } from "./schedule";
import type { NewId, Transition } from "./transition";

/**
 * May this plan spend? The one decision every path that makes or restarts a plan goes through: a plan created by
 * a caller (its own steps or a template's), a schedule's run, a plan an import brings in, and anything later that copies a plan. It settles the
 * two terms a new plan starts under: whether it waits for a person's approval (the org's requirement, or the plan's
 * own, whichever asks for more) and the budget it carries. The state machine then applies them: a plan created with
 * approval required hands out no step before a person approves it; a budget stops spending at its limits.
 */

export interface SpendTerms {
  approval: ApprovalMode;
  budget: Budget | null;
}

/** The terms of a plan a caller creates (with its own steps or from a template): the org's requirement wins over the plan's "optional". */
export function createTerms(orgApproval: ApprovalMode, requested: { approval?: ApprovalMode; budget?: Budget | null }): SpendTerms {
  return { approval: effectiveApproval(orgApproval, requested.approval), budget: normalizeBudget(requested.budget) };
}

/** The approval the plan itself asked for: a plan that carried an approval review asked for one, whoever answered it. */
export const ownApproval = (state: PlanState): ApprovalMode => (approvalRequired(state) ? "required" : "optional");

/**
 * The terms of a copy of `source` made at `now` (a schedule's run): the approval the org requires now, or the
 * series plan's own; the budget the series plan carries as it stands (its limits, raised by a person or lowered,
 * never its usage). A deadline keeps its distance from the plan's start: a copy made later gets as long as the
 * plan had.
 */
export function copyTerms(orgApproval: ApprovalMode, source: PlanState, now: number): SpendTerms {
  const budget = normalizeBudget(source.plan.budget);
  const carried = budget?.deadline === undefined ? budget : { ...budget, deadline: now + Math.max(1, budget.deadline - source.plan.createdAt) };
  return { approval: effectiveApproval(orgApproval, ownApproval(source)), budget: carried };
}

/**
 * Why a plan may not be copied on a schedule, or null: a plan waiting for a person's approval has not been approved
 * (its runs would be), one a person rejected at approval was refused, and one cancelled was ended on purpose.
 * Asked when a schedule is set and again before each run is made, so a series stops when its plan is refused later.
 */
export function scheduleRefusal(state: PlanState): CairnError | null {
  const { plan } = state;
  const approval = (plan.reviews ?? []).filter((review) => review.kind === "approval");
  const waiting = approval.find((review) => review.decision === null);
  if (waiting && plan.status !== "cancelled" && plan.status !== "failed") {
    return conflict(`Plan ${plan.planId} waits for a person's approval (review ${waiting.reviewId}): a person approves it before it can be scheduled.`);
  }
  if (approval.some((review) => review.decision === "reject")) {
    return invalidTransition(`Plan ${plan.planId} was rejected at approval: a rejected plan is not scheduled. Create a new plan for a person to approve.`);
  }
  if (plan.status === "cancelled") return invalidTransition(`Plan ${plan.planId} was cancelled: a cancelled plan is not scheduled. Create a new plan instead.`);
  return null;
}

/** Whether scheduling `state` is a person's decision: approval applies to its runs (the org requires it, or the plan did). */
export const scheduleNeedsPerson = (orgApproval: ApprovalMode, state: PlanState): boolean => effectiveApproval(orgApproval, ownApproval(state)) === "required";

/** Which run of which series a copy is. */
export interface RunOfSeries {
  planId: string;
  orgId: string;
  seriesId: string;
  runNumber: number;
}

/**
 * A schedule's run: the series' plan as it stands (question, name, steps, quality gates, settings) as a new plan's
 * arguments, under the terms `copyTerms` settles (the approval and the budget). Reviews and budget gates belong to
 * the plan that met them; the run meets its own.
 */
export function scheduledRunInput(source: PlanState, run: RunOfSeries, orgApproval: ApprovalMode, now: number): CreatePlanInput {
  const { plan, steps } = source;
  const terms = copyTerms(orgApproval, source, now);
  return {
    planId: run.planId,
    orgId: run.orgId,
    name: runPlanName(plan.name, run.runNumber),
    researchQuestion: plan.researchQuestion,
    // The steps people or the plan put there, not those a branch, a review or a budget gate added.
    steps: steps
      .filter((step) => step.origin === "plan" || step.origin === "modification")
      .map((step) => ({ stepType: step.stepType, instructions: step.instructions, parallelGroup: step.parallelGroup, critical: step.critical, stallThresholdMinutes: step.stallThresholdMinutes })),
    branchingConditions: plan.branchingConditions.map(({ afterStepOrder, confidenceBelow, insertSteps, rationale }) => ({ afterStepOrder, confidenceBelow, insertSteps, rationale })),
    planDesignRationale: plan.planDesignRationale,
    outputFormattingNotes: plan.outputFormattingNotes,
    sessionId: null,
    executionId: null,
    stallThresholdMinutes: plan.stallThresholdMinutes ?? null,
    approval: terms.approval,
    budget: terms.budget,
    seriesRun: { seriesId: run.seriesId, runNumber: run.runNumber },
  };
}

/** Why an imported plan was put on hold for approval: the reason its plan audit records. */
export const IMPORT_APPROVAL_REASON = "imported: an approval recorded in the file is not one given in this organization";

/**
 * An imported plan, as the org it arrives in may let it spend: the plan an import file describes is caller input, so
 * an approval it records was given elsewhere, if at all. A plan that can still spend (not completed, failed or
 * cancelled) where approval applies (the org requires it, or the plan itself asked for one) waits for a person of this
 * org before its next step, with the budget it carries; one already waiting stays as it is. A finished plan, and one
 * where approval does not apply, arrive as they were (null: nothing to change).
 */
export function importedPlanHold(orgApproval: ApprovalMode, state: PlanState, now: number, newId: NewId): Transition | null {
  if (isTerminalPlan(state.plan)) return null;
  if (effectiveApproval(orgApproval, ownApproval(state)) !== "required") return null;
  if ((state.plan.reviews ?? []).some((review) => review.kind === "approval" && review.decision === null)) return null;
  // A step the file says is in flight was claimed elsewhere: it goes back to pending (and out of the steps counted as
  // started), so it too starts only after the approval, counted once then. Otherwise each "in progress" step would be
  // handed back while the approval waits, as a worker's own step is.
  const inFlight = state.steps.filter((step) => step.status === "in_progress");
  const usage = usageOf(state.plan);
  const released: PlanState = {
    plan: inFlight.length ? { ...state.plan, usage: { ...usage, steps: Math.max(0, usage.steps - inFlight.length) } } : state.plan,
    steps: state.steps.map((step) => (step.status === "in_progress" ? { ...step, status: "pending", claimId: null, claimedBy: null, claimedAt: null, lastActivityAt: null } : step)),
  };
  const held = reopenApproval(released, now, newId, IMPORT_APPROVAL_REASON);
  const releasedEvents = inFlight.map((step) => ({ action: "step.released", stepId: step.stepId, detail: { reason: "imported: started before approval in this organization" } }));
  return { ...held, events: [...releasedEvents, ...held.events] };
}
