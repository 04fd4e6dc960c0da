import type { D1Queries } from "./database";
import type { Query } from "./query";
import type { ClaimSearchHit, EvidenceLedgerRepository, LedgerHeader } from "../domain/ports";
import type { CitationPolicy } from "../domain/research/ledger";
import { normalizeClaim } from "../domain/research/ledger";
import { readSnippet, storedIndexForm } from "../domain/research/search-text";
import { storedEdits, type VerificationStatus } from "../domain/sources/verification";
import { CLAIM_COLUMNS, type ClaimRow, EVIDENCE_BRIEF, type EvidenceRow, toClaim, toEvidence } from "./ledger-rows";

// Refs merge as a set in numeric order (E2 before E10).
const MERGE_JSON_SET = (column: string) =>
  `(SELECT json_group_array(value) FROM (SELECT value FROM (SELECT value FROM json_each(ledger_claims.${column}) UNION SELECT value FROM json_each(excluded.${column}))
     ORDER BY length(value), value))`;

export function d1EvidenceLedger(db: D1Queries): EvidenceLedgerRepository {
  async function header(orgId: string, planId: string): Promise<LedgerHeader | null> {
    const row = await db
      .prepare("SELECT citation_policy, subtopics FROM evidence_ledgers WHERE org_id = ? AND plan_id = ?")
      .bind(orgId, planId)
      .first<{ citation_policy: string; subtopics: string }>();
    return row ? { citationPolicy: row.citation_policy as CitationPolicy, subtopics: JSON.parse(row.subtopics) as string[] } : null;
  }

  return {
    header,

    async ensure(orgId, planId, policy, subtopics, now) {
      // Subtopics are a set, kept in the order first declared; json functions keep the union in one statement.
      await db
        .prepare(
          `INSERT INTO evidence_ledgers (org_id, plan_id, citation_policy, subtopics, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT(org_id, plan_id) DO UPDATE SET
             subtopics = (SELECT json_group_array(value) FROM (
               SELECT value FROM (SELECT value, key FROM json_each(evidence_ledgers.subtopics)
                                  UNION ALL SELECT value, key + 100000 FROM json_each(excluded.subtopics)
                                   WHERE lower(value) NOT IN (SELECT lower(value) FROM json_each(evidence_ledgers.subtopics)))
               ORDER BY key)),
             updated_at = excluded.updated_at`,
        )
        .bind(orgId, planId, policy ?? "report", JSON.stringify(subtopics), now, now)
        .run();
      return (await header(orgId, planId)) as LedgerHeader;
    },

    async addEvidence(orgId, planId, items, recordedBy, now) {
      const before = await db
        .prepare("SELECT url, content_hash FROM ledger_evidence WHERE org_id = ? AND plan_id = ?")
        .bind(orgId, planId)
        .all<{ url: string; content_hash: string }>();
      const known = new Set(before.results.map((r) => `${r.content_hash} ${r.url}`));
      // One statement per item in one transaction: numbers are MAX+1, so concurrent calls never share one.
      await db.batch(
        items.map((item) =>
          db
            .prepare(
              `INSERT INTO ledger_evidence (org_id, plan_id, n, url, title, facts, quote, fetched_at, content_hash, subtopic, query,
                                            evidence_ref, temporal_intent, freshness, removed_stale_years, recorded_by, created_at,
                                            verification_status, verification_requested_at, client_text_sha256)
               SELECT ?, ?, COALESCE(MAX(n), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ? FROM ledger_evidence WHERE org_id = ? AND plan_id = ?
               ON CONFLICT(org_id, plan_id, url, content_hash) DO NOTHING`,
            )
            .bind(
              orgId,
              planId,
              item.url,
              item.title,
              item.facts,
              item.quote,
              item.fetchedAt,
              item.contentHash,
              item.subtopic,
              item.query,
              item.search.evidenceRef,
              item.search.temporalIntent,
              item.search.freshness,
              item.search.removedStaleYears.length ? JSON.stringify(item.search.removedStaleYears) : null,
              recordedBy,
              now,
              now,
              item.clientText ?? null,
              orgId,
              planId,
            ),
        ),
      );
      const after = await db
        .prepare("SELECT n, url, content_hash FROM ledger_evidence WHERE org_id = ? AND plan_id = ?")
        .bind(orgId, planId)
        .all<{ n: number; url: string; content_hash: string }>();
      const refOf = new Map(after.results.map((r) => [`${r.content_hash} ${r.url}`, `E${r.n}`]));
      const seenInCall = new Set<string>();
      return items.map((item) => {
        const key = `${item.contentHash} ${item.url}`;
        const duplicate = known.has(key) || seenInCall.has(key);
        seenInCall.add(key);
        return { ref: refOf.get(key) as string, duplicate };
      });
    },

    async sourceCheckRequests(orgId, since) {
      const row = await db
        .prepare(
          `SELECT COALESCE(SUM(verification_requested_at >= ?), 0) AS minute, COUNT(*) AS day FROM ledger_evidence
            WHERE org_id = ? AND verification_requested_at >= ?`,
        )
        .bind(since.minute, orgId, since.day)
        .first<{ minute: number; day: number }>();
      return { lastMinute: row?.minute ?? 0, lastDay: row?.day ?? 0 };
    },

    async sourceToCheck(orgId, planId, n) {
      const row = await db
        .prepare("SELECT url, title, quote, verification_status, client_text_sha256 FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = ?")
        .bind(orgId, planId, n)
        .first<{ url: string; title: string; quote: string | null; verification_status: string | null; client_text_sha256: string | null }>();
      return row
        ? { url: row.url, title: row.title, quote: row.quote, status: row.verification_status as VerificationStatus | null, clientText: row.client_text_sha256 }
        : null;
    },

    async attachClientText(orgId, planId, refs, sha256, now) {
      // Only where the text is new: a repeat of the same text changes nothing and asks for no check.
      const { results } = await db
        .prepare(
          `UPDATE ledger_evidence SET client_text_sha256 = ?, verification_status = 'pending', verification_requested_at = ?
            WHERE org_id = ? AND plan_id = ? AND n IN (SELECT value FROM json_each(?)) AND client_text_sha256 IS NOT ?
            RETURNING n`,
        )
        .bind(sha256, now, orgId, planId, JSON.stringify(refs.map((ref) => Number(ref.slice(1)))), sha256)
        .all<{ n: number }>();
      return results.map((row) => row.n);
    },

    async recordVerification(orgId, planId, n, v) {
      await db
        .prepare(
          `UPDATE ledger_evidence SET verification_status = ?, verification_reason = ?, verification_score = ?, verification_passage = ?,
                  verification_basis = ?, verification_title_mismatch = ?, verification_snapshot = ?, verification_checked_at = ?, verification_edits = ?
            WHERE org_id = ? AND plan_id = ? AND n = ?`,
        )
        .bind(v.status, v.reason, v.score, v.passage, v.basis, v.titleMismatch === null ? null : v.titleMismatch ? 1 : 0, v.snapshot, v.checkedAt, storedEdits(v.edits), orgId, planId, n)
        .run();
    },

    async addClaims(orgId, planId, claims, now) {
      await db.batch(
        claims.map((claim) =>
          db
            .prepare(
              // search_text, search_subtopic: what the full-text index gets where it differs from the text (migration 0042).
              `INSERT INTO ledger_claims (id, org_id, plan_id, n, subtopic, subtopic_key, text, normalized, search_text, search_subtopic, evidence_refs, worker_ids, confidence, high_stakes, reused_from, created_at, updated_at)
               SELECT ?, ?, ?, COALESCE(MAX(n), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM ledger_claims WHERE org_id = ? AND plan_id = ?
               ON CONFLICT(org_id, plan_id, subtopic_key, normalized) DO UPDATE SET
                 evidence_refs = ${MERGE_JSON_SET("evidence_refs")},
                 worker_ids = ${MERGE_JSON_SET("worker_ids")},
                 high_stakes = max(ledger_claims.high_stakes, excluded.high_stakes),
                 updated_at = excluded.updated_at`,
            )
            .bind(
              claim.claimId,
              orgId,
              planId,
              claim.subtopic,
              claim.subtopic.toLowerCase(),
              claim.text,
              normalizeClaim(claim.text),
              storedIndexForm(claim.text),
              storedIndexForm(claim.subtopic),
              JSON.stringify(claim.evidenceRefs),
              JSON.stringify(claim.workerId ? [claim.workerId] : []),
              claim.confidence,
              claim.highStakes ? 1 : 0,
              claim.reusedFrom ? JSON.stringify(claim.reusedFrom) : null,
              now,
              now,
              orgId,
              planId,
            ),
        ),
      );
      const { results } = await db
        .prepare("SELECT id, n, subtopic_key, normalized FROM ledger_claims WHERE org_id = ? AND plan_id = ?")
        .bind(orgId, planId)
        .all<{ id: string; n: number; subtopic_key: string; normalized: string }>();
      const byText = new Map(results.map((r) => [`${r.subtopic_key} ${r.normalized}`, r]));
      return claims.map((claim) => {
        const row = byText.get(`${claim.subtopic.toLowerCase()} ${normalizeClaim(claim.text)}`);
        if (!row) throw new Error("claim row missing after insert");
        return { claimId: row.id, ref: `C${row.n}`, merged: row.id !== claim.claimId };
      });
    },

    async addVerdicts(orgId, planId, verdicts, now) {
      await db.batch(
        verdicts.map((v) =>
          db
            .prepare(
              `INSERT INTO ledger_verdicts (org_id, plan_id, claim_n, kind, judge, shard, verdict, reasoning, confidence, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT(org_id, plan_id, claim_n, kind, judge) DO UPDATE SET
                 shard = excluded.shard, verdict = excluded.verdict, reasoning = excluded.reasoning,
                 confidence = excluded.confidence, created_at = excluded.created_at`,
            )
            .bind(orgId, planId, v.claimNumber, v.kind, v.judge, v.shard, v.verdict, v.reasoning, v.confidence, now),
        ),
      );
    },

    async counts(orgId, planId) {
      const [evidence, claims] = await db.batch<{ n: number }>([
        db.prepare("SELECT n FROM ledger_evidence WHERE org_id = ? AND plan_id = ?").bind(orgId, planId),
        db.prepare("SELECT n FROM ledger_claims WHERE org_id = ? AND plan_id = ?").bind(orgId, planId),
      ]);
      const evidenceRows = evidence?.results ?? [];
      const claimRows = claims?.results ?? [];
      return {
        evidence: evidenceRows.length,
        claims: claimRows.length,
        evidenceRefs: new Set(evidenceRows.map((r) => `E${r.n}`)),
        claimNumbers: new Set(claimRows.map((r) => r.n)),
      };
    },

    async read(orgId, planId, withText) {
      const [evidence, claims] = await db.batch([
        db
          .prepare(`SELECT ${withText ? "*" : EVIDENCE_BRIEF} FROM ledger_evidence WHERE org_id = ? AND plan_id = ? ORDER BY n`)
          .bind(orgId, planId),
        db.prepare(`SELECT ${CLAIM_COLUMNS} FROM ledger_claims c WHERE c.org_id = ? AND c.plan_id = ? ORDER BY c.n`).bind(orgId, planId),
      ]);
      return {
        evidence: ((evidence?.results ?? []) as EvidenceRow[]).map(toEvidence),
        claims: ((claims?.results ?? []) as ClaimRow[]).map(toClaim),
      };
    },

    async getClaim(orgId, claimId) {
      const row = await db.prepare(`SELECT ${CLAIM_COLUMNS} FROM ledger_claims c WHERE c.org_id = ? AND c.id = ?`).bind(orgId, claimId).first<ClaimRow>();
      if (!row) return null;
      const claim = toClaim(row);
      const numbers = claim.evidenceRefs.map((ref) => Number(ref.slice(1)));
      const { results } = await db
        .prepare(`SELECT * FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n IN (SELECT value FROM json_each(?)) ORDER BY n`)
        .bind(orgId, claim.planId, JSON.stringify(numbers))
        .all<EvidenceRow>();
      return { claim, evidence: results.map(toEvidence) };
    },

  };
}

/** Full-text search of every plan's claims in the org, best first (sent alone or in a batch with the other searches). */
export function claimSearch(db: D1Queries, orgId: string, ftsQuery: string, filters: { planId?: string; since?: number }, limit: number): Query<ClaimSearchHit[]> {
  const statement = db
    .prepare(
      `SELECT ${CLAIM_COLUMNS}, snippet(ledger_claims_fts, 0, '«', '»', '…', 24) AS snippet, bm25(ledger_claims_fts, 2.0, 1.0) AS rank,
              p.research_question AS research_question
         FROM ledger_claims_fts
         JOIN ledger_claims c ON c.seq = ledger_claims_fts.rowid
         LEFT JOIN plans p ON p.plan_id = c.plan_id AND p.org_id = c.org_id
        WHERE ledger_claims_fts MATCH ? AND +c.org_id = ?
          AND (? IS NULL OR +c.plan_id = ?) AND (? IS NULL OR +c.created_at >= ?)
        ORDER BY rank LIMIT ?`,
    )
    .bind(ftsQuery, orgId, filters.planId ?? null, filters.planId ?? null, filters.since ?? null, filters.since ?? null, limit);
  const read = (rows: unknown[]) => (rows as (ClaimRow & { snippet: string; rank: number; research_question: string | null })[]).map((row) => ({
    claim: toClaim(row),
    // The index's text has separators between the pieces of Japanese, Chinese, Korean and Thai runs: read without them.
    snippet: readSnippet(row.snippet),
    relevance: -row.rank,
    researchQuestion: row.research_question || null,
  }));
  return { statement, read };
}
