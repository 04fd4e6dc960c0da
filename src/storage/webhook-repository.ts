import type { WebhookEventType } from "../domain/webhooks/events";
import type { DeliveryStatus, WebhookDelivery, WebhookSubscription } from "../domain/webhooks/model";

/** Webhook subscriptions and their delivery log in D1; every query names the org. */

interface SubscriptionRow {
  id: string;
  org_id: string;
  url: string;
  events: string;
  description: string;
  secret: string;
  cairn_origin: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  enabled: number;
  disabled_reason: string | null;
  failing_since: number | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

interface DeliveryRow {
  id: string;
  org_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
  dead_lettered_at: number | null;
}

function parseEvents(text: string): WebhookEventType[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value.filter((v) => typeof v === "string") as WebhookEventType[]) : [];
  } catch {
    return [];
  }
}

const toSubscription = (row: SubscriptionRow): WebhookSubscription => ({
  id: row.id,
  orgId: row.org_id,
  url: row.url,
  events: parseEvents(row.events),
  description: row.description,
  storedSecret: row.secret,
  cairnOrigin: row.cairn_origin,
  storedPreviousSecret: row.previous_secret,
  previousSecretExpiresAt: row.previous_secret_expires_at,
  enabled: row.enabled === 1,
  disabledReason: row.disabled_reason,
  failingSince: row.failing_since,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  orgId: row.org_id,
  subscriptionId: row.subscription_id,
  eventId: row.event_id,
  eventType: row.event_type,
  body: row.body,
  status: row.status,
  attempts: row.attempts,
  lastStatus: row.last_status,
  lastError: row.last_error,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  deliveredAt: row.delivered_at,
  deadLetteredAt: row.dead_lettered_at,
});

export async function listSubscriptions(db: D1Database, orgId: string): Promise<WebhookSubscription[]> {
  const { results } = await db.prepare("SELECT * FROM webhook_subscriptions WHERE org_id = ? ORDER BY created_at, id").bind(orgId).all<SubscriptionRow>();
  return results.map(toSubscription);
}

export async function getSubscription(db: D1Database, orgId: string, id: string): Promise<WebhookSubscription | null> {
  const row = await db.prepare("SELECT * FROM webhook_subscriptions WHERE org_id = ? AND id = ?").bind(orgId, id).first<SubscriptionRow>();
  return row ? toSubscription(row) : null;
}

/** Inserts unless the org already has `limit` subscriptions: one statement, so two racing creations cannot both pass the count. */
export async function insertSubscription(db: D1Database, s: WebhookSubscription, limit: number): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO webhook_subscriptions (id, org_id, url, events, description, secret, cairn_origin, previous_secret, previous_secret_expires_at,
                                          enabled, disabled_reason, failing_since, created_by, created_at, updated_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, NULL, NULL, 1, NULL, NULL, ?, ?, ?
        WHERE (SELECT COUNT(*) FROM webhook_subscriptions WHERE org_id = ?) < ?`,
    )
    .bind(s.id, s.orgId, s.url, JSON.stringify(s.events), s.description, s.storedSecret, s.cairnOrigin, s.createdBy, s.createdAt, s.updatedAt, s.orgId, limit)
    .run();
  return result.meta.changes === 1;
}

export async function updateSubscription(
  db: D1Database,
  orgId: string,
  id: string,
  change: Partial<Pick<WebhookSubscription, "url" | "events" | "description" | "enabled" | "disabledReason" | "failingSince" | "storedSecret" | "storedPreviousSecret" | "previousSecretExpiresAt">>,
  now: number,
): Promise<boolean> {
  const columns: Record<string, unknown> = {};
  if (change.url !== undefined) columns.url = change.url;
  if (change.events !== undefined) columns.events = JSON.stringify(change.events);
  if (change.description !== undefined) columns.description = change.description;
  if (change.enabled !== undefined) columns.enabled = change.enabled ? 1 : 0;
  if (change.disabledReason !== undefined) columns.disabled_reason = change.disabledReason;
  if (change.failingSince !== undefined) columns.failing_since = change.failingSince;
  if (change.storedSecret !== undefined) columns.secret = change.storedSecret;
  if (change.storedPreviousSecret !== undefined) columns.previous_secret = change.storedPreviousSecret;
  if (change.previousSecretExpiresAt !== undefined) columns.previous_secret_expires_at = change.previousSecretExpiresAt;
  const names = Object.keys(columns);
  // Column names come from the fixed list above, never from the caller.
  const result = await db
    .prepare(`UPDATE webhook_subscriptions SET ${[...names.map((n) => `${n} = ?`), "updated_at = ?"].join(", ")} WHERE org_id = ? AND id = ?`)
    .bind(...names.map((n) => columns[n]), now, orgId, id)
    .run();
  return result.meta.changes === 1;
}

export async function deleteSubscription(db: D1Database, orgId: string, id: string): Promise<boolean> {
  const [deleted] = await db.batch([
    db.prepare("DELETE FROM webhook_subscriptions WHERE org_id = ? AND id = ?").bind(orgId, id),
    db.prepare("DELETE FROM webhook_deliveries WHERE org_id = ? AND subscription_id = ?").bind(orgId, id),
  ]);
  return (deleted?.meta.changes ?? 0) === 1;
}

/** Records the event's deliveries (one per subscription; a repeat of the same event adds none). */
export async function insertDeliveries(db: D1Database, deliveries: WebhookDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db.batch(
    deliveries.map((d) =>
      db
        .prepare(
          `INSERT INTO webhook_deliveries (id, org_id, subscription_id, event_id, event_type, body, status, attempts, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?) ON CONFLICT (subscription_id, event_id) DO NOTHING`,
        )
        .bind(d.id, d.orgId, d.subscriptionId, d.eventId, d.eventType, d.body, d.createdAt, d.updatedAt),
    ),
  );
}

/** The event's deliveries not yet attempted: what the fan-out hands to the queue (again, if an earlier hand-off failed). */
export async function unattemptedDeliveries(db: D1Database, orgId: string, eventId: string): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT id FROM webhook_deliveries WHERE org_id = ? AND event_id = ? AND status = 'pending' AND attempts = 0")
    .bind(orgId, eventId)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

export async function getDelivery(db: D1Database, orgId: string, id: string): Promise<WebhookDelivery | null> {
  const row = await db.prepare("SELECT * FROM webhook_deliveries WHERE org_id = ? AND id = ?").bind(orgId, id).first<DeliveryRow>();
  return row ? toDelivery(row) : null;
}

export async function recordAttempt(
  db: D1Database,
  orgId: string,
  id: string,
  outcome: { status: DeliveryStatus; httpStatus: number | null; error: string | null },
  now: number,
): Promise<void> {
  await db
    .prepare(
      `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, last_status = ?, last_error = ?, updated_at = ?,
              delivered_at = CASE WHEN ? = 'delivered' THEN ? ELSE delivered_at END
        WHERE org_id = ? AND id = ?`,
    )
    .bind(outcome.status, outcome.httpStatus, outcome.error, now, outcome.status, now, orgId, id)
    .run();
}

/** Ends a delivery that will not be attempted again (cancelled, or refused for good) unless it already ended. */
export async function closeDelivery(db: D1Database, orgId: string, id: string, status: "failed" | "cancelled", note: string, now: number): Promise<void> {
  await db
    .prepare(
      `UPDATE webhook_deliveries SET status = ?, last_error = CASE WHEN last_error IS NULL THEN ? ELSE last_error || ' — ' || ? END, updated_at = ?
        WHERE org_id = ? AND id = ? AND status = 'pending'`,
    )
    .bind(status, note, note, now, orgId, id)
    .run();
}

/** The dead-letter queue took a delivery out of retries: failed, with when and why, unless it already ended. */
export async function deadLetterDelivery(db: D1Database, orgId: string, id: string, reason: string, now: number): Promise<void> {
  await db
    .prepare(
      `UPDATE webhook_deliveries SET status = 'failed', dead_lettered_at = ?, updated_at = ?,
              last_error = CASE WHEN last_error IS NULL THEN ? ELSE last_error || ' — ' || ? END
        WHERE org_id = ? AND id = ? AND status = 'pending'`,
    )
    .bind(now, now, reason, reason, orgId, id)
    .run();
}

/**
 * Deliveries pending since before `cutoff` (no queue message holds them any more), oldest first, at most
 * `limit`: each is claimed by moving its clock to `now` in the same statement, so two sweeps never take the
 * same one, and one re-sent is not taken again before the cutoff passes anew. Only of subscriptions that exist.
 */
export async function claimStuckDeliveries(db: D1Database, cutoff: number, now: number, limit: number): Promise<{ orgId: string; id: string }[]> {
  const { results } = await db
    .prepare(
      `UPDATE webhook_deliveries SET updated_at = ?1
        WHERE id IN (SELECT d.id FROM webhook_deliveries d
                      WHERE d.status = 'pending' AND d.updated_at < ?2
                        AND EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.org_id = d.org_id AND s.id = d.subscription_id)
                      ORDER BY d.updated_at LIMIT ?3)
          AND status = 'pending' AND updated_at < ?2
       RETURNING org_id, id`,
    )
    .bind(now, cutoff, limit)
    .all<{ org_id: string; id: string }>();
  return results.map((row) => ({ orgId: row.org_id, id: row.id }));
}

/** Subscriptions whose secrets are not (all) sealed with key `keyId`: clear text from before sealing, or an older key. */
export async function subscriptionsToReseal(db: D1Database, keyId: string, limit: number): Promise<WebhookSubscription[]> {
  const prefix = `sealed:v1:${keyId}:`;
  const { results } = await db
    .prepare(
      `SELECT * FROM webhook_subscriptions
        WHERE substr(secret, 1, length(?1)) <> ?1 OR (previous_secret IS NOT NULL AND substr(previous_secret, 1, length(?1)) <> ?1)
        ORDER BY rowid LIMIT ?2`,
    )
    .bind(prefix, limit)
    .all<SubscriptionRow>();
  return results.map(toSubscription);
}

/**
 * Replaces a subscription's stored secrets with the same secrets sealed anew, only if they are still what
 * was read (a rotation meanwhile wins); false when they were not.
 */
export async function replaceStoredSecrets(
  db: D1Database,
  read: Pick<WebhookSubscription, "orgId" | "id" | "storedSecret" | "storedPreviousSecret">,
  sealed: { storedSecret: string; storedPreviousSecret: string | null },
): Promise<boolean> {
  const result = await db
    .prepare("UPDATE webhook_subscriptions SET secret = ?, previous_secret = ? WHERE org_id = ? AND id = ? AND secret = ? AND previous_secret IS ?")
    .bind(sealed.storedSecret, sealed.storedPreviousSecret, read.orgId, read.id, read.storedSecret, read.storedPreviousSecret)
    .run();
  return result.meta.changes === 1;
}

/** Puts a delivery back to pending for a manual redelivery; false when it is not this subscription's. */
export async function reopenDelivery(db: D1Database, orgId: string, subscriptionId: string, id: string, now: number): Promise<boolean> {
  const result = await db
    .prepare("UPDATE webhook_deliveries SET status = 'pending', dead_lettered_at = NULL, updated_at = ? WHERE org_id = ? AND subscription_id = ? AND id = ?")
    .bind(now, orgId, subscriptionId, id)
    .run();
  return result.meta.changes === 1;
}

/** Undoes `reopenDelivery` of `before` (as read before it) at `reopenedAt`, unless the delivery has moved on since. */
export async function restoreDelivery(db: D1Database, orgId: string, before: WebhookDelivery, reopenedAt: number): Promise<void> {
  await db
    .prepare("UPDATE webhook_deliveries SET status = ?, dead_lettered_at = ?, updated_at = ? WHERE org_id = ? AND id = ? AND status = 'pending' AND updated_at = ?")
    .bind(before.status, before.deadLetteredAt, before.updatedAt, orgId, before.id, reopenedAt)
    .run();
}

/** A subscription's deliveries, newest first, in keyset pages. */
export async function listDeliveries(
  db: D1Database,
  orgId: string,
  subscriptionId: string,
  page: { before?: { createdAt: number; id: string }; limit: number },
): Promise<WebhookDelivery[]> {
  const { before } = page;
  const { results } = await db
    .prepare(
      `SELECT * FROM webhook_deliveries WHERE org_id = ? AND subscription_id = ?
         ${before ? "AND (created_at < ? OR (created_at = ? AND id < ?))" : ""}
        ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .bind(orgId, subscriptionId, ...(before ? [before.createdAt, before.createdAt, before.id] : []), page.limit)
    .all<DeliveryRow>();
  return results.map(toDelivery);
}
