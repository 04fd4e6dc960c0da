import { validationError } from "../errors";

/**
 * A plan's budget: what it may spend before a person decides whether it goes on.
 * Pure arithmetic, no I/O: the state machine asks it when a step is about to be
 * claimed, after a result, and when the plan's alarm fires.
 */

export interface Budget {
  maxSteps?: number;
  /** Input plus output tokens, as the client reports them with each result. */
  maxTokens?: number;
  maxToolCalls?: number;
  /** Epoch milliseconds. */
  deadline?: number;
}

export interface Usage {
  /** Steps started (claimed from pending); a takeover or a resume is not a new step. */
  steps: number;
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
}

/** What a client says one step cost. */
export interface StepUsage {
  inputTokens?: number;
  outputTokens?: number;
  toolCalls?: number;
}

export type BudgetDimension = "steps" | "tokens" | "toolCalls" | "deadline";

export interface BudgetLine {
  dimension: BudgetDimension;
  used: number;
  limit: number;
  /** used / limit, 0–1 or more; for the deadline, the share of the time from the plan's start that has passed. */
  fraction: number;
}

export const EMPTY_USAGE: Usage = { steps: 0, inputTokens: 0, outputTokens: 0, toolCalls: 0 };

/** The share of a limit at which the step answers carry a warning. */
export const WARNING_FRACTION = 0.8;

export const BUDGET_LIMITS = { maxSteps: 1_000, maxTokens: 1_000_000_000, maxToolCalls: 100_000 } as const;

const hasAny = (budget: Budget | null | undefined): budget is Budget =>
  !!budget && (budget.maxSteps !== undefined || budget.maxTokens !== undefined || budget.maxToolCalls !== undefined || budget.deadline !== undefined);

export const normalizeBudget = (budget: Budget | null | undefined): Budget | null => (hasAny(budget) ? budget : null);

/** Tool calls a result reports: the client's own count, else the entries of its execution report. */
export function toolCallsOf(usage: StepUsage | undefined, report: { webSearches: unknown[]; webFetches: unknown[]; otherToolCalls: unknown[] } | null): number {
  if (usage?.toolCalls !== undefined) return usage.toolCalls;
  if (!report) return 0;
  return report.webSearches.length + report.webFetches.length + report.otherToolCalls.length;
}

export function addUsage(usage: Usage, step: StepUsage | undefined, toolCalls: number): Usage {
  return {
    steps: usage.steps,
    inputTokens: usage.inputTokens + (step?.inputTokens ?? 0),
    outputTokens: usage.outputTokens + (step?.outputTokens ?? 0),
    toolCalls: usage.toolCalls + toolCalls,
  };
}

/** Every limit the budget sets, with what has been used of it. `startedAt` anchors the deadline's fraction. */
export function budgetLines(budget: Budget | null | undefined, usage: Usage, startedAt: number, now: number): BudgetLine[] {
  if (!budget) return [];
  const lines: BudgetLine[] = [];
  const line = (dimension: BudgetDimension, used: number, limit: number | undefined) => {
    if (limit === undefined) return;
    lines.push({ dimension, used, limit, fraction: limit === 0 ? 1 : used / limit });
  };
  line("steps", usage.steps, budget.maxSteps);
  line("tokens", usage.inputTokens + usage.outputTokens, budget.maxTokens);
  line("toolCalls", usage.toolCalls, budget.maxToolCalls);
  if (budget.deadline !== undefined) {
    const span = Math.max(1, budget.deadline - startedAt);
    lines.push({ dimension: "deadline", used: now, limit: budget.deadline, fraction: Math.max(0, now - startedAt) / span });
  }
  return lines;
}

/** The limits reached: no new step may start while any is. */
export const exhaustedLines = (lines: BudgetLine[]): BudgetLine[] => lines.filter((line) => line.used >= line.limit);

/** The limits at or past the warning share but not yet reached. */
export const warningLines = (lines: BudgetLine[]): BudgetLine[] => lines.filter((line) => line.fraction >= WARNING_FRACTION && line.used < line.limit);

const NAMES: Record<BudgetDimension, string> = { steps: "steps", tokens: "tokens", toolCalls: "tool calls", deadline: "deadline" };

export function describeLine(line: BudgetLine): string {
  if (line.dimension === "deadline") {
    const left = line.limit - line.used;
    return left <= 0 ? `the deadline ${new Date(line.limit).toISOString()} has passed` : `${Math.ceil(left / 60_000)} min left before the deadline ${new Date(line.limit).toISOString()}`;
  }
  return `${line.used} of ${line.limit} ${NAMES[line.dimension]} used (${Math.round(line.fraction * 100)} %)`;
}

/** The warning a step answer carries, or null: text the assistant can relay to the person as it is. */
export function budgetWarning(lines: BudgetLine[]): string | null {
  const near = warningLines(lines);
  if (near.length === 0) return null;
  return `Budget nearly spent: ${near.map(describeLine).join("; ")}. When it runs out the plan pauses for a person to raise it or end the plan.`;
}

/**
 * A raised budget for a plan paused at its budget review: the given limits replace the old
 * ones, and every limit that stopped the plan must now leave room, or the plan would stop again at once.
 */
export function raiseBudget(current: Budget | null, raise: Budget | undefined, usage: Usage, startedAt: number, now: number): Budget {
  if (!raise || !hasAny(raise)) {
    throw validationError("Approving a budget review raises the budget: give budget with the limits to raise.", [{ path: "budget", message: "Required to approve a budget review" }]);
  }
  const next: Budget = { ...(current ?? {}), ...raise };
  const stillReached = exhaustedLines(budgetLines(next, usage, startedAt, now));
  if (stillReached.length > 0) {
    throw validationError(`The raised budget is still spent: ${stillReached.map(describeLine).join("; ")}.`, stillReached.map((line) => ({ path: `budget.${fieldOf(line.dimension)}`, message: "Must leave room above what is used" })));
  }
  return next;
}

export const fieldOf = (dimension: BudgetDimension): keyof Budget =>
  dimension === "steps" ? "maxSteps" : dimension === "tokens" ? "maxTokens" : dimension === "toolCalls" ? "maxToolCalls" : "deadline";

/** The deadline, when the plan's one alarm must also fire for it. */
export const budgetDeadline = (budget: Budget | null | undefined): number | null => budget?.deadline ?? null;
