import { z } from "zod";
import { type Budget, BUDGET_LIMITS, type BudgetLine, budgetWarning, exhaustedLines } from "../domain/plans/budget";
import { budgetLinesOf, pendingBudgetReview, usageOf } from "../domain/plans/budget-review";
import type { PlanState } from "../domain/plans/model";

/**
 * A budget as callers give it: counts, and the deadline as an ISO 8601 date-time. What a budget means is said once,
 * where a plan gets one (create_research_plan's BudgetInput); changing one (modify_plan, submit_review) takes the
 * same fields without saying it again, a saving of tokens in every tool list.
 */
export const BudgetLimits = z.strictObject({
  maxSteps: z.number().int().min(1).max(BUDGET_LIMITS.maxSteps).optional(),
  maxTokens: z.number().int().min(1).max(BUDGET_LIMITS.maxTokens).optional(),
  maxToolCalls: z.number().int().min(1).max(BUDGET_LIMITS.maxToolCalls).optional(),
  deadline: z.iso.datetime({ offset: true }).optional(),
});
export const BudgetInput = BudgetLimits.describe("Limits; reached, a person decides");

export const UsageInput = z
  .strictObject({
    inputTokens: z.number().int().min(0).max(100_000_000).optional(),
    outputTokens: z.number().int().min(0).max(100_000_000).optional(),
    toolCalls: z.number().int().min(0).max(100_000).optional(),
  })
  .describe("This step's cost; toolCalls defaults to the report's entries");

export const budgetOf = (input: z.output<typeof BudgetInput> | undefined): Budget | undefined => {
  if (!input) return undefined;
  const { deadline, ...counts } = input;
  return { ...counts, ...(deadline !== undefined ? { deadline: Date.parse(deadline) } : {}) };
};

const Line = z.object({ dimension: z.string(), used: z.number(), limit: z.number(), percent: z.number() });

/** What a plan's budget allows and what has been spent, for every view that shows a plan. */
export const BudgetView = z
  .object({
    limits: z.object({ maxSteps: z.number().optional(), maxTokens: z.number().optional(), maxToolCalls: z.number().optional(), deadline: z.string().optional() }),
    used: z.object({ steps: z.number(), inputTokens: z.number(), outputTokens: z.number(), toolCalls: z.number() }),
    lines: z.array(Line),
    exhausted: z.boolean(),
    warning: z.string().nullable(),
  })
  .nullable();

const lineView = (line: BudgetLine) => ({
  dimension: line.dimension,
  used: line.dimension === "deadline" ? Math.min(line.used, line.limit) : line.used,
  limit: line.limit,
  percent: Math.min(999, Math.round(line.fraction * 100)),
});

export function budgetView(state: PlanState, now: number): z.infer<typeof BudgetView> {
  const { budget } = state.plan;
  if (!budget) return null;
  const lines = budgetLinesOf(state, now);
  const { deadline, ...counts } = budget;
  return {
    limits: { ...counts, ...(deadline !== undefined ? { deadline: new Date(deadline).toISOString() } : {}) },
    used: usageOf(state.plan),
    lines: lines.map(lineView),
    exhausted: pendingBudgetReview(state) !== undefined || exhaustedLines(lines).length > 0,
    warning: budgetWarning(lines),
  };
}

/** The warning a step answer carries at 80 % of a limit, or nothing. */
export const budgetWarningOf = (state: PlanState, now: number): { budgetWarning?: string } => {
  const warning = state.plan.budget ? budgetWarning(budgetLinesOf(state, now)) : null;
  return warning ? { budgetWarning: warning } : {};
};
