import { conflict, forbidden, validationError } from "../errors";
import { notAPerson, type PersonAction } from "../person-actions";
import type { Budget } from "./budget";
import type { PlanState } from "./model";

/**
 * Who may give a plan's approval. Where approval is required (by the org, or by the plan where the org
 * leaves it to the plan), a person gives it: in the dashboard (a signed-in session), or through a
 * credential an admin granted the person scope for an integration acting for people (`isPerson` in
 * domain/person-actions.ts decides). Every other credential is the assistant's: it can reject a plan (as it can
 * cancel one) but never start it.
 */
export type Approver = "person" | "assistant";

export interface ReviewAuthority {
  approver: Approver;
  /** The dashboard page where a person approves the plan; named in every refusal. */
  approvalUrl: string;
  /** Who answers (their user id), and the org's approver group when it names one: then only its members approve. */
  userId?: string;
  approvers?: readonly { userId: string; email: string }[];
}

/** The approval a new plan gets: an org that requires approval is not overridden by the plan's own "optional". */
export function effectiveApproval(org: "required" | "optional", plan: "required" | "optional" | undefined): "required" | "optional" {
  return org === "required" ? "required" : (plan ?? org);
}

/** A plan created with approval required carries its approval review from creation, answered or not. */
export const approvalRequired = (state: PlanState): boolean => (state.plan.reviews ?? []).some((review) => review.kind === "approval");

/**
 * Refuses a person-level decision on the plan (domain/person-actions.ts) when the caller is not a person. The faces
 * decide who is a person with `isPerson` and hand the answer in as the authority.
 */
export function assertPersonDecides(authority: ReviewAuthority | undefined, action: PersonAction): void {
  if (authority?.approver === "person") return;
  throw notAPerson(action, authority?.approvalUrl);
}

/**
 * An org that names an approver group (its approvers setting) has its plans approved or revised by those members
 * only; a rejection stays anyone's who may answer, as ending a plan always is.
 */
export function assertApprover(authority: ReviewAuthority | undefined): void {
  const group = authority?.approvers ?? [];
  if (group.length === 0 || group.some((approver) => approver.userId === authority?.userId)) return;
  throw forbidden(
    `Only the organization's approvers approve its plans: ${group.map((approver) => approver.email).join(", ")}. Ask one of them, or an admin to change the approvers setting.`,
    authority?.approvalUrl ? { url: authority.approvalUrl } : {},
  );
}

/** An approval names the plan version it approves: the plan must not have changed since the person saw it. */
export function assertApprovedVersion(state: PlanState, planVersion: number | undefined): void {
  if (planVersion === undefined) {
    throw validationError(`planVersion is required to approve a plan: the version the person approves (now ${state.plan.version}).`, [
      { path: "planVersion", message: "The plan version approved" },
    ]);
  }
  if (planVersion !== state.plan.version) {
    throw conflict(`The plan changed since version ${planVersion} (it is at version ${state.plan.version}): look at it again and approve the version it is now.`);
  }
}

/** While an approval waits, the plan changes only through that approval. */
export function assertNotAwaitingApproval(state: PlanState): void {
  const waiting = state.plan.reviews?.find((review) => review.kind === "approval" && review.decision === null);
  if (waiting) {
    throw conflict(
      `The plan waits for a person's approval (review ${waiting.reviewId}): it changes only through that approval (revise it there) until it is answered; cancel_plan ends it.`,
    );
  }
}

/**
 * What needs a new approval once a plan with required approval was approved: added steps, or a budget
 * raised above the limits in force (each set by a person: at approval or at a budget review). A limit
 * lowered, a deadline brought forward, steps updated, reordered, skipped, removed or failed do not.
 */
export function raisesBudget(before: Budget | null | undefined, after: Budget | null | undefined): boolean {
  const was = before ?? {};
  const now = after ?? {};
  // A deadline is epoch milliseconds: a later one is a raise like any larger limit.
  return (Object.keys(now) as (keyof Budget)[]).some((key) => {
    const limit = now[key];
    const previous = was[key];
    return limit !== undefined && (previous === undefined || limit > previous);
  });
}
