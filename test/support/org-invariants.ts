import { env } from "cloudflare:workers";
import { indexEntryOf } from "../../src/domain/plans/index-entry";
import type { PlanState } from "../../src/domain/plans/model";
import type { Env } from "../../src/env";
import { exportOrg } from "../../src/platform/org-data/export";
import { type PlanIndexRow, toPlanIndexEntry } from "../../src/storage/plan-engine";

/**
 * What must hold of an org's stored data whatever failed while it was written, read over the real
 * (unfaulted) bindings. Each check returns what it found wrong, worded for a test failure: empty when
 * all is well. The org lives in the directory database (DB): the test configuration places no org
 * elsewhere unless a test asks for it.
 */

const real = env as unknown as Env;

/** The D1 plan index equals each plan object's state, and every plan object the Worker wrote to is indexed. */
export async function planIndexMismatches(orgId: string, objectNames: Iterable<string>): Promise<string[]> {
  const problems: string[] = [];
  const { results: rows } = await real.DB.prepare("SELECT * FROM plans WHERE org_id = ?").bind(orgId).all<PlanIndexRow>();
  const indexed = new Set(rows.map((row) => row.plan_id));
  for (const row of rows) {
    const read = await real.PLAN.getByName(`${orgId}:${row.plan_id}`).read({ withResults: false });
    if (!read.ok) {
      problems.push(`index row ${row.plan_id} has no plan object (${read.error.code})`);
      continue;
    }
    const { seq: _indexSeq, ...index } = toPlanIndexEntry(row);
    const { seq: _objectSeq, ...object } = indexEntryOf((read as unknown as { value: PlanState }).value, Date.now(), 0);
    if (JSON.stringify(index) !== JSON.stringify(object)) problems.push(`index row ${row.plan_id} differs from its object: index ${JSON.stringify(index)} object ${JSON.stringify(object)}`);
  }
  for (const name of objectNames) {
    const [objectOrg, planId] = name.split(":");
    if (objectOrg !== orgId || !planId || indexed.has(planId)) continue;
    const read = await real.PLAN.getByName(name).read({ withResults: false });
    if (read.ok) problems.push(`plan object ${planId} holds a plan the index does not list`);
  }
  return problems;
}

/** A search session's index row and its object agree (steps, status), both ways. */
export async function sessionIndexMismatches(orgId: string, objectNames: Iterable<string>): Promise<string[]> {
  const problems: string[] = [];
  const { results: rows } = await real.DB.prepare("SELECT session_id, status, step_count FROM search_sessions WHERE org_id = ?")
    .bind(orgId)
    .all<{ session_id: string; status: string; step_count: number }>();
  const indexed = new Set(rows.map((row) => row.session_id));
  for (const row of rows) {
    const read = await real.SEARCH_SESSION.getByName(`${orgId}:${row.session_id}`).read();
    if (!read.ok) {
      problems.push(`session index row ${row.session_id} (${row.status}) has no session object (${read.error.code})`);
      continue;
    }
    if (read.value.steps.length !== row.step_count) problems.push(`session ${row.session_id}: index counts ${row.step_count} steps, its object holds ${read.value.steps.length}`);
  }
  for (const name of objectNames) {
    const [objectOrg, sessionId] = name.split(":");
    if (objectOrg !== orgId || !sessionId || indexed.has(sessionId)) continue;
    const read = await real.SEARCH_SESSION.getByName(name).read();
    if (read.ok) problems.push(`session object ${sessionId} holds ${read.value.steps.length} steps the index does not list`);
  }
  return problems;
}

/** Rows that name another row (in the same org) that is not there. */
const REFERENCES: [string, string][] = [
  ["memberships → users", "SELECT COUNT(*) FROM memberships m WHERE m.org_id = ?1 AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = m.user_id)"],
  ["api_keys → users", "SELECT COUNT(*) FROM api_keys k WHERE k.org_id = ?1 AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = k.user_id)"],
  ["artifacts → their current version", "SELECT COUNT(*) FROM artifacts a WHERE a.org_id = ?1 AND NOT EXISTS (SELECT 1 FROM artifact_versions v WHERE v.artifact_id = a.id AND v.version = a.version)"],
  ["artifact_versions → artifacts", "SELECT COUNT(*) FROM artifact_versions v WHERE v.org_id = ?1 AND NOT EXISTS (SELECT 1 FROM artifacts a WHERE a.id = v.artifact_id)"],
  ["artifacts → plans", "SELECT COUNT(*) FROM artifacts a WHERE a.org_id = ?1 AND a.plan_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM plans p WHERE p.plan_id = a.plan_id)"],
  ["research_outputs → their current version", "SELECT COUNT(*) FROM research_outputs o WHERE o.org_id = ?1 AND NOT EXISTS (SELECT 1 FROM research_output_versions v WHERE v.output_id = o.id AND v.version = o.version)"],
  ["research_output_versions → research_outputs", "SELECT COUNT(*) FROM research_output_versions v WHERE v.org_id = ?1 AND NOT EXISTS (SELECT 1 FROM research_outputs o WHERE o.id = v.output_id)"],
  ["research_outputs → plans", "SELECT COUNT(*) FROM research_outputs o WHERE o.org_id = ?1 AND o.plan_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM plans p WHERE p.plan_id = o.plan_id)"],
  ["research_outputs → skill_executions", "SELECT COUNT(*) FROM research_outputs o WHERE o.org_id = ?1 AND o.execution_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM skill_executions e WHERE e.id = o.execution_id)"],
  ["research_feedback → plans", "SELECT COUNT(*) FROM research_feedback f WHERE f.org_id = ?1 AND f.plan_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM plans p WHERE p.plan_id = f.plan_id)"],
  ["research_feedback → research_outputs", "SELECT COUNT(*) FROM research_feedback f WHERE f.org_id = ?1 AND f.output_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM research_outputs o WHERE o.id = f.output_id)"],
  ["plans → skill_executions", "SELECT COUNT(*) FROM plans p WHERE p.org_id = ?1 AND p.execution_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM skill_executions e WHERE e.id = p.execution_id)"],
  ["plans → search_sessions", "SELECT COUNT(*) FROM plans p WHERE p.org_id = ?1 AND p.session_id LIKE 'srch_%' AND NOT EXISTS (SELECT 1 FROM search_sessions s WHERE s.session_id = p.session_id)"],
  ["evidence_ledgers → plans", "SELECT COUNT(*) FROM evidence_ledgers l WHERE l.org_id = ?1 AND NOT EXISTS (SELECT 1 FROM plans p WHERE p.plan_id = l.plan_id)"],
  ["ledger_evidence → evidence_ledgers", "SELECT COUNT(*) FROM ledger_evidence e WHERE e.org_id = ?1 AND NOT EXISTS (SELECT 1 FROM evidence_ledgers l WHERE l.org_id = e.org_id AND l.plan_id = e.plan_id)"],
  ["ledger_claims → evidence_ledgers", "SELECT COUNT(*) FROM ledger_claims c WHERE c.org_id = ?1 AND NOT EXISTS (SELECT 1 FROM evidence_ledgers l WHERE l.org_id = c.org_id AND l.plan_id = c.plan_id)"],
  ["ledger_verdicts → ledger_claims", "SELECT COUNT(*) FROM ledger_verdicts v WHERE v.org_id = ?1 AND NOT EXISTS (SELECT 1 FROM ledger_claims c WHERE c.org_id = v.org_id AND c.plan_id = v.plan_id AND c.n = v.claim_n)"],
  ["webhook_deliveries → webhook_subscriptions", "SELECT COUNT(*) FROM webhook_deliveries d WHERE d.org_id = ?1 AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = d.subscription_id)"],
];

export async function danglingReferences(orgId: string): Promise<string[]> {
  const counts = await real.DB.batch(REFERENCES.map(([, sql]) => real.DB.prepare(sql.replace("SELECT COUNT(*)", "SELECT COUNT(*) AS n")).bind(orgId)));
  return REFERENCES.flatMap(([label], i) => {
    const n = (counts[i]?.results[0] as { n: number } | undefined)?.n ?? 0;
    return n > 0 ? [`${n} row(s) of ${label} name a row that is not there`] : [];
  });
}

/** SQLite's own check of each full-text index against its content table. */
export async function ftsProblems(): Promise<string[]> {
  const problems: string[] = [];
  for (const table of ["artifacts_fts", "research_outputs_fts", "ledger_claims_fts"]) {
    try {
      await real.DB.prepare(`INSERT INTO ${table}(${table}) VALUES('integrity-check')`).run();
    } catch (error) {
      problems.push(`${table} fails its integrity check: ${String(error)}`);
    }
  }
  return problems;
}

const ID = /\b([a-z]{2,10})_[0-9a-z]{25}\b/g;
const EPOCH_MS = /\b1[6-9]\d{11}\b/g;
const ISO = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b/g;
const SECRET = /\bwhsec_[A-Za-z0-9+/=]+/g;
/** What the test's seeding makes random: e-mail addresses, org slugs, API key prefixes. */
const SEEDED = [/[\w.+-]+@example\.com/g, /\borg-[0-9a-f]{8}\b/g, /"prefix":"[^"]*"/g];
/** An API key's last use is noted after the answer, at most once a while, and best effort: when, not whether, research was kept. */
const KEY_LAST_USED = /"last_used_at":(?:<ms>|null)/g;

/**
 * The org's export, read for comparison with another org's: no header; ids replaced by their kind
 * and order of first appearance; times and secrets replaced by placeholders; the plan index's
 * sequence number (how many updates the index took, not what it says) dropped. Sources' verdicts are
 * compared too: the battery plays the source-check queue, so a check runs only when a scenario drains
 * it, and whether it has run is never timing.
 */
export async function canonicalExport(orgId: string): Promise<string[]> {
  const seen = new Map<string, string>();
  const lines: string[] = [];
  for await (const record of exportOrg(real, orgId, { toolCalls: false })) {
    if (record.type === "header") continue;
    const value =
      record.type === "row" && record.table === "plans"
        ? { ...record, row: { ...record.row, index_seq: "-" } }
        : record;
    lines.push(
      JSON.stringify(value)
        .replace(ID, (id, kind: string) => {
          if (!seen.has(id)) seen.set(id, `${kind}#${seen.size}`);
          return seen.get(id) ?? id;
        })
        .replace(EPOCH_MS, "<ms>")
        .replace(ISO, "<iso>")
        .replace(SECRET, "<secret>")
        .replace(SEEDED[0] as RegExp, "<email>")
        .replace(SEEDED[1] as RegExp, "<slug>")
        .replace(SEEDED[2] as RegExp, '"prefix":"<prefix>"')
        .replace(KEY_LAST_USED, '"last_used_at":"<best effort>"'),
    );
  }
  return lines;
}

/** The first line where two canonical exports differ, or null when they are the same. */
export function exportDifference(expected: string[], actual: string[]): string | null {
  const at = expected.findIndex((line, i) => line !== actual[i]);
  if (at >= 0) {
    // Where the two lines part, with some of what leads there: a long row differs far from its start.
    const [want, got] = [expected[at] ?? "", actual[at] ?? ""];
    let from = 0;
    while (from < want.length && want[from] === got[from]) from++;
    const start = Math.max(0, from - 120);
    return `line ${at}, at character ${from}: expected …${want.slice(start, from + 280)}\n  got …${got.slice(start, from + 280) || "(nothing)"}`;
  }
  if (actual.length > expected.length) return `${actual.length - expected.length} extra line(s), first: ${actual[expected.length]?.slice(0, 400)}`;
  return null;
}
