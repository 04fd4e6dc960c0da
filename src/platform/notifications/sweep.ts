import { needsResealing, openSecret, sealSecret } from "../../domain/webhooks/secret-box";
import { WEBHOOK_LIMITS } from "../../domain/webhooks/policy";
import type { WebhookMessage } from "../../domain/webhooks/model";
import type { Env } from "../../env";
import { secretKeyring } from "../webhooks/secret-keys";
import { log } from "../log";

/**
 * The notifications' part of the sweep cron: deliveries left pending with no queue message (claimed by moving
 * their `updated_at`, so two sweeps never send one twice) go to the queue again, and Slack URLs sealed under an
 * older key of WEBHOOK_SECRET_KEYS are sealed with the current one, so the old key can be removed.
 */
export async function sweepNotifications(env: Env, now: number): Promise<{ resent: number; resealed: number }> {
  const [resent, resealed] = await Promise.all([resendStuck(env, now).catch(failed("stuck notifications")), resealChannels(env).catch(failed("channel resealing"))]);
  return { resent, resealed };
}

const failed = (part: string) => (error: unknown) => {
  log("error", `notification sweep: ${part} failed`, { error: String(error) });
  return 0;
};

async function resendStuck(env: Env, now: number): Promise<number> {
  const { results } = await env.DB.prepare(
    "UPDATE notification_deliveries SET updated_at = ?1 WHERE id IN (SELECT id FROM notification_deliveries WHERE status = 'pending' AND updated_at < ?2 LIMIT ?3) RETURNING id, org_id",
  )
    .bind(now, now - WEBHOOK_LIMITS.stuckAfterMs, WEBHOOK_LIMITS.sweepBatch)
    .all<{ id: string; org_id: string }>();
  if (results.length) await env.WEBHOOK_QUEUE.sendBatch(results.map((r) => ({ body: { kind: "notification", orgId: r.org_id, deliveryId: r.id } satisfies WebhookMessage })));
  return results.length;
}

async function resealChannels(env: Env): Promise<number> {
  const keyring = await secretKeyring(env);
  if (!keyring) return 0;
  const { results } = await env.DB.prepare("SELECT id, target FROM notification_channels WHERE kind = 'slack' AND target NOT LIKE ? LIMIT ?")
    .bind(`sealed:v1:${keyring.current.id}:%`, WEBHOOK_LIMITS.sweepBatch)
    .all<{ id: string; target: string }>();
  let resealed = 0;
  for (const channel of results) {
    if (!needsResealing(keyring, channel.target)) continue;
    try {
      const sealed = await sealSecret(keyring, channel.id, await openSecret(keyring, channel.id, channel.target));
      // Only if unchanged since read.
      const updated = await env.DB.prepare("UPDATE notification_channels SET target = ? WHERE id = ? AND target = ?").bind(sealed, channel.id, channel.target).run();
      resealed += updated.meta.changes;
    } catch (error) {
      log("error", "notification channel URL cannot be resealed", { channelId: channel.id, error: String(error) });
    }
  }
  return resealed;
}
