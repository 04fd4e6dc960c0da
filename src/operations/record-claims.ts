import { z } from "zod";
import { type ValidationIssue, validationError } from "../domain/errors";
import { newId } from "../domain/ids";
import { changedSourcesOf, needsReverification, provenanceOf, reuseRefusal } from "../domain/research/claim-reuse";
import { type Claim, type Evidence, LEDGER_LIMITS, normalizeSubtopic } from "../domain/research/ledger";
import { refuseBlockedSources } from "./source-policy-check";
import { requestSourceChecks } from "./source-checks";
import { defineOperation, type OperationContext, restPath } from "./operation";
import { ParamEvidenceRef, ParamPlanId, ParamSubtopic } from "./ledger-views";
import { ParamId } from "./params";

export const recordClaims = defineOperation({
  name: "record_claims",
  title: "Record claims",
  description:
    "Record claims on a plan's evidence ledger, each citing its evidence refs; a call citing an unknown ref is " +
    "refused whole. A repeated claim merges. reuse copies grounded claims of other plans with their evidence and " +
    "verdicts. Returns refs (C1, …).",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    claims: z
      .array(
        z.strictObject({
          subtopic: ParamSubtopic,
          text: z.string().trim().min(1).max(LEDGER_LIMITS.claimChars),
          evidenceRefs: z.array(ParamEvidenceRef).min(1).max(LEDGER_LIMITS.refsPerClaim),
          workerId: z.string().min(1).max(100).optional(),
          confidence: z.number().min(0).max(1).optional(),
          highStakes: z.boolean().optional().describe("Decision-critical or contested: for the critic"),
        }),
      )
      .max(LEDGER_LIMITS.claimsPerCall)
      .optional(),
    reuse: z
      .array(z.strictObject({ claimId: ParamId("claim").describe("A claim id from search_sources (kind claim)"), subtopic: ParamSubtopic.optional() }))
      .max(LEDGER_LIMITS.claimsPerCall)
      .optional(),
  }),
  // The caller named the plan: the answer carries what it created or decided.
  output: z.object({
    claims: z.array(
      z.object({
        ref: z.string(),
        claimId: z.string(),
        merged: z.boolean(),
        reusedFrom: z.string().optional(),
        needsReverification: z.boolean().optional(),
        /** Sources of the reused claim a re-check found changed or gone since verified: verify the claim again. */
        sourcesChanged: z.array(z.string()).optional(),
      }),
    ),
    totalClaims: z.number(),
  }),
  rest: { method: "post", path: "/plans/{planId}/claims", creates: { location: (_recorded, input) => restPath`/plans/${String(input.planId)}/ledger` } },
  async handler(input, ctx) {
    const { orgId } = ctx.principal;
    const claims = input.claims ?? [];
    const reuse = input.reuse ?? [];
    if (claims.length + reuse.length === 0) throw validationError("Give claims, reuse or both.", [{ path: "claims", message: "Nothing to record" }]);
    await ctx.services.plans.read(orgId, input.planId, false);
    const sources = await Promise.all(reuse.map((item) => ctx.services.ledger.getClaim(orgId, item.claimId)));
    const counts = await ctx.services.ledger.counts(orgId, input.planId);
    // A reused claim brings its sources into this ledger: the org's source policy applies to them as to record_evidence.
    // Checked first: a blocked source is a final answer, where "not grounded yet" would only send the caller back to wait.
    await refuseBlockedSources(ctx, sources.flatMap((source, i) => (source?.evidence ?? []).map((e) => ({ path: `reuse.${i}.claimId`, url: e.url }))));
    const issues: ValidationIssue[] = [];
    reuse.forEach((item, i) => {
      const source = sources[i];
      // Another org's claim looks exactly like a missing one.
      const refusal = source ? reuseRefusal(source.claim, input.planId) : `No claim with id "${item.claimId}" exists in your organization.`;
      if (refusal) issues.push({ path: `reuse.${i}.claimId`, message: refusal });
    });
    claims.forEach((claim, i) => {
      claim.evidenceRefs.forEach((ref, j) => {
        if (!counts.evidenceRefs.has(ref)) issues.push({ path: `claims.${i}.evidenceRefs.${j}`, message: `${ref} is not in this plan's evidence ledger` });
      });
    });
    if (issues.length) {
      // A refused reuse says why in the message itself (which sources failed their check), not only in the issues.
      const reuseIssue = issues.find((issue) => issue.path.startsWith("reuse."));
      throw validationError(
        reuseIssue ? `Cannot reuse ${reuse[Number(reuseIssue.path.split(".")[1])]?.claimId}: ${reuseIssue.message} Nothing was recorded.` : "Claims may cite only evidence recorded on this plan (record_evidence); nothing was recorded.",
        issues,
      );
    }
    if (counts.claims + claims.length + reuse.length > LEDGER_LIMITS.claimsPerPlan) {
      throw validationError(`A plan's ledger holds at most ${LEDGER_LIMITS.claimsPerPlan} claims; it has ${counts.claims}.`, [{ path: "claims", message: "Ledger full" }]);
    }
    const now = ctx.now();
    const subtopics = claims.map((c) => normalizeSubtopic(c.subtopic));
    const reusedSubtopics = reuse.map((item, i) => normalizeSubtopic(item.subtopic ?? sources[i]?.claim.subtopic ?? ""));
    await ctx.services.ledger.ensure(orgId, input.planId, null, [...new Set([...subtopics, ...reusedSubtopics])], now);
    const recorded = claims.length === 0 ? [] : await ctx.services.ledger.addClaims(
      orgId,
      input.planId,
      claims.map((claim, i) => ({
        claimId: newId("clm"),
        subtopic: subtopics[i] as string,
        text: claim.text,
        evidenceRefs: [...new Set(claim.evidenceRefs)],
        workerId: claim.workerId ?? null,
        confidence: claim.confidence ?? null,
        highStakes: claim.highStakes ?? false,
      })),
      now,
    );
    const reused = [];
    for (const [i, source] of sources.entries()) {
      if (source) reused.push(await copyClaim(ctx, input.planId, source, reusedSubtopics[i] as string, now));
    }
    const all = [...recorded, ...reused];
    const totalClaims = new Set([...counts.claimNumbers].map((n) => `C${n}`).concat(all.map((r) => r.ref))).size;
    return { claims: all, totalClaims };
  },
});

/**
 * Copies a grounded claim of another plan into this plan's ledger: its evidence
 * (numbered here, or matched when already recorded), the claim marked with
 * where it came from, and its verdicts as they stand, so it is grounded here
 * as it was there. Later changes to the source do not reach the copy.
 */
async function copyClaim(ctx: OperationContext, planId: string, source: { claim: Claim; evidence: Evidence[] }, subtopic: string, now: number) {
  const { orgId, userId } = ctx.principal;
  const { claim, evidence } = source;
  const refs = await ctx.services.ledger.addEvidence(
    orgId,
    planId,
    evidence.map((e) => ({ url: e.url, title: e.title, facts: e.facts, quote: e.quote, fetchedAt: e.fetchedAt, contentHash: e.contentHash, subtopic, query: e.query, search: e.search, clientText: e.clientText ?? null })),
    userId,
    now,
  );
  await requestSourceChecks(ctx, planId, refs);
  const newRef = new Map(evidence.map((e, i) => [e.ref, refs[i]?.ref ?? e.ref]));
  // A source of the original found changed or gone since verified: the copy says so, and is flagged for re-verification.
  const changed = changedSourcesOf(claim, new Set(evidence.filter((e) => e.recheck?.change).map((e) => e.ref))).map((ref) => newRef.get(ref) ?? ref);
  const reusedFrom = provenanceOf(claim, now, changed);
  const [copied] = await ctx.services.ledger.addClaims(
    orgId,
    planId,
    [
      {
        claimId: newId("clm"),
        subtopic,
        text: claim.text,
        evidenceRefs: claim.evidenceRefs.map((ref) => newRef.get(ref) ?? ref),
        workerId: `reused:${claim.claimId}`,
        confidence: claim.confidence,
        highStakes: claim.highStakes,
        reusedFrom,
      },
    ],
    now,
  );
  if (!copied) throw new Error("reused claim missing after insert");
  await ctx.services.ledger.addVerdicts(
    orgId,
    planId,
    claim.verdicts.map((v) => ({ claimNumber: Number(copied.ref.slice(1)), kind: v.kind, judge: v.judge, shard: v.shard, verdict: v.verdict, reasoning: v.reasoning, confidence: v.confidence })),
    now,
  );
  return { ...copied, reusedFrom: claim.claimId, needsReverification: needsReverification(reusedFrom, now), ...(changed.length > 0 ? { sourcesChanged: changed } : {}) };
}
