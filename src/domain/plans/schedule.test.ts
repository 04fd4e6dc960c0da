import { describe, expect, it } from "vitest";
import type { CairnError } from "../errors";
import { applyScheduleRequest, assertScheduleRoom, decideTick, dueTime, latestDueIndex, parseScheduleRequest, runPlanName, runStanding, SCHEDULE_LIMITS } from "./schedule";

const NOW = Date.UTC(2026, 10, 28, 9);
const DAY = 86_400_000;
const ids = { seriesId: "ser_1", orgId: "org_1", planId: "plan_1", userId: "usr_1" };

const issuesOf = (body: unknown) => {
  try {
    parseScheduleRequest(body, NOW);
  } catch (error) {
    return (error as CairnError).details.issues?.map((issue) => issue.path);
  }
  return [];
};

describe("schedules", () => {
  it("takes { every, startAt?, until? } and refuses anything else with the field named", () => {
    expect(parseScheduleRequest({ every: "week" }, NOW)).toEqual({ every: "week", startAt: NOW + 7 * DAY, until: null });
    expect(parseScheduleRequest({ every: "day", startAt: "2026-12-01T09:00:00Z", until: "2026-12-31" }, NOW)).toEqual({ every: "day", startAt: Date.UTC(2026, 11, 1, 9), until: Date.UTC(2026, 11, 31) });
    expect(issuesOf({ every: "hour" })).toEqual(["every"]);
    expect(issuesOf({ every: "day", startAt: "tomorrow" })).toEqual(["startAt"]);
    expect(issuesOf({ every: "day", startAt: "2026-12-01T09:00:00" })).toEqual(["startAt"]);
    expect(issuesOf({ every: "day", cron: "* * *" })).toEqual(["cron"]);
    expect(issuesOf({ every: "day", startAt: "2026-12-02T00:00:00Z", until: "2026-12-01T00:00:00Z" })).toEqual(["until"]);
    expect(issuesOf({ every: "day", startAt: "2040-01-01T00:00:00Z" })).toEqual(["startAt"]);
    expect(issuesOf([])).toEqual([]);
  });

  it("counts months by the calendar", () => {
    const jan31 = Date.UTC(2027, 0, 31, 8);
    expect(new Date(dueTime(jan31, "month", 1)).toISOString()).toBe("2027-02-28T08:00:00.000Z");
    expect(new Date(dueTime(jan31, "month", 2)).toISOString()).toBe("2027-03-31T08:00:00.000Z");
    expect(new Date(dueTime(jan31, "month", 13)).toISOString()).toBe("2028-02-29T08:00:00.000Z");
    expect(latestDueIndex(jan31, "month", 0, Date.UTC(2027, 5, 1))).toBe(4);
    expect(latestDueIndex(jan31, "month", 0, jan31 - 1)).toBeNull();
  });

  it("a tick creates one run for the latest due time, never one per missed time", () => {
    const schedule = applyScheduleRequest(null, { every: "day", startAt: NOW - 10 * DAY, until: null }, ids, NOW);
    expect(schedule.nextDueAt).toBe(NOW);
    const first = decideTick(schedule, null, NOW + 3 * DAY + 5);
    expect(first).toMatchObject({ kind: "run", run: { runNumber: 1, dueAt: NOW + 3 * DAY }, schedule: { nextDueAt: NOW + 4 * DAY, nextRunNumber: 2 } });
    if (first.kind !== "run") throw new Error("no run");
    // The same tick again (the cron fired twice) finds nothing due.
    expect(decideTick(first.schedule, { runNumber: 1, status: "due", started: false }, NOW + 3 * DAY + 10)).toEqual({ kind: "wait" });
  });

  it("marks a run nobody started missed when the next is due, and pauses after N missed in a row", () => {
    let schedule = applyScheduleRequest(null, { every: "day", startAt: NOW, until: null }, ids, NOW);
    let previous = null as null | { runNumber: number; status: "due"; started: boolean };
    const kinds: string[] = [];
    for (let day = 0; day < 6; day++) {
      const decision = decideTick(schedule, previous, NOW + day * DAY);
      kinds.push(decision.kind === "run" || decision.kind === "pause" ? `${decision.kind}:${decision.previous?.status ?? "-"}` : decision.kind);
      if (decision.kind !== "run") break;
      schedule = decision.schedule;
      previous = { runNumber: decision.run.runNumber, status: "due", started: false };
    }
    expect(kinds).toEqual(["run:-", "run:missed", "run:missed", "pause:missed"]);
    expect(SCHEDULE_LIMITS.missedBeforePause).toBe(3);
    // A started run resets the count.
    const resumed = applyScheduleRequest({ ...schedule, status: "paused", missedInARow: 3 }, { every: "day", startAt: NOW, until: null }, ids, NOW + 4 * DAY);
    expect(resumed).toMatchObject({ status: "active", missedInARow: 0, nextDueAt: NOW + 5 * DAY, seriesId: "ser_1" });
    const next = decideTick({ ...resumed, missedInARow: 2 }, { runNumber: 3, status: "due", started: true }, NOW + 5 * DAY);
    expect(next).toMatchObject({ kind: "run", previous: { runNumber: 3, status: "started" }, schedule: { missedInARow: 0 } });
  });

  it("ends the series past until", () => {
    const schedule = applyScheduleRequest(null, { every: "week", startAt: NOW, until: NOW + 8 * DAY }, ids, NOW);
    const first = decideTick(schedule, null, NOW);
    expect(first).toMatchObject({ kind: "run", schedule: { status: "active", nextDueAt: NOW + 7 * DAY } });
    if (first.kind !== "run") throw new Error("no run");
    expect(decideTick(first.schedule, null, NOW + 7 * DAY)).toMatchObject({ kind: "run", schedule: { status: "ended" } });
    expect(decideTick({ ...first.schedule, until: NOW + 6 * DAY }, null, NOW + 7 * DAY)).toMatchObject({ kind: "end" });
  });

  it("bounds schedules per org with a clear error, and names runs", () => {
    expect(() => assertScheduleRoom(SCHEDULE_LIMITS.perOrg - 1)).not.toThrow();
    expect(() => assertScheduleRoom(SCHEDULE_LIMITS.perOrg)).toThrow(/50 schedules/);
    expect(runPlanName("[Deep] Batteries · run 3", 4)).toBe("[Deep] Batteries · run 4");
    expect(runPlanName(`[Deep] ${"x".repeat(300)}`, 12)).toHaveLength(200);
  });
});

describe("runStanding", () => {
  it("reads a run by its plan: ended as the plan ended, started once anybody started it, else as the cron stored it", () => {
    expect(runStanding("due", { status: "active", started: false })).toBe("due");
    expect(runStanding("due", { status: "active", started: true })).toBe("started");
    expect(runStanding("due", { status: "completed", started: true })).toBe("completed");
    expect(runStanding("started", { status: "failed", started: true })).toBe("failed");
    expect(runStanding("due", { status: "cancelled", started: false })).toBe("cancelled");
    // The cron cancels the plan of a run it marks missed: still missed. Run after all, it reads as it ended.
    expect(runStanding("missed", { status: "cancelled", started: false })).toBe("missed");
    expect(runStanding("missed", { status: "completed", started: true })).toBe("completed");
    expect(runStanding("missed", { status: "awaiting_review", started: false })).toBe("missed");
    // A run whose plan is gone (erased) keeps the cron's word.
    expect(runStanding("due", null)).toBe("due");
  });
});
