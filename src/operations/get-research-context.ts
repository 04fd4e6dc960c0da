import { z } from "zod";
import { clipText } from "../domain/clip";
import { validationError } from "../domain/errors";
import type { Step } from "../domain/plans/model";
import { UNTRUSTED } from "../domain/research/artifacts";
import { sourcesStanding } from "../domain/sources/ledger-standing";
import { claimOutcome } from "../domain/research/ledger";
import { Trust } from "./artifact-views";
import { defineOperation, type OperationContext } from "./operation";
import { ParamSessionId } from "./params";
import { actorOf, fillBudget, ParamPlanId, PlanStatusBrief, planStatusBrief, ResultSummary, resultSummaryOf } from "./plan-views";
import { OpenCommentsView, openCommentsOnPlan } from "./comment-views";

/**
 * Steps whose results a full page reads from the plan at a time (a result may be 256 KiB): it reads batch after
 * batch until the page is full, so what it reads stays near what it returns, and only the budget ends a page.
 */
const FULL_READ_BATCH = 8;
/**
 * Characters of step JSON a page holds (at least one step): summaries are cut to fit many steps, full pages hold
 * whole steps; the largest templated plan (22 steps, test/workers/response-size.test.ts) fits one full page.
 */
const PAGE_CHARS = { summary: 12_000, full: 40_000 } as const;
/** What a summary shows of long text; detail full has it whole. */
const SUMMARY_CLIP = { rationale: 1_000, notes: 1_000, instructions: 300, stepText: 300 } as const;

export const getResearchContext = defineOperation({
  name: "get_research_context",
  title: "Get research context",
  description:
    "Resume or deliver a plan: question, rationale, notes, status, steps (paged by cursor) as summaries " +
    "(clipped: truncated) or whole with results (detail full). sessionId records the resume.",
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
    status: PlanStatusBrief,
    steps: z.array(
      z.object({
        stepId: z.string(),
        stepOrder: z.number(),
        stepType: z.string(),
        status: z.string(),
        instructions: z.string(),
        confidence: z.number().nullable(),
        resultSummary: ResultSummary,
        result: z.unknown().optional(),
        outputFormattingNotes: z.string().nullable(),
        review: z.object({ decision: z.string().nullable(), feedback: z.string().nullable() }).nullable(),
      }),
    ),
    nextCursor: z.string().nullable(),
    truncated: z.boolean(),
    /**
     * A plan with an evidence ledger, on the first page: its sources by check status, and those that cannot carry a
     * paragraph (partial, with the closest passage to quote exactly instead; not_found). Passages are page text.
     */
    sources: z
      .object({
        counts: z.record(z.string(), z.number()),
        needWork: z.array(z.object({ ref: z.string(), status: z.string(), score: z.number().optional(), closest: z.string().optional(), reason: z.string().optional() })).optional(),
        /** The ledger's claims, and how many are grounded (SUPPORTED or SURVIVES, with a cited source whose check did not fail). */
        claims: z.object({ total: z.number(), grounded: z.number() }).optional(),
        moreNeedWork: z.number().optional(),
        trust: Trust.optional(),
      })
      .optional(),
    comments: OpenCommentsView.optional(),
  }),
  rest: { method: "get", path: "/plans/{planId}/context" },
  async handler(input, ctx) {
    const detail = input.detail ?? "summary";
    const full = detail === "full";
    const start = input.cursor ? Number(input.cursor) : 0;
    const { orgId } = ctx.principal;
    if (input.sessionId) {
      await ctx.services.plans.run(orgId, input.planId, { kind: "resume", sessionId: input.sessionId }, actorOf(ctx), ctx.now());
    }
    const outline = await ctx.services.plans.read(orgId, input.planId, false);
    if (start > outline.steps.length) throw validationError("cursor is past the last step.", [{ path: "cursor", message: "Past the end" }]);
    // Summaries clip long text; each row remembers whether it did, so `truncated` speaks for this page only.
    let cut = false;
    const clip = <T extends string | null>(value: T, max: number): T => {
      if (full || value === null || value.length <= max) return value;
      cut = true;
      return clipText(value, max) as T;
    };
    const rowOf = (step: Step) => {
      cut = false;
      const row = {
        stepId: step.stepId,
        stepOrder: step.stepOrder,
        stepType: step.stepType,
        status: step.status,
        instructions: clip(step.instructions, SUMMARY_CLIP.instructions),
        confidence: step.confidence,
        resultSummary: resultSummaryOf(step),
        ...(full && step.result !== null ? { result: step.result } : {}),
        outputFormattingNotes: clip(step.outputFormattingNotes, SUMMARY_CLIP.stepText),
        review: step.review ? { decision: step.review.decision, feedback: clip(step.review.feedback, SUMMARY_CLIP.stepText) } : null,
      };
      return { row, cut };
    };
    // Summaries come from the outline in one go; a full page reads results a batch at a time until it is full.
    const batchSize = full ? FULL_READ_BATCH : Number.POSITIVE_INFINITY;
    const withResults = async (outlined: Step[]) => {
      const state = await ctx.services.plans.read(orgId, input.planId, outlined.map((step) => step.stepId));
      const byId = new Map(state.steps.map((step) => [step.stepId, step]));
      return outlined.map((step) => byId.get(step.stepId) ?? step);
    };
    const cost = ({ row }: ReturnType<typeof rowOf>) => JSON.stringify(row).length;
    const page: ReturnType<typeof rowOf>[] = [];
    // People's open comments come with the first page, in its room (bounded themselves: comment-views.ts).
    const comments = start === 0 ? await openCommentsOnPlan(ctx, input.planId) : null;
    let left = PAGE_CHARS[detail] - (comments ? JSON.stringify(comments).length : 0);
    for (let from = start; from < outline.steps.length && left > 0; from += batchSize) {
      const outlined = outline.steps.slice(from, from + batchSize);
      const steps = full ? await withResults(outlined) : outlined;
      const taken = fillBudget(steps.map(rowOf), left, cost, page.length === 0);
      page.push(...taken);
      left -= taken.reduce((sum, entry) => sum + cost(entry), 0);
      if (taken.length < steps.length) break;
    }
    const end = start + page.length;
    const { plan } = outline;
    cut = false;
    const header = {
      planId: plan.planId,
      name: plan.name,
      researchQuestion: plan.researchQuestion,
      planDesignRationale: clip(plan.planDesignRationale, SUMMARY_CLIP.rationale),
      outputFormattingNotes: clip(plan.outputFormattingNotes, SUMMARY_CLIP.notes),
      executionId: plan.executionId,
      version: plan.version,
      createdAt: new Date(plan.createdAt).toISOString(),
    };
    const truncated = cut || page.some((entry) => entry.cut);
    const sources = start === 0 ? await sourcesOf(ctx, input.planId) : null;
    return {
      plan: header,
      status: planStatusBrief(outline, ctx.now()),
      steps: page.map((entry) => entry.row),
      nextCursor: end < outline.steps.length ? String(end) : null,
      truncated,
      ...(sources ? { sources } : {}),
      ...(comments ? { comments } : {}),
    };
  },
});

/** Where the plan's sources stand, for a plan with an evidence ledger holding any; lean (empty parts left out). */
async function sourcesOf(ctx: OperationContext, planId: string) {
  const { orgId } = ctx.principal;
  if (!(await ctx.services.ledger.header(orgId, planId))) return null;
  const { evidence, claims } = await ctx.services.ledger.read(orgId, planId, false);
  if (evidence.length === 0) return null;
  const { counts, needWork, moreNeedWork } = sourcesStanding(evidence);
  return {
    counts,
    ...(needWork.length ? { needWork } : {}),
    ...(moreNeedWork ? { moreNeedWork } : {}),
    ...(claims.length ? { claims: { total: claims.length, grounded: claims.filter((claim) => claimOutcome(claim).grounded).length } } : {}),
    ...(needWork.some((source) => source.closest) ? { trust: UNTRUSTED } : {}),
  };
}
