import { auditInsertStatement } from "./audit-log";
import type { D1Queries } from "./database";
import { citedRefsIn } from "../domain/research/ledger";
import { announcement, citedSourceNumbers, compareWithDelivery, countSources, type SourceChange, type SourceCounts, sourceChangeMark } from "../domain/sources/recheck";
import { SOURCE_CHECK_LIMITS, type SourceVerification, storedEdits, type VerificationStatus } from "../domain/sources/verification";
import { newId } from "../domain/ids";
import type { AuditEntry } from "../domain/ports";
import type { WebhookEvent } from "../domain/webhooks/events";
import { WEBHOOK_LIMITS } from "../domain/webhooks/policy";

/**
 * The sources each stored deliverable cites, with their verdict at delivery (table research_output_sources,
 * migration 0022), and what a re-check of one of them changes: the source's own verdict (its previous
 * snapshot kept), its changed/gone mark, and one webhook event per deliverable per change, all in one batch.
 */

/** The statements recording a deliverable version's cited sources with their verdicts now: to run in the batch that stores it. */
export function deliveredSourcesStatements(
  db: D1Queries,
  output: { orgId: string; outputId: string; version: number; planId: string },
  sourceNumbers: readonly number[],
  now: number,
): D1PreparedStatement[] {
  return [
    db.prepare("DELETE FROM research_output_sources WHERE org_id = ? AND output_id = ?").bind(output.orgId, output.outputId),
    db
      .prepare(
        `INSERT INTO research_output_sources (org_id, output_id, version, plan_id, n, delivered_status, delivered_snapshot, delivered_at)
         SELECT e.org_id, ?, ?, e.plan_id, e.n, COALESCE(e.verification_status, 'unchecked'), e.verification_snapshot, ?
           FROM ledger_evidence e WHERE e.org_id = ? AND e.plan_id = ? AND e.n IN (SELECT value FROM json_each(?))`,
      )
      .bind(output.outputId, output.version, now, output.orgId, output.planId, JSON.stringify(sourceNumbers)),
  ];
}

interface StandingRow {
  output_id: string;
  plan_id: string;
  n: number;
  delivered_status: string;
  announced: string | null;
  current: string | null;
}

/**
 * How the sources of a deliverable's version stand now against delivery; null when none were recorded for that
 * version (an older version, or a deliverable of no plan with a ledger).
 */
export async function deliveredSourceCounts(db: D1Queries, orgId: string, outputId: string, version: number): Promise<SourceCounts | null> {
  const { results } = await db
    .prepare(
      `SELECT s.delivered_status, e.verification_status AS current FROM research_output_sources s
         LEFT JOIN ledger_evidence e ON e.org_id = s.org_id AND e.plan_id = s.plan_id AND e.n = s.n
        WHERE s.org_id = ? AND s.output_id = ? AND s.version = ?`,
    )
    .bind(orgId, outputId, version)
    .all<{ delivered_status: string; current: string | null }>();
  if (results.length === 0) return null;
  return countSources(results.map((row) => compareWithDelivery(row.delivered_status as VerificationStatus, row.current as VerificationStatus | null)));
}

/**
 * The org's sources cited by stored deliverables that are due a re-check, oldest-checked first: a quote to look
 * for, a verdict Cairn reached by fetching (not the client's text), and no check already on its way.
 */
export async function sourcesDueRecheck(db: D1Queries, orgId: string, limit: number, now: number): Promise<{ planId: string; n: number }[]> {
  if (limit <= 0) return [];
  const { results } = await db
    .prepare(
      `SELECT e.plan_id, e.n FROM ledger_evidence e
        WHERE e.org_id = ?1
          AND EXISTS (SELECT 1 FROM research_output_sources s WHERE s.org_id = e.org_id AND s.plan_id = e.plan_id AND s.n = e.n)
          AND e.quote IS NOT NULL
          AND COALESCE(e.verification_status, 'unchecked') <> 'pending'
          AND COALESCE(e.verification_basis, 'fetched') = 'fetched'
          AND NOT (COALESCE(e.verification_requested_at, 0) > COALESCE(e.verification_checked_at, 0) AND e.verification_requested_at > ?2)
        ORDER BY COALESCE(e.verification_checked_at, 0), e.plan_id, e.n
        LIMIT ?3`,
    )
    .bind(orgId, now - SOURCE_CHECK_LIMITS.stalePendingMs, limit)
    .all<{ plan_id: string; n: number }>();
  return results.map((row) => ({ planId: row.plan_id, n: row.n }));
}

/**
 * The re-checks handed to the queue count against the org's check limits, and are not queued again while on their way;
 * the audit row of the request that queued them (an admin's) lands with the mark, so a retried request cannot leave the
 * log without the one that queued them.
 */
export async function markRechecksRequested(
  db: D1Queries,
  orgId: string,
  sources: readonly { planId: string; n: number }[],
  now: number,
  audit: AuditEntry | null = null,
): Promise<void> {
  const statements = [
    ...(sources.length
      ? [
          db
            .prepare(
              `UPDATE ledger_evidence SET verification_requested_at = ?1
                WHERE org_id = ?2 AND (plan_id, n) IN (SELECT json_extract(value, '$.planId'), json_extract(value, '$.n') FROM json_each(?3))`,
            )
            .bind(now, orgId, JSON.stringify(sources)),
        ]
      : []),
    ...(audit ? [auditInsertStatement(db, audit, now)] : []),
  ];
  if (statements.length) await db.batch(statements);
}

/**
 * A source's first verdict after a deliverable citing it was stored while it was still pending: that verdict
 * stands for delivery (the page was read moments after, not at a later re-check).
 */
export async function settleDeliveryVerdicts(db: D1Queries, orgId: string, planId: string, n: number, verdict: SourceVerification): Promise<void> {
  if (verdict.status === "pending") return;
  await db
    .prepare(
      `UPDATE research_output_sources SET delivered_status = ?, delivered_snapshot = ?
        WHERE org_id = ? AND plan_id = ? AND n = ? AND delivered_status = 'pending'`,
    )
    .bind(verdict.status, verdict.snapshot, orgId, planId, n)
    .run();
}

interface SourceRow {
  url: string;
  verification_status: string | null;
  verification_snapshot: string | null;
  verification_previous_snapshot: string | null;
  verification_changed: string | null;
}

const asChange = (value: string | null): SourceChange | null => (value === "changed" || value === "gone" ? value : null);

/**
 * A re-check's verdict on E<n>: written on the evidence row (the snapshot it replaces kept as the previous one,
 * the changed/gone mark updated), and for each deliverable citing it the change announced once, the event
 * written to the outbox in the same batch. Returns the events recorded (to send at once); none when the
 * source is gone meanwhile.
 */
export async function recordRecheckVerdict(db: D1Queries, orgId: string, planId: string, n: number, verdict: SourceVerification, now: number): Promise<WebhookEvent[]> {
  const before = await db
    .prepare("SELECT url, verification_status, verification_snapshot, verification_previous_snapshot, verification_changed FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = ?")
    .bind(orgId, planId, n)
    .first<SourceRow>();
  if (!before) return [];
  const mark = sourceChangeMark({ status: before.verification_status as VerificationStatus | null, mark: asChange(before.verification_changed) }, verdict.status);
  // The snapshot a person compares the new one with: the one this verdict replaces, when the page's text differs.
  const previous = before.verification_snapshot && before.verification_snapshot !== verdict.snapshot ? before.verification_snapshot : before.verification_previous_snapshot;
  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        `UPDATE ledger_evidence SET verification_status = ?, verification_reason = ?, verification_score = ?, verification_passage = ?,
                verification_basis = ?, verification_title_mismatch = ?, verification_snapshot = ?, verification_checked_at = ?,
                verification_previous_snapshot = ?, verification_changed = ?, verification_edits = ?
          WHERE org_id = ? AND plan_id = ? AND n = ?`,
      )
      .bind(
        verdict.status,
        verdict.reason,
        verdict.score,
        verdict.passage,
        verdict.basis,
        verdict.titleMismatch === null ? null : verdict.titleMismatch ? 1 : 0,
        verdict.snapshot,
        verdict.checkedAt,
        previous,
        mark,
        storedEdits(verdict.edits),
        orgId,
        planId,
        n,
      ),
  ];

  // Every source of every deliverable citing this one: the counts an event carries are the deliverable's after this verdict.
  const { results } = await db
    .prepare(
      `SELECT s.output_id, s.plan_id, s.n, s.delivered_status, s.announced, e.verification_status AS current FROM research_output_sources s
         LEFT JOIN ledger_evidence e ON e.org_id = s.org_id AND e.plan_id = s.plan_id AND e.n = s.n
        WHERE s.org_id = ?1 AND s.output_id IN (SELECT output_id FROM research_output_sources WHERE org_id = ?1 AND plan_id = ?2 AND n = ?3)`,
    )
    .bind(orgId, planId, n)
    .all<StandingRow>();
  const isThis = (row: StandingRow) => row.plan_id === planId && row.n === n;
  const deliveredOf = (row: StandingRow) => (isThis(row) && row.delivered_status === "pending" ? verdict.status : (row.delivered_status as VerificationStatus));
  const events: { event: WebhookEvent; statement: number }[] = [];
  for (const row of results.filter(isThis)) {
    const delivered = deliveredOf(row);
    if (row.delivered_status === "pending") {
      statements.push(
        db
          .prepare("UPDATE research_output_sources SET delivered_status = ?, delivered_snapshot = ? WHERE org_id = ? AND output_id = ? AND plan_id = ? AND n = ? AND delivered_status = 'pending'")
          .bind(verdict.status, verdict.snapshot, orgId, row.output_id, planId, n),
      );
    }
    const next = announcement(delivered, asChange(row.announced), verdict.status);
    if (next.announced === asChange(row.announced) && next.announce === null) continue;
    // Guarded by what was read: of two re-checks landing at once, one announces.
    statements.push(
      db
        .prepare("UPDATE research_output_sources SET announced = ?, announced_at = ? WHERE org_id = ? AND output_id = ? AND plan_id = ? AND n = ? AND announced IS ?")
        .bind(next.announced, now, orgId, row.output_id, planId, n, row.announced),
    );
    if (!next.announce) continue;
    const counts = countSources(
      results
        .filter((other) => other.output_id === row.output_id)
        .map((other) => compareWithDelivery(deliveredOf(other), isThis(other) ? verdict.status : (other.current as VerificationStatus | null))),
    );
    const event: WebhookEvent = {
      eventId: newId("msg"),
      orgId,
      type: "research_output.sources_changed",
      occurredAt: now,
      data: {
        outputId: row.output_id,
        planId,
        source: { ref: `E${n}`, url: before.url, change: next.announce, status: verdict.status, previousSnapshot: previous, snapshot: verdict.snapshot },
        sources: counts,
      },
    };
    events.push({ event, statement: statements.length });
    // Written only if this batch's guarded update above took: the announcement and its event commit together, once.
    statements.push(
      db
        .prepare(
          `INSERT INTO webhook_event_outbox (event_id, org_id, payload, attempts, created_at, next_attempt_at)
           SELECT ?, ?, ?, 0, ?, ? WHERE EXISTS (SELECT 1 FROM research_output_sources WHERE org_id = ? AND output_id = ? AND plan_id = ? AND n = ? AND announced = ? AND announced_at = ?)
           ON CONFLICT (event_id) DO NOTHING`,
        )
        .bind(event.eventId, orgId, JSON.stringify(event), now, now + WEBHOOK_LIMITS.outboxGraceMs, orgId, row.output_id, planId, n, next.announce, now),
    );
  }
  const written = await db.batch(statements);
  return events.filter(({ statement }) => (written[statement]?.meta.changes ?? 0) > 0).map(({ event }) => event);
}

/**
 * After an import: the cited sources of the org's deliverables that have none recorded (an import file never
 * says what Cairn verified), rebuilt from their content, citations and the imported ledger. Each stands as
 * pending at delivery until Cairn's own first verdict on it lands. Returns how many deliverables were rebuilt.
 */
export async function rebuildDeliveredSources(db: D1Queries, orgId: string, now: number): Promise<number> {
  const { results: outputs } = await db
    .prepare(
      `SELECT o.id, o.plan_id, o.version, o.content, o.citations FROM research_outputs o
         JOIN evidence_ledgers l ON l.org_id = o.org_id AND l.plan_id = o.plan_id
        WHERE o.org_id = ? AND NOT EXISTS (SELECT 1 FROM research_output_sources s WHERE s.org_id = o.org_id AND s.output_id = o.id)`,
    )
    .bind(orgId)
    .all<{ id: string; plan_id: string; version: number; content: string; citations: string }>();
  const ledgers = new Map<string, { evidenceRefs: Set<string>; claims: { ref: string; evidenceRefs: string[] }[] }>();
  let rebuilt = 0;
  for (const output of outputs) {
    let ledger = ledgers.get(output.plan_id);
    if (!ledger) {
      const [evidence, claims] = await db.batch([
        db.prepare("SELECT n FROM ledger_evidence WHERE org_id = ? AND plan_id = ?").bind(orgId, output.plan_id),
        db.prepare("SELECT n, evidence_refs FROM ledger_claims WHERE org_id = ? AND plan_id = ?").bind(orgId, output.plan_id),
      ]);
      ledger = {
        evidenceRefs: new Set(((evidence?.results ?? []) as { n: number }[]).map((row) => `E${row.n}`)),
        claims: ((claims?.results ?? []) as { n: number; evidence_refs: string }[]).map((row) => ({ ref: `C${row.n}`, evidenceRefs: stringList(row.evidence_refs) })),
      };
      ledgers.set(output.plan_id, ledger);
    }
    const cited = citedRefsIn(output.content);
    const citationRefs = citationRefsOf(output.citations);
    const numbers = citedSourceNumbers(
      { refs: [...cited.evidence, ...citationRefs.filter((ref) => /^E\d+$/.test(ref))], claims: [...cited.claims, ...citationRefs.filter((ref) => /^C\d+$/.test(ref))] },
      ledger,
    );
    if (numbers.length === 0) continue;
    await db
      .prepare(
        `INSERT INTO research_output_sources (org_id, output_id, version, plan_id, n, delivered_status, delivered_snapshot, delivered_at)
         SELECT e.org_id, ?, ?, e.plan_id, e.n, COALESCE(e.verification_status, 'pending'), e.verification_snapshot, ? FROM ledger_evidence e
          WHERE e.org_id = ? AND e.plan_id = ? AND e.n IN (SELECT value FROM json_each(?))
         ON CONFLICT DO NOTHING`,
      )
      .bind(output.id, output.version, now, orgId, output.plan_id, JSON.stringify(numbers))
      .run();
    rebuilt++;
  }
  return rebuilt;
}

/** A stored JSON list of strings; anything else reads as none (one bad row never fails the rest). */
function stringList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

function citationRefsOf(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.flatMap((citation) => (typeof citation === "object" && citation !== null && typeof (citation as { ref?: unknown }).ref === "string" ? [(citation as { ref: string }).ref] : []));
  } catch {
    return [];
  }
}
