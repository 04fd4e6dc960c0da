import { clipNullable } from "../clip";
import type { PlanEvent } from "../plans/transition";
import type { PlanState } from "../plans/model";
import { progressOf } from "../plans/status";
import { type WebhookEvent, webhookTypeOfPlanAction } from "./events";

const PRESENTATION_CHARS = 2_000;

/**
 * The webhook events a plan transition decided, with the plan as it stood right
 * after it: what a receiver needs to act without calling back (which plan, its
 * status and progress, the step concerned, and the event's own facts).
 */
export function planWebhookEvents(state: PlanState, events: readonly PlanEvent[], now: number, newEventId: () => string): WebhookEvent[] {
  const { plan, steps } = state;
  return events.flatMap((event): WebhookEvent[] => {
    const type = webhookTypeOfPlanAction(event.action);
    if (!type) return [];
    const step = event.stepId ? steps.find((candidate) => candidate.stepId === event.stepId) : undefined;
    const data: Record<string, unknown> = {
      planId: plan.planId,
      name: plan.name,
      researchQuestion: plan.researchQuestion,
      status: plan.status,
      progress: progressOf(steps),
      totalSteps: steps.length,
      /** Who made the plan: the person its notifications reach (src/platform/notifications). */
      ownerUserId: plan.createdBy.userId,
      ...(step ? { step: { stepId: step.stepId, stepOrder: step.stepOrder, stepType: step.stepType } } : {}),
    };
    if (type === "plan.stalled") data.stalledStepIds = event.detail.stepIds ?? [];
    const planReview = typeof event.detail.reviewId === "string" ? plan.reviews?.find((review) => review.reviewId === event.detail.reviewId) : undefined;
    const aboutReview = type === "plan.review_requested" || type === "review.assigned";
    if (aboutReview && planReview) {
      data.review = { reviewId: planReview.reviewId, kind: planReview.kind, presentation: clipNullable(planReview.presentation, PRESENTATION_CHARS), questions: planReview.questions };
    } else if (aboutReview && step?.review) {
      data.review = { reviewId: step.stepId, kind: "step", presentation: clipNullable(step.review.presentation, PRESENTATION_CHARS), questions: step.review.questions };
    }
    // The member meant to decide: then the one person its notifications reach (src/platform/notifications).
    const assignee = aboutReview ? ((planReview ? planReview.assignee : step?.review?.assignee) ?? null) : null;
    if (assignee || type === "review.assigned") data.assigneeUserId = assignee;
    if (type === "plan.failed") data.reason = plan.failureReason;
    if (type === "plan.completed") data.finishedAt = new Date(plan.finishedAt ?? now).toISOString();
    if (type === "plan.budget_exhausted") {
      const { deadline, ...counts } = plan.budget ?? {};
      data.exhausted = event.detail.exhausted ?? [];
      if (planReview) data.reviewId = planReview.reviewId;
      data.budget = { ...counts, ...(deadline !== undefined ? { deadline: new Date(deadline).toISOString() } : {}) };
    }
    const decided: WebhookEvent = { eventId: newEventId(), orgId: plan.orgId, type, occurredAt: now, data };
    // An approval waiting is also its own event: receivers that care only for approvals need not read every review.
    if (type === "plan.review_requested" && planReview?.kind === "approval") {
      return [decided, { eventId: newEventId(), orgId: plan.orgId, type: "plan.approval_requested", occurredAt: now, data: { ...data } }];
    }
    return [decided];
  });
}
