import { z } from "zod";
import type { StepEdit } from "../domain/plans/approval";
import { LIMITS } from "../domain/plans/model";
import { defineOperation, type OperationContext } from "./operation";
import { BudgetLimits, budgetOf } from "./budget-views";
import { actorOf, insertedStepsOf, ParamPlanId, ParamStepId, StepRef } from "./plan-views";

const SubmitReviewInput = z.strictObject({
  planId: ParamPlanId,
  stepId: ParamStepId,
  decision: z.enum(["approve", "revise", "reject"]),
  feedback: z.string().min(1).max(8000).optional(),
  followUpSteps: z.array(z.string().min(1).max(8000)).max(10).optional(),
  budget: BudgetLimits.optional(),
  edits: z
    .array(z.strictObject({ stepId: ParamStepId, instructions: z.string().min(1).max(LIMITS.instructionsChars).optional(), remove: z.boolean().optional() }))
    .max(LIMITS.stepsPerPlan)
    .optional(),
});

const SubmitReviewOutput = z.object({ stepId: z.string(), decision: z.string(), planStatus: z.string(), insertedSteps: z.array(StepRef).optional() });

/**
 * Answers a review as the tool does. `edits` (an approval's pending steps changed or removed) come from the
 * tool's callers (the plan view, REST) or from the dashboard's approval form, which reads them off its own fields;
 * the domain checks each against the plan (approval only, pending steps of this plan, each once).
 */
export async function answerReview(
  input: z.infer<typeof SubmitReviewInput>,
  ctx: OperationContext,
  formEdits: StepEdit[] = [],
): Promise<z.infer<typeof SubmitReviewOutput>> {
  const stepEdits: StepEdit[] = [...(input.edits ?? []), ...formEdits];
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
        ...(stepEdits.length ? { stepEdits } : {}),
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
}

export const submitReview = defineOperation({
  name: "submit_review",
  title: "Submit review",
  description:
    "Answer a pendingReviews entry (stepId = its stepId or reviewId): approve; revise with feedback (adds followUpSteps or " +
    "a step carrying it; an approval takes edits, budget); reject with feedback fails the plan. Budget review: approve " +
    "raises it; reject ends the plan with what it has.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: SubmitReviewInput,
  output: SubmitReviewOutput,
  rest: { method: "post", path: "/plans/{planId}/steps/{stepId}/review" },
  handler: (input, ctx) => answerReview(input, ctx),
});
