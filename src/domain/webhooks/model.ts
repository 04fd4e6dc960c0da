import type { WebhookEvent, WebhookEventType } from "./events";

/** An org admin's subscription: where to send which events, and how its deliveries have been going. */
export interface WebhookSubscription {
  id: string;
  orgId: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  /** The signing secret as stored: sealed (secret-box.ts), or clear text from before sealing existed. Opened only to sign. */
  storedSecret: string;
  /** Cairn's public origin when the subscription was made: payload links to the dashboard start there. */
  cairnOrigin: string;
  /** After a rotation, the previous secret as stored; it signs beside the current one until it expires. */
  storedPreviousSecret: string | null;
  previousSecretExpiresAt: number | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: number | null;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

export type DeliveryStatus = "pending" | "delivered" | "failed" | "cancelled";

/** One event for one subscription; `eventId` is the `webhook-id` of every attempt. */
export interface WebhookDelivery {
  id: string;
  orgId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
  deliveredAt: number | null;
  /** When the dead-letter queue took it, out of retries; null otherwise. */
  deadLetteredAt: number | null;
}

/** What the queue carries: an event to fan out, one webhook delivery to attempt, or one notification to send (src/platform/notifications). */
export type WebhookMessage =
  | { kind: "event"; event: WebhookEvent }
  | { kind: "delivery"; orgId: string; deliveryId: string }
  | { kind: "notification"; orgId: string; deliveryId: string };

/** A subscription as its admins see it: never the secrets. */
export const publicSubscription = (s: WebhookSubscription) => ({
  id: s.id,
  url: s.url,
  events: s.events,
  description: s.description,
  enabled: s.enabled,
  disabledReason: s.disabledReason,
  failingSince: s.failingSince === null ? null : new Date(s.failingSince).toISOString(),
  secretRotating: s.storedPreviousSecret !== null && (s.previousSecretExpiresAt ?? 0) > Date.now(),
  createdAt: new Date(s.createdAt).toISOString(),
  updatedAt: new Date(s.updatedAt).toISOString(),
});

export const publicDelivery = (d: WebhookDelivery) => ({
  id: d.id,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  createdAt: new Date(d.createdAt).toISOString(),
  updatedAt: new Date(d.updatedAt).toISOString(),
  deliveredAt: d.deliveredAt === null ? null : new Date(d.deliveredAt).toISOString(),
  deadLetteredAt: d.deadLetteredAt === null ? null : new Date(d.deadLetteredAt).toISOString(),
});
