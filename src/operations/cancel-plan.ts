import { z } from "zod";
import { defineOperation } from "./operation";
import { actorOf, ParamPlanId } from "./plan-views";

export const cancelPlanOperation = defineOperation({
  name: "cancel_plan",
  title: "Cancel plan",
  description: "Stop a plan for good, with a reason. Its steps and results stay readable; get_next_step then answers plan_failed.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ planId: ParamPlanId, reason: z.string().min(1).max(2000) }),
  output: z.object({ planId: z.string(), status: z.string(), failureReason: z.string().nullable() }),
  rest: { method: "post", path: "/plans/{planId}/cancel" },
  async handler(input, ctx) {
    const { state } = await ctx.services.plans.run(ctx.principal.orgId, input.planId, { kind: "cancel", reason: input.reason }, actorOf(ctx), ctx.now());
    return { planId: state.plan.planId, status: state.plan.status, failureReason: state.plan.failureReason };
  },
});
