import type { BudgetStats } from "./analytics-series";
import type { DayBucket } from "./chart-geometry";
import { DailyBars, SatisfactionByRoute } from "./charts";
import { percent } from "./format";
import type { OperationStats, RoutingRow, StallStats } from "./queries";

export const WINDOWS = { "1d": 1, "7d": 7, "30d": 30, "90d": 90 } as const;
export type WindowKey = keyof typeof WINDOWS;

export function Analytics(props: {
  window: WindowKey;
  routing: RoutingRow[];
  stalls: StallStats;
  budgets: BudgetStats;
  calls: OperationStats[];
  callsByDay: DayBucket[];
  plansByDay: DayBucket[];
}) {
  const totalCalls = props.calls.reduce((n, c) => n + c.calls, 0);
  const totalErrors = props.calls.reduce((n, c) => n + c.errors, 0);
  return (
    <>
      <h1>Analytics</h1>
      <form class="filters" method="get" action="/dashboard/analytics">
        <span>
          <label for="a-window">Window</label>
          <br />
          <select id="a-window" name="window">
            {Object.keys(WINDOWS).map((w) => (
              <option value={w} selected={props.window === w}>
                last {w}
              </option>
            ))}
          </select>
        </span>
        <button type="submit">Show</button>
      </form>
      <div class="grid">
        <div class="card">
          <div class="muted">Stall rate (plans updated in the window)</div>
          <div class="stat" id="stall-rate">
            {percent(props.stalls.stalledNow, props.stalls.plans)}
          </div>
          <div class="muted">
            {props.stalls.stalledNow} stalled of {props.stalls.plans} plans; {props.stalls.open} still open
          </div>
        </div>
        <div class="card">
          <div class="muted">Tool calls</div>
          <div class="stat" id="call-volume">
            {totalCalls}
          </div>
          <div class="muted">
            {totalErrors} errors ({percent(totalErrors, totalCalls)})
          </div>
        </div>
        <div class="card">
          <div class="muted">Budgets (plans updated in the window)</div>
          <div class="stat" id="budget-use">
            {props.budgets.averagePercent === null ? "—" : `${props.budgets.averagePercent}%`}
          </div>
          <div class="muted">
            average used of the tightest limit; {props.budgets.budgeted} plans with a budget, {props.budgets.nearLimit} at 80 % or more,{" "}
            {props.budgets.waiting} waiting for a person to raise it
          </div>
        </div>
      </div>
      <h2>Calls and errors per day</h2>
      <DailyBars
        id="calls-chart"
        title="Tool calls and errors per day"
        description={`${totalCalls} calls and ${totalErrors} errors over ${props.callsByDay.length} days.`}
        days={props.callsByDay}
        names={["calls", "errors"]}
      />
      <h2>Plans and stalls per day</h2>
      <DailyBars
        id="stalls-chart"
        title="Plans created per day, and how many of them are stalled now"
        description={`${props.plansByDay.reduce((n, d) => n + (d.values[0] ?? 0), 0)} plans created, ${props.plansByDay.reduce((n, d) => n + (d.values[1] ?? 0), 0)} of them stalled now.`}
        days={props.plansByDay}
        names={["plans", "stalled now"]}
      />
      <h2>Routing accuracy</h2>
      <p class="muted">Each skill execution's route (scan or deep) against the satisfaction (1–5) of the feedback on it or its plan.</p>
      <SatisfactionByRoute routing={props.routing} />
      <div class="table-wrap">
        <table class="stack" id="routing">
          <thead>
            <tr>
              <th>Route</th>
              <th>Executions</th>
              <th>With feedback</th>
              <th>Avg satisfaction</th>
              <th>Satisfied (4–5)</th>
            </tr>
          </thead>
          <tbody>
            {props.routing.map((r) => (
              <tr data-route={r.route}>
                <td data-label="Route">{r.route}</td>
                <td data-label="Executions">{r.executions}</td>
                <td data-label="With feedback">{r.withFeedback}</td>
                <td data-label="Avg satisfaction">{r.avgSatisfaction === null ? "—" : r.avgSatisfaction.toFixed(2)}</td>
                <td data-label="Satisfied">{percent(r.satisfied, r.withFeedback)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Tool calls by operation</h2>
      <div class="table-wrap">
        <table class="stack" id="operations">
          <thead>
            <tr>
              <th>Operation</th>
              <th>Calls</th>
              <th>Errors</th>
              <th>Avg latency</th>
              <th>p95</th>
              <th>Max</th>
              <th>Most common error</th>
            </tr>
          </thead>
          <tbody>
            {props.calls.map((c) => (
              <tr data-operation={c.operation}>
                <td data-label="Operation">{c.operation}</td>
                <td data-label="Calls">{c.calls}</td>
                <td data-label="Errors">
                  {c.errors} ({percent(c.errors, c.calls)})
                </td>
                <td data-label="Avg latency">{Math.round(c.avgMs)} ms</td>
                <td data-label="p95">{Math.round(c.p95Ms)} ms</td>
                <td data-label="Max">{Math.round(c.maxMs)} ms</td>
                <td data-label="Most common error">{c.topError ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
