import type { PlanState } from "./model";
import { derivePlanStatusWithReviews, stalledSteps } from "./status";
import type { PlanEvent } from "./transition";

/** The stored status after a transition: terminal stays terminal, a failed critical step fails the plan, a waiting plan review holds it, progress clears a stall. */
export function settle(state: PlanState, now: number): { state: PlanState; events: PlanEvent[] } {
  const { plan, steps } = state;
  if (plan.status === "failed" || plan.status === "cancelled") return { state, events: [] };
  const failedCritical = steps.find((step) => step.critical && step.status === "failed");
  if (failedCritical) {
    const reason = `Critical step ${failedCritical.stepOrder} (${failedCritical.stepType}) failed${failedCritical.note ? `: ${failedCritical.note}` : ""}`;
    return {
      state: { ...state, plan: { ...plan, status: "failed", failureReason: reason, finishedAt: now, updatedAt: now } },
      events: [{ action: "plan.failed", stepId: failedCritical.stepId, detail: { reason } }],
    };
  }
  const derived = derivePlanStatusWithReviews(plan, steps);
  let status: typeof plan.status = derived;
  if (derived === "active" && plan.status === "stalled" && stalledSteps(state, now).length > 0) status = "stalled";
  if (status === plan.status) return { state: { ...state, plan: { ...plan, updatedAt: now } }, events: [] };
  const events: PlanEvent[] = [];
  if (status === "completed") events.push({ action: "plan.completed", stepId: null, detail: {} });
  if (plan.status === "stalled") events.push({ action: "plan.stall_cleared", stepId: null, detail: {} });
  return {
    state: {
      ...state,
      plan: {
        ...plan,
        status,
        stalledAt: status === "stalled" ? plan.stalledAt : null,
        finishedAt: status === "completed" ? now : null,
        updatedAt: now,
      },
    },
    events,
  };
}
