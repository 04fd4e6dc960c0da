import { DIRECTORY_DATABASE, placementCandidates } from "../../domain/org-data/placement";
import type { WebhookMessage } from "../../domain/webhooks/model";
import { WEBHOOK_LIMITS } from "../../domain/webhooks/policy";
import type { Env } from "../../env";
import { dueWebhookEvents } from "../../storage/webhook-outbox";
import { claimStuckDeliveries, subscriptionsToReseal } from "../../storage/webhook-repository";
import { bindingOf } from "../org-homes";
import { sendOutboxEvents } from "./producer";
import { resealIfNeeded, secretKeyring } from "./secret-keys";
import { log } from "../log";

/**
 * What the cron does for webhooks, each part in bounded batches so a run stays
 * inside a Worker's limits (what is left waits for the next run):
 *   - sends the outbox events their writer could not hand to the queue, in every database orgs live in;
 *   - hands the queue again the deliveries left pending with no message (a send that failed after the
 *     delivery was recorded), same delivery, same webhook-id;
 *   - seals with the current key the signing secrets still in clear text or under an older key.
 */

export interface SweepReport {
  outboxEventsSent: number;
  deliveriesResent: number;
  secretsResealed: number;
}

/** Every database an org may call home: those new orgs go to, and those the directory says orgs live in. */
export async function homeDatabaseNames(env: Env): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT DISTINCT home_database AS name FROM orgs WHERE home_database IS NOT NULL").all<{ name: string }>();
  return [...new Set([DIRECTORY_DATABASE, ...placementCandidates(env.ORG_DATABASES), ...results.map((row) => row.name)])];
}

export async function drainWebhookOutboxes(env: Env, now: number): Promise<number> {
  let sent = 0;
  for (const name of await homeDatabaseNames(env)) {
    let db: D1Database;
    try {
      db = bindingOf(env, name);
    } catch {
      continue; // logged by bindingOf; the deploy refuses to leave orgs' databases unbound
    }
    for (let round = 0; round < WEBHOOK_LIMITS.sweepRounds; round++) {
      const due = await dueWebhookEvents(db, now, WEBHOOK_LIMITS.sweepBatch);
      const taken = await sendOutboxEvents(env.WEBHOOK_QUEUE, db, due, now);
      sent += taken;
      if (due.length < WEBHOOK_LIMITS.sweepBatch || taken === 0) break;
    }
  }
  return sent;
}

/**
 * How long a delivery may stay pending before it counts as stuck: WEBHOOK_STUCK_AFTER_SECONDS where set (a test,
 * or a deployment whose retries are faster than the defaults), else twice the longest retry delay.
 */
function stuckAfterMs(env: Env): number {
  const configured = Number(env.WEBHOOK_STUCK_AFTER_SECONDS);
  return env.WEBHOOK_STUCK_AFTER_SECONDS !== undefined && Number.isFinite(configured) && configured >= 0 ? configured * 1000 : WEBHOOK_LIMITS.stuckAfterMs;
}

export async function resendStuckDeliveries(env: Env, now: number): Promise<number> {
  let resent = 0;
  const bound = stuckAfterMs(env);
  for (let round = 0; round < WEBHOOK_LIMITS.sweepRounds; round++) {
    const stuck = await claimStuckDeliveries(env.DB, now - bound, now, WEBHOOK_LIMITS.sweepBatch);
    if (stuck.length === 0) break;
    try {
      await env.WEBHOOK_QUEUE.sendBatch(stuck.map(({ orgId, id }) => ({ body: { kind: "delivery", orgId, deliveryId: id } satisfies WebhookMessage })));
    } catch (error) {
      // Claimed but not sent: taken again once the bound has passed anew.
      log("warn", "stuck webhook deliveries not re-sent", { deliveries: stuck.length, error: String(error) });
      break;
    }
    resent += stuck.length;
    if (stuck.length < WEBHOOK_LIMITS.sweepBatch) break;
  }
  return resent;
}

export async function resealWebhookSecrets(env: Env): Promise<number> {
  const keyring = await secretKeyring(env);
  if (!keyring) return 0;
  let resealed = 0;
  const skipped = new Set<string>();
  for (let round = 0; round < WEBHOOK_LIMITS.sweepRounds; round++) {
    const stale = (await subscriptionsToReseal(env.DB, keyring.current.id, WEBHOOK_LIMITS.sweepBatch + skipped.size)).filter((s) => !skipped.has(s.id));
    if (stale.length === 0) break;
    for (const subscription of stale) {
      try {
        if (await resealIfNeeded(env.DB, keyring, subscription)) resealed++;
      } catch (error) {
        // Sealed under a key the setting no longer holds: nothing here can open it; the operator is told.
        skipped.add(subscription.id);
        log("error", "webhook secret cannot be resealed", { orgId: subscription.orgId, subscriptionId: subscription.id, error: String(error) });
      }
    }
  }
  return resealed;
}

/** One run of the webhook sweeper; each part runs even when another fails. */
export async function sweepWebhooks(env: Env, now: number): Promise<SweepReport> {
  const [outbox, stuck, sealed] = await Promise.allSettled([drainWebhookOutboxes(env, now), resendStuckDeliveries(env, now), resealWebhookSecrets(env)]);
  const value = (result: PromiseSettledResult<number>, part: string): number => {
    if (result.status === "fulfilled") return result.value;
    log("error", `webhook sweep: ${part} failed`, { error: String(result.reason) });
    return 0;
  };
  const report = { outboxEventsSent: value(outbox, "outbox"), deliveriesResent: value(stuck, "stuck deliveries"), secretsResealed: value(sealed, "resealing") };
  log("info", "webhook sweep", { ...report });
  return report;
}
