/**
 * Keep checking after delivery: how a source a deliverable cites stands now against its verdict when the
 * deliverable was stored, what a re-check marks on the source, and what it announces. Pure: the re-check
 * queue consumer fetches and judges (verification.ts), this module compares.
 */
import type { VerificationStatus } from "./verification";

/**
 * A cited source as a deliverable's reader should take it now:
 * - `changed`: verified at delivery, and the quoted words are no longer on the page (not_found or partial);
 * - `gone`: verified at delivery, and the page is now unreachable;
 * - `verified`: the quote is on the page now;
 * - `unverified`: everything else (never verified, not checked yet, or not checkable).
 */
export type DeliveredSourceState = "verified" | "changed" | "gone" | "unverified";
export type SourceChange = "changed" | "gone";

export interface SourceCounts {
  total: number;
  verified: number;
  changed: number;
  gone: number;
  unverified: number;
}

const NO_LONGER_SAYS: ReadonlySet<VerificationStatus> = new Set(["not_found", "partial"]);

export function compareWithDelivery(delivered: VerificationStatus | null, current: VerificationStatus | null): DeliveredSourceState {
  if (delivered === "verified" && current !== null) {
    if (NO_LONGER_SAYS.has(current)) return "changed";
    if (current === "unreachable") return "gone";
  }
  return current === "verified" ? "verified" : "unverified";
}

export function countSources(states: readonly DeliveredSourceState[]): SourceCounts {
  const counts: SourceCounts = { total: states.length, verified: 0, changed: 0, gone: 0, unverified: 0 };
  for (const state of states) counts[state]++;
  return counts;
}

/**
 * The mark a re-check leaves on the source itself (its claims are flagged for re-verification while it is set):
 * a source that was verified (or already marked) and no longer says the quote is `changed`, or `gone` when the
 * page is unreachable; verified again clears it; a verdict that says nothing either way (unchecked) keeps it.
 */
export function sourceChangeMark(before: { status: VerificationStatus | null; mark: SourceChange | null }, after: VerificationStatus): SourceChange | null {
  if (after === "verified") return null;
  const wasTrusted = before.status === "verified" || before.mark !== null;
  if (NO_LONGER_SAYS.has(after)) return wasTrusted ? "changed" : null;
  if (after === "unreachable") return wasTrusted ? "gone" : null;
  return before.mark;
}

/**
 * What one deliverable announces when a re-check verdict lands on a source it cites: the change, once
 * (`announce`), and what stays recorded as announced. Verified again forgets the announcement, so a later
 * change is news again; a verdict that says nothing new announces nothing.
 */
export function announcement(
  delivered: VerificationStatus | null,
  announced: SourceChange | null,
  current: VerificationStatus,
): { announce: SourceChange | null; announced: SourceChange | null } {
  const state = compareWithDelivery(delivered, current);
  if (state === "changed" || state === "gone") return { announce: state === announced ? null : state, announced: state };
  if (state === "verified") return { announce: null, announced: null };
  return { announce: null, announced };
}

/** Bounds of one re-check run: sources per org per run (the request, the command, or the daily cron). */
export const RECHECK_LIMITS = {
  /** Sources queued for re-checking by one run for one org, oldest-checked first. */
  batch: 100,
} as const;

/**
 * How many sources one re-check run may queue: the batch bound, within what the org's per-minute and per-day
 * check limits leave; a refusal (with when to retry) when they leave nothing.
 */
export function recheckBatchSize(
  used: { lastMinute: number; lastDay: number },
  limits: { perMinute: number; perDay: number },
  bound: number = RECHECK_LIMITS.batch,
): { size: number } | { refusal: { message: string; retryAfterSeconds: number } } {
  if (limits.perDay - used.lastDay <= 0) {
    return { refusal: { message: `Your organization's source checks for the last 24 hours are used up (${limits.perDay}); re-check later.`, retryAfterSeconds: 3600 } };
  }
  if (limits.perMinute - used.lastMinute <= 0) {
    return { refusal: { message: `Your organization's source checks for this minute are used up (${limits.perMinute}); re-check in a minute.`, retryAfterSeconds: 60 } };
  }
  return { size: Math.max(0, Math.min(bound, limits.perMinute - used.lastMinute, limits.perDay - used.lastDay)) };
}

/**
 * The ledger sources a deliverable rests on: those it cites (`[E3]`, or a citation's ref) and those of the
 * claims it cites, as evidence numbers in order; refs the ledger does not hold are left out.
 */
export function citedSourceNumbers(
  cited: { refs: readonly string[]; claims: readonly string[] },
  ledger: { evidenceRefs: ReadonlySet<string>; claims: readonly { ref: string; evidenceRefs: readonly string[] }[] },
): number[] {
  const claimRefs = new Map(ledger.claims.map((c) => [c.ref, c.evidenceRefs]));
  const refs = new Set([...cited.refs, ...cited.claims.flatMap((claim) => claimRefs.get(claim) ?? [])]);
  return [...refs]
    .filter((ref) => ledger.evidenceRefs.has(ref))
    .map((ref) => Number(ref.slice(1)))
    .sort((a, b) => a - b);
}
