/**
 * Whether a cited source can hold up what rests on it, by Cairn's check of the page. One rule for every face
 * (strict deliverables, "grounded" claims, reuse, search, the dashboard):
 * - failed: the page does not say the quoted words (not_found), says them only in part (partial), or does not
 *   exist (a dead URL: 404, 410, a name that does not resolve — what a made-up URL looks like);
 * - pending: not checked yet; it counts once checked, so it holds nothing up yet;
 * - holds: verified, or a page Cairn could not check though it may well be live (walled by a bot wall or paywall,
 *   timed out, unreadable content): named to the reader, never counted against the text.
 * Pure.
 */
import { isDeadSource, type SourceVerification, type VerificationStatus } from "../sources/verification";

export type SourceStanding = "holds" | "pending" | "failed";

/** A cited source's check as a claim carries it: its ref and verdict (status, and the reason for unreachable). */
export interface SourceCheck {
  ref: string;
  status: VerificationStatus;
  reason: string | null;
}

export function sourceStanding(verification: Pick<SourceVerification, "status" | "reason">): SourceStanding {
  if (verification.status === "pending") return "pending";
  if (verification.status === "not_found" || verification.status === "partial" || isDeadSource(verification)) return "failed";
  return "holds";
}

/**
 * Where a set of cited sources leaves what rests on them: holds when one of them holds; pending when none holds yet
 * but one is still being checked; failed when every one failed (or none is known: nothing holds it up).
 */
export function standingOf(checks: readonly Pick<SourceVerification, "status" | "reason">[]): SourceStanding {
  const standings = checks.map(sourceStanding);
  if (standings.includes("holds")) return "holds";
  return standings.includes("pending") ? "pending" : "failed";
}

/** How a source's check reads in a message: `E3 (not_found)`, `E4 (unreachable: dead: HTTP 404)`. */
export function describeCheck(check: SourceCheck): string {
  return check.status === "unreachable" && check.reason ? `${check.ref} (unreachable: ${check.reason.slice(0, 120)})` : `${check.ref} (${check.status})`;
}
