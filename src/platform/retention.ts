import { RETENTION_DEFAULT_DAYS, retentionCutoff, retentionDays } from "../domain/retention";
import type { Env } from "../env";

/** Rows removed per statement, and statements per run: a run stays well inside a Worker's limits. */
const BATCH = 5_000;
const MAX_BATCHES = 40;

/**
 * Removes the oldest rows of a table created before `cutoff`, oldest first by insertion
 * order (rowid), a batch at a time, until a batch finds fewer than it may remove.
 * Table and condition are this module's constants, never input.
 */
async function prune(db: D1Database, table: "tool_call_log" | "webhook_deliveries" | "notification_deliveries", extra: string, cutoff: number): Promise<number> {
  let removed = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const result = await db
      .prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE created_at < ?1 ${extra} ORDER BY rowid LIMIT ?2)`)
      .bind(cutoff, BATCH)
      .run();
    removed += result.meta.changes;
    if (result.meta.changes < BATCH) break;
  }
  return removed;
}

/** The daily cron: the tool-call log, and ended webhook and notification deliveries, past their retention. */
export async function applyRetention(env: Env, now: number): Promise<{ toolCalls: number; webhookDeliveries: number; notificationDeliveries: number }> {
  const toolCalls = await prune(env.DB, "tool_call_log", "", retentionCutoff(now, retentionDays(env.TOOL_CALL_LOG_RETENTION_DAYS, RETENTION_DEFAULT_DAYS.toolCalls)));
  // A delivery still pending is kept whatever its age: it may yet be delivered or redelivered.
  const webhookDeliveries = await prune(env.DB, "webhook_deliveries", "AND status <> 'pending'", retentionCutoff(now, retentionDays(env.WEBHOOK_DELIVERY_RETENTION_DAYS, RETENTION_DEFAULT_DAYS.webhookDeliveries)));
  // Notification deliveries keep the webhook deliveries' retention; a day's send count is needed only that day.
  const deliveryCutoff = retentionCutoff(now, retentionDays(env.WEBHOOK_DELIVERY_RETENTION_DAYS, RETENTION_DEFAULT_DAYS.webhookDeliveries));
  const notificationDeliveries = await prune(env.DB, "notification_deliveries", "AND status <> 'pending'", deliveryCutoff);
  await env.DB.prepare("DELETE FROM notification_daily_usage WHERE day < ?").bind(new Date(now - 86_400_000).toISOString().slice(0, 10)).run();
  console.log(JSON.stringify({ level: "info", message: "retention applied", toolCalls, webhookDeliveries, notificationDeliveries }));
  return { toolCalls, webhookDeliveries, notificationDeliveries };
}
