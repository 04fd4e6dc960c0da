import { assertPerson } from "../domain/person-actions";
import type { Principal } from "../domain/principal";
import type { Services } from "../domain/ports";
import { actorOf } from "./plan-views";
import { memberNamed, type ReviewPersonView } from "./review-people";

/**
 * Reassigns a review waiting for a person (`PUT /plans/{planId}/reviews/{reviewId}/assignee`, the dashboard's
 * control): to the member with `email`, or to no one (null). Someone who is not a member is refused, naming them,
 * and nothing changes; the plan's audit records review.assigned (from, to) and the webhook event of that name.
 * Handing a decision to someone else is a person's (the one check): the assistant names the assignee when it asks.
 */
export async function assignReview(
  ctx: { services: Services; principal: Principal; now: () => number },
  planId: string,
  reviewId: string,
  email: string | null,
): Promise<{ reviewId: string; assignee: ReviewPersonView | null }> {
  assertPerson(ctx.principal, "reassign_review", "/dashboard/reviews");
  const person = email === null ? null : await memberNamed(ctx, email, "email");
  await ctx.services.plans.run(ctx.principal.orgId, planId, { kind: "assign_review", reviewId, assignee: person?.userId ?? null }, actorOf(ctx), ctx.now());
  return { reviewId, assignee: person ? { email: person.email, name: person.name } : null };
}
