import { forgetOrgMarks } from "../../auth/admission";
import { conflict, notFound, validationError } from "../../domain/errors";
import { erasureBegun, IMPORT_LOCK_STALE_MS, importRunning } from "../../domain/org-data/import-lock";
import { type ExportHeader, NOT_IMPORTED, parseRecord, type StoredRow, type TableDump } from "../../domain/org-data/format";
import { IdRemapper } from "../../domain/org-data/id-remap";
import { newId } from "../../domain/ids";
import type { Env } from "../../env";
import { livesInHome } from "../../domain/org-data/placement";
import { homeDatabase } from "../org-homes";

/** Statements per D1 batch while importing rows. */
const BATCH = 50;
/** A member whose e-mail is new here gets an account without a usable password (set one with the operator CLI). */
const NO_PASSWORD = "disabled$imported";

export interface ImportSummary {
  members: { matched: number; created: number };
  rows: Record<string, number>;
  plans: number;
  searchSessions: number;
  skipped: Record<string, number>;
}

/**
 * Everything an import writes, so a failed import takes back exactly that: the rows it inserted (by rowid,
 * per database and table), the plans and search sessions it recreated, and the memberships and accounts it
 * added. Never "everything of the org": members may write beside a running import (a write that passed the
 * write gate just before the import's lock, or one served by another isolate within its cache bound), and
 * what they wrote stays.
 */
interface Undo {
  memberships: string[];
  users: string[];
  rows: Map<D1Database, Map<string, number[]>>;
  plans: string[];
  sessions: string[];
}

/** Rowids per DELETE statement (D1 binds at most 100 values; one is the org id). */
const UNDO_IDS = 90;

/**
 * Imports an export into `orgId`, which must hold no research yet. Lines are
 * read one at a time; ids are remapped consistently (see IdRemapper), rows
 * keep their versions and timestamps, full-text indexes fill through their
 * triggers, and each plan and search session is recreated in its own object
 * (a pending review stays pending; stall and expiry alarms are armed again).
 * Any bad line, or a file that stops before its end line, undoes the import:
 * what it wrote is taken back, and only that (see Undo). One import runs into an
 * org at a time: a second one meanwhile would pass the emptiness check too and mix
 * its rows with the first's. While it runs, the org's writes are refused (the
 * write gate reads `importing_since`); reads go on.
 */
export async function importOrg(env: Env, orgId: string, lines: AsyncIterable<string>, now = Date.now()): Promise<ImportSummary> {
  const lock = await claimImport(env.DB, orgId);
  // This isolate's callers see the lock on their next write (other isolates within the membership bound).
  forgetOrgMarks(orgId);
  try {
    return await importUnlocked(env, orgId, lines, now);
  } finally {
    forgetOrgMarks(orgId);
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
  const undo: Undo = { memberships: [], users: [], rows: new Map(), plans: [], sessions: [] };
  try {
    return await apply(env, home, orgId, lines, undo, now);
  } catch (error) {
    await undoImport(env, home, orgId, undo);
    throw error;
  }
}

/** Takes back what a failed import wrote, and nothing else: objects first, then rows (as an erasure does), members last. */
async function undoImport(env: Env, home: D1Database, orgId: string, undo: Undo): Promise<void> {
  for (const planId of undo.plans) await env.PLAN.get(env.PLAN.idFromName(`${orgId}:${planId}`)).erase();
  for (const sessionId of undo.sessions) await env.SEARCH_SESSION.get(env.SEARCH_SESSION.idFromName(`${orgId}:${sessionId}`)).erase();
  const deletes = new Map<D1Database, D1PreparedStatement[]>();
  const add = (db: D1Database, statement: D1PreparedStatement) => deletes.set(db, [...(deletes.get(db) ?? []), statement]);
  for (const [db, tables] of undo.rows) {
    for (const [table, rowids] of tables) {
      for (let start = 0; start < rowids.length; start += UNDO_IDS) {
        const chunk = rowids.slice(start, start + UNDO_IDS);
        // `table` passed parseRecord's check against the exported tables: a constant, never free text.
        add(db, db.prepare(`DELETE FROM ${table} WHERE org_id = ? AND rowid IN (${chunk.map(() => "?").join(", ")})`).bind(orgId, ...chunk));
      }
    }
  }
  // The index rows of the objects it recreated, whatever wrote them (the import's rows, or an object's own index update).
  for (const [ids, table, column] of [[undo.plans, "plans", "plan_id"], [undo.sessions, "search_sessions", "session_id"]] as const) {
    const db = livesInHome(table) ? home : env.DB;
    for (let start = 0; start < ids.length; start += UNDO_IDS) {
      const chunk = ids.slice(start, start + UNDO_IDS);
      add(db, db.prepare(`DELETE FROM ${table} WHERE org_id = ? AND ${column} IN (${chunk.map(() => "?").join(", ")})`).bind(orgId, ...chunk));
    }
  }
  for (const userId of undo.memberships) add(env.DB, env.DB.prepare("DELETE FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, userId));
  for (const userId of undo.users) add(env.DB, env.DB.prepare("DELETE FROM users WHERE id = ? AND NOT EXISTS (SELECT 1 FROM memberships WHERE user_id = ?)").bind(userId, userId));
  for (const [db, statements] of deletes) {
    for (let start = 0; start < statements.length; start += BATCH) await db.batch(statements.slice(start, start + BATCH));
  }
}

async function assertNoResearch(directory: D1Database, home: D1Database, orgId: string): Promise<void> {
  const count = (db: D1Database, tables: string[]) =>
    db.prepare(`SELECT ${tables.map((t) => `(SELECT COUNT(*) FROM ${t} WHERE org_id = ?1)`).join(" + ")} AS n`).bind(orgId).first<number>("n");
  const held = (await count(home, ["plans", "artifacts", "research_outputs", "skill_executions", "evidence_ledgers"])) ?? 0;
  const sessions = (await count(directory, ["search_sessions"])) ?? 0;
  if (held + sessions > 0) throw conflict("This organization already holds research; import into a new, empty organization.");
}

async function apply(env: Env, home: D1Database, orgId: string, lines: AsyncIterable<string>, undo: Undo, now: number): Promise<ImportSummary> {
  const summary: ImportSummary = { members: { matched: 0, created: 0 }, rows: {}, plans: 0, searchSessions: 0, skipped: {} };
  const columnsOf = new Map<string, Set<string>>();
  let header: ExportHeader | null = null;
  let remap: IdRemapper | null = null;
  let ended = false;
  // Rows wait in file order; each run of rows bound for one database goes in one batch.
  let pending: { db: D1Database; table: string; statement: D1PreparedStatement }[] = [];
  const flush = async () => {
    for (let start = 0; start < pending.length; ) {
      const db = pending[start]?.db as D1Database;
      let end = start;
      while (end < pending.length && pending[end]?.db === db) end++;
      const entries = pending.slice(start, end);
      const results = await db.batch(entries.map((entry) => entry.statement));
      // Each row's rowid, so an undo deletes these rows and no other.
      const tables = undo.rows.get(db) ?? new Map<string, number[]>();
      undo.rows.set(db, tables);
      entries.forEach((entry, i) => {
        const rowid = results[i]?.meta.last_row_id;
        if (typeof rowid === "number") tables.set(entry.table, [...(tables.get(entry.table) ?? []), rowid]);
      });
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
        const userId = await placeMember(env.DB, orgId, record, undo, summary, now);
        remap.set(record.userId, userId);
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
        pending.push({ db, table: record.table, statement: db.prepare(`INSERT INTO ${record.table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`).bind(...names.map((n) => row[n] ?? null)) });
        summary.rows[record.table] = (summary.rows[record.table] ?? 0) + 1;
        if (pending.length >= BATCH) await flush();
        break;
      }
      case "plan_state": {
        await flush();
        const planId = remap.id(record.planId);
        undo.plans.push(planId);
        const result = await env.PLAN.get(env.PLAN.idFromName(`${orgId}:${planId}`)).importState(remapTables(remap, record.tables));
        if (!result.ok) throw validationError(`Line ${lineNumber}: ${result.error.message}`);
        summary.plans++;
        break;
      }
      case "session_state": {
        await flush();
        const sessionId = remap.id(record.sessionId);
        undo.sessions.push(sessionId);
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

/** The member's account here (found by e-mail, or created without a password) and their membership of the org. */
async function placeMember(
  db: D1Database,
  orgId: string,
  member: { email: string; displayName: string; role: "member" | "admin"; joinedAt: number },
  undo: Undo,
  summary: ImportSummary,
  now: number,
): Promise<string> {
  let user = await db.prepare("SELECT id FROM users WHERE email = ?").bind(member.email).first<{ id: string }>();
  if (user) summary.members.matched++;
  else {
    user = { id: newId("usr") };
    await db.prepare("INSERT INTO users (id, email, display_name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)").bind(user.id, member.email, member.displayName, NO_PASSWORD, now).run();
    undo.users.push(user.id);
    summary.members.created++;
  }
  const added = await db
    .prepare("INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (org_id, user_id) DO NOTHING")
    .bind(orgId, user.id, member.role, member.joinedAt || now)
    .run();
  if (added.meta.changes > 0) undo.memberships.push(user.id);
  return user.id;
}
