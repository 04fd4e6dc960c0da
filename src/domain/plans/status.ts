import { DEFAULT_STALL_MINUTES, isTerminalStep, type Plan, type PlanState, pendingPlanReview, type Step } from "./model";

/** seed 004: all steps terminal → completed (even if all failed); any awaiting input → awaiting_review; else active. */
export function derivePlanStatus(steps: readonly Pick<Step, "status">[]): "completed" | "awaiting_review" | "active" {
  if (steps.length > 0 && steps.every(isTerminalStep)) return "completed";
  if (steps.some((step) => step.status === "awaiting_input")) return "awaiting_review";
  return "active";
}

/** The derived status with the plan's own reviews: a plan-level review waiting keeps an unfinished plan awaiting_review. */
export function derivePlanStatusWithReviews(plan: Pick<Plan, "reviews">, steps: readonly Pick<Step, "status">[]): "completed" | "awaiting_review" | "active" {
  const derived = derivePlanStatus(steps);
  return derived === "active" && pendingPlanReview(plan) ? "awaiting_review" : derived;
}

/** seed 004: (completed + skipped) / total, as a rounded percentage; failed steps do not count. */
export function progressOf(steps: readonly Pick<Step, "status">[]): number {
  if (steps.length === 0) return 0;
  const done = steps.filter((step) => step.status === "completed" || step.status === "skipped").length;
  return Math.round((done / steps.length) * 100);
}

/** The step's own threshold, else the plan's, else its type's default. */
export const stallThresholdMs = (step: Pick<Step, "stepType" | "stallThresholdMinutes">, planMinutes: number | null = null) =>
  (step.stallThresholdMinutes ?? planMinutes ?? DEFAULT_STALL_MINUTES[step.stepType]) * 60_000;

/** When an in-progress step stalls: its last activity plus its threshold. */
export function stallDeadline(step: Step, planMinutes: number | null = null): number | null {
  if (step.status !== "in_progress" || step.lastActivityAt === null) return null;
  return step.lastActivityAt + stallThresholdMs(step, planMinutes);
}

export const stalledSteps = (state: PlanState, now: number): Step[] =>
  state.steps.filter((step) => {
    const deadline = stallDeadline(step, state.plan.stallThresholdMinutes ?? null);
    return deadline !== null && deadline <= now;
  });

/** The earliest moment a step of this plan could stall: where its one alarm belongs. */
export function nextStallDeadline(state: PlanState): number | null {
  let earliest: number | null = null;
  for (const step of state.steps) {
    const deadline = stallDeadline(step, state.plan.stallThresholdMinutes ?? null);
    if (deadline !== null && (earliest === null || deadline < earliest)) earliest = deadline;
  }
  return earliest;
}
