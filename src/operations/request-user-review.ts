import { z } from "zod";
import { LIMITS } from "../domain/plans/model";
import { defineOperation } from "./operation";
import { actorOf, ParamPlanId, ParamStepId } from "./plan-views";
import { memberNamed } from "./review-people";

export const requestUserReview = defineOperation({
  name: "request_user_review",
  title: "Request user review",
  description:
    "Pause a claimed checkpoint step for a person (assignee: member e-mail): what to present, questions. Waits for submit_review.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    stepId: ParamStepId,
    claimId: z.string().min(1).max(64),
    presentation: z.string().min(1).max(20_000),
    questions: z.array(z.string().min(1).max(1000)).max(LIMITS.questionsPerReview),
    // Checked against the members (a non-member is refused, named): no format in the schema, whose tokens every listing pays.
    assignee: z.string().optional(),
  }),
  output: z.object({ stepId: z.string(), status: z.string(), planStatus: z.string() }),
  rest: { method: "post", path: "/plans/{planId}/steps/{stepId}/review-request" },
  core: { description: "At a checkpoint step you claimed, pause for a person: what to present and the questions. The plan waits for their review.", hide: ["assignee"] },
  async handler(input, ctx) {
    const assignee = input.assignee === undefined ? null : await memberNamed(ctx, input.assignee, "assignee");
    const { state } = await ctx.services.plans.run(
      ctx.principal.orgId,
      input.planId,
      {
        kind: "request_review",
        stepId: input.stepId,
        claimId: input.claimId,
        presentation: input.presentation,
        questions: input.questions,
        ...(assignee ? { assignee: assignee.userId } : {}),
      },
      actorOf(ctx),
      ctx.now(),
    );
    return { stepId: input.stepId, status: "awaiting_input", planStatus: state.plan.status };
  },
});
