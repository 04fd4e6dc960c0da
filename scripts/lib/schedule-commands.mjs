/**
 * The operator CLI's `plans schedule` and `plans unschedule`: their usage, help and output. The calls are in
 * schedules.mjs (through the Worker's /api/v1/plans/{planId}/schedule, as an admin of the plan's org).
 */
import * as schedules from "./schedules.mjs";

const EVERY = ["day", "week", "month"];

/**
 * @param {(o: Record<string, any>, value: unknown, text: () => string) => void} emit how a command prints (text, or --json)
 * @param {new (message: string) => Error} UsageError the usage error class (exit code 2)
 */
export function scheduleCommands(emit, UsageError) {
  return {
    "plans schedule": {
      usage: "plans schedule PLAN_ID --every day|week|month [--start ISO_TIME] [--until ISO_TIME] [--org SLUG] [--url URL]",
      summary: "re-run a plan on a schedule (each run a new plan, made by the cron when due)",
      positionals: ["plan"],
      flags: ["every", "start", "until", "org", "url"],
      required: ["every"],
      details: `At each due time the Worker's five-minute cron creates the next run: a new plan with the plan's question
and steps, waiting for an assistant. --start: the first run's due time (default: one interval from now);
--until: no run is due after it. Times are ISO 8601 with a zone (2026-12-01T09:00:00Z). A run nobody starts
before the next is due is marked missed; after 3 missed in a row the schedule pauses (run this again to resume).
At most 50 schedules per org. --org: the plan's org (found from the plan when it lives in the directory database).
Runs through the Worker, like export: locally the server running on the same state (npm start), else a wrangler dev started for it (or --url a running one).`,
      run: async (o, t) => {
        if (!o.plan) throw new UsageError("give the plan's id: plans schedule PLAN_ID --every ….");
        if (!EVERY.includes(o.every)) throw new UsageError(`--every is one of ${EVERY.join(", ")}.`);
        const r = await schedules.schedulePlan({ ...o, ...t });
        const s = r.schedule;
        emit(o, r, () => `Plan ${o.plan} runs every ${s.every}${s.nextDueAt ? `; next run due ${s.nextDueAt}` : ""}${s.until ? `, until ${s.until}` : ""} (series ${s.seriesId}).`);
      },
    },
    "plans unschedule": {
      usage: "plans unschedule PLAN_ID [--org SLUG] [--url URL]",
      summary: "stop a plan's schedule (the runs made stay)",
      positionals: ["plan"],
      flags: ["org", "url"],
      required: [],
      run: async (o, t) => {
        if (!o.plan) throw new UsageError("give the plan's id: plans unschedule PLAN_ID.");
        await schedules.unschedulePlan({ ...o, ...t });
        emit(o, { planId: o.plan, stopped: true }, () => `Plan ${o.plan}'s schedule is stopped: no further runs.`);
      },
    },
  };
}
