import { conflict, notFound, validationError } from "../../domain/errors";
import { erasureBegun, IMPORT_LOCK_STALE_MS, importRunning } from "../../domain/org-data/import-lock";
import { type ExportHeader, NOT_IMPORTED, parseRecord, type StoredRow, type TableDump } from "../../domain/org-data/format";
import { IdRemapper } from "../../domain/org-data/id-remap";
import { newId } from "../../domain/ids";
import type { Env } from "../../env";
import { countPlacement, type ImportedMembers } from "../../domain/org-data/members";
import { livesInHome } from "../../domain/org-data/placement";
import { homeDatabase } from "../org-homes";
import { eraseResearch } from "./erase";
import { placeImportedMember } from "./members";

/** Statements per D1 batch while importing rows. */
const BATCH = 50;

export interface ImportSummary {
  /** Member records: restored (already in this org) or not (src/domain/org-data/members.ts). */
  members: ImportedMembers;
  rows: Record<string, number>;
  plans: number;
  searchSessions: number;
  skipped: Record<string, number>;
}

/**
 * Imports an export into `orgId`, which must hold no research yet. Lines are
 * read one at a time; ids are remapped consistently (see IdRemapper), rows
 * keep their versions and timestamps, full-text indexes fill through their
 * triggers, and each plan and search session is recreated in its own object
 * (a pending review stays pending; stall and expiry alarms are armed again).
 * Any bad line, or a file that stops before its end line, undoes the import:
 * the org is left as it was. One import runs into an org at a time: a second
 * one meanwhile would pass the emptiness check too, mix its rows with the
 * first's, and its undo would erase what the first imported.
 */
export async function importOrg(env: Env, orgId: string, lines: AsyncIterable<string>, now = Date.now()): Promise<ImportSummary> {
  const lock = await claimImport(env.DB, orgId);
  try {
    return await importUnlocked(env, orgId, lines, now);
  } finally {
    // A release that fails must not hide how the import ended: the lock then lapses after the hour.
    await env.DB.prepare("UPDATE orgs SET importing_since = NULL WHERE id = ? AND importing_since = ?")
      .bind(orgId, lock)
      .run()
      .catch((error: unknown) => console.error(JSON.stringify({ level: "error", message: "org import lock not released", orgId, error: String(error) })));
  }
}

/** Marks the org as being imported into (the directory's row is the one writer), or refuses while another import or its erasure runs. */
async function claimImport(directory: D1Database, orgId: string): Promise<number> {
  const since = Date.now();
  const claimed = await directory
    .prepare("UPDATE orgs SET importing_since = ?1 WHERE id = ?2 AND erasing_since IS NULL AND (importing_since IS NULL OR importing_since < ?3) RETURNING id")
    .bind(since, orgId, since - IMPORT_LOCK_STALE_MS)
    .first();
  if (claimed) return since;
  const row = await directory.prepare("SELECT importing_since, erasing_since FROM orgs WHERE id = ?").bind(orgId).first<{ importing_since: number | null; erasing_since: number | null }>();
  if (!row) throw notFound("organization", orgId);
  if (row.erasing_since !== null) throw erasureBegun(row.erasing_since);
  throw importRunning(row.importing_since ?? since, "Another import into this organization is running");
}

async function importUnlocked(env: Env, orgId: string, lines: AsyncIterable<string>, now: number): Promise<ImportSummary> {
  // Research rows go to the org's home database (an org moves by being imported into a new org placed elsewhere).
  const home = await homeDatabase(env, orgId);
  await assertNoResearch(env.DB, home, orgId);
  // The org's audit trail and tool-call log may hold rows already: a failed import takes back only the ones after these.
  const audit = await home.prepare("SELECT COALESCE(MAX(rowid), 0) AS n FROM audit_log").first<number>("n");
  const calls = await env.DB.prepare("SELECT COALESCE(MAX(rowid), 0) AS n FROM tool_call_log").first<number>("n");
  try {
    return await apply(env, home, orgId, lines, now);
  } catch (error) {
    await eraseResearch(env, orgId);
    await home.prepare("DELETE FROM audit_log WHERE org_id = ? AND rowid > ?").bind(orgId, audit ?? 0).run();
    // An import writes no memberships or accounts (members are restored, never added), so there are none to take back.
    await env.DB.prepare("DELETE FROM tool_call_log WHERE org_id = ? AND rowid > ?").bind(orgId, calls ?? 0).run();
    throw error;
  }
}

async function assertNoResearch(directory: D1Database, home: D1Database, orgId: string): Promise<void> {
  const count = (db: D1Database, tables: string[]) =>
    db.prepare(`SELECT ${tables.map((t) => `(SELECT COUNT(*) FROM ${t} WHERE org_id = ?1)`).join(" + ")} AS n`).bind(orgId).first<number>("n");
  const held = (await count(home, ["plans", "artifacts", "research_outputs", "skill_executions", "evidence_ledgers"])) ?? 0;
  const sessions = (await count(directory, ["search_sessions"])) ?? 0;
  if (held + sessions > 0) throw conflict("This organization already holds research; import into a new, empty organization.");
}

async function apply(env: Env, home: D1Database, orgId: string, lines: AsyncIterable<string>, now: number): Promise<ImportSummary> {
  const summary: ImportSummary = { members: { restored: 0, notRestored: 0 }, rows: {}, plans: 0, searchSessions: 0, skipped: {} };
  const columnsOf = new Map<string, Set<string>>();
  let header: ExportHeader | null = null;
  let remap: IdRemapper | null = null;
  let ended = false;
  // Rows wait in file order; each run of rows bound for one database goes in one batch.
  let pending: { db: D1Database; statement: D1PreparedStatement }[] = [];
  const flush = async () => {
    for (let start = 0; start < pending.length; ) {
      const db = pending[start]?.db as D1Database;
      let end = start;
      while (end < pending.length && pending[end]?.db === db) end++;
      await db.batch(pending.slice(start, end).map((entry) => entry.statement));
      start = end;
    }
    pending = [];
  };
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (!line.trim()) continue;
    if (ended) throw validationError(`Line ${lineNumber}: nothing may follow the end line.`);
    const record = parseRecord(line, lineNumber);
    if (!header) {
      if (record.type !== "header") throw validationError("Line 1 must be the export's header.");
      header = record;
      remap = new IdRemapper(newId, new Map([[record.org.id, orgId]]));
      continue;
    }
    if (!remap) throw validationError("Line 1 must be the export's header.");
    switch (record.type) {
      case "header":
        throw validationError(`Line ${lineNumber}: a second header.`);
      case "member": {
        // Only a restored person is mapped; for anyone else the rows keep the id the file gives them.
        const placement = await placeImportedMember(env.DB, orgId, record.email);
        if (placement.kind === "restored") remap.set(record.userId, placement.userId);
        summary.members = countPlacement(summary.members, placement);
        break;
      }
      case "row": {
        if (NOT_IMPORTED.has(record.table)) {
          summary.skipped[record.table] = (summary.skipped[record.table] ?? 0) + 1;
          break;
        }
        const db = livesInHome(record.table) ? home : env.DB;
        const columns = columnsOf.get(record.table) ?? (await tableColumns(db, record.table));
        columnsOf.set(record.table, columns);
        const row: StoredRow = { ...remap.row(record.row), org_id: orgId };
        // The plan's new object numbers its index updates from 1: a row keeping an older export's
        // number would refuse them (the index takes only newer updates) and stay stale.
        if (record.table === "plans") row.index_seq = 0;
        const names = Object.keys(row);
        const unknown = names.find((name) => !columns.has(name));
        if (unknown) throw validationError(`Line ${lineNumber}: table ${record.table} has no column ${unknown}.`);
        pending.push({ db, statement: db.prepare(`INSERT INTO ${record.table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`).bind(...names.map((n) => row[n] ?? null)) });
        summary.rows[record.table] = (summary.rows[record.table] ?? 0) + 1;
        if (pending.length >= BATCH) await flush();
        break;
      }
      case "plan_state": {
        await flush();
        const planId = remap.id(record.planId);
        const result = await env.PLAN.get(env.PLAN.idFromName(`${orgId}:${planId}`)).importState(remapTables(remap, record.tables));
        if (!result.ok) throw validationError(`Line ${lineNumber}: ${result.error.message}`);
        summary.plans++;
        break;
      }
      case "session_state": {
        await flush();
        const sessionId = remap.id(record.sessionId);
        const result = await env.SEARCH_SESSION.get(env.SEARCH_SESSION.idFromName(`${orgId}:${sessionId}`)).importState(remapTables(remap, record.tables), now);
        if (!result.ok) throw validationError(`Line ${lineNumber}: ${result.error.message}`);
        summary.searchSessions++;
        break;
      }
      case "end":
        ended = true;
        break;
    }
  }
  await flush();
  if (!header) throw validationError("The file is empty: an export starts with its header.");
  if (!ended) throw validationError(`The file stops after line ${lineNumber} without its end line: it is incomplete, so nothing was imported.`);
  return summary;
}

function remapTables(remap: IdRemapper, tables: TableDump): TableDump {
  return Object.fromEntries(Object.entries(tables).map(([table, rows]) => [table, rows.map((row: StoredRow) => remap.row(row))]));
}

async function tableColumns(db: D1Database, table: string): Promise<Set<string>> {
  // `table` passed parseRecord's check against the exported tables: a constant, never free text.
  const { results } = await db.prepare(`PRAGMA table_info(${table})`).all<{ name: string }>();
  return new Set(results.map((column) => column.name));
}
