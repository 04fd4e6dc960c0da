import { type Budget, type BudgetLine, describeLine } from "../../domain/plans/budget";
import { budgetLinesOf } from "../../domain/plans/budget-review";
import type { PlanState } from "../../domain/plans/model";

// ---------------------------------------------------------------------------
// A plan's budget: one bar per limit beside the progress bar, and the fields a
// person fills in to raise it at a budget review.

const LABELS: Record<BudgetLine["dimension"], string> = { steps: "Steps", tokens: "Tokens", toolCalls: "Tool calls", deadline: "Time" };

export function BudgetBars({ state, now }: { state: PlanState; now: number }) {
  const lines = budgetLinesOf(state, now);
  if (lines.length === 0) return <span class="muted">No budget</span>;
  return (
    <span id="plan-budget">
      {lines.map((line) => {
        const percent = Math.min(100, Math.round(line.fraction * 100));
        return (
          <span class="budget-line" data-budget={line.dimension}>
            <span class="muted">{LABELS[line.dimension]}</span>{" "}
            <meter min="0" max="100" low={80} high={99} optimum={0} value={String(percent)} aria-label={`${LABELS[line.dimension]}: ${describeLine(line)}`}>
              {percent}%
            </meter>{" "}
            <span data-budget-text>{describeLine(line)}</span>
            <br />
          </span>
        );
      })}
    </span>
  );
}

/** A raise to suggest: half as much again (at least a little more) for each limit set, a day more time. */
export function suggestedRaise(budget: Budget | null | undefined, now: number): { maxSteps?: number; maxTokens?: number; maxToolCalls?: number; deadlineHours?: number } {
  const more = (limit: number | undefined, least: number) => (limit === undefined ? undefined : limit + Math.max(least, Math.ceil(limit / 2)));
  return {
    ...(budget?.maxSteps !== undefined ? { maxSteps: more(budget.maxSteps, 2) } : {}),
    ...(budget?.maxTokens !== undefined ? { maxTokens: more(budget.maxTokens, 1000) } : {}),
    ...(budget?.maxToolCalls !== undefined ? { maxToolCalls: more(budget.maxToolCalls, 5) } : {}),
    ...(budget?.deadline !== undefined && budget.deadline <= now + 3_600_000 ? { deadlineHours: 24 } : {}),
  };
}

export function BudgetRaiseFields(props: { budget: Budget | null | undefined; now: number; id: string; legend?: string; suggest?: boolean }) {
  const { budget, now, id } = props;
  // At an approval the fields start at the current limits: changing one is the person's choice.
  const raise = props.suggest === false ? { maxSteps: budget?.maxSteps, maxTokens: budget?.maxTokens, maxToolCalls: budget?.maxToolCalls } : suggestedRaise(budget, now);
  // Each field on its own row: its name, the limit now, and the box, so no label runs into its box.
  const field = (name: "maxSteps" | "maxTokens" | "maxToolCalls", label: string) =>
    budget?.[name] === undefined ? null : (
      <div class="field" data-budget-field={name}>
        <label for={`${name}-${id}`}>{label}</label>
        <span class="muted">now {budget[name].toLocaleString("en")}</span>
        <input id={`${name}-${id}`} name={name} type="number" min="1" value={String(raise[name] ?? "")} />
      </div>
    );
  return (
    <fieldset>
      <legend>{props.legend ?? "Raised budget (to continue)"}</legend>
      {field("maxSteps", "Steps")}
      {field("maxTokens", "Tokens")}
      {field("maxToolCalls", "Tool calls")}
      {budget?.deadline !== undefined ? (
        <div class="field" data-budget-field="deadlineHours">
          <label for={`deadlineHours-${id}`}>New deadline, hours from now</label>
          <span class="muted">now {new Date(budget.deadline).toISOString().replace("T", " ").slice(0, 16)} UTC</span>
          <input id={`deadlineHours-${id}`} name="deadlineHours" type="number" min="1" max="8760" value={String(raise.deadlineHours ?? "")} />
        </div>
      ) : null}
    </fieldset>
  );
}

/** The budget a review form carries, as submit_review takes it; nothing unless deciding `when` (approve a raise, revise an approval) with a field filled in. */
export function budgetRaiseOf(form: FormData, decision: string, now: number, when = "approve"): { budget?: Record<string, number | string> } {
  if (decision !== when) return {};
  const budget: Record<string, number | string> = {};
  for (const name of ["maxSteps", "maxTokens", "maxToolCalls"] as const) {
    const raw = String(form.get(name) ?? "").trim();
    // Left as typed when not a whole number, so the operation's own check names the field.
    if (raw !== "") budget[name] = /^\d+$/.test(raw) ? Number(raw) : raw;
  }
  const hours = String(form.get("deadlineHours") ?? "").trim();
  if (hours !== "") budget.deadline = /^\d+(\.\d+)?$/.test(hours) ? new Date(now + Number(hours) * 3_600_000).toISOString() : hours;
  return Object.keys(budget).length ? { budget } : {};
}
