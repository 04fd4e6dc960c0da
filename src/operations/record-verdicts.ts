import { z } from "zod";
import { type ValidationIssue, validationError } from "../domain/errors";
import { CRITIC_VERDICTS, claimOutcome, LEDGER_LIMITS, REVIEWER_VERDICTS } from "../domain/research/ledger";
import { defineOperation, restPath } from "./operation";
import { ParamClaimRef, ParamPlanId } from "./ledger-views";

const REVIEWER: ReadonlySet<string> = new Set(REVIEWER_VERDICTS);
const CRITIC: ReadonlySet<string> = new Set(CRITIC_VERDICTS);

export const recordVerdicts = defineOperation({
  name: "record_verdicts",
  title: "Record verdicts",
  description:
    "Judge a plan's claims: reviewers (with shard) give one of the first four verdicts, the critic (with reasoning) " +
    "one of the last three. A judge's later verdict replaces its earlier one.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    verdicts: z
      .array(
        z.strictObject({
          claim: ParamClaimRef,
          kind: z.enum(["reviewer", "critic"]),
          judge: z.string().min(1).max(100),
          shard: z.number().int().min(1).max(2).optional(),
          verdict: z.enum([...REVIEWER_VERDICTS, ...CRITIC_VERDICTS]),
          reasoning: z.string().max(LEDGER_LIMITS.reasoningChars).optional(),
          confidence: z.number().min(0).max(1).optional(),
        }),
      )
      .min(1)
      .max(LEDGER_LIMITS.verdictsPerCall),
  }),
  // The caller named the plan: the answer carries what it created or decided.
  output: z.object({
    claims: z.array(z.object({ ref: z.string(), status: z.string(), grounded: z.boolean(), finalConfidence: z.number().nullable() })),
  }),
  rest: { method: "post", path: "/plans/{planId}/verdicts", creates: { location: (_recorded, input) => restPath`/plans/${String(input.planId)}/ledger` } },
  async handler(input, ctx) {
    const { orgId } = ctx.principal;
    await ctx.services.plans.read(orgId, input.planId, false);
    const { claimNumbers } = await ctx.services.ledger.counts(orgId, input.planId);
    const issues: ValidationIssue[] = [];
    input.verdicts.forEach((v, i) => {
      if (!claimNumbers.has(Number(v.claim.slice(1)))) issues.push({ path: `verdicts.${i}.claim`, message: `${v.claim} is not a claim of this plan` });
      if (v.kind === "reviewer" && !REVIEWER.has(v.verdict)) issues.push({ path: `verdicts.${i}.verdict`, message: `A reviewer's verdict is one of ${REVIEWER_VERDICTS.join(", ")}` });
      if (v.kind === "reviewer" && v.shard === undefined) issues.push({ path: `verdicts.${i}.shard`, message: "A reviewer's verdict names its shard (1 or 2)" });
      if (v.kind === "critic" && !CRITIC.has(v.verdict)) issues.push({ path: `verdicts.${i}.verdict`, message: `A critic's verdict is one of ${CRITIC_VERDICTS.join(", ")}` });
      if (v.kind === "critic" && !v.reasoning?.trim()) issues.push({ path: `verdicts.${i}.reasoning`, message: "A critic's verdict carries its reasoning" });
    });
    if (issues.length === 0) {
      // Bounded judges per claim, so a claim and its verdicts always fit one response.
      const { claims } = await ctx.services.ledger.read(orgId, input.planId, false);
      const judges = new Map(claims.map((c) => [c.ref, new Set(c.verdicts.map((v) => `${v.kind} ${v.judge}`))]));
      input.verdicts.forEach((v, i) => {
        const set = judges.get(v.claim);
        set?.add(`${v.kind} ${v.judge}`);
        if (set && set.size > LEDGER_LIMITS.judgesPerClaim) {
          issues.push({ path: `verdicts.${i}.judge`, message: `${v.claim} already has ${LEDGER_LIMITS.judgesPerClaim} judges; a judge may replace its own verdict` });
        }
      });
    }
    if (issues.length) throw validationError("Some verdicts are not valid; nothing was recorded.", issues);
    await ctx.services.ledger.addVerdicts(
      orgId,
      input.planId,
      input.verdicts.map((v) => ({
        claimNumber: Number(v.claim.slice(1)),
        kind: v.kind,
        judge: v.judge,
        shard: v.kind === "reviewer" ? (v.shard ?? null) : null,
        verdict: v.verdict,
        reasoning: v.reasoning ?? null,
        confidence: v.confidence ?? null,
      })),
      ctx.now(),
    );
    const judged = new Set(input.verdicts.map((v) => v.claim));
    const { claims } = await ctx.services.ledger.read(orgId, input.planId, false);
    return {
      claims: claims
        .filter((c) => judged.has(c.ref))
        .map((c) => {
          const { status, grounded, finalConfidence } = claimOutcome(c);
          return { ref: c.ref, status, grounded, finalConfidence };
        }),
    };
  },
});
