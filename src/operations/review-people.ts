import { z } from "zod";
import { refuseNonMembers } from "../domain/org-settings";
import type { PlanState } from "../domain/plans/model";
import type { OrgPerson } from "../domain/ports";
import type { OperationContext } from "./operation";

/** A member as a review names them: their e-mail and display name. */
export const ReviewPerson = z.object({ email: z.string(), name: z.string() });
export type ReviewPersonView = z.infer<typeof ReviewPerson>;

export const AssigneeEmail = z.string().trim().toLowerCase().min(3).max(254).email();

/** The member with this e-mail, or a refusal naming the address (nothing is stored then). */
export async function memberNamed(ctx: Pick<OperationContext, "services" | "principal">, email: string, path: string): Promise<OrgPerson> {
  const [found] = email.length <= 254 ? await ctx.services.members.byEmails(ctx.principal.orgId, [email]) : [];
  refuseNonMembers([email], found ? [found.email] : [], path);
  return found as OrgPerson;
}

/** Who the plan's waiting reviews name: their assignees (members only: one who left is no one's) and, when an approval waits, the org's approvers. */
export interface ReviewPeople {
  byId: ReadonlyMap<string, ReviewPersonView>;
  approvers: ReviewPersonView[];
}

export const NO_REVIEW_PEOPLE: ReviewPeople = { byId: new Map(), approvers: [] };

const personView = (person: OrgPerson): ReviewPersonView => ({ email: person.email, name: person.name });

/** Reads the people only when a review waits for someone (a plan's status stays one read of the plan otherwise). */
export async function reviewPeopleOf(ctx: Pick<OperationContext, "services" | "principal">, state: PlanState): Promise<ReviewPeople> {
  const waitingPlanReviews = (state.plan.reviews ?? []).filter((review) => review.decision === null);
  const assignees = [
    ...waitingPlanReviews.map((review) => review.assignee),
    ...state.steps.filter((step) => step.status === "awaiting_input" && step.review?.decision === null).map((step) => step.review?.assignee),
  ].filter((id): id is string => typeof id === "string");
  const approvalWaits = waitingPlanReviews.some((review) => review.kind === "approval");
  if (assignees.length === 0 && !approvalWaits) return NO_REVIEW_PEOPLE;
  const { orgId } = ctx.principal;
  const [found, approvers] = await Promise.all([ctx.services.members.byIds(orgId, assignees), approvalWaits ? ctx.services.orgSettings.approvers(orgId) : []]);
  return { byId: new Map(found.map((person) => [person.userId, personView(person)])), approvers: approvers.map(personView) };
}
