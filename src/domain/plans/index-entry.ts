import { budgetLinesOf, pendingBudgetReview } from "./budget-review";
import { isTerminalPlan, type PlanState } from "./model";
import { derivePlanStatusWithReviews, progressOf, stalledSteps } from "./status";

/** What the org-wide plan index knows of a plan: enough to list and filter without waking it. */
export interface PlanIndexEntry {
  planId: string;
  orgId: string;
  name: string;
  researchQuestion: string;
  status: string;
  derivedStatus: string;
  progress: number;
  stalled: boolean;
  totalSteps: number;
  completedSteps: number;
  failedSteps: number;
  currentStepOrder: number | null;
  sessionId: string | null;
  executionId: string | null;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  /** The most spent share of any budget limit, in percent; null when the plan has no budget. */
  budgetPercent: number | null;
  /** A budget review waits for a person. */
  budgetExhausted: boolean;
  /** Grows with every projection of this plan; the index keeps the highest. */
  seq: number;
}

export function indexEntryOf(state: PlanState, now: number, seq: number): PlanIndexEntry {
  const { plan, steps } = state;
  const current = steps.find((step) => step.status === "in_progress" || step.status === "awaiting_input");
  return {
    planId: plan.planId,
    orgId: plan.orgId,
    name: plan.name,
    researchQuestion: plan.researchQuestion,
    status: plan.status,
    derivedStatus: derivePlanStatusWithReviews(plan, steps),
    progress: progressOf(steps),
    stalled: !isTerminalPlan(plan) && (plan.status === "stalled" || stalledSteps(state, now).length > 0),
    totalSteps: steps.length,
    completedSteps: steps.filter((step) => step.status === "completed" || step.status === "skipped").length,
    failedSteps: steps.filter((step) => step.status === "failed").length,
    currentStepOrder: current?.stepOrder ?? null,
    sessionId: plan.sessionId,
    executionId: plan.executionId,
    createdBy: plan.createdBy.userId,
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
    budgetPercent: plan.budget ? Math.min(999, Math.round(Math.max(0, ...budgetLinesOf(state, now).map((line) => line.fraction)) * 100)) : null,
    budgetExhausted: pendingBudgetReview(state) !== undefined,
    seq,
  };
}

/**
 * What decides whether and how a plan is listed: a caller who has just created, renamed, cancelled,
 * finished or unblocked a plan sees it so in the plan list as soon as the call answers. Progress,
 * the current step and timestamps are not among them: they reach the index right after the answer.
 */
const LISTED_AS = ["name", "status", "stalled", "budgetExhausted", "sessionId", "executionId"] as const satisfies readonly (keyof PlanIndexEntry)[];

/** Whether a caller waits for this index update (read-your-writes) or it follows the answer. */
export function changesListing(before: PlanIndexEntry | null, after: PlanIndexEntry): boolean {
  return before === null || LISTED_AS.some((field) => before[field] !== after[field]);
}
