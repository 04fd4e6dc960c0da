import { type Claim, claimOutcome } from "./ledger";
import { describeCheck, sourceStanding } from "./source-standing";

/**
 * Reusing a grounded claim of another plan of the org instead of researching it
 * again: the claim is copied with its evidence and verdicts into the new plan's
 * ledger, marked with where it came from, and never rewritten by later changes
 * to the source. A copy judged longer ago than the freshness window is flagged
 * for re-verification (the deep protocol's freshness rule: sources age), and so is
 * a claim resting on a source a re-check found changed or gone since it was verified.
 */
export const REUSE_FRESHNESS_DAYS = 180;
const DAY_MS = 86_400_000;

export interface ReusedFrom {
  planId: string;
  claimId: string;
  ref: string;
  /** The source claim's final status when it was copied. */
  status: string;
  /** When it was last judged (its newest verdict). */
  judgedAt: number;
  reusedAt: number;
  /** Its sources (refs in the copy's plan) a re-check had found changed or gone since verified, when it was copied. */
  sourcesChanged?: string[];
}

/** Why a claim cannot be reused into `planId`, or null when it can. */
export function reuseRefusal(claim: Claim, planId: string): string | null {
  if (claim.planId === planId) return `${claim.ref} is already in this plan's ledger; cite it as it is.`;
  const outcome = claimOutcome(claim);
  if (outcome.grounded) return null;
  const judged = outcome.reviewerVerdict === "SUPPORTED" && outcome.criticVerdict !== "REJECT";
  if (!judged) return `${claim.ref} of its plan is ${outcome.status}, not grounded: only SUPPORTED (or SURVIVES, DOWNGRADE) claims are reused.`;
  const named = claim.sourceChecks.map(describeCheck).join(", ") || "none recorded";
  if (outcome.sources === "pending") return `${claim.ref} of its plan is not grounded yet: Cairn is still checking its sources (${named}); reuse it once they are checked.`;
  return (
    `${claim.ref} of its plan is not grounded: every source it cites failed Cairn's check (${named}), so the pages do not bear it out ` +
    "(not_found or partial: the quote is not on the page; dead: the page does not exist). Research it again on sources whose pages say it."
  );
}

/**
 * The sources of a claim whose check failed (not_found, partial, dead): a reused claim resting on one is verified
 * again, whether the verdict arrived after it was copied or a re-check reached it.
 */
export function failedSourcesOf(claim: Pick<Claim, "sourceChecks">): string[] {
  return claim.sourceChecks.filter((check) => sourceStanding(check) === "failed").map((check) => check.ref);
}

export function provenanceOf(claim: Claim, now: number, sourcesChanged: readonly string[] = []): ReusedFrom {
  const judgedAt = Math.max(claim.createdAt, ...claim.verdicts.map((v) => v.createdAt));
  return {
    planId: claim.planId,
    claimId: claim.claimId,
    ref: claim.ref,
    status: claimOutcome(claim).status,
    judgedAt,
    reusedAt: now,
    ...(sourcesChanged.length > 0 ? { sourcesChanged: [...sourcesChanged] } : {}),
  };
}

/** A copy judged longer ago than the freshness window, or copied while a source of it was found changed, is verified again. */
export function needsReverification(from: ReusedFrom, now: number, days = REUSE_FRESHNESS_DAYS): boolean {
  return now - from.judgedAt > days * DAY_MS || (from.sourcesChanged?.length ?? 0) > 0;
}

/**
 * The claim's sources a re-check found changed or gone since they were verified (`changed`: the ledger's refs so
 * marked): a claim resting on one is flagged for re-verification.
 */
export function changedSourcesOf(claim: { evidenceRefs: readonly string[] }, changed: ReadonlySet<string>): string[] {
  return claim.evidenceRefs.filter((ref) => changed.has(ref));
}
