import { z } from "zod";
import { notFound } from "../domain/errors";
import { UNTRUSTED } from "../domain/research/artifacts";
import { claimSourceFacts } from "../domain/research/claim-sources";
import { CRITIC_VERDICTS, claimOutcome, REVIEWER_VERDICTS, summarizeSubtopics } from "../domain/research/ledger";
import { countPreferred } from "../domain/sources/source-policy";
import { Trust } from "./artifact-views";
import {
  changedSourceRefs,
  ClaimView,
  claimChangedAt,
  claimView,
  CompactClaimView,
  CompactEvidenceView,
  compactClaimView,
  compactEvidenceView,
  EvidenceView,
  evidenceChangedAt,
  evidenceView,
  ParamPlanId,
  ParamSubtopic,
  type ViewBounds,
  WHOLE,
} from "./ledger-views";
import { defineOperation } from "./operation";
import { ParamSince } from "./params";
import { passagesInContext, sourcePassageViews } from "./source-passages";

/** Items per page: compact rows are small, full records are not. */
const DEFAULT_ITEMS = { compact: 15, full: 6 } as const;
/** Listings clip texts; `ref` reads one item whole. */
const LISTED: ViewBounds = { textChars: 200, shortChars: 100 };

const Subtopics = z.array(z.object({ subtopic: z.string(), status: z.string(), evidence: z.number(), claims: z.number(), groundedClaims: z.number() }));

export const getEvidenceLedger = defineOperation({
  name: "get_evidence_ledger",
  title: "Get evidence ledger",
  description:
    "A plan's evidence ledger: subtopics (UNVERIFIED: no grounded claim), evidence, claims with status and verdicts; " +
    "rows fit each read (facts by subtopic, shard or review status; urls with GROUNDED). ref (E3, C2): one item " +
    "whole; detail full: every field; since: your last cursor; shard 1/2: odd/even claims.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    // One pattern, not a union of two: the published schema of a union of two strings says "string" twice.
    ref: z.string().regex(/^[EC]\d{1,5}$/, "An evidence or claim ref such as E3 or C2").optional(),
    subtopic: ParamSubtopic.optional(),
    status: z.enum(["PENDING_REVIEW", ...REVIEWER_VERDICTS, ...CRITIC_VERDICTS, "GROUNDED", "UNGROUNDED"]).optional(),
    shard: z.number().int().min(1).max(2).optional(),
    highStakes: z.boolean().optional(),
    since: ParamSince.optional(),
    detail: z.enum(["compact", "full"]).optional(),
    limit: z.number().int().min(1).max(100).optional().describe(`Default ${DEFAULT_ITEMS.compact} (full ${DEFAULT_ITEMS.full})`),
    offset: z.number().int().min(0).optional(),
  }),
  output: z.object({
    planId: z.string().optional(),
    citationPolicy: z.string().optional(),
    subtopics: Subtopics.optional(),
    evidence: z.array(z.union([EvidenceView, CompactEvidenceView])),
    claims: z.array(z.union([ClaimView, CompactClaimView])),
    totalEvidence: z.number(),
    totalClaims: z.number(),
    /** Of totalEvidence, how many come from the org's preferred domains (present when the org prefers any). */
    preferredSources: z.number().optional(),
    nextOffset: z.number().nullable(),
    cursor: z.string().optional(),
    trust: Trust,
  }),
  rest: { method: "get", path: "/plans/{planId}/ledger" },
  async handler(input, ctx) {
    const { orgId } = ctx.principal;
    await ctx.services.plans.read(orgId, input.planId, false);
    const header = await ctx.services.ledger.header(orgId, input.planId);
    if (!header) throw notFound("evidence ledger for plan", input.planId);
    const { evidence, claims } = await ctx.services.ledger.read(orgId, input.planId, true);
    const subtopics = summarizeSubtopics(header.subtopics, evidence, claims);
    const byRef = new Map(evidence.map((e) => [e.ref, e]));
    const sourcesOf = (claim: (typeof claims)[number]) => claimSourceFacts(claim, byRef);
    // Claims resting on a source a re-check found changed since verified are flagged for re-verification.
    const changed = changedSourceRefs(evidence);
    if (input.ref) {
      const one = { evidence: evidence.filter((e) => e.ref === input.ref), claims: claims.filter((c) => c.ref === input.ref) };
      if (one.evidence.length + one.claims.length === 0) throw notFound(`item of plan ${input.planId}'s ledger`, input.ref);
      // A read of one item shows each located passage with the page's text around it, so a reviewer judges against the source.
      const read = [...one.evidence, ...one.claims.flatMap((c) => c.evidenceRefs.flatMap((ref) => byRef.get(ref) ?? []))];
      const found = await passagesInContext(ctx.services.sourceSnapshots, orgId, read);
      return {
        planId: input.planId,
        citationPolicy: header.citationPolicy,
        subtopics: [],
        evidence: one.evidence.map((e) => {
          const view = evidenceView(e, WHOLE);
          const context = found.get(e.ref)?.context;
          return context && view.verification ? { ...view, verification: { ...view.verification, context } } : view;
        }),
        claims: one.claims.map((c) => {
          const sourcePassages = sourcePassageViews(c.evidenceRefs, byRef, found);
          return { ...claimView(c, WHOLE, sourcesOf(c), changed), ...(sourcePassages.length > 0 ? { sourcePassages } : {}) };
        }),
        totalEvidence: one.evidence.length,
        totalClaims: one.claims.length,
        nextOffset: null,
        trust: UNTRUSTED,
      };
    }

    const since = input.since === undefined ? null : Number(input.since);
    const inSubtopic = (name: string | null) => !input.subtopic || name?.toLowerCase() === input.subtopic.toLowerCase();
    const inShard = (ref: string) => !input.shard || Number(ref.slice(1)) % 2 === input.shard % 2;
    const matchesStatus = (claim: (typeof claims)[number]) => {
      if (!input.status) return true;
      const outcome = claimOutcome(claim);
      if (input.status === "GROUNDED") return outcome.grounded;
      if (input.status === "UNGROUNDED") return !outcome.grounded;
      return outcome.status === input.status;
    };
    const keptClaims = claims.filter(
      (c) =>
        inSubtopic(c.subtopic) &&
        matchesStatus(c) &&
        inShard(c.ref) &&
        (input.highStakes === undefined || c.highStakes === input.highStakes) &&
        (since === null || claimChangedAt(c) > since),
    );
    // With a claim filter (status, shard, highStakes), the evidence shown is what those claims cite.
    const cited = new Set(keptClaims.flatMap((c) => c.evidenceRefs));
    const keptEvidence = evidence.filter(
      (e) => inSubtopic(e.subtopic) && (!input.status && !input.shard && input.highStakes === undefined ? since === null || evidenceChangedAt(e) > since : cited.has(e.ref)),
    );

    const full = input.detail === "full";
    const offset = input.offset ?? 0;
    const limit = input.limit ?? DEFAULT_ITEMS[full ? "full" : "compact"];
    const end = offset + limit;
    const policy = await ctx.services.orgSettings.sourcePolicy(orgId);
    const page = {
      totalEvidence: keptEvidence.length,
      totalClaims: keptClaims.length,
      ...(policy.preferredDomains.length > 0 ? { preferredSources: countPreferred(policy, keptEvidence.map((e) => e.url)) } : {}),
      nextOffset: keptEvidence.length > end || keptClaims.length > end ? end : null,
      cursor: String(Math.max(0, ...evidence.map(evidenceChangedAt), ...claims.map(claimChangedAt))),
      trust: UNTRUSTED,
    };
    const subtopicRows = subtopics.filter((s) => inSubtopic(s.subtopic));
    if (full) {
      return {
        planId: input.planId,
        citationPolicy: header.citationPolicy,
        subtopics: subtopicRows,
        evidence: keptEvidence.slice(offset, end).map((e) => evidenceView(e, LISTED)),
        claims: keptClaims.slice(offset, end).map((c) => claimView(c, LISTED, sourcesOf(c), changed)),
        ...page,
      };
    }
    // Compact: the subtopic table where a step decides on coverage (no filter, one subtopic, the report's GROUNDED
    // read); facts where a step writes or judges from them; urls where the report cites.
    const forReport = input.status === "GROUNDED" || input.status === "UNGROUNDED";
    const judging = (input.status !== undefined && !forReport) || input.shard !== undefined || input.highStakes !== undefined;
    const parts = { subtopic: !input.subtopic, facts: input.subtopic !== undefined || judging, url: forReport };
    return {
      ...(!judging ? { subtopics: subtopicRows } : {}),
      evidence: keptEvidence.slice(offset, end).map((e) => compactEvidenceView(e, LISTED, parts)),
      claims: keptClaims.slice(offset, end).map((c) => compactClaimView(c, LISTED, parts, sourcesOf(c), changed)),
      ...page,
    };
  },
});
