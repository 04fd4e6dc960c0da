import { type PlanSeriesReader, type RunStanding, type RunStatus, runStanding, type Schedule, type ScheduleInterval, type ScheduleStatus, type SeriesLink } from "../domain/plans/schedule";
import type { WebhookEvent } from "../domain/webhooks/events";
import type { D1Queries } from "./database";
import { recordWebhookEvent } from "./webhook-outbox";

/** Plans' schedules (series) and their runs, in the org's home database (migration 0031). */

interface ScheduleRow {
  series_id: string;
  org_id: string;
  plan_id: string;
  every: string;
  start_at: number;
  until: number | null;
  due_index: number;
  next_due_at: number;
  next_run_number: number;
  missed_in_a_row: number;
  status: string;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export const toSchedule = (row: ScheduleRow): Schedule => ({
  seriesId: row.series_id,
  orgId: row.org_id,
  planId: row.plan_id,
  every: row.every as ScheduleInterval,
  startAt: row.start_at,
  until: row.until,
  dueIndex: row.due_index,
  nextDueAt: row.next_due_at,
  nextRunNumber: row.next_run_number,
  missedInARow: row.missed_in_a_row,
  status: row.status as ScheduleStatus,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Started: somebody claimed a step, or the plan moved on (finished, cancelled) — read from the plan index. */
const STARTED = "(p.plan_id IS NULL OR p.completed_steps > 0 OR p.failed_steps > 0 OR p.current_step_order IS NOT NULL OR p.status NOT IN ('active', 'awaiting_review', 'stalled'))";

export async function scheduleOfSeriesPlan(db: D1Queries, orgId: string, planId: string): Promise<Schedule | null> {
  const row = await db.prepare("SELECT * FROM plan_schedules WHERE org_id = ? AND plan_id = ?").bind(orgId, planId).first<ScheduleRow>();
  return row ? toSchedule(row) : null;
}

export async function countLiveSchedules(db: D1Queries, orgId: string): Promise<number> {
  return (await db.prepare("SELECT COUNT(*) AS n FROM plan_schedules WHERE org_id = ? AND status IN ('active', 'paused')").bind(orgId).first<number>("n")) ?? 0;
}

/** Writes a schedule set by a person (new, or its series set again). */
export async function saveSchedule(db: D1Queries, s: Schedule): Promise<void> {
  await db
    .prepare(
      `INSERT INTO plan_schedules (series_id, org_id, plan_id, every, start_at, until, due_index, next_due_at, next_run_number, missed_in_a_row, status, created_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (series_id) DO UPDATE SET every = excluded.every, start_at = excluded.start_at, until = excluded.until, due_index = excluded.due_index,
         next_due_at = excluded.next_due_at, missed_in_a_row = excluded.missed_in_a_row, status = excluded.status, updated_at = excluded.updated_at`,
    )
    .bind(s.seriesId, s.orgId, s.planId, s.every, s.startAt, s.until, s.dueIndex, s.nextDueAt, s.nextRunNumber, s.missedInARow, s.status, s.createdBy, s.createdAt, s.updatedAt)
    .run();
}

export async function stopSchedule(db: D1Queries, orgId: string, seriesId: string, now: number): Promise<void> {
  await db.prepare("UPDATE plan_schedules SET status = 'stopped', updated_at = ? WHERE org_id = ? AND series_id = ?").bind(now, orgId, seriesId).run();
}

/** Active series whose next time has come, oldest due first, across the database's orgs (not being erased or imported). */
export async function dueSchedules(db: D1Database, now: number, limit: number): Promise<Schedule[]> {
  const { results } = await db
    .prepare(
      `SELECT s.* FROM plan_schedules s JOIN orgs o ON o.id = s.org_id AND o.erasing_since IS NULL AND o.importing_since IS NULL
        WHERE s.status = 'active' AND s.next_due_at <= ? ORDER BY s.next_due_at, s.series_id LIMIT ?`,
    )
    .bind(now, limit)
    .all<ScheduleRow>();
  return results.map(toSchedule);
}

/** The series' latest run, and whether anybody started it. */
export async function latestRun(db: D1Database, seriesId: string): Promise<{ runNumber: number; status: RunStatus; started: boolean; planId: string } | null> {
  const row = await db
    .prepare(
      `SELECT r.run_number, r.status, r.plan_id, ${STARTED} AS started FROM plan_series_runs r LEFT JOIN plans p ON p.plan_id = r.plan_id AND p.org_id = r.org_id
        WHERE r.series_id = ? ORDER BY r.run_number DESC LIMIT 1`,
    )
    .bind(seriesId)
    .first<{ run_number: number; status: string; plan_id: string; started: number }>();
  return row ? { runNumber: row.run_number, status: row.status as RunStatus, started: row.started === 1, planId: row.plan_id } : null;
}

export interface ClaimedRun {
  seriesId: string;
  orgId: string;
  runNumber: number;
  planId: string;
  dueAt: number;
}

/**
 * Takes the series' next run in one transaction: the schedule moves on only if it still stands where the tick read
 * it, the run's row is inserted (its key (series_id, run_number) refuses a second one: the whole batch then fails and
 * nothing is written), and the previous run is settled. False when another tick took it.
 */
export async function claimRun(db: D1Database, before: Schedule, after: Schedule, run: ClaimedRun | null, previous: { runNumber: number; status: RunStatus } | null, now: number): Promise<boolean> {
  const statements = [
    db
      .prepare(
        `UPDATE plan_schedules SET due_index = ?, next_due_at = ?, next_run_number = ?, missed_in_a_row = ?, status = ?, updated_at = ?
          WHERE series_id = ? AND next_run_number = ? AND due_index = ? AND status = 'active'`,
      )
      .bind(after.dueIndex, after.nextDueAt, after.nextRunNumber, after.missedInARow, after.status, now, before.seriesId, before.nextRunNumber, before.dueIndex),
  ];
  if (run) {
    statements.push(
      db
        .prepare("INSERT INTO plan_series_runs (series_id, run_number, org_id, plan_id, due_at, status, plan_created, created_at) VALUES (?, ?, ?, ?, ?, 'due', 0, ?)")
        .bind(run.seriesId, run.runNumber, run.orgId, run.planId, run.dueAt, now),
    );
  }
  if (previous) {
    statements.push(db.prepare("UPDATE plan_series_runs SET status = ? WHERE series_id = ? AND run_number = ? AND status = 'due'").bind(previous.status, before.seriesId, previous.runNumber));
  }
  try {
    const [moved] = await db.batch(statements);
    return (moved?.meta.changes ?? 0) === 1;
  } catch (error) {
    if (String(error).includes("UNIQUE constraint failed")) return false;
    throw error;
  }
}

/** Runs whose plan a tick did not get to create (it stopped between the two), oldest first. */
export async function runsWithoutPlan(db: D1Database, limit: number): Promise<ClaimedRun[]> {
  const { results } = await db
    .prepare("SELECT series_id, run_number, org_id, plan_id, due_at FROM plan_series_runs WHERE plan_created = 0 ORDER BY created_at LIMIT ?")
    .bind(limit)
    .all<{ series_id: string; run_number: number; org_id: string; plan_id: string; due_at: number }>();
  return results.map((row) => ({ seriesId: row.series_id, runNumber: row.run_number, orgId: row.org_id, planId: row.plan_id, dueAt: row.due_at }));
}

/** The run's plan exists: marked so, with the event announcing it in the outbox, in one batch. */
export async function markRunCreated(db: D1Database, run: ClaimedRun, event: WebhookEvent, now: number): Promise<void> {
  await db.batch([
    db.prepare("UPDATE plan_series_runs SET plan_created = 1 WHERE series_id = ? AND run_number = ?").bind(run.seriesId, run.runNumber),
    recordWebhookEvent(db, event, now, now + 60_000),
  ]);
}

/** A run whose series' plan is gone: the run is dropped and its schedule stopped, in one batch. */
export async function abandonRun(db: D1Database, run: ClaimedRun, now: number): Promise<void> {
  await db.batch([
    db.prepare("DELETE FROM plan_series_runs WHERE series_id = ? AND run_number = ? AND plan_created = 0").bind(run.seriesId, run.runNumber),
    db.prepare("UPDATE plan_schedules SET status = 'stopped', updated_at = ? WHERE series_id = ?").bind(now, run.seriesId),
  ]);
}

/** The series reader operations use. */
export function d1PlanSeries(db: D1Queries): PlanSeriesReader {
  return {
    async ofPlan(orgId, planId): Promise<SeriesLink | null> {
      const own = await scheduleOfSeriesPlan(db, orgId, planId);
      if (own) return { schedule: own, runNumber: 0, run: null };
      const row = await db
        .prepare(
          `SELECT s.*, r.run_number AS r_number, r.status AS r_status, r.due_at AS r_due_at FROM plan_series_runs r JOIN plan_schedules s ON s.series_id = r.series_id
            WHERE r.org_id = ? AND r.plan_id = ?`,
        )
        .bind(orgId, planId)
        .first<ScheduleRow & { r_number: number; r_status: string; r_due_at: number }>();
      return row ? { schedule: toSchedule(row), runNumber: row.r_number, run: { status: row.r_status as RunStatus, dueAt: row.r_due_at } } : null;
    },
    async previousDeliverable(orgId, planId) {
      const run = await db.prepare("SELECT series_id, run_number FROM plan_series_runs WHERE org_id = ? AND plan_id = ?").bind(orgId, planId).first<{ series_id: string; run_number: number }>();
      if (!run) return null;
      const row = await db
        .prepare(
          `WITH earlier(plan_id, n) AS (
             SELECT plan_id, run_number FROM plan_series_runs WHERE org_id = ?1 AND series_id = ?2 AND run_number < ?3
             UNION ALL SELECT plan_id, 0 FROM plan_schedules WHERE org_id = ?1 AND series_id = ?2)
           SELECT o.id, o.plan_id FROM earlier e JOIN research_outputs o ON o.org_id = ?1 AND o.plan_id = e.plan_id
            ORDER BY e.n DESC, o.created_at DESC, o.id DESC LIMIT 1`,
        )
        .bind(orgId, run.series_id, run.run_number)
        .first<{ id: string; plan_id: string }>();
      return row ? { outputId: row.id, planId: row.plan_id } : null;
    },
  };
}

/** The series' latest runs, newest first, each as it stands now (runStanding: its plan says whether it started or ended). */
export async function recentRuns(db: D1Queries, orgId: string, seriesId: string, limit: number): Promise<{ runNumber: number; planId: string; dueAt: number; status: RunStanding }[]> {
  const { results } = await db
    .prepare(
      `SELECT r.run_number, r.plan_id, r.due_at, r.status, p.status AS plan_status, ${STARTED} AS started FROM plan_series_runs r
        LEFT JOIN plans p ON p.plan_id = r.plan_id AND p.org_id = r.org_id
        WHERE r.org_id = ? AND r.series_id = ? AND r.plan_created = 1 ORDER BY r.run_number DESC LIMIT ?`,
    )
    .bind(orgId, seriesId, limit)
    .all<{ run_number: number; plan_id: string; due_at: number; status: string; plan_status: string | null; started: number }>();
  return results.map((row) => ({
    runNumber: row.run_number,
    planId: row.plan_id,
    dueAt: row.due_at,
    status: runStanding(row.status as RunStatus, row.plan_status === null ? null : { status: row.plan_status, started: row.started === 1 }),
  }));
}
