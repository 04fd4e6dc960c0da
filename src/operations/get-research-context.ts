import { z } from "zod";
import { validationError } from "../domain/errors";
import { defineOperation } from "./operation";
import { ParamSessionId } from "./params";
import { actorOf, ParamPlanId, PlanStatusView, planStatusView } from "./plan-views";

const STEPS_PER_PAGE = { summary: 60, full: 8 } as const;

export const getResearchContext = defineOperation({
  name: "get_research_context",
  title: "Get research context",
  description:
    "Everything needed to resume or deliver a plan: question, rationale, formatting notes, status, and every step " +
    "with instructions and results (detail full, paged by cursor) or summaries. With sessionId it records that " +
    "this session resumed the plan.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    sessionId: ParamSessionId.optional(),
    detail: z.enum(["summary", "full"]).optional(),
    cursor: z.string().regex(/^\d{1,3}$/, "Pass nextCursor unchanged").optional(),
  }),
  output: z.object({
    plan: z.object({
      planId: z.string(),
      name: z.string(),
      researchQuestion: z.string(),
      planDesignRationale: z.string(),
      outputFormattingNotes: z.string().nullable(),
      executionId: z.string().nullable(),
      version: z.number(),
      createdAt: z.string(),
    }),
    status: PlanStatusView,
    steps: z.array(
      z.object({
        stepId: z.string(),
        stepOrder: z.number(),
        stepType: z.string(),
        status: z.string(),
        instructions: z.string(),
        confidence: z.number().nullable(),
        resultSummary: z.string().nullable(),
        result: z.unknown().optional(),
        outputFormattingNotes: z.string().nullable(),
        review: z.object({ decision: z.string().nullable(), feedback: z.string().nullable() }).nullable(),
      }),
    ),
    nextCursor: z.string().nullable(),
  }),
  rest: { method: "get", path: "/plans/{planId}/context" },
  async handler(input, ctx) {
    const detail = input.detail ?? "summary";
    const start = input.cursor ? Number(input.cursor) : 0;
    const { orgId } = ctx.principal;
    if (input.sessionId) {
      await ctx.services.plans.run(orgId, input.planId, { kind: "resume", sessionId: input.sessionId }, actorOf(ctx), ctx.now());
    }
    const outline = await ctx.services.plans.read(orgId, input.planId, false);
    if (start > outline.steps.length) throw validationError("cursor is past the last step.", [{ path: "cursor", message: "Past the end" }]);
    const pageSteps = outline.steps.slice(start, start + STEPS_PER_PAGE[detail]);
    const state = detail === "full" ? await ctx.services.plans.read(orgId, input.planId, pageSteps.map((step) => step.stepId)) : outline;
    const byId = new Map(state.steps.map((step) => [step.stepId, step]));
    const end = start + pageSteps.length;
    const { plan } = state;
    return {
      plan: {
        planId: plan.planId,
        name: plan.name,
        researchQuestion: plan.researchQuestion,
        planDesignRationale: plan.planDesignRationale,
        outputFormattingNotes: plan.outputFormattingNotes,
        executionId: plan.executionId,
        version: plan.version,
        createdAt: new Date(plan.createdAt).toISOString(),
      },
      status: planStatusView(outline, ctx.now()),
      steps: pageSteps.map((outlined) => {
        const step = byId.get(outlined.stepId) ?? outlined;
        return {
          stepId: step.stepId,
          stepOrder: step.stepOrder,
          stepType: step.stepType,
          status: step.status,
          instructions: step.instructions,
          confidence: step.confidence,
          resultSummary: step.resultSummary ?? step.note ?? null,
          ...(detail === "full" && step.result !== null ? { result: step.result } : {}),
          outputFormattingNotes: step.outputFormattingNotes,
          review: step.review ? { decision: step.review.decision, feedback: step.review.feedback } : null,
        };
      }),
      nextCursor: end < outline.steps.length ? String(end) : null,
    };
  },
});
