import { z } from "zod";
import { validationError } from "../domain/errors";
import type { ArtifactFilters, ClaimSearchHit } from "../domain/ports";
import { clipNullable } from "../domain/clip";
import { relativeRelevance, type SearchHit, UNTRUSTED } from "../domain/research/artifacts";
import { claimOutcome } from "../domain/research/ledger";
import { toFtsQuery } from "../domain/research/search-query";
import { defineOperation, type OperationContext } from "./operation";
import { ParamArtifactType, Trust } from "./artifact-views";
import { ParamId } from "./params";

/**
 * Full-text search of the org's artifacts and deliverables, merged by relevance: every term
 * first, any term when nothing has them all. Type and tag filters are artifacts' own, so a
 * search filtered by them leaves deliverables out.
 */
export async function searchResearch(ctx: OperationContext, query: string, filters: ArtifactFilters, limit: number): Promise<SearchHit[]> {
  return (await rankedSearch(ctx, query, filters, limit)).hits;
}

/**
 * The search with how it was ranked: "relevance" over every match, or "recent-window" when the newest
 * matches only were ranked: more matched than can be ranked in time, or the query's words are so common
 * that matching them through the whole memory would cost more than a search may (FULL_INDEX_BUDGET).
 */
export async function rankedSearch(ctx: OperationContext, query: string, filters: ArtifactFilters, limit: number): Promise<{ hits: SearchHit[]; ranking: "relevance" | "recent-window" }> {
  const fts = toFtsQuery(query);
  if (!fts) return { hits: [], ranking: "relevance" };
  const { orgId } = ctx.principal;
  const withOutputs = !filters.artifactType && !filters.tag;
  const run = async (match: string) => {
    // One round trip for all three; ungrounded claims are dropped after ranking, so more are asked for.
    const found = await ctx.services.researchSearch.search(orgId, match, filters, { artifacts: limit, outputs: withOutputs ? limit : 0, claims: withOutputs ? limit * 3 : 0 });
    const hits = relativeRelevance([...found.artifacts, ...found.outputs, ...groundedClaims(found.claims, limit)].sort((a, b) => b.relevance - a.relevance).slice(0, limit));
    return { hits, ranking: found.artifactsBeyondWindow ? ("recent-window" as const) : ("relevance" as const) };
  };
  const strict = await run(fts.all);
  // Fewer than asked for: long words also as heads of longer ones (a head costs far more to match: search-query.ts).
  const widened = strict.hits.length < limit && fts.heads ? await run(fts.heads) : strict;
  const best = widened.hits.length > strict.hits.length ? widened : strict;
  if (best.hits.length > 0 || fts.terms === 1) return best;
  return run(fts.any);
}

/** Verified claims of every plan's ledger, so a later plan reuses them instead of researching again. */
function groundedClaims(hits: ClaimSearchHit[], limit: number): SearchHit[] {
  return hits.flatMap(({ claim, snippet, relevance, researchQuestion }) => {
    const outcome = claimOutcome(claim);
    if (!outcome.grounded) return [];
    return [
      {
        kind: "claim" as const,
        id: claim.claimId,
        title: `${claim.ref} (${claim.subtopic}): ${claim.text.length > 120 ? `${claim.text.slice(0, 120)}…` : claim.text}`,
        type: outcome.status,
        snippet,
        relevance,
        planId: claim.planId,
        sourceUrl: null,
        createdAt: claim.createdAt,
        researchQuestion,
        originalQuery: null,
      },
    ];
  }).slice(0, limit);
}

/** The most of each long field a hit shows. */
const HIT_CHARS = { url: 200, question: 400 } as const;

export const searchSources = defineOperation({
  name: "search_sources",
  title: "Search sources",
  description:
    "Search your organization's research, deliverables and verified claims (prior-research check), ranked. " +
    'Words, "phrases", prefix*.',
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    query: z.string().min(1).max(1000),
    limit: z.number().int().min(1).max(50).optional().describe("Default 5"),
    artifactType: ParamArtifactType.optional(),
    planId: ParamId("plan").optional(),
    tag: z.string().min(1).max(50).optional(),
    since: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  }),
  output: z.object({
    results: z.array(
      z.object({
        kind: z.enum(["artifact", "output", "claim"]),
        id: z.string(),
        title: z.string(),
        type: z.string(),
        snippet: z.string(),
        relevance: z.number(),
        date: z.string(),
        planId: z.string().nullable(),
        sourceUrl: z.string().nullable(),
        researchQuestion: z.string().nullable(),
        originalQuery: z.string().nullable(),
      }),
    ),
    ranking: z.enum(["relevance", "recent-window"]),
    trust: Trust,
  }),
  rest: { method: "get", path: "/search" },
  core: { description: "Search your organization's earlier research before starting: ranked hits with snippets. Words, \"phrases\", prefix*.", hide: ["artifactType", "planId", "tag", "since"] },
  async handler(input, ctx) {
    const since = input.since ? Date.parse(input.since) : undefined;
    if (since !== undefined && Number.isNaN(since)) throw validationError("since is not a date.", [{ path: "since", message: "Not a date" }]);
    const { hits, ranking } = await rankedSearch(ctx, input.query, { artifactType: input.artifactType, planId: input.planId, tag: input.tag, since }, input.limit ?? 5);
    return {
      results: hits.map(({ createdAt, ...hit }) => ({
        ...hit,
        // Long fields are clipped with "…" so a page of hits stays small (issue 4); the record itself has them whole.
        sourceUrl: clipNullable(hit.sourceUrl, HIT_CHARS.url),
        researchQuestion: clipNullable(hit.researchQuestion, HIT_CHARS.question),
        originalQuery: clipNullable(hit.originalQuery, HIT_CHARS.question),
        date: new Date(createdAt).toISOString(),
      })),
      // A word in nearly every record: its newest matches were ranked, not all of them.
      ranking,
      trust: UNTRUSTED,
    };
  },
});
