import { z } from "zod";
import { describeLine } from "../domain/plans/budget";
import { PLAN_REVIEW_KINDS, type PlanReview } from "../domain/plans/model";
import { progressOf } from "../domain/plans/status";
import { defineOperation } from "./operation";
import { budgetWarningOf } from "./budget-views";
import { approvalUrlOf } from "./submit-review";
import { actorOf, ParamPlanId, StepRef, stepRef, WorkStep, workerIdOf, workStep } from "./plan-views";

const reviewRef = (review: PlanReview) => ({ reviewId: review.reviewId, kind: review.kind });

export const getNextStep = defineOperation({
  name: "get_next_step",
  title: "Get next step",
  description:
    "Pull the next step. status step: do it, then submit_step_result with claimId (get_step_context first if stepOrder > 1); " +
    "repeating returns it; parallel workers pass distinct workerIds. Else plan_complete, plan_failed, waiting (group all " +
    "taken), awaiting_review or budget_exhausted (a person decides: tell the user). Relay budgetWarning; follow reviewNotes.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ planId: ParamPlanId, workerId: z.string().min(1).max(100).optional() }),
  output: z.object({
    status: z.enum(["step", "plan_complete", "awaiting_review", "plan_failed", "waiting", "budget_exhausted"]),
    step: WorkStep.optional(),
    claimId: z.string().optional(),
    /** Present (true) when the step was already yours: claimed by an earlier session. */
    resumed: z.literal(true).optional(),
    reviewSteps: z.array(StepRef).optional(),
    pendingReviews: z.array(z.object({ reviewId: z.string(), kind: z.enum(PLAN_REVIEW_KINDS) })).optional(),
    reviewNotes: z.array(z.string()).optional(),
    /** A plan waiting for a person's approval: the dashboard page where they give it. */
    approvalUrl: z.string().optional(),
    inProgressSteps: z.array(StepRef).optional(),
    reason: z.string().optional(),
    progress: z.number(),
    totalSteps: z.number(),
    budgetWarning: z.string().optional(),
    exhausted: z.array(z.object({ dimension: z.string(), used: z.number(), limit: z.number() })).optional(),
  }),
  rest: { method: "post", path: "/plans/{planId}/next-step" },
  core: { description: "Claim the next step: status step (do it, then submit_step_result with its claimId), awaiting_review, plan_complete, plan_failed or waiting.", hide: ["workerId"] },
  async handler(input, ctx) {
    const { state, outcome } = await ctx.services.plans.run(
      ctx.principal.orgId,
      input.planId,
      { kind: "next", workerId: workerIdOf(ctx, input.workerId) },
      actorOf(ctx),
      ctx.now(),
    );
    const now = ctx.now();
    const common = { progress: progressOf(state.steps), totalSteps: state.steps.length };
    switch (outcome?.status) {
      case "step":
        return {
          status: "step" as const,
          step: workStep(outcome.step),
          claimId: outcome.claimId,
          ...(outcome.resumed ? { resumed: true as const } : {}),
          ...(outcome.reviewNotes ? { reviewNotes: outcome.reviewNotes } : {}),
          ...common,
          ...budgetWarningOf(state, now),
        };
      case "budget_exhausted":
        return {
          status: "budget_exhausted" as const,
          pendingReviews: [reviewRef(outcome.review)],
          reason: `The plan's budget is spent (${outcome.exhausted.map(describeLine).join("; ")}): a person raises it or ends the plan with submit_review.`,
          exhausted: outcome.exhausted.map(({ dimension, used, limit }) => ({ dimension, used, limit })),
          ...common,
        };
      case "awaiting_review":
        return {
          status: "awaiting_review" as const,
          reviewSteps: outcome.steps.map(stepRef),
          ...(outcome.reviews.length
            ? {
                pendingReviews: outcome.reviews.map(reviewRef),
                approvalUrl: approvalUrlOf(ctx, input.planId),
                reason: "The plan waits for a person's approval: give them approvalUrl (they approve it there, signed in), then call get_next_step again.",
              }
            : {}),
          ...common,
        };
      case "plan_failed":
        return { status: "plan_failed" as const, reason: outcome.reason, ...common };
      case "waiting":
        return { status: "waiting" as const, inProgressSteps: outcome.inProgress.map(stepRef), ...common };
      default:
        return { status: "plan_complete" as const, ...common };
    }
  },
});
