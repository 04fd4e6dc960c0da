import { isCairnError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import type { Actor, PlanState } from "../../domain/plans/model";
import { decideTick, runPlanName, SCHEDULE_LIMITS, type Schedule } from "../../domain/plans/schedule";
import { scheduledRunInput, scheduleRefusal } from "../../domain/plans/spend-gate";
import type { WebhookEvent } from "../../domain/webhooks/events";
import type { Env } from "../../env";
import { d1EvidenceLedger } from "../../storage/ledger-repository";
import { d1OrgSettings } from "../../storage/org-settings";
import { durablePlanEngine } from "../../storage/plan-engine";
import { abandonRun, type ClaimedRun, claimRun, dueSchedules, latestRun, markRunCreated, runsWithoutPlan } from "../../storage/plan-schedules";
import { bindingOf } from "../org-homes";
import { outboxPublisher } from "../webhooks/producer";
import { homeDatabaseNames } from "../webhooks/sweeper";
import { log } from "../log";

/** Who the runs' plans are made and missed runs cancelled by: the schedule's author, through the scheduler. */
const schedulerActor = (schedule: Pick<Schedule, "createdBy">): Actor => ({ userId: schedule.createdBy, clientId: "cairn-schedule" });

export interface ScheduleTick {
  runs: number;
  missed: number;
  paused: number;
}

/**
 * The five-minute cron: every database's due series, at most SCHEDULE_LIMITS.seriesPerTick a tick (oldest due first;
 * the rest are the next tick's). Each due series gets one run (claimRun's key makes a second tick, or a concurrent
 * one, create none), its previous run settled; then the run's plan is created and `plan.scheduled_run_due` announced.
 * One series' failure never stops the others.
 */
export async function runDueSchedules(env: Env, now: number): Promise<ScheduleTick> {
  const tick: ScheduleTick = { runs: 0, missed: 0, paused: 0 };
  let budget: number = SCHEDULE_LIMITS.seriesPerTick;
  for (const name of await homeDatabaseNames(env)) {
    if (budget <= 0) break;
    let db: D1Database;
    try {
      db = bindingOf(env, name);
      // Runs an earlier tick claimed and did not finish come first.
      for (const run of await runsWithoutPlan(db, budget)) {
        budget--;
        await finishRun(env, db, run, now).catch((error: unknown) => log("warn", "scheduled run not created; the next tick tries again", { seriesId: run.seriesId, runNumber: run.runNumber, error: String(error) }));
      }
      for (const schedule of await dueSchedules(db, now, Math.max(0, budget))) {
        budget--;
        try {
          await tickSeries(env, db, schedule, now, tick);
        } catch (error) {
          log("warn", "scheduled series not advanced; the next tick tries again", { seriesId: schedule.seriesId, error: String(error) });
        }
      }
    } catch (error) {
      log("error", "scheduled runs skipped for a database", { database: name, error: String(error) });
    }
  }
  if (tick.runs || tick.missed || tick.paused) log("info", "scheduled runs", { ...tick });
  return tick;
}

async function tickSeries(env: Env, db: D1Database, schedule: Schedule, now: number, tick: ScheduleTick): Promise<void> {
  const previous = await latestRun(db, schedule.seriesId);
  const decision = decideTick(schedule, previous, now);
  if (decision.kind === "wait") return;
  const run: ClaimedRun | null =
    decision.kind === "run" ? { seriesId: schedule.seriesId, orgId: schedule.orgId, runNumber: decision.run.runNumber, planId: newId("plan"), dueAt: decision.run.dueAt } : null;
  const settled = decision.kind === "end" ? null : decision.previous;
  if (!(await claimRun(db, schedule, decision.schedule, run, settled, now))) return;
  if (settled?.status === "missed" && previous) {
    tick.missed++;
    // A missed run leaves the list of open plans: runs never pile up there.
    await durablePlanEngine(env, () => db)
      .run(schedule.orgId, previous.planId, { kind: "cancel", reason: `Missed: nobody started run ${previous.runNumber} before the next run was due.` }, schedulerActor(schedule), now)
      .catch((error: unknown) => log("warn", "missed run's plan not cancelled", { planId: previous.planId, error: String(error) }));
  }
  if (decision.kind === "pause") tick.paused++;
  if (run) {
    tick.runs++;
    await finishRun(env, db, run, now);
  }
}

/** Creates the run's plan, a copy of the series' plan as it stands, then marks the run created and announces it. */
async function finishRun(env: Env, db: D1Database, run: ClaimedRun, now: number): Promise<void> {
  const schedule = await db.prepare("SELECT plan_id, created_by, every FROM plan_schedules WHERE series_id = ?").bind(run.seriesId).first<{ plan_id: string; created_by: string; every: string }>();
  if (!schedule) return;
  const plans = durablePlanEngine(env, () => db);
  let source: PlanState;
  try {
    source = await plans.read(run.orgId, schedule.plan_id, false);
  } catch (error) {
    if (!(isCairnError(error) && error.code === "not_found")) throw error;
    // The series' plan is gone: the schedule stops rather than failing every tick.
    await abandonRun(db, run, Date.now());
    log("warn", "scheduled series stopped: its plan is gone", { seriesId: run.seriesId });
    return;
  }
  // The series' plan was since cancelled, or its approval rejected or asked again: no run copies it.
  const refused = scheduleRefusal(source);
  if (refused) {
    await abandonRun(db, run, Date.now());
    log("warn", "scheduled series stopped: its plan may not be copied", { seriesId: run.seriesId, reason: refused.message });
    return;
  }
  // May this run spend: the one gate (the org's approval or the series plan's own; the plan's budget carried).
  const input = scheduledRunInput(source, run, await d1OrgSettings(env.DB).planApproval(run.orgId), now);
  try {
    await plans.run(run.orgId, run.planId, { kind: "create", input }, schedulerActor({ createdBy: schedule.created_by }), now);
  } catch (error) {
    // A tick that stopped after creating the plan: it exists, so the run is finished below.
    if (!String(error).includes("already exists")) throw error;
  }
  const policy = (await d1EvidenceLedger(db).header(run.orgId, schedule.plan_id))?.citationPolicy;
  if (policy) await d1EvidenceLedger(db).ensure(run.orgId, run.planId, policy, [], now);
  const event: WebhookEvent = {
    // One id per run: a retried finish records the same event, which the outbox and receivers drop.
    eventId: `msg_run_${run.seriesId}_${run.runNumber}`,
    orgId: run.orgId,
    type: "plan.scheduled_run_due",
    occurredAt: now,
    data: {
      planId: run.planId,
      name: runPlanName(source.plan.name, run.runNumber),
      researchQuestion: source.plan.researchQuestion,
      seriesId: run.seriesId,
      seriesPlanId: schedule.plan_id,
      runNumber: run.runNumber,
      every: schedule.every,
      dueAt: new Date(run.dueAt).toISOString(),
      // Who the run concerns: the schedule's author and the series plan's.
      ownerUserIds: [...new Set([schedule.created_by, source.plan.createdBy.userId])],
    },
  };
  await markRunCreated(db, run, event, now);
  await outboxPublisher(env.WEBHOOK_QUEUE, db).publish([event]);
}
