import { z } from "zod";
import { clipNullable, clipText } from "../domain/clip";
import { notFound } from "../domain/errors";
import { defineOperation } from "./operation";
import { ParamPlanId, ParamStepId } from "./plan-views";

/**
 * Characters of earlier-step JSON one context holds, filled from the latest earlier step back (the nearest work
 * matters most); results (detail full) count too. Older steps that do not fit are counted in earlierStepsOmitted.
 */
const BUDGET_CHARS = { summary: 14_000, full: 40_000 } as const;
/** What the context shows of long text: get_research_context (detail full) has all of it. */
const CLIP = { instructions: 500, planNotes: 1_000, stepText: 300, question: 200, title: 120 } as const;
/** Artifacts named per earlier step (newest first); list_artifacts by planId lists them all. */
const ARTIFACTS_PER_STEP = 5;

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
    "Earlier steps, latest first within a size budget: summaries (results with detail full), confidence, review " +
    "feedback, artifacts.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ planId: ParamPlanId, stepId: ParamStepId, detail: z.enum(["summary", "full"]).optional() }),
  output: z.object({
    planId: z.string(),
    researchQuestion: z.string(),
    step: z.object({ stepId: z.string(), stepOrder: z.number(), stepType: z.string(), instructions: z.string() }),
    earlierSteps: z.array(EarlierStep),
    earlierStepsOmitted: z.number(),
    planOutputFormattingNotes: z.string().nullable(),
  }),
  rest: { method: "get", path: "/plans/{planId}/steps/{stepId}/context" },
  async handler(input, ctx) {
    const full = input.detail === "full";
    const state = await ctx.services.plans.read(ctx.principal.orgId, input.planId, full);
    const step = state.steps.find((candidate) => candidate.stepId === input.stepId);
    if (!step) throw notFound("step", input.stepId);
    const stored = await ctx.services.artifacts.list(ctx.principal.orgId, { planId: input.planId }, { limit: ARTIFACTS_LISTED });
    const earlier = state.steps.filter((candidate) => candidate.stepOrder < step.stepOrder);
    const rowOf = (prior: (typeof earlier)[number]) => {
      const artifacts = stored.filter((artifact) => artifact.stepId === prior.stepId);
      const feedback = prior.review?.feedback ?? null;
      const questions = prior.review?.questions ?? [];
      const notes = prior.outputFormattingNotes;
      const truncated =
        artifacts.length > ARTIFACTS_PER_STEP ||
        artifacts.some((artifact) => artifact.title.length > CLIP.title) ||
        (notes?.length ?? 0) > CLIP.stepText ||
        (feedback?.length ?? 0) > CLIP.stepText ||
        questions.some((question) => question.length > CLIP.question);
      return {
        stepId: prior.stepId,
        stepOrder: prior.stepOrder,
        stepType: prior.stepType,
        status: prior.status,
        confidence: prior.confidence,
        resultSummary: prior.resultSummary ?? prior.note ?? null,
        outputFormattingNotes: clipNullable(notes, CLIP.stepText),
        review: prior.review
          ? { decision: prior.review.decision, feedback: clipNullable(feedback, CLIP.stepText), questions: questions.map((question) => clipText(question, CLIP.question)) }
          : null,
        artifacts: artifacts
          .slice(0, ARTIFACTS_PER_STEP)
          .map(({ artifactId, title, artifactType }) => ({ artifactId, title: clipText(title, CLIP.title), artifactType })),
        truncated,
      };
    };
    // Latest first: each row with its result (detail full) if that still fits, else without it and marked truncated.
    let left: number = BUDGET_CHARS[full ? "full" : "summary"];
    const kept: (ReturnType<typeof rowOf> & { result?: unknown })[] = [];
    for (const prior of [...earlier].reverse()) {
      const row: (typeof kept)[number] = rowOf(prior);
      const size = JSON.stringify(row).length;
      if (size > left) break;
      if (full && prior.result !== null) {
        const withResult = size + JSON.stringify(prior.result).length + 10;
        if (withResult <= left) {
          row.result = prior.result;
          left -= withResult - size;
        } else row.truncated = true;
      }
      left -= size;
      kept.push(row);
    }
    return {
      planId: state.plan.planId,
      researchQuestion: state.plan.researchQuestion,
      step: { stepId: step.stepId, stepOrder: step.stepOrder, stepType: step.stepType, instructions: clipText(step.instructions, CLIP.instructions) },
      earlierSteps: kept.reverse(),
      earlierStepsOmitted: earlier.length - kept.length,
      planOutputFormattingNotes: clipNullable(state.plan.outputFormattingNotes, CLIP.planNotes),
    };
  },
});
