import { z } from "zod";
import { analyzeCoverage, refinementQueries } from "../domain/sessions/coverage";
import { CONFIDENCES, DEPTHS, RESPONSE_MODES, SESSION_LIMITS } from "../domain/sessions/model";
import { mergeRefinementResults, REFINEMENT_LIMITS, type ProviderRun, type RefinementResult, type SearchProvider, SearchProviderError } from "../domain/sessions/search";
import { sessionView } from "../domain/sessions/view";
import { Trust } from "./artifact-views";
import { defineOperation, type OperationContext, restPath } from "./operation";
import { ParamId } from "./params";
import { searchResearch } from "./search-sources";

export const ParamSearchSessionId = ParamId("search session");
// Bounded by the rules, not the schema: a step number must be the next one, or one that exists.
const StepNumber = z.number().int().min(1);

const StepView = z.object({
  stepNumber: z.number(),
  searchStep: z.string(),
  reasoning: z.string().optional(),
  confidence: z.string().optional(),
  isRevision: z.boolean(),
  revisesStep: z.number().optional(),
  revisedBy: z.array(z.number()).optional(),
  branchId: z.string().optional(),
  branchFromStep: z.number().optional(),
  knowledgeGap: z.string().optional(),
  rejectedApproaches: z.string().optional(),
  sources: z.array(z.string()),
  recordedAt: z.string(),
});

/** What both session tools return: the session as the caller reads it (see domain/sessions/view.ts). */
export const SessionView = z.object({
  sessionId: z.string(),
  responseMode: z.enum(RESPONSE_MODES),
  steps: z.array(StepView).optional(),
  lastSteps: z.array(StepView).optional(),
  currentStep: StepView.nullable(),
  stepIndex: z.number(),
  gaps: z.array(
    z.object({ gapId: z.string(), text: z.string(), status: z.enum(["open", "addressed"]), openedAtStep: z.number(), addressedAtStep: z.number().optional() }),
  ),
  sources: z.array(z.object({ ref: z.string(), url: z.string(), title: z.string(), snippet: z.string().optional(), steps: z.array(z.number()) })),
  summary: z.string(),
  isComplete: z.boolean(),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
  researchGoal: z.string().nullable(),
  totalStepsEstimate: z.number().nullable(),
  warning: z.string().optional(),
  trust: Trust,
});

/** The org's own research index, for when no web search provider is configured. */
const researchIndex = (ctx: OperationContext): SearchProvider => ({
  name: "research-index",
  async search(query, { limit }) {
    const hits = await searchResearch(ctx, query, {}, limit);
    return hits.map((hit) => ({
      url: hit.sourceUrl ?? (hit.kind === "claim" ? `cairn://plans/${hit.planId}` : `cairn://${hit.kind === "artifact" ? "artifacts" : "outputs"}/${hit.id}`),
      title: hit.title,
      snippet: hit.snippet,
    }));
  },
});

/**
 * depth=thorough: runs the first suggested queries through one provider, at
 * once. A failed query is reported, never thrown: the step is already recorded.
 */
async function runRefinements(ctx: OperationContext, queries: string[]): Promise<{ results: RefinementResult[]; failures: string[]; note?: string }> {
  const provider = ctx.services.searchProviders[0] ?? researchIndex(ctx);
  const chosen = queries.slice(0, REFINEMENT_LIMITS.queries);
  const runs = await Promise.all(
    chosen.map(async (query): Promise<ProviderRun> => {
      try {
        return { provider: provider.name, query, results: await provider.search(query, { orgId: ctx.principal.orgId, limit: REFINEMENT_LIMITS.resultsPerQuery }), error: null };
      } catch (error) {
        if (!(error instanceof SearchProviderError)) {
          console.error(JSON.stringify({ level: "error", correlationId: ctx.correlationId, message: "refinement search failed", error: String(error) }));
        }
        return { provider: provider.name, query, results: [], error: error instanceof SearchProviderError ? error.message : `${provider.name} failed` };
      }
    }),
  );
  const { results, dropped } = mergeRefinementResults(runs);
  const bounds = [
    ...(queries.length > chosen.length ? [`Ran ${chosen.length} of ${queries.length} suggested queries (at most ${REFINEMENT_LIMITS.queries} per step).`] : []),
    ...(dropped > 0 ? [`Kept ${results.length} results; ${dropped} more were left out.`] : []),
  ];
  return {
    results,
    failures: runs.filter((run) => run.error !== null).map((run) => `Refinement search "${run.query}" failed: ${run.error}.`),
    ...(bounds.length > 0 ? { note: bounds.join(" ") } : {}),
  };
}

export const sequentialSearch = defineOperation({
  name: "sequential_search",
  title: "Sequential search",
  description:
    "Record one step of a multi-step search. Step 1 omits sessionId; " +
    "later steps pass it with the next stepNumber; nextStepNeeded=false completes. Idle sessions expire after 4 h. " +
    "depth standard adds coverage and refinement queries; thorough also runs 3 of them (raw results).",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    sessionId: ParamSearchSessionId.optional(),
    stepNumber: StepNumber,
    searchStep: z.string().min(1).max(SESSION_LIMITS.searchStepChars),
    nextStepNeeded: z.boolean(),
    researchGoal: z.string().max(SESSION_LIMITS.goalChars).optional().describe("Step 1 only"),
    depth: z.enum(DEPTHS).optional(),
    responseMode: z.enum(RESPONSE_MODES).optional(),
    sources: z
      .array(
        z.strictObject({
          url: z.url({ protocol: /^https?$/ }).max(SESSION_LIMITS.urlChars),
          title: z.string().min(1).max(SESSION_LIMITS.titleChars),
          snippet: z.string().max(SESSION_LIMITS.snippetChars).optional(),
        }),
      )
      .max(SESSION_LIMITS.sourcesPerStep)
      .optional(),
    knowledgeGap: z
      .string()
      .max(SESSION_LIMITS.textChars)
      .optional()
      .describe("Addressed once a later step attaches a source whose title or snippet holds its key terms (a step only mentioning it does not)"),
    reasoning: z.string().max(SESSION_LIMITS.textChars).optional(),
    confidence: z.enum(CONFIDENCES).optional(),
    isRevision: z.boolean().optional(),
    revisesStep: StepNumber.optional(),
    branchId: z.string().min(1).max(SESSION_LIMITS.branchIdChars).optional(),
    branchFromStep: StepNumber.optional(),
    sessionSummary: z.string().max(SESSION_LIMITS.summaryChars).optional(),
    rejectedApproaches: z.string().max(SESSION_LIMITS.textChars).optional(),
    totalStepsEstimate: StepNumber.optional(),
  }),
  output: SessionView.extend({
    depth: z.enum(["standard", "thorough"]).optional(),
    coverage: z
      .object({
        facets: z.array(
          z.object({
            facet: z.string(),
            kind: z.enum(["goal", "gap"]),
            gapId: z.string().optional(),
            covered: z.boolean(),
            sources: z.array(z.string()),
            steps: z.array(z.number()),
          }),
        ),
        coveredFacets: z.number(),
        totalFacets: z.number(),
        uncovered: z.array(z.string()),
        sourcesMatchingNoFacet: z.array(z.string()),
      })
      .optional(),
    refinementQueries: z.array(z.string()).optional(),
    refinementResults: z
      .array(z.object({ provider: z.string(), query: z.string(), url: z.string(), title: z.string(), snippet: z.string(), rank: z.number() }))
      .optional(),
    refinementNote: z.string().optional(),
  }),
  rest: { method: "post", path: "/search-sessions/steps", creates: { location: (session) => restPath`/search-sessions/${session.sessionId}` } },
  async handler(input, ctx) {
    const { depth = "quick", responseMode, ...step } = input;
    const { session } = await ctx.services.sessions.record(ctx.principal.orgId, ctx.principal.userId, step, ctx.now());
    const { view, notes } = sessionView(session, responseMode);
    if (depth === "quick") return { ...view, ...(notes.length > 0 ? { warning: notes.join(" ") } : {}) };

    const coverage = analyzeCoverage(session);
    const queries = refinementQueries(session, coverage);
    const refined = depth === "thorough" ? await runRefinements(ctx, queries) : null;
    const warnings = [...(refined?.failures ?? []), ...notes];
    return {
      ...view,
      depth,
      coverage,
      refinementQueries: queries,
      ...(refined ? { refinementResults: refined.results, ...(refined.note ? { refinementNote: refined.note } : {}) } : {}),
      ...(warnings.length > 0 ? { warning: warnings.join(" ") } : {}),
    };
  },
});
