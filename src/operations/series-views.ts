import { z } from "zod";
import type { PlanState } from "../domain/plans/model";
import { runStanding, type SeriesLink } from "../domain/plans/schedule";

/** A plan's place in a scheduled series, as get_plan_status shows it (the schedule itself: REST /plans/{planId}/schedule). */
export const SeriesView = z.object({
  seriesId: z.string(),
  /** 0: the series' own plan; 1, 2, …: the runs the schedule made. */
  runNumber: z.number(),
  every: z.string(),
  /** The schedule's: active, paused (after missed runs), ended or stopped. */
  status: z.string(),
  nextDueAt: z.string().nullable(),
  /** This run's: due (nobody started it yet), started, missed, or how its plan ended (completed, failed, cancelled). */
  run: z.string().optional(),
});

/** Whether anybody started the plan: a step left pending, or the plan left the statuses a new run waits in. */
export const planStarted = (state: PlanState): boolean =>
  state.steps.some((step) => step.status !== "pending") || !["active", "awaiting_review", "stalled"].includes(state.plan.status);

/** `state`: the run's own plan, read already, so the run reads as it stands now (runStanding). */
export const seriesView = (link: SeriesLink, state?: PlanState): z.infer<typeof SeriesView> => ({
  seriesId: link.schedule.seriesId,
  runNumber: link.runNumber,
  every: link.schedule.every,
  status: link.schedule.status,
  nextDueAt: link.schedule.status === "active" ? new Date(link.schedule.nextDueAt).toISOString() : null,
  ...(link.run ? { run: runStanding(link.run.status, state ? { status: state.plan.status, started: planStarted(state) } : null) } : {}),
});

/** What changed since the previous run's deliverable (src/domain/research/changes.ts), for a person to read. */
export const ChangesView = z.object({
  summary: z.string(),
  sections: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }),
  claims: z.object({ new: z.array(z.string()), dropped: z.array(z.string()), changed: z.array(z.object({ before: z.string(), after: z.string() })) }),
  sources: z.object({ new: z.array(z.string()), gone: z.array(z.string()) }),
  numbers: z.array(z.object({ before: z.string(), after: z.string(), context: z.string() })),
  clipped: z.boolean(),
});
