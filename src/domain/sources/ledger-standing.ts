/**
 * Where a plan's sources stand, in a few words for resuming the plan: how many have each status, and the ones
 * that cannot carry a paragraph (partial, with the page's closest passage to quote instead; not_found; unreachable
 * because the page does not exist, a dead URL, with the reason). Pure.
 */
import { isDeadSource, type SourceVerification, type VerificationStatus } from "./verification";

export interface SourceNeedingWork {
  ref: string;
  status: "partial" | "not_found" | "unreachable";
  /** For a dead page (unreachable): why, as Cairn's check said it (`dead: HTTP 404`). */
  reason?: string;
  /** For partial: how close the page's closest passage is, and the passage (the page's text, untrusted). */
  score?: number;
  closest?: string;
}

export interface SourcesStanding {
  /** Sources of each status, the statuses with none left out. */
  counts: Partial<Record<VerificationStatus, number>>;
  /** The first few partial, not_found and dead sources, in ledger order. */
  needWork: SourceNeedingWork[];
  /** How many more need work than are listed. */
  moreNeedWork: number;
}

export const STANDING_LIMITS = { listed: 10, closestChars: 160 } as const;

const clipped = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

export function sourcesStanding(evidence: readonly { ref: string; verification: SourceVerification }[]): SourcesStanding {
  const counts: Partial<Record<VerificationStatus, number>> = {};
  const needing: SourceNeedingWork[] = [];
  for (const { ref, verification: v } of evidence) {
    counts[v.status] = (counts[v.status] ?? 0) + 1;
    if (v.status === "partial") {
      needing.push({ ref, status: "partial", ...(v.score !== null ? { score: v.score } : {}), ...(v.passage ? { closest: clipped(v.passage, STANDING_LIMITS.closestChars) } : {}) });
    } else if (v.status === "not_found") {
      needing.push({ ref, status: "not_found" });
    } else if (isDeadSource(v)) {
      needing.push({ ref, status: "unreachable", ...(v.reason ? { reason: clipped(v.reason, STANDING_LIMITS.closestChars) } : {}) });
    }
  }
  return { counts, needWork: needing.slice(0, STANDING_LIMITS.listed), moreNeedWork: Math.max(0, needing.length - STANDING_LIMITS.listed) };
}
