import { checkOutboundUrl, type OutboundPolicy } from "../outbound-address";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./events";

/** Limits and timing of webhook delivery: pure, so each rule is tested on its own. */

export const WEBHOOK_LIMITS = {
  subscriptionsPerOrg: 10,
  urlChars: 2_048,
  descriptionChars: 200,
  /** How long the previous secret still signs after a rotation. */
  rotationOverlapMs: 24 * 3_600_000,
  /** A subscription whose deliveries have failed without a success for this long is disabled. */
  disableAfterMs: 3 * 86_400_000,
  /** One attempt waits this long for the receiver. */
  timeoutMs: 10_000,
  /** What is kept of a receiver's error answer. */
  errorChars: 300,
  /** Longest retry delay the queue accepts is 12 h; ours stop at an hour. */
  maxRetryDelaySeconds: 3_600,
  /**
   * A delivery still pending this long after its last change has no queue message left: every live one
   * is attempted within the longest retry delay. Twice that leaves room for a slow queue.
   */
  stuckAfterMs: 2 * 3_600_000,
  /** An event written to the outbox is the writer's to send for this long; after it, the sweeper's. */
  outboxGraceMs: 60_000,
  /** An event the queue gave up on (its fan-out failed every retry) waits this long in the outbox before it is tried again. */
  deadLetteredEventDelayMs: 3_600_000,
  /** What one sweep takes on, per kind of work and database: a run stays well inside a Worker's limits. */
  sweepBatch: 100,
  sweepRounds: 5,
} as const;

/** When the sweeper tries an outbox event again after `attempts` failed sends: doubling from a minute, at most an hour. */
export const outboxRetryDelayMs = (attempts: number): number => Math.min(3_600_000, 60_000 * 2 ** Math.max(0, attempts - 1));

/** Delay before retry `attempt` (1 = the first retry): doubling from the base, capped. */
export function retryDelaySeconds(attempt: number, baseSeconds: number): number {
  if (baseSeconds <= 0) return 0;
  return Math.min(WEBHOOK_LIMITS.maxRetryDelaySeconds, baseSeconds * 2 ** Math.max(0, attempt - 1));
}

/** A failure keeps the subscription's first failing moment; a success clears it. Past the limit it is disabled, with why. */
export function failureVerdict(failingSince: number | null, now: number, lastError: string): { failingSince: number; disable: string | null } {
  const since = failingSince ?? now;
  const disable =
    now - since >= WEBHOOK_LIMITS.disableAfterMs
      ? `Disabled ${new Date(now).toISOString()}: every delivery has failed since ${new Date(since).toISOString()} (last error: ${lastError}). Fix the receiver, then enable the subscription again.`
      : null;
  return { failingSince: since, disable };
}

/** A receiver answered well: any 2xx. Everything else (3xx included: redirects are not followed) is a failure to retry. */
export const deliveredStatus = (status: number): boolean => status >= 200 && status < 300;

export type TargetCheck = { ok: true; url: string } | { ok: false; reason: string };

/** A subscription's URL: https to a public host; plain http only to loopback, only where the gate allows it (development). */
export function checkWebhookTarget(raw: string, policy: OutboundPolicy): TargetCheck {
  if (raw.length > WEBHOOK_LIMITS.urlChars) return { ok: false, reason: `The URL is longer than ${WEBHOOK_LIMITS.urlChars} characters.` };
  const verdict = checkOutboundUrl(raw, policy);
  return verdict.allowed ? { ok: true, url: verdict.url.toString() } : { ok: false, reason: verdict.reason };
}

export function checkEventTypes(types: readonly string[]): { ok: true; types: WebhookEventType[] } | { ok: false; unknown: string[] } {
  const unknown = types.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length) return { ok: false, unknown };
  return { ok: true, types: [...new Set(types)] as WebhookEventType[] };
}

/** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(subscription: { secret: string; previousSecret: string | null; previousSecretExpiresAt: number | null }, now: number): string[] {
  const previous = subscription.previousSecret && (subscription.previousSecretExpiresAt ?? 0) > now ? [subscription.previousSecret] : [];
  return [subscription.secret, ...previous];
}
