import { z } from "zod";
import type { StepEdit } from "../domain/plans/approval";
import { isPerson } from "../domain/person-actions";
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
  planVersion: z.number().int().min(1).optional(),
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
  // A person (domain/person-actions.ts): signed in to the dashboard's form, or an integration an admin granted the person scope.
  const approver = isPerson(ctx.principal) ? "person" : "assistant";
  // The org's approver group, when it names one, is who approves (approval-authority.ts assertApprover).
  const approvers = await ctx.services.orgSettings.approvers(ctx.principal.orgId);
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
        ...(input.planVersion !== undefined ? { planVersion: input.planVersion } : {}),
        authority: { approver, approvalUrl: approvalUrlOf(ctx, input.planId), userId: ctx.principal.userId, approvers },
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

/** The dashboard page where a person answers a plan's approval (the plan page carries the approval form). */
export const approvalUrlOf = (ctx: Pick<OperationContext, "origin">, planId: string): string => `${ctx.origin}/dashboard/plans/${encodeURIComponent(planId)}`;

// A plan's approval is a person's; a plans:approve caller also gives planVersion (its error says so): no words spent here.
const DESCRIPTION =
  "Answer a pendingReviews entry (stepId or reviewId): approve; revise with feedback (adds followUpSteps or a step " +
  "with it); reject with feedback fails the plan. Approval is a person's (approvalUrl). Budget: approve raises; reject ends the plan.";

export const submitReview = defineOperation({
  name: "submit_review",
  title: "Submit review",
  description: DESCRIPTION,
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: SubmitReviewInput,
  output: SubmitReviewOutput,
  rest: { method: "post", path: "/plans/{planId}/steps/{stepId}/review" },
  // The core profile lists this tool for the plan view only, which sends planVersion from get_plan_status unprompted.
  core: { description: DESCRIPTION, hide: ["planVersion"] },
  handler: (input, ctx) => answerReview(input, ctx),
});
