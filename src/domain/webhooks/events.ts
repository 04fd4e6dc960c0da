/**
 * Webhook events: what an org can subscribe to, and the payload each carries.
 * Payloads follow the Standard Webhooks shape `{ type, timestamp, data }`; the
 * event id travels in the `webhook-id` header and stays the same on every retry
 * and redelivery, so receivers can drop duplicates.
 */

export const WEBHOOK_EVENT_TYPES = [
  "plan.stalled",
  "plan.review_requested",
  /** A plan created with approval required waits for a person's approval (sent beside plan.review_requested, kind "approval"). */
  "plan.approval_requested",
  "plan.completed",
  "plan.failed",
  "plan.budget_exhausted",
  "research_output.created",
  /** A source a stored deliverable cites was verified at delivery and a re-check finds it changed or gone: once per change. */
  "research_output.sources_changed",
  /** A plan's schedule made its next run (a new plan of the series, waiting for an assistant): once per run. */
  "plan.scheduled_run_due",
  /** A waiting review was assigned to a member (or to no one) after it was requested: data.assigneeUserId, null for no one. */
  "review.assigned",
  /** A person commented on a deliverable or a step (a mentioned member is notified of it). */
  "comment.created",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookEvent {
  /** `msg_…`: the `webhook-id` of every delivery of this event. */
  eventId: string;
  orgId: string;
  type: WebhookEventType;
  /** Epoch milliseconds when the event was decided. */
  occurredAt: number;
  data: Record<string, unknown>;
}

/** The plan's audit actions that are webhook events, and the event each one is. */
const PLAN_ACTIONS: Record<string, WebhookEventType> = {
  "plan.stalled": "plan.stalled",
  "review.requested": "plan.review_requested",
  "plan.completed": "plan.completed",
  "plan.failed": "plan.failed",
  "plan.budget_exhausted": "plan.budget_exhausted",
  "review.assigned": "review.assigned",
};

export const webhookTypeOfPlanAction = (action: string): WebhookEventType | null => PLAN_ACTIONS[action] ?? null;

/** The body every delivery of an event sends, byte for byte (it is what the signature covers). */
export const webhookBody = (event: WebhookEvent): string =>
  JSON.stringify({ type: event.type, timestamp: new Date(event.occurredAt).toISOString(), data: event.data });
