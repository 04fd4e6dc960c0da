import { conflict, validationError, type ValidationIssue } from "../errors";

/**
 * Scheduled re-runs of a plan (a series): when each run is due, and what a cron tick does with a series.
 * Pure; the D1 adapter is src/storage/plan-schedules.ts and the cron src/platform/schedules/cron.ts.
 */

export const SCHEDULE_INTERVALS = ["day", "week", "month"] as const;
export type ScheduleInterval = (typeof SCHEDULE_INTERVALS)[number];

export const SCHEDULE_LIMITS = {
  /** Schedules (active or paused) one org may keep. */
  perOrg: 50,
  /** Series one cron tick handles; the rest, oldest due first, are the next tick's. */
  seriesPerTick: 100,
  /** Runs nobody started, one after another, before the series pauses (a PUT resumes it). */
  missedBeforePause: 3,
} as const;

/** active: runs are created when due; paused: after missed runs, until set again; ended: past `until`; stopped: DELETE. */
export type ScheduleStatus = "active" | "paused" | "ended" | "stopped";
export type RunStatus = "due" | "started" | "missed";

export interface Schedule {
  seriesId: string;
  orgId: string;
  /** The series' plan, whose question, steps and settings each run copies. */
  planId: string;
  every: ScheduleInterval;
  startAt: number;
  until: number | null;
  /** Index of the next due time: startAt plus this many intervals. */
  dueIndex: number;
  nextDueAt: number;
  nextRunNumber: number;
  missedInARow: number;
  status: ScheduleStatus;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

export interface ScheduleRequest {
  every: ScheduleInterval;
  startAt: number;
  until: number | null;
}

const DAY_MS = 86_400_000;
/** ISO 8601 date-time with a time zone (Z or ±hh:mm), or a plain date (midnight UTC). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
/** How far ahead a start or end may be set: far enough for any plan, near enough to catch a typo'd year. */
const MAX_AHEAD_MS = 5 * 366 * DAY_MS;

function parseTime(value: unknown, path: string, issues: ValidationIssue[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || !ISO_TIME.test(value) || Number.isNaN(Date.parse(value))) {
    issues.push({ path, message: "An ISO 8601 time with a time zone, e.g. 2026-12-01T09:00:00Z" });
    return undefined;
  }
  return Date.parse(value);
}

/**
 * The body of `PUT /plans/{planId}/schedule`: `{ every, startAt?, until? }`. Without startAt the first run is due
 * one interval from now (the plan itself is the series' current run).
 */
export function parseScheduleRequest(body: unknown, now: number): ScheduleRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("The body must be a JSON object: { every, startAt?, until? }.");
  const record = body as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const unknown = Object.keys(record).filter((key) => !["every", "startAt", "until"].includes(key));
  for (const key of unknown) issues.push({ path: key.slice(0, 40), message: "Not a field (every, startAt, until)" });
  const every = record.every;
  if (!SCHEDULE_INTERVALS.includes(every as ScheduleInterval)) issues.push({ path: "every", message: `One of ${SCHEDULE_INTERVALS.join(", ")}` });
  const startAt = parseTime(record.startAt, "startAt", issues);
  const until = parseTime(record.until, "until", issues);
  if (startAt !== undefined && startAt > now + MAX_AHEAD_MS) issues.push({ path: "startAt", message: "At most five years ahead" });
  if (until !== undefined && until > now + MAX_AHEAD_MS) issues.push({ path: "until", message: "At most five years ahead" });
  if (issues.length > 0) throw validationError(`The schedule is not valid: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}.`, issues);
  const interval = every as ScheduleInterval;
  const start = startAt ?? dueTime(now, interval, 1);
  if (until !== undefined && until <= start) {
    throw validationError("until must be after startAt (the first run's due time).", [{ path: "until", message: "After startAt" }]);
  }
  if (until !== undefined && until <= now) throw validationError("until must be in the future.", [{ path: "until", message: "In the future" }]);
  return { every: interval, startAt: start, until: until ?? null };
}

/** The `index`-th due time from `startAt`: days and weeks by the clock, months by the calendar (31 Jan → 28/29 Feb). */
export function dueTime(startAt: number, every: ScheduleInterval, index: number): number {
  if (every === "day") return startAt + index * DAY_MS;
  if (every === "week") return startAt + index * 7 * DAY_MS;
  const start = new Date(startAt);
  const monthIndex = start.getUTCMonth() + index;
  const year = start.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(start.getUTCDate(), lastDay), start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds());
}

/** The latest due index at or before `now`, from `fromIndex` on (a tick that comes late makes one run, for the latest time). */
export function latestDueIndex(startAt: number, every: ScheduleInterval, fromIndex: number, now: number): number | null {
  if (dueTime(startAt, every, fromIndex) > now) return null;
  const approx = every === "day" ? DAY_MS : every === "week" ? 7 * DAY_MS : 28 * DAY_MS;
  // Months vary in length: start at an estimate that never overshoots by more than a few, then walk.
  let index = Math.max(fromIndex, fromIndex + Math.floor((now - dueTime(startAt, every, fromIndex)) / approx) - 2);
  while (dueTime(startAt, every, index) > now) index--;
  while (dueTime(startAt, every, index + 1) <= now) index++;
  return Math.max(index, fromIndex);
}

/** A new schedule on a plan, or the same series set again (a PUT): the interval and times replaced, missed runs forgiven. */
export function applyScheduleRequest(existing: Schedule | null, request: ScheduleRequest, ids: { seriesId: string; orgId: string; planId: string; userId: string }, now: number): Schedule {
  const latest = latestDueIndex(request.startAt, request.every, 0, now);
  // A new series whose start has passed is due at once, for its latest time (never a pile of runs for the past); a
  // series set again waits for its next time after now, so it never makes a second run for a time already run.
  const dueIndex = latest === null ? 0 : existing === null ? latest : latest + 1;
  const base = {
    every: request.every,
    startAt: request.startAt,
    until: request.until,
    dueIndex,
    nextDueAt: dueTime(request.startAt, request.every, dueIndex),
    missedInARow: 0,
    status: "active" as const,
    updatedAt: now,
  };
  if (existing) return { ...existing, ...base };
  return { seriesId: ids.seriesId, orgId: ids.orgId, planId: ids.planId, nextRunNumber: 1, createdBy: ids.userId, createdAt: now, ...base };
}

/** Whether the org may add one more schedule. */
export function assertScheduleRoom(activeSchedules: number): void {
  if (activeSchedules >= SCHEDULE_LIMITS.perOrg) {
    throw conflict(`This organization has ${SCHEDULE_LIMITS.perOrg} schedules, the most it may keep; stop one (DELETE /plans/{planId}/schedule) before adding another.`);
  }
}

/** The previous run as the cron sees it when the next is due: whether anybody started it. */
export interface PreviousRun {
  runNumber: number;
  status: RunStatus;
  started: boolean;
}

/** What one tick does with a due series. */
export type TickDecision =
  | { kind: "wait" }
  | { kind: "end"; schedule: Schedule }
  | { kind: "pause"; schedule: Schedule; previous: { runNumber: number; status: RunStatus } | null }
  | { kind: "run"; schedule: Schedule; run: { runNumber: number; dueAt: number }; previous: { runNumber: number; status: RunStatus } | null };

/**
 * A tick for an active series whose next time has come: the previous run, if still due, is settled (started, or
 * missed if nobody started it); after SCHEDULE_LIMITS.missedBeforePause missed runs in a row the series pauses;
 * otherwise one run is created for the latest due time not after `now`, and the next due time follows it.
 */
export function decideTick(schedule: Schedule, previous: PreviousRun | null, now: number): TickDecision {
  if (schedule.status !== "active") return { kind: "wait" };
  const index = latestDueIndex(schedule.startAt, schedule.every, schedule.dueIndex, now);
  if (index === null) return { kind: "wait" };
  const dueAt = dueTime(schedule.startAt, schedule.every, index);
  if (schedule.until !== null && dueAt > schedule.until) return { kind: "end", schedule: { ...schedule, status: "ended", updatedAt: now } };
  const settled = previous && previous.status === "due" ? { runNumber: previous.runNumber, status: (previous.started ? "started" : "missed") as RunStatus } : null;
  const missedInARow = settled ? (settled.status === "missed" ? schedule.missedInARow + 1 : 0) : schedule.missedInARow;
  if (missedInARow >= SCHEDULE_LIMITS.missedBeforePause) {
    return { kind: "pause", schedule: { ...schedule, status: "paused", missedInARow, updatedAt: now }, previous: settled };
  }
  const nextDueAt = dueTime(schedule.startAt, schedule.every, index + 1);
  const ended = schedule.until !== null && nextDueAt > schedule.until;
  return {
    kind: "run",
    schedule: { ...schedule, dueIndex: index + 1, nextDueAt, nextRunNumber: schedule.nextRunNumber + 1, missedInARow, status: ended ? "ended" : "active", updatedAt: now },
    run: { runNumber: schedule.nextRunNumber, dueAt },
    previous: settled,
  };
}

/** What a person reads of a run: how its plan ended once it has, "started" once anybody started it, else the cron's word. */
export type RunStanding = RunStatus | "completed" | "failed" | "cancelled";

const FINISHED_PLAN = new Set(["completed", "failed", "cancelled"]);

/**
 * A run as it stands now. The cron settles a run (started or missed) only when the next is due, a day to a month
 * later; until then the stored word is "due" though an assistant may have started it, or finished it. The run's
 * plan says which: finished (its plan's end), started (a step claimed or finished, or the plan left its waiting
 * statuses), else what the cron stored. A run missed and run later reads as its plan ended; one missed and
 * cancelled by the cron reads missed.
 */
export function runStanding(stored: RunStatus, plan: { status: string; started: boolean } | null): RunStanding {
  if (!plan) return stored;
  // The cron cancels a run it marks missed: that run reads missed; one run after all reads as it ended.
  if (stored === "missed" && plan.status === "cancelled") return stored;
  if (FINISHED_PLAN.has(plan.status)) return plan.status as RunStanding;
  return stored === "due" && plan.started ? "started" : stored;
}

/** The run's plan name: the series' name with its run number, within the plan name's 200 characters. */
export function runPlanName(seriesName: string, runNumber: number): string {
  const suffix = ` · run ${runNumber}`;
  const base = seriesName.replace(/ · run \d+$/, "");
  return `${base.slice(0, 200 - suffix.length)}${suffix}`;
}

/** How a plan belongs to a series: the series' own plan (run 0) or one of its runs. */
export interface SeriesLink {
  schedule: Schedule;
  runNumber: number;
  /** The run's state; null for the series' own plan. */
  run: { status: RunStatus; dueAt: number } | null;
}

/** What operations read of series (the D1 adapter: src/storage/plan-schedules.ts). */
export interface PlanSeriesReader {
  ofPlan(orgId: string, planId: string): Promise<SeriesLink | null>;
  /** The latest deliverable of an earlier run of the plan's series (the series' own plan counting as run 0). */
  previousDeliverable(orgId: string, planId: string): Promise<{ outputId: string; planId: string } | null>;
}
