import { z } from "zod";
import { defineOperation } from "./operation";
import { ParamPlanId, PlanStatusView, planStatusView } from "./plan-views";
import { reviewPeopleOf } from "./review-people";
import { SeriesView, seriesView } from "./series-views";

export const getPlanStatus = defineOperation({
  name: "get_plan_status",
  title: "Get plan status",
  description:
    "Where a plan stands: status, derivedStatus, stalled, progress % (completed and skipped of all), the current " +
    "step and the steps by state, with result summaries and confidence.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ planId: ParamPlanId }),
  output: PlanStatusView.extend({ series: SeriesView.optional() }),
  rest: { method: "get", path: "/plans/{planId}" },
  appView: "plan",
  core: { description: "Where a plan stands: status, progress, the current step, finished steps with result summaries." },
  async handler(input, ctx) {
    const { orgId } = ctx.principal;
    const state = await ctx.services.plans.read(orgId, input.planId, false);
    // A run a schedule made says where it stands in its series; only such a run costs the series' read, so a plan's
    // status stays one read of the plan (round-trips.test.ts). The series' own plan: GET /plans/{planId}/schedule.
    const [link, people] = await Promise.all([state.plan.seriesRun ? ctx.services.series.ofPlan(orgId, input.planId) : null, reviewPeopleOf(ctx, state)]);
    return { ...planStatusView(state, ctx.now(), people), ...(link ? { series: seriesView(link, state) } : {}) };
  },
});
