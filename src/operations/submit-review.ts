import { z } from "zod";
import { defineOperation } from "./operation";
import { BudgetInput, budgetOf } from "./budget-views";
import { actorOf, insertedStepsOf, ParamPlanId, ParamStepId, StepRef } from "./plan-views";

export const submitReview = defineOperation({
  name: "submit_review",
  title: "Submit review",
  description:
    "Answer a step awaiting review: approve, revise with feedback (adds your follow-up steps, or one carrying " +
    "the feedback), or reject with feedback (the plan fails). A budget review: approve " +
    "with a raised budget, or reject to end the plan with what it has.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    stepId: ParamStepId,
    decision: z.enum(["approve", "revise", "reject"]),
    feedback: z.string().min(1).max(8000).optional(),
    followUpSteps: z.array(z.string().min(1).max(8000)).max(10).optional().describe("revise: instructions of the steps to add"),
    budget: BudgetInput.optional(),
  }),
  output: z.object({ stepId: z.string(), decision: z.string(), planStatus: z.string(), insertedSteps: z.array(StepRef).optional() }),
  rest: { method: "post", path: "/plans/{planId}/steps/{stepId}/review" },
  async handler(input, ctx) {
    const { state, modifications } = await ctx.services.plans.run(
      ctx.principal.orgId,
      input.planId,
      {
        kind: "submit_review",
        decision: {
          stepId: input.stepId,
          decision: input.decision,
          feedback: input.feedback ?? null,
          followUpSteps: (input.followUpSteps ?? []).map((instructions) => ({ stepType: "custom" as const, instructions })),
          ...(input.budget ? { budget: budgetOf(input.budget) } : {}),
        },
      },
      actorOf(ctx),
      ctx.now(),
    );
    return {
      stepId: input.stepId,
      decision: input.decision,
      planStatus: state.plan.status,
      ...insertedStepsOf(modifications),
    };
  },
});
