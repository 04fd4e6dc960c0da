import { maySend } from "../../domain/notifications/confirmation";
import { currentEvents, requestedPlanOf } from "../../domain/notifications/digest";
import { type NotifiedEvent, renderDigest } from "../../domain/notifications/message";
import { dailyCapMessage, dailyCapOf, digestWindowOf, sendableAt, utcDay } from "../../domain/notifications/policy";
import type { Env } from "../../env";
import { homeDatabase } from "../org-homes";
import {
  getChannel,
  getDelivery,
  lastSentAt,
  type NotificationDelivery,
  pendingFor,
  recordAttempt,
  recordSent,
  returnDailySend,
  takeDailySend,
} from "../../storage/notification-repository";
import { describeTarget, sendMessage, type Target, targetOfChannel } from "./send";
import { log } from "../log";

export type Verdict = { ack: true } | { retry: true; delaySeconds: number };

/** A digest carries at most this many events; more wait for the next message. */
const DIGEST_BATCH = 50;

/** Where a person's and a channel's messages link for changing what they receive. */
const settingsLink = (origin: string, delivery: NotificationDelivery) =>
  `${origin.replace(/\/$/, "")}${delivery.userId ? "/dashboard/notifications" : "/dashboard/admin/notifications"}`;

/**
 * Where the delivery's recipient is reached now, or why nobody is: a person must still be a member of the org
 * (checked at send time, so a member removed gets nothing more), a channel must still exist and, for an address
 * outside the members, have confirmed.
 */
async function currentTarget(env: Env, delivery: NotificationDelivery): Promise<Target | { gone: string }> {
  if (delivery.userId) {
    const row = await env.DB.prepare("SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? AND m.user_id = ?")
      .bind(delivery.orgId, delivery.userId)
      .first<{ email: string }>();
    return row ? { kind: "email", address: row.email } : { gone: "no longer a member of the organization" };
  }
  const channel = delivery.channelId ? await getChannel(env.DB, delivery.orgId, delivery.channelId) : null;
  if (!channel) return { gone: "channel deleted" };
  return maySend(channel) ? targetOfChannel(channel) : { gone: "the address has not confirmed" };
}

/**
 * One notification message: everything pending for the delivery's recipient goes together, as one message or a
 * digest, once the recipient's window since their last message has passed (a wait is a delayed retry). Past the
 * org's daily cap nothing is sent and the deliveries say why. A failure is retried by the queue, then dead-lettered.
 */
export async function deliverNotification(env: Env, orgId: string, deliveryId: string, now: number, retryDelay: number): Promise<Verdict> {
  const delivery = await getDelivery(env.DB, orgId, deliveryId);
  if (delivery?.status !== "pending") return { ack: true };
  const target = await currentTarget(env, delivery);
  const batch = await pendingFor(env.DB, orgId, delivery.recipient, DIGEST_BATCH);
  const ids = batch.map((d) => d.id);
  if ("gone" in target) {
    await recordAttempt(env.DB, orgId, ids, "cancelled", target.gone, now);
    return { ack: true };
  }
  const at = sendableAt(await lastSentAt(env.DB, orgId, delivery.recipient), now, digestWindowOf(env.NOTIFICATION_DIGEST_SECONDS));
  if (at > now) return { retry: true, delaySeconds: Math.ceil((at - now) / 1000) };
  // What waited may be stale by now: a request already answered is not sent, and an event there twice goes once.
  const parsed = batch.map((d) => ({ id: d.id, event: JSON.parse(d.event) as NotifiedEvent }));
  const { keep, stale } = currentEvents(parsed, (item) => item.event, await answeredPlans(env, orgId, parsed.map((item) => item.event)));
  if (stale.length) await recordAttempt(env.DB, orgId, stale.map((item) => item.id), "cancelled", "answered before it was sent", now);
  const covered = parsed.filter((item) => !stale.includes(item)).map((item) => item.id);
  if (keep.length === 0) return { ack: true };
  const day = utcDay(now);
  const cap = dailyCapOf(env.NOTIFICATION_DAILY_CAP);
  if (!(await takeDailySend(env.DB, orgId, day, cap))) {
    await recordAttempt(env.DB, orgId, covered, "failed", dailyCapMessage(cap), now);
    log("warn", "notification not sent: daily cap reached", { orgId, cap, deliveries: covered.length });
    return { ack: true };
  }
  const message = renderDigest(
    keep.map((item) => item.event),
    delivery.cairnOrigin,
    settingsLink(delivery.cairnOrigin, delivery),
  );
  const outcome = await sendMessage(env, target, message, delivery.cairnOrigin);
  if (outcome.sent) {
    // An event said twice counts as sent with the message that said it once.
    await recordSent(env.DB, orgId, covered, { to: describeTarget(target), subject: message.subject, text: message.text, messageId: outcome.messageId, sentWith: delivery.id }, now);
    return { ack: true };
  }
  await returnDailySend(env.DB, orgId, day);
  await recordAttempt(env.DB, orgId, outcome.retry ? [delivery.id] : covered, outcome.retry ? "pending" : "failed", outcome.error, now);
  if (!outcome.retry) log("warn", "notification refused", { orgId, deliveryId, error: outcome.error });
  return outcome.retry ? { retry: true, delaySeconds: retryDelay } : { ack: true };
}

/** The plans of these answer requests that the plans index knows and that wait for no person any more, with when each last changed. */
async function answeredPlans(env: Env, orgId: string, events: readonly NotifiedEvent[]): Promise<Map<string, number>> {
  const planIds = [...new Set(events.map(requestedPlanOf).filter((planId): planId is string => planId !== null))].slice(0, 50);
  if (planIds.length === 0) return new Map();
  const db = await homeDatabase(env, orgId);
  const { results } = await db
    .prepare(`SELECT plan_id, updated_at FROM plans WHERE org_id = ? AND plan_id IN (${planIds.map(() => "?").join(", ")}) AND derived_status != 'awaiting_review'`)
    .bind(orgId, ...planIds)
    .all<{ plan_id: string; updated_at: number }>();
  return new Map(results.map((row) => [row.plan_id, row.updated_at]));
}
