import { notFound, validationError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import { assertPerson } from "../../domain/person-actions";
import { applyScheduleRequest, assertScheduleRoom, parseScheduleRequest, type Schedule, type SeriesLink } from "../../domain/plans/schedule";
import { scheduleNeedsPerson, scheduleRefusal } from "../../domain/plans/spend-gate";
import type { Principal } from "../../domain/principal";
import type { Env } from "../../env";
import { countLiveSchedules, d1PlanSeries, recentRuns, saveSchedule, scheduleOfSeriesPlan, stopSchedule } from "../../storage/plan-schedules";
import { durablePlanEngine } from "../../storage/plan-engine";
import { homeDatabase } from "../org-homes";
import { webServices } from "../runtime";

/** Setting, reading and stopping a plan's schedule: one way for REST and the dashboard. */

const RUNS_SHOWN = 20;

export interface ScheduleView {
  seriesId: string;
  planId: string;
  every: Schedule["every"];
  startAt: string;
  until: string | null;
  status: Schedule["status"];
  nextDueAt: string | null;
  missedInARow: number;
  /** This plan's place in the series: 0 for the series' own plan. */
  runNumber: number;
  runs: { runNumber: number; planId: string; dueAt: string; status: string }[];
}

const iso = (ms: number) => new Date(ms).toISOString();

async function viewOf(env: Env, link: SeriesLink): Promise<ScheduleView> {
  const { schedule } = link;
  const runs = await recentRuns(await homeDatabase(env, schedule.orgId), schedule.orgId, schedule.seriesId, RUNS_SHOWN);
  return {
    seriesId: schedule.seriesId,
    planId: schedule.planId,
    every: schedule.every,
    startAt: iso(schedule.startAt),
    until: schedule.until === null ? null : iso(schedule.until),
    status: schedule.status,
    nextDueAt: schedule.status === "active" ? iso(schedule.nextDueAt) : null,
    missedInARow: schedule.missedInARow,
    runNumber: link.runNumber,
    runs: runs.map((run) => ({ runNumber: run.runNumber, planId: run.planId, dueAt: iso(run.dueAt), status: run.status })),
  };
}

/** The schedule of the plan's series (the plan's own, or the series it is a run of); not_found when it has none. */
export async function getSchedule(env: Env, orgId: string, planId: string): Promise<ScheduleView> {
  const link = await d1PlanSeries(await homeDatabase(env, orgId)).ofPlan(orgId, planId);
  if (!link) {
    await durablePlanEngine(env, (id) => homeDatabase(env, id)).read(orgId, planId, false);
    throw notFound("schedule on plan", planId);
  }
  return viewOf(env, link);
}

/** Sets the plan's schedule (new, or its series set again, which resumes a paused one). `body`: the parsed JSON. */
export async function putSchedule(env: Env, principal: Principal, planId: string, body: unknown): Promise<{ created: boolean; schedule: ScheduleView }> {
  const { orgId } = principal;
  const { services, home, now, origin } = await webServices(env, orgId);
  const at = now();
  const request = parseScheduleRequest(body, at);
  // The plan must exist in this org (not_found otherwise, like any plan of another org).
  const plan = await services.plans.read(orgId, planId, false);
  // The spend gate: a plan waiting for approval, rejected or cancelled is not copied; where its runs need approval, a person schedules it.
  const refused = scheduleRefusal(plan);
  if (refused) throw refused;
  if (scheduleNeedsPerson(await services.orgSettings.planApproval(orgId), plan)) {
    assertPerson(principal, "schedule_with_approval", `${origin}/dashboard/plans/${encodeURIComponent(planId)}`);
  }
  const link = await services.series.ofPlan(orgId, planId);
  if (link && link.runNumber > 0) {
    throw validationError(`Plan ${planId} is run ${link.runNumber} of the series of plan ${link.schedule.planId}; set the schedule on that plan.`, [{ path: "planId", message: "A run of a series" }]);
  }
  const existing = await scheduleOfSeriesPlan(home, orgId, planId);
  if (!existing || existing.status === "stopped" || existing.status === "ended") assertScheduleRoom(await countLiveSchedules(home, orgId));
  const schedule = applyScheduleRequest(existing, request, { seriesId: newId("ser"), orgId, planId, userId: principal.userId }, at);
  await saveSchedule(home, schedule);
  await services.audit.record({
    orgId,
    actorUserId: principal.userId,
    actorClientId: principal.clientId ?? principal.apiKeyId ?? null,
    action: "plan.schedule_set",
    targetType: "plan",
    targetId: planId,
    detail: { seriesId: schedule.seriesId, every: schedule.every, startAt: schedule.startAt, until: schedule.until },
  });
  return { created: existing === null, schedule: await viewOf(env, { schedule, runNumber: 0, run: null }) };
}

/** Stops the plan's schedule: no further runs (the runs made stay). not_found when the plan has none running. */
export async function deleteSchedule(env: Env, principal: Principal, planId: string): Promise<void> {
  const { orgId } = principal;
  const { services, home, now } = await webServices(env, orgId);
  const existing = await scheduleOfSeriesPlan(home, orgId, planId);
  if (!existing || existing.status === "stopped") {
    await services.plans.read(orgId, planId, false);
    throw notFound("schedule on plan", planId);
  }
  await stopSchedule(home, orgId, existing.seriesId, now());
  await services.audit.record({
    orgId,
    actorUserId: principal.userId,
    actorClientId: principal.clientId ?? principal.apiKeyId ?? null,
    action: "plan.schedule_stopped",
    targetType: "plan",
    targetId: planId,
    detail: { seriesId: existing.seriesId },
  });
}
