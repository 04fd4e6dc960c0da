import type { DayBucket } from "./chart-geometry";

/**
 * Day-by-day figures for the analytics charts, grouped in SQL by UTC day
 * (`created_at / 86400000`), org first in every query. Days without rows are
 * filled in by the page (chart-geometry.ts), not here.
 */

/** Tool calls and errors per day: values [calls, errors]. */
export async function callsPerDay(db: D1Database, orgId: string, since: number): Promise<DayBucket[]> {
  const { results } = await db
    .prepare(
      `SELECT created_at / 86400000 AS d, COUNT(*) AS calls, SUM(CASE WHEN outcome = 'error' THEN 1 ELSE 0 END) AS errors
         FROM tool_call_log WHERE org_id = ? AND created_at >= ? GROUP BY d ORDER BY d`,
    )
    .bind(orgId, since)
    .all<{ d: number; calls: number; errors: number }>();
  return results.map((row) => ({ day: row.d * 86_400_000, values: [row.calls, row.errors ?? 0] }));
}

/** Plans created per day and how many of them are stalled now: values [created, stalledNow]. */
export async function plansPerDay(db: D1Database, orgId: string, since: number): Promise<DayBucket[]> {
  const { results } = await db
    .prepare(
      `SELECT created_at / 86400000 AS d, COUNT(*) AS created,
              SUM(CASE WHEN stalled = 1 OR status = 'stalled' THEN 1 ELSE 0 END) AS stalled
         FROM plans WHERE org_id = ? AND created_at >= ? GROUP BY d ORDER BY d`,
    )
    .bind(orgId, since)
    .all<{ d: number; created: number; stalled: number | null }>();
  return results.map((row) => ({ day: row.d * 86_400_000, values: [row.created, row.stalled ?? 0] }));
}
