import { z } from "zod";
import { clipNullable, clipText } from "../domain/clip";
import { notFound } from "../domain/errors";
import { stepsBuiltOn } from "../domain/plans/step-inputs";
import type { Step } from "../domain/plans/model";
import { defineOperation } from "./operation";
import { ParamSince } from "./params";
import { ParamPlanId, ParamStepId, ResultSummary, resultSummaryOf } from "./plan-views";

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
  stepId: z.string().optional(),
  stepOrder: z.number(),
  stepType: z.string(),
  status: z.string(),
  confidence: z.number().nullable(),
  result: z.unknown().optional(),
  /** The result bounded, always an object ({ text } for text); { note } for a skipped or failed step. */
  resultSummary: ResultSummary,
  outputFormattingNotes: z.string().optional(),
  review: z.object({ decision: z.string().nullable(), feedback: z.string().nullable(), questions: z.array(z.string()) }).optional(),
  artifacts: z.array(z.object({ artifactId: z.string(), title: z.string(), artifactType: z.string() })).optional(),
  truncated: z.boolean().optional(),
});

/** How many of a plan's artifacts the context names (newest first); get_artifact reads each. */
const ARTIFACTS_LISTED = 100;

/** The one line a step the current one does not build on gets: order, type, status, confidence. */
const lineOf = (step: Step) => `${step.stepOrder} ${step.stepType} ${step.status}${step.confidence === null ? "" : ` ${step.confidence}`}`;

/** When a step last changed for a reader of its context: finished, or its review answered. */
const changedAt = (step: Step) => Math.max(step.finishedAt ?? 0, step.review?.decidedAt ?? 0);

export const getStepContext = defineOperation({
  name: "get_step_context",
  title: "Get step context",
  description:
    "What a step builds on (summaries of the steps before it, checkpoint answers), a line per other step. since: " +
    "your last cursor, for what changed; detail full: every step with results.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    stepId: ParamStepId,
    detail: z.enum(["summary", "full"]).optional(),
    since: ParamSince.optional(),
  }),
  output: z.object({
    planId: z.string().optional(),
    step: z.object({ stepId: z.string().optional(), stepOrder: z.number(), stepType: z.string(), instructions: z.string().optional() }),
    researchQuestion: z.string().optional(),
    earlierSteps: z.array(EarlierStep),
    /** Other earlier steps (changed since the cursor, when given): "order type status confidence". */
    otherSteps: z.array(z.string()).optional(),
    /** Steps left out for the size budget (latest kept first); present when some were. */
    earlierStepsOmitted: z.number().optional(),
    planOutputFormattingNotes: z.string().nullable().optional(),
    cursor: z.string(),
  }),
  rest: { method: "get", path: "/plans/{planId}/steps/{stepId}/context" },
  async handler(input, ctx) {
    const full = input.detail === "full";
    const state = await ctx.services.plans.read(ctx.principal.orgId, input.planId, full);
    const step = state.steps.find((candidate) => candidate.stepId === input.stepId);
    if (!step) throw notFound("step", input.stepId);
    const stored = await ctx.services.artifacts.list(ctx.principal.orgId, { planId: input.planId }, { limit: ARTIFACTS_LISTED });
    const earlier = state.steps.filter((candidate) => candidate.stepOrder < step.stepOrder);
    const since = input.since === undefined ? null : Number(input.since);
    const changed = (prior: Step) => since === null || changedAt(prior) > since;
    // Summary: the steps this one builds on and the checkpoints answered, a line for the others; with a cursor, only
    // what changed since (the caller has the rest from its earlier answer).
    const builtOn = new Set(stepsBuiltOn(state.steps, step).map((prior) => prior.stepId));
    const shown = full ? earlier : earlier.filter((prior) => changed(prior) && (builtOn.has(prior.stepId) || prior.review?.decision != null));
    const rowOf = (prior: Step) => {
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
      // Empty parts are left out: every token lands in the model's context.
      return {
        // Earlier steps are not acted on by id; the full view names them.
        ...(full ? { stepId: prior.stepId } : {}),
        stepOrder: prior.stepOrder,
        stepType: prior.stepType,
        status: prior.status,
        confidence: prior.confidence,
        resultSummary: resultSummaryOf(prior),
        ...(notes ? { outputFormattingNotes: clipText(notes, CLIP.stepText) } : {}),
        ...(prior.review
          ? { review: { decision: prior.review.decision, feedback: clipNullable(feedback, CLIP.stepText), questions: questions.map((question) => clipText(question, CLIP.question)) } }
          : {}),
        ...(artifacts.length > 0
          ? { artifacts: artifacts.slice(0, ARTIFACTS_PER_STEP).map(({ artifactId, title, artifactType }) => ({ artifactId, title: clipText(title, CLIP.title), artifactType })) }
          : {}),
        ...(truncated ? { truncated } : {}),
      };
    };
    // Latest first: each row with its result (detail full) if that still fits, else without it and marked truncated.
    let left: number = BUDGET_CHARS[full ? "full" : "summary"];
    const kept: (ReturnType<typeof rowOf> & { result?: unknown })[] = [];
    for (const prior of [...shown].reverse()) {
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
    const keptOrders = new Set(kept.map((row) => row.stepOrder));
    const others = full ? [] : earlier.filter((prior) => !shown.includes(prior) && changed(prior)).map(lineOf);
    const omitted = shown.filter((prior) => !keptOrders.has(prior.stepOrder)).length;
    const isLast = step.stepOrder === Math.max(...state.steps.map((candidate) => candidate.stepOrder));
    return {
      // The caller named the plan and step, and get_next_step handed over the instructions; the full view repeats them.
      ...(full ? { planId: state.plan.planId } : {}),
      step: {
        ...(full ? { stepId: step.stepId } : {}),
        stepOrder: step.stepOrder,
        stepType: step.stepType,
        ...(full ? { instructions: clipText(step.instructions, CLIP.instructions) } : {}),
      },
      ...(full ? { researchQuestion: state.plan.researchQuestion } : {}),
      earlierSteps: kept.reverse(),
      ...(others.length > 0 ? { otherSteps: others } : {}),
      ...(omitted > 0 ? { earlierStepsOmitted: omitted } : {}),
      ...(full || isLast ? { planOutputFormattingNotes: clipNullable(state.plan.outputFormattingNotes, CLIP.planNotes) } : {}),
      cursor: String(state.plan.updatedAt),
    };
  },
});
