import type { WebhookEvent } from "../domain/webhooks/events";
import type { D1Queries } from "./database";

/**
 * The webhook event outbox of one database (an org's home): events written in
 * the same batch as the change they announce, until the queue takes them.
 */

interface OutboxRow {
  event_id: string;
  payload: string;
  attempts: number;
}

/** The statement that records `event`, to run in the change's own batch; the writer sends it at once, the sweeper from `sweepableAt`. */
export function recordWebhookEvent(db: D1Queries, event: WebhookEvent, now: number, sweepableAt: number) {
  return db
    .prepare("INSERT INTO webhook_event_outbox (event_id, org_id, payload, attempts, created_at, next_attempt_at) VALUES (?, ?, ?, 0, ?, ?) ON CONFLICT (event_id) DO NOTHING")
    .bind(event.eventId, event.orgId, JSON.stringify(event), now, sweepableAt);
}

/** Events whose turn has come, oldest turn first. */
export async function dueWebhookEvents(db: D1Database, now: number, limit: number): Promise<{ event: WebhookEvent; attempts: number }[]> {
  const { results } = await db
    .prepare("SELECT event_id, payload, attempts FROM webhook_event_outbox WHERE next_attempt_at <= ? ORDER BY next_attempt_at, event_id LIMIT ?")
    .bind(now, limit)
    .all<OutboxRow>();
  return results.map((row) => ({ event: JSON.parse(row.payload) as WebhookEvent, attempts: row.attempts }));
}

/** The queue took them. */
export async function forgetWebhookEvents(db: D1Database, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db.batch(eventIds.map((id) => db.prepare("DELETE FROM webhook_event_outbox WHERE event_id = ?").bind(id)));
}

/** The queue refused them: counted, and their next turn set. */
export async function postponeWebhookEvents(db: D1Database, eventIds: readonly string[], nextAttemptAt: number): Promise<void> {
  if (eventIds.length === 0) return;
  await db.batch(eventIds.map((id) => db.prepare("UPDATE webhook_event_outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE event_id = ?").bind(nextAttemptAt, id)));
}
