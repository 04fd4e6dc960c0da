import { z } from "zod";
import { notFound, validationError } from "../domain/errors";
import { newId } from "../domain/ids";
import { FEEDBACK_PHASES } from "../domain/research/outputs";
import { defineOperation } from "./operation";
import { ParamExecutionId, ParamId } from "./params";
import { ParamOutputId } from "./store-research-output";

export const submitResearchFeedback = defineOperation({
  name: "submit_research_feedback",
  title: "Submit research feedback",
  description:
    "Record the user's feedback: phase initial (right after delivery) or closing (when the conversation moves on; " +
    "skip it if initial captured everything), satisfaction 1–5.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    phase: z.enum(FEEDBACK_PHASES),
    satisfaction: z.number().int().min(1).max(5).optional(),
    summary: z.string().min(1).max(8000),
    improvementSuggestions: z.array(z.string().min(1).max(2000)).max(20).optional(),
    followUpRequested: z.boolean().optional(),
    planId: ParamId("plan").optional(),
    outputId: ParamOutputId.optional(),
    executionId: ParamExecutionId.optional(),
  }),
  output: z.object({ feedbackId: z.string(), phase: z.string() }),
  // No route reads feedback back, so its 201 has no Location.
  rest: { method: "post", path: "/feedback", creates: {} },
  async handler(input, ctx) {
    const { orgId, userId } = ctx.principal;
    if (!input.planId && !input.outputId && !input.executionId) {
      throw validationError("Link the feedback to a planId, outputId or executionId.", [{ path: "planId", message: "One of planId, outputId, executionId is required" }]);
    }
    // Links must name records of this org: a foreign or missing id is refused, never stored dangling.
    if (input.planId) await ctx.services.plans.read(orgId, input.planId, false);
    if (input.outputId && !(await ctx.services.outputs.get(orgId, input.outputId))) throw notFound("research output", input.outputId);
    if (input.executionId && !(await ctx.services.skillExecutions.get(orgId, input.executionId))) throw notFound("skill execution", input.executionId);
    const feedbackId = newId("fb");
    await ctx.services.feedback.insert({
      feedbackId,
      orgId,
      planId: input.planId ?? null,
      outputId: input.outputId ?? null,
      executionId: input.executionId ?? null,
      phase: input.phase,
      satisfaction: input.satisfaction ?? null,
      summary: input.summary,
      improvementSuggestions: input.improvementSuggestions ?? [],
      followUpRequested: input.followUpRequested ?? false,
      createdBy: userId,
      createdAt: ctx.now(),
    });
    return { feedbackId, phase: input.phase };
  },
});
