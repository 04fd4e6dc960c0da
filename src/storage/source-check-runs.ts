import type { D1Queries } from "./database";
import type { SourceVerification } from "../domain/sources/verification";
import { settleDeliveryVerdicts } from "./delivered-sources";

/**
 * The bookkeeping of source checks on the evidence rows (migration 0027): a verdict written only while the source is
 * still pending (a failure's verdict never overwrites one a check reached meanwhile), and the sources the pending
 * sweep finds. (Each org's checks in flight are counted by its checker, durable-objects/source-checker-object.ts.)
 */

/**
 * Writes a verdict reached without the page (the check failed, or never came) on a source still pending, and settles
 * the deliverables waiting for it. False when the source has a verdict already (or is gone): nothing is changed.
 */
export async function recordVerdictIfPending(db: D1Queries, orgId: string, planId: string, n: number, v: SourceVerification): Promise<boolean> {
  const row = await db
    .prepare(
      `UPDATE ledger_evidence SET verification_status = ?, verification_reason = ?, verification_score = ?, verification_passage = ?,
              verification_basis = ?, verification_title_mismatch = ?, verification_snapshot = ?, verification_checked_at = ?
        WHERE org_id = ? AND plan_id = ? AND n = ? AND verification_status = 'pending'
        RETURNING n`,
    )
    .bind(v.status, v.reason, v.score, v.passage, v.basis, v.titleMismatch === null ? null : v.titleMismatch ? 1 : 0, v.snapshot, v.checkedAt, orgId, planId, n)
    .first<{ n: number }>();
  if (!row) return false;
  await settleDeliveryVerdicts(db, orgId, planId, n, v);
  return true;
}

export interface PendingSource {
  orgId: string;
  planId: string;
  n: number;
  requestedAt: number;
  requeuedAt: number | null;
}

/**
 * Sources pending since before `before`, oldest first, at most `perOrg` of each org and `limit` in all, of orgs not
 * being erased or imported (an erasure deletes them; an import queues its own checks when it commits).
 */
export async function pendingSources(db: D1Queries, before: number, limits: { perOrg: number; limit: number }): Promise<PendingSource[]> {
  const { results } = await db
    .prepare(
      `SELECT org_id, plan_id, n, requested_at, requeued_at FROM (
         SELECT e.org_id, e.plan_id, e.n, e.verification_requested_at AS requested_at, e.verification_requeued_at AS requeued_at,
                ROW_NUMBER() OVER (PARTITION BY e.org_id ORDER BY e.verification_requested_at, e.plan_id, e.n) AS place
           FROM ledger_evidence e JOIN orgs o ON o.id = e.org_id
          WHERE e.verification_status = 'pending' AND e.verification_requested_at < ?1
            AND o.erasing_since IS NULL AND o.importing_since IS NULL)
        WHERE place <= ?2 ORDER BY requested_at LIMIT ?3`,
    )
    .bind(before, limits.perOrg, limits.limit)
    .all<{ org_id: string; plan_id: string; n: number; requested_at: number; requeued_at: number | null }>();
  return results.map((row) => ({ orgId: row.org_id, planId: row.plan_id, n: row.n, requestedAt: row.requested_at, requeuedAt: row.requeued_at }));
}

/** The sweep sent these sources' checks once more (after the send: a send that fails leaves nothing marked). */
export async function markRequeued(db: D1Queries, sources: readonly { orgId: string; planId: string; n: number }[], now: number): Promise<void> {
  if (sources.length === 0) return;
  await db.batch(
    sources.map((s) =>
      db.prepare("UPDATE ledger_evidence SET verification_requeued_at = ? WHERE org_id = ? AND plan_id = ? AND n = ? AND verification_status = 'pending'").bind(now, s.orgId, s.planId, s.n),
    ),
  );
}
