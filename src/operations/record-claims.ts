import { z } from "zod";
import { type ValidationIssue, validationError } from "../domain/errors";
import { newId } from "../domain/ids";
import { LEDGER_LIMITS, normalizeSubtopic } from "../domain/research/ledger";
import { defineOperation } from "./operation";
import { ParamEvidenceRef, ParamPlanId, ParamSubtopic } from "./ledger-views";

export const recordClaims = defineOperation({
  name: "record_claims",
  title: "Record claims",
  description:
    "Record claims on a plan's evidence ledger, each citing its evidence refs; a call citing an unknown ref is " +
    "refused whole. A repeated claim merges. Returns refs C1, C2, ….",
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
      .min(1)
      .max(LEDGER_LIMITS.claimsPerCall),
  }),
  output: z.object({
    planId: z.string(),
    claims: z.array(z.object({ ref: z.string(), claimId: z.string(), merged: z.boolean() })),
    totalClaims: z.number(),
  }),
  rest: { method: "post", path: "/plans/{planId}/claims", status: 201 },
  async handler(input, ctx) {
    const { orgId } = ctx.principal;
    await ctx.services.plans.read(orgId, input.planId, false);
    const counts = await ctx.services.ledger.counts(orgId, input.planId);
    const issues: ValidationIssue[] = [];
    input.claims.forEach((claim, i) => {
      claim.evidenceRefs.forEach((ref, j) => {
        if (!counts.evidenceRefs.has(ref)) issues.push({ path: `claims.${i}.evidenceRefs.${j}`, message: `${ref} is not in this plan's evidence ledger` });
      });
    });
    if (issues.length) throw validationError("Claims may cite only evidence recorded on this plan (record_evidence); nothing was recorded.", issues);
    if (counts.claims + input.claims.length > LEDGER_LIMITS.claimsPerPlan) {
      throw validationError(`A plan's ledger holds at most ${LEDGER_LIMITS.claimsPerPlan} claims; it has ${counts.claims}.`, [{ path: "claims", message: "Ledger full" }]);
    }
    const subtopics = input.claims.map((c) => normalizeSubtopic(c.subtopic));
    await ctx.services.ledger.ensure(orgId, input.planId, null, [...new Set(subtopics)], ctx.now());
    const recorded = await ctx.services.ledger.addClaims(
      orgId,
      input.planId,
      input.claims.map((claim, i) => ({
        claimId: newId("clm"),
        subtopic: subtopics[i] as string,
        text: claim.text,
        evidenceRefs: [...new Set(claim.evidenceRefs)],
        workerId: claim.workerId ?? null,
        confidence: claim.confidence ?? null,
        highStakes: claim.highStakes ?? false,
      })),
      ctx.now(),
    );
    const totalClaims = new Set([...counts.claimNumbers].map((n) => `C${n}`).concat(recorded.map((r) => r.ref))).size;
    return { planId: input.planId, claims: recorded, totalClaims };
  },
});
