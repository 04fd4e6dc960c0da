import { SCHEDULE_INTERVALS, SCHEDULE_LIMITS } from "../../domain/plans/schedule";
import type { ScheduleView } from "../../platform/schedules/schedules";

// ---------------------------------------------------------------------------
// A plan's schedule (scheduled re-runs) on its page: the series it is in, and the form to set or stop it.

const EVERY_LABELS: Record<(typeof SCHEDULE_INTERVALS)[number], string> = { day: "Every day", week: "Every week", month: "Every month" };
const RUN_LABELS: Record<string, string> = {
  due: "due: waiting for an assistant",
  started: "started",
  missed: "missed: nobody started it",
  completed: "finished",
  failed: "failed",
  cancelled: "cancelled",
};
const STATUS_LABELS: Record<ScheduleView["status"], string> = {
  active: "Active",
  paused: `Paused: ${SCHEDULE_LIMITS.missedBeforePause} runs in a row were not started. Set it again to resume.`,
  ended: "Ended: past its end time",
  stopped: "Stopped",
};

/** `2026-12-01T09:00:00.000Z` → `2026-12-01T09:00` (a datetime-local input's value, read as UTC). */
const inputTime = (iso: string | null) => (iso ? iso.slice(0, 16) : "");
const readable = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

export function PlanScheduleCard(props: { planId: string; schedule: ScheduleView | null; csrf: string; error?: string | null }) {
  const { schedule } = props;
  // A run of a series: it shows its place, and the schedule is set on the series' plan.
  if (schedule && schedule.runNumber > 0) {
    return (
      <section class="card" id="plan-schedule">
        <h2>Schedule</h2>
        <p>
          Run {schedule.runNumber} of a series: <a href={`/dashboard/plans/${schedule.planId}`}>its plan</a> sets the schedule ({EVERY_LABELS[schedule.every].toLowerCase()}).
        </p>
      </section>
    );
  }
  const live = schedule && schedule.status !== "stopped";
  return (
    <section class="card" id="plan-schedule">
      <h2>Schedule</h2>
      {props.error ? <p class="error">{props.error}</p> : null}
      {live && schedule ? (
        <>
          <p>
            <strong>{EVERY_LABELS[schedule.every]}</strong> — {STATUS_LABELS[schedule.status]}
            {schedule.nextDueAt ? <> · next run due {readable(schedule.nextDueAt)}</> : null}
            {schedule.until ? <> · until {readable(schedule.until)}</> : null}
          </p>
          {schedule.runs.length ? (
            <ul id="schedule-runs">
              {schedule.runs.map((run) => (
                <li>
                  <a href={`/dashboard/plans/${run.planId}`}>Run {run.runNumber}</a> due {readable(run.dueAt)}: {RUN_LABELS[run.status] ?? run.status}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : (
        <p class="muted">Re-run this plan on a schedule: each run is a new plan with the same question and steps, waiting for an assistant, and its deliverable says what changed since the last.</p>
      )}
      <form method="post" action={`/dashboard/plans/${props.planId}/schedule`} id="schedule-form">
        <input type="hidden" name="csrf" value={props.csrf} />
        <label for="schedule-every">Run</label>{" "}
        <select id="schedule-every" name="every">
          {SCHEDULE_INTERVALS.map((every) => (
            <option value={every} selected={live ? schedule?.every === every : every === "week"}>
              {EVERY_LABELS[every]}
            </option>
          ))}
        </select>{" "}
        <label for="schedule-start">from (UTC, optional)</label> <input id="schedule-start" type="datetime-local" name="startAt" value={live ? inputTime(schedule?.startAt ?? null) : ""} />{" "}
        <label for="schedule-until">until (UTC, optional)</label> <input id="schedule-until" type="datetime-local" name="until" value={live ? inputTime(schedule?.until ?? null) : ""} />{" "}
        <button class="primary" type="submit">
          {live ? "Update schedule" : "Set schedule"}
        </button>
      </form>
      {live ? (
        <form method="post" action={`/dashboard/plans/${props.planId}/schedule/stop`} id="schedule-stop">
          <input type="hidden" name="csrf" value={props.csrf} />
          <button type="submit">Stop schedule</button>
        </form>
      ) : null}
    </section>
  );
}
