import { z } from "zod";
import { notFound } from "../domain/errors";
import { UNTRUSTED } from "../domain/research/artifacts";
import { CRITIC_VERDICTS, claimOutcome, REVIEWER_VERDICTS, summarizeSubtopics } from "../domain/research/ledger";
import { Trust } from "./artifact-views";
import {
  ClaimView,
  claimView,
  EvidenceView,
  evidenceView,
  ParamClaimRef,
  ParamEvidenceRef,
  ParamPlanId,
  ParamSubtopic,
  type ViewBounds,
  WHOLE,
} from "./ledger-views";
import { defineOperation } from "./operation";

const DEFAULT_ITEMS = 6;
/** Listings clip texts; `ref` reads one item whole. */
const LISTED: ViewBounds = { textChars: 200, shortChars: 100 };

export const getEvidenceLedger = defineOperation({
  name: "get_evidence_ledger",
  title: "Get evidence ledger",
  description:
    "A plan's evidence ledger: subtopics (UNVERIFIED when no claim of it is grounded), evidence, and claims with " +
    "verdicts, final status and confidence. Texts are clipped; ref (E3, C2) reads one item whole.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    ref: z.union([ParamEvidenceRef, ParamClaimRef]).optional(),
    subtopic: ParamSubtopic.optional(),
    status: z.enum(["PENDING_REVIEW", ...REVIEWER_VERDICTS, ...CRITIC_VERDICTS, "GROUNDED", "UNGROUNDED"]).optional(),
    limit: z.number().int().min(1).max(100).optional().describe(`Default ${DEFAULT_ITEMS}`),
    offset: z.number().int().min(0).optional(),
  }),
  output: z.object({
    planId: z.string(),
    citationPolicy: z.string(),
    subtopics: z.array(z.object({ subtopic: z.string(), status: z.string(), evidence: z.number(), claims: z.number(), groundedClaims: z.number() })),
    evidence: z.array(EvidenceView),
    claims: z.array(ClaimView),
    totalEvidence: z.number(),
    totalClaims: z.number(),
    nextOffset: z.number().nullable(),
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
    if (input.ref) {
      const one = { evidence: evidence.filter((e) => e.ref === input.ref), claims: claims.filter((c) => c.ref === input.ref) };
      if (one.evidence.length + one.claims.length === 0) throw notFound(`item of plan ${input.planId}'s ledger`, input.ref);
      return {
        planId: input.planId,
        citationPolicy: header.citationPolicy,
        subtopics: [],
        evidence: one.evidence.map((e) => evidenceView(e, WHOLE)),
        claims: one.claims.map((c) => claimView(c, WHOLE)),
        totalEvidence: one.evidence.length,
        totalClaims: one.claims.length,
        nextOffset: null,
        trust: UNTRUSTED,
      };
    }

    const inSubtopic = (name: string | null) => !input.subtopic || name?.toLowerCase() === input.subtopic.toLowerCase();
    const matchesStatus = (claim: (typeof claims)[number]) => {
      if (!input.status) return true;
      const outcome = claimOutcome(claim);
      if (input.status === "GROUNDED") return outcome.grounded;
      if (input.status === "UNGROUNDED") return !outcome.grounded;
      return outcome.status === input.status;
    };
    const keptClaims = claims.filter((c) => inSubtopic(c.subtopic) && matchesStatus(c));
    // With a status filter, the evidence shown is what those claims cite.
    const cited = new Set(keptClaims.flatMap((c) => c.evidenceRefs));
    const keptEvidence = evidence.filter((e) => inSubtopic(e.subtopic) && (!input.status || cited.has(e.ref)));

    const offset = input.offset ?? 0;
    const limit = input.limit ?? DEFAULT_ITEMS;
    const end = offset + limit;
    return {
      planId: input.planId,
      citationPolicy: header.citationPolicy,
      subtopics: subtopics.filter((s) => inSubtopic(s.subtopic)),
      evidence: keptEvidence.slice(offset, end).map((e) => evidenceView(e, LISTED)),
      claims: keptClaims.slice(offset, end).map((c) => claimView(c, LISTED)),
      totalEvidence: keptEvidence.length,
      totalClaims: keptClaims.length,
      nextOffset: keptEvidence.length > end || keptClaims.length > end ? end : null,
      trust: UNTRUSTED,
    };
  },
});
