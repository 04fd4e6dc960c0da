import { z } from "zod";
import { defineOperation } from "./operation";
import { ParamPlanId, PlanStatusView, planStatusView } from "./plan-views";

export const getPlanStatus = defineOperation({
  name: "get_plan_status",
  title: "Get plan status",
  description:
    "Where a plan stands: status, derivedStatus, stalled, progress % (completed and skipped of all), the current " +
    "step and the steps by state, with result summaries and confidence.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ planId: ParamPlanId }),
  output: PlanStatusView,
  rest: { method: "get", path: "/plans/{planId}" },
  appView: "plan",
  core: { description: "Where a plan stands: status, progress, the current step, finished steps with result summaries." },
  async handler(input, ctx) {
    return planStatusView(await ctx.services.plans.read(ctx.principal.orgId, input.planId, false), ctx.now());
  },
});
