import { z } from "zod";
import { notFound } from "../domain/errors";
import { defineOperation } from "./operation";
import { ParamPlanId, ParamStepId } from "./plan-views";

/** What the context of one step may weigh, in characters of result JSON, before later entries are cut. */
const FULL_BUDGET_CHARS = 60_000;

const EarlierStep = z.object({
  stepId: z.string(),
  stepOrder: z.number(),
  stepType: z.string(),
  status: z.string(),
  confidence: z.number().nullable(),
  result: z.unknown().optional(),
  resultSummary: z.string().nullable(),
  outputFormattingNotes: z.string().nullable(),
  review: z.object({ decision: z.string().nullable(), feedback: z.string().nullable(), questions: z.array(z.string()) }).nullable(),
  artifacts: z.array(z.object({ artifactId: z.string(), title: z.string(), artifactType: z.string() })),
  truncated: z.boolean(),
});

/** How many of a plan's artifacts the context names (newest first); get_artifact reads each. */
const ARTIFACTS_LISTED = 100;

export const getStepContext = defineOperation({
  name: "get_step_context",
  title: "Get step context",
  description:
    "What earlier steps produced: results (detail full) or summaries (default), confidence, checkpoint feedback " +
    "and the artifacts stored for them. Bounded: cut results are marked truncated.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ planId: ParamPlanId, stepId: ParamStepId, detail: z.enum(["summary", "full"]).optional() }),
  output: z.object({
    planId: z.string(),
    researchQuestion: z.string(),
    step: z.object({ stepId: z.string(), stepOrder: z.number(), stepType: z.string(), instructions: z.string() }),
    earlierSteps: z.array(EarlierStep),
    planOutputFormattingNotes: z.string().nullable(),
  }),
  rest: { method: "get", path: "/plans/{planId}/steps/{stepId}/context" },
  async handler(input, ctx) {
    const full = input.detail === "full";
    const state = await ctx.services.plans.read(ctx.principal.orgId, input.planId, full);
    const step = state.steps.find((candidate) => candidate.stepId === input.stepId);
    if (!step) throw notFound("step", input.stepId);
    const stored = await ctx.services.artifacts.list(ctx.principal.orgId, { planId: input.planId }, { limit: ARTIFACTS_LISTED });
    const artifactsOf = (stepId: string) =>
      stored.filter((artifact) => artifact.stepId === stepId).map(({ artifactId, title, artifactType }) => ({ artifactId, title, artifactType }));
    let budget = FULL_BUDGET_CHARS;
    const earlierSteps = state.steps
      .filter((earlier) => earlier.stepOrder < step.stepOrder)
      .map((earlier) => {
        let result: unknown;
        let truncated = false;
        if (full && earlier.result !== null) {
          const text = JSON.stringify(earlier.result);
          if (text.length <= budget) {
            result = earlier.result;
            budget -= text.length;
          } else {
            truncated = true;
          }
        }
        return {
          stepId: earlier.stepId,
          stepOrder: earlier.stepOrder,
          stepType: earlier.stepType,
          status: earlier.status,
          confidence: earlier.confidence,
          ...(result !== undefined ? { result } : {}),
          resultSummary: earlier.resultSummary ?? earlier.note ?? null,
          outputFormattingNotes: earlier.outputFormattingNotes,
          review: earlier.review ? { decision: earlier.review.decision, feedback: earlier.review.feedback, questions: earlier.review.questions } : null,
          artifacts: artifactsOf(earlier.stepId),
          truncated,
        };
      });
    return {
      planId: state.plan.planId,
      researchQuestion: state.plan.researchQuestion,
      step: { stepId: step.stepId, stepOrder: step.stepOrder, stepType: step.stepType, instructions: step.instructions },
      earlierSteps,
      planOutputFormattingNotes: state.plan.outputFormattingNotes,
    };
  },
});
