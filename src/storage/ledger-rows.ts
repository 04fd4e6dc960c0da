/**
 * How the evidence ledger's rows read: their columns, and the domain records they make (a source with its check's
 * verdict and what a re-check left on it; a claim with its verdicts and where a reused one came from).
 */
import type { Claim, CriticVerdict, Evidence, ReviewerVerdict, Verdict } from "../domain/research/ledger";
import type { ReusedFrom } from "../domain/research/claim-reuse";
import type { SourceCheck } from "../domain/research/source-standing";
import { editsOf, NOT_RECORDED_FOR_CHECK, type SourceVerification, type VerificationStatus } from "../domain/sources/verification";

export interface EvidenceRow {
  n: number;
  url: string;
  title: string;
  facts?: string;
  quote?: string | null;
  fetched_at: number | null;
  content_hash: string;
  subtopic: string | null;
  query: string | null;
  evidence_ref: string | null;
  temporal_intent: string | null;
  freshness: string | null;
  removed_stale_years: string | null;
  recorded_by: string;
  created_at: number;
  verification_status: string | null;
  verification_reason: string | null;
  verification_score: number | null;
  verification_passage: string | null;
  verification_basis: string | null;
  verification_title_mismatch: number | null;
  verification_snapshot: string | null;
  verification_checked_at: number | null;
  /** JSON: each bracket of the quote and the page words it stands for; null on verdicts that listed none. */
  verification_edits?: string | null;
  /** Only in reads of every column. */
  client_text_sha256?: string | null;
  verification_previous_snapshot?: string | null;
  verification_changed?: string | null;
}

export interface ClaimRow {
  id: string;
  plan_id: string;
  n: number;
  subtopic: string;
  text: string;
  evidence_refs: string;
  worker_ids: string;
  confidence: number | null;
  high_stakes: number;
  created_at: number;
  /** json_group_array of the claim's verdicts. */
  verdicts: string;
  /** json_group_array of the cited sources' checks (n, status, reason): what a claim means depends on them too. */
  source_checks: string;
  reused_from: string | null;
}

interface VerdictJson {
  kind: "reviewer" | "critic";
  judge: string;
  shard: number | null;
  verdict: string;
  reasoning: string | null;
  confidence: number | null;
  created_at: number;
}

export const EVIDENCE_BRIEF =
  "n, url, title, quote, fetched_at, content_hash, subtopic, query, evidence_ref, temporal_intent, freshness, removed_stale_years, recorded_by, created_at, " +
  "verification_status, verification_reason, verification_score, verification_passage, verification_basis, verification_title_mismatch, " +
  "verification_snapshot, verification_checked_at, verification_edits, verification_previous_snapshot, verification_changed";

/** A source recorded before verification existed has no verdict: it reads as unchecked, with that reason. */
const verificationOf = (row: EvidenceRow): SourceVerification =>
  row.verification_status === null
    ? { status: "unchecked", reason: NOT_RECORDED_FOR_CHECK, score: null, passage: null, basis: null, titleMismatch: null, snapshot: null, checkedAt: null }
    : {
        status: row.verification_status as VerificationStatus,
        reason: row.verification_reason,
        score: row.verification_score,
        passage: row.verification_passage,
        basis: row.verification_basis === "fetched" || row.verification_basis === "client_text" ? row.verification_basis : null,
        titleMismatch: row.verification_title_mismatch === null ? null : row.verification_title_mismatch === 1,
        snapshot: row.verification_snapshot,
        checkedAt: row.verification_checked_at,
        edits: editsOf(row.verification_edits ?? null),
      };


/** The stored list of years, or none when the row holds something else (a list must never fail on one row). */
function years(text: string | null): number[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((year): year is number => Number.isInteger(year)) : [];
  } catch {
    return [];
  }
}

// Every claim read carries its verdicts, so what a claim means is decided in one place (domain/research/ledger.ts).
export const CLAIM_COLUMNS = `c.id, c.plan_id, c.n, c.subtopic, c.text, c.evidence_refs, c.worker_ids, c.confidence, c.high_stakes, c.created_at, c.reused_from,
  (SELECT json_group_array(json_object('kind', v.kind, 'judge', v.judge, 'shard', v.shard, 'verdict', v.verdict,
          'reasoning', v.reasoning, 'confidence', v.confidence, 'created_at', v.created_at))
     FROM ledger_verdicts v WHERE v.org_id = c.org_id AND v.plan_id = c.plan_id AND v.claim_n = c.n) AS verdicts,
  (SELECT json_group_array(json_object('n', e.n, 'status', e.verification_status, 'reason', e.verification_reason))
     FROM ledger_evidence e WHERE e.org_id = c.org_id AND e.plan_id = c.plan_id
      AND e.n IN (SELECT CAST(substr(r.value, 2) AS INTEGER) FROM json_each(c.evidence_refs) r)) AS source_checks`;

export const toEvidence = (row: EvidenceRow): Evidence => ({
  ref: `E${row.n}`,
  url: row.url,
  title: row.title,
  facts: row.facts ?? "",
  quote: row.quote ?? null,
  fetchedAt: row.fetched_at,
  contentHash: row.content_hash,
  subtopic: row.subtopic,
  query: row.query,
  search: { evidenceRef: row.evidence_ref, temporalIntent: row.temporal_intent, freshness: row.freshness, removedStaleYears: years(row.removed_stale_years) },
  recordedBy: row.recorded_by,
  createdAt: row.created_at,
  verification: verificationOf(row),
  ...(row.client_text_sha256 ? { clientText: row.client_text_sha256 } : {}),
  ...recheckOf(row),
});

/** What a re-check left on the source (src/storage/delivered-sources.ts): present only when it left something. */
function recheckOf(row: EvidenceRow): Pick<Evidence, "recheck"> {
  const change = row.verification_changed === "changed" || row.verification_changed === "gone" ? row.verification_changed : null;
  const previousSnapshot = row.verification_previous_snapshot ?? null;
  return change === null && previousSnapshot === null ? {} : { recheck: { change, previousSnapshot } };
}

/** The stored provenance of a reused claim; a row that does not parse reads as not reused rather than failing the list. */
function reusedFromOf(text: string | null): ReusedFrom | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as ReusedFrom;
    return typeof value?.claimId === "string" && typeof value.planId === "string" ? value : null;
  } catch {
    return null;
  }
}

export const toClaim = (row: ClaimRow): Claim => ({
  claimId: row.id,
  ref: `C${row.n}`,
  planId: row.plan_id,
  subtopic: row.subtopic,
  text: row.text,
  evidenceRefs: JSON.parse(row.evidence_refs) as string[],
  workerIds: JSON.parse(row.worker_ids) as string[],
  confidence: row.confidence,
  highStakes: row.high_stakes === 1,
  createdAt: row.created_at,
  reusedFrom: reusedFromOf(row.reused_from),
  sourceChecks: (JSON.parse(row.source_checks) as { n: number; status: string | null; reason: string | null }[]).map(
    // A source recorded before verification existed reads as unchecked (verificationOf).
    (check): SourceCheck => (check.status === null ? { ref: `E${check.n}`, status: "unchecked", reason: NOT_RECORDED_FOR_CHECK } : { ref: `E${check.n}`, status: check.status as VerificationStatus, reason: check.reason }),
  ),
  verdicts: (JSON.parse(row.verdicts) as VerdictJson[]).map(
    (v): Verdict => ({
      kind: v.kind,
      judge: v.judge,
      shard: v.shard,
      verdict: v.verdict as ReviewerVerdict | CriticVerdict,
      reasoning: v.reasoning,
      confidence: v.confidence,
      createdAt: v.created_at,
    }),
  ),
});
