import type { DayBucket } from "./chart-geometry";

/**
 * Day-by-day figures for the analytics charts, grouped in SQL by UTC day
 * (`created_at / 86400000`), org first in every query. Days without rows are
 * filled in by the page (chart-geometry.ts), not here.
 */

export interface BudgetStats {
  /** Plans updated in the window that have a budget. */
  budgeted: number;
  /** Of those, waiting at a budget review now. */
  waiting: number;
  /** Of those, at 80 % or more of a limit. */
  nearLimit: number;
  /** Their average of the most spent share of a limit, in percent (null when none). */
  averagePercent: number | null;
}

/** How plans with a budget spend it: used / limit as the plan index keeps it. */
export async function budgetStats(db: D1Database, orgId: string, since: number): Promise<BudgetStats> {
  const row = await db
    .prepare(
      `SELECT COUNT(*) AS budgeted, SUM(budget_exhausted) AS waiting, SUM(CASE WHEN budget_percent >= 80 THEN 1 ELSE 0 END) AS near,
              AVG(budget_percent) AS average
         FROM plans WHERE org_id = ? AND updated_at >= ? AND budget_percent IS NOT NULL`,
    )
    .bind(orgId, since)
    .first<{ budgeted: number; waiting: number | null; near: number | null; average: number | null }>();
  return {
    budgeted: row?.budgeted ?? 0,
    waiting: row?.waiting ?? 0,
    nearLimit: row?.near ?? 0,
    averagePercent: row?.average === null || row?.average === undefined ? null : Math.round(row.average),
  };
}

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
