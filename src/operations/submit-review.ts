import { z } from "zod";
import { LIMITS } from "../domain/plans/model";
import { defineOperation } from "./operation";
import { BudgetInput, budgetOf } from "./budget-views";
import { actorOf, ParamPlanId, ParamStepId, StepRef } from "./plan-views";

export const submitReview = defineOperation({
  name: "submit_review",
  title: "Submit review",
  description:
    "Answer a pendingReviews entry: approve, revise with feedback (a step: adds your follow-up steps, or one carrying " +
    "the feedback; the approval: stepEdits, followUpSteps, budget), or reject with feedback (the plan fails). " +
    "Budget review: approve with a raised budget, or reject to end the plan with what it has.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    stepId: ParamStepId.describe("Or the reviewId"),
    decision: z.enum(["approve", "revise", "reject"]),
    feedback: z.string().min(1).max(8000).optional(),
    followUpSteps: z.array(z.string().min(1).max(8000)).max(10).optional().describe("revise: instructions of the steps to add"),
    budget: BudgetInput.optional(),
    stepEdits: z
      .array(z.strictObject({ stepId: ParamStepId, instructions: z.string().min(1).max(LIMITS.instructionsChars).optional(), remove: z.literal(true).optional() }))
      .max(LIMITS.stepsPerPlan)
      .optional(),
  }),
  output: z.object({ stepId: z.string(), decision: z.string(), planStatus: z.string(), insertedSteps: z.array(StepRef) }),
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
          ...(input.stepEdits ? { stepEdits: input.stepEdits } : {}),
        },
      },
      actorOf(ctx),
      ctx.now(),
    );
    return {
      stepId: input.stepId,
      decision: input.decision,
      planStatus: state.plan.status,
      insertedSteps: modifications.flatMap((m) => m.after.map(({ stepId, stepOrder, stepType }) => ({ stepId, stepOrder, stepType }))),
    };
  },
});
