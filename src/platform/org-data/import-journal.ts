import { CairnError } from "../../domain/errors";
import { ROW_TABLES } from "../../domain/org-data/format";
import type { Env } from "../../env";
import { d1SnapshotBytes } from "../../storage/snapshot-bytes";
import { orgPrefix, snapshotsPrefix } from "../sources/snapshots";
import { clientTextsPrefix } from "../sources/client-texts";

/**
 * The durable record of what an org import wrote (table `org_import_journal`, migration 0021), so that
 * an import that fails, or whose Worker dies half-way, is taken back exactly: the rows it inserted and
 * the plans and search sessions it recreated, and nothing else. Never "everything of the org": members
 * may write beside a running import (a write that passed the write gate just before the import's lock,
 * or one served by another isolate within its cache bound), and what they wrote stays.
 *
 * - When an import claims the org it writes a begun row (`table_name` = "import") in the directory; it is
 *   deleted in the same batch that releases the lock once the import has succeeded. A begun row left
 *   behind names an import that did not finish, whatever became of its Worker.
 * - Each batch of rows writes, in its own transaction (so no inserted row escapes it), one journal row per
 *   table: the table's largest rowid plus one before the inserts, its largest rowid after them. Nothing
 *   else writes the database inside that transaction, so the range holds exactly the batch's rows.
 * - A plan or search session is journaled in the directory before its object is written; so is each R2 object
 *   (a page snapshot, or a text an assistant sent) before it is put, by its key, which is always under the org's own prefix.
 */
const JOURNAL = "org_import_journal";
const BEGUN = "import";
const PLAN_OBJECT = "plan_object";
const SESSION_OBJECT = "session_object";
/** An object the import put in the org's snapshot bucket (SOURCE_SNAPSHOTS), by its key. */
const R2_OBJECT = "r2_object";
const KIND = { plan: PLAN_OBJECT, session: SESSION_OBJECT, r2: R2_OBJECT } as const;
/** Statements per D1 batch while taking back (each batch is one transaction; other orgs' queries wait behind it). */
const BATCH = 50;
/** Keys per R2 delete (R2 deletes at most 1,000 at once). */
const R2_KEYS = 1000;
/** Ids per DELETE statement (D1 binds at most 100 values; one is the org id). */
const IDS = 90;

const ROW_TABLE_NAMES: ReadonlySet<string> = new Set(ROW_TABLES);

/** Records that the import holding `lock` has begun (before it writes anything). */
export async function journalBegun(directory: D1Database, orgId: string, lock: number): Promise<void> {
  await directory.prepare(`INSERT INTO ${JOURNAL} (org_id, import_lock, table_name) VALUES (?, ?, ?)`).bind(orgId, lock, BEGUN).run();
}

/** One batch of inserts into `db`, bracketed by the journal rows of the rowid range each table receives. */
export function journaledInserts(db: D1Database, orgId: string, lock: number, inserts: { table: string; statement: D1PreparedStatement }[]): D1PreparedStatement[] {
  const tables = [...new Set(inserts.map((insert) => insert.table))];
  // `table` passed parseRecord's check against the exported tables: a constant, never free text.
  const open = tables.map((table) =>
    db.prepare(`INSERT INTO ${JOURNAL} (org_id, import_lock, table_name, first_rowid) VALUES (?1, ?2, ?3, (SELECT COALESCE(MAX(rowid), 0) + 1 FROM ${table}))`).bind(orgId, lock, table),
  );
  const close = tables.map((table) =>
    db.prepare(`UPDATE ${JOURNAL} SET last_rowid = (SELECT MAX(rowid) FROM ${table}) WHERE org_id = ?1 AND import_lock = ?2 AND table_name = ?3 AND last_rowid IS NULL`).bind(orgId, lock, table),
  );
  return [...open, ...inserts.map((insert) => insert.statement), ...close];
}

/** Records a plan or search session the import is about to recreate, or an R2 object it is about to put (before it is written). */
export async function journalObject(directory: D1Database, orgId: string, lock: number, kind: keyof typeof KIND, id: string): Promise<void> {
  await directory.prepare(`INSERT INTO ${JOURNAL} (org_id, import_lock, table_name, object_id) VALUES (?, ?, ?, ?)`).bind(orgId, lock, KIND[kind], id).run();
}

/**
 * Ends a successful import: its begun row and its directory journal go in the same batch that releases
 * its lock, so no later look can take it for unfinished. Its journal rows in the home database are then
 * left without a begun row (an unfinished import never is), and are cleared here or by the next import.
 * False when the lock is no longer the import's: it was taken for dead meanwhile, and taken back.
 */
export async function completeImport(directory: D1Database, home: D1Database, orgId: string, lock: number, alongside: D1PreparedStatement[] = []): Promise<boolean> {
  // `alongside` (the org's restored settings) runs in the same transaction, before the lock is released.
  const results = await directory.batch([
    directory.prepare(`DELETE FROM ${JOURNAL} WHERE org_id = ? AND import_lock = ?`).bind(orgId, lock),
    ...alongside,
    directory.prepare("UPDATE orgs SET importing_since = NULL, import_heartbeat_at = NULL WHERE id = ? AND importing_since = ? RETURNING id").bind(orgId, lock),
  ]);
  const released = results.at(-1);
  // Not its lock any more: the import was taken for dead, and what it wrote taken back (its journal with it).
  if (!released?.results.length) return false;
  if (home !== directory) {
    await home
      .prepare(`DELETE FROM ${JOURNAL} WHERE org_id = ? AND import_lock = ?`)
      .bind(orgId, lock)
      .run()
      .catch((error: unknown) => console.error(JSON.stringify({ level: "error", message: "org import journal not cleared", orgId, error: String(error) })));
  }
  return true;
}

/**
 * Takes back every import into the org that began and did not finish, except the one holding `current`
 * (null: all, as an erasure does): a dead import's or a failed one's whose own undo was cut off. Then clears
 * the journal rows left by finished imports. Safe to run again if cut off itself: each import's begun row
 * goes last.
 */
export async function takeBackUnfinished(env: Env, home: D1Database, orgId: string, current: number | null): Promise<number> {
  const { results } = await env.DB.prepare(`SELECT DISTINCT import_lock AS lock FROM ${JOURNAL} WHERE org_id = ? AND table_name = ?`).bind(orgId, BEGUN).all<{ lock: number }>();
  const unfinished = results.map((row) => row.lock).filter((lock) => lock !== current);
  for (const lock of unfinished) await takeBack(env, home, orgId, lock);
  // What is left of other imports belongs to finished ones (their home rows, when the home is not the directory).
  const leftovers = current === null ? `org_id = ?1` : `org_id = ?1 AND import_lock <> ?2`;
  for (const db of databases(env, home)) {
    await db
      .prepare(`DELETE FROM ${JOURNAL} WHERE ${leftovers}`)
      .bind(...(current === null ? [orgId] : [orgId, current]))
      .run();
  }
  return unfinished.length;
}

/**
 * Takes back what the import holding `lock` wrote, and nothing else: objects first (plans, search sessions, R2 objects), then the index rows of
 * those objects (whatever wrote them: the import's rows, or an object's own index update), then the rowid
 * ranges it inserted (`org_id` as a guard), then its journal, its begun row last.
 */
export async function takeBack(env: Env, home: D1Database, orgId: string, lock: number): Promise<void> {
  const { results: objects } = await env.DB.prepare(`SELECT table_name AS kind, object_id AS id FROM ${JOURNAL} WHERE org_id = ? AND import_lock = ? AND object_id IS NOT NULL`)
    .bind(orgId, lock)
    .all<{ kind: string; id: string }>();
  const plans = objects.filter((o) => o.kind === PLAN_OBJECT).map((o) => o.id);
  const sessions = objects.filter((o) => o.kind === SESSION_OBJECT).map((o) => o.id);
  for (const planId of plans) await env.PLAN.get(env.PLAN.idFromName(`${orgId}:${planId}`)).erase();
  for (const sessionId of sessions) await env.SEARCH_SESSION.get(env.SEARCH_SESSION.idFromName(`${orgId}:${sessionId}`)).erase();
  // Only keys under the org's own prefix are ever deleted, whatever the journal says (the import writes no other).
  const r2Keys = objects.filter((o) => o.kind === R2_OBJECT && o.id.startsWith(orgPrefix(orgId))).map((o) => o.id);
  for (let start = 0; start < r2Keys.length; start += R2_KEYS) {
    const chunk = r2Keys.slice(start, start + R2_KEYS);
    // The page snapshots and client texts among them were counted toward the org's page bytes when the import stored
    // them: the count gives them back once they are gone (a crash between the two leaves it high, never below what is kept).
    const counted = chunk.filter((key) => key.startsWith(snapshotsPrefix(orgId)) || key.startsWith(clientTextsPrefix(orgId)));
    const sizes = await Promise.all(counted.map(async (key) => (await env.SOURCE_SNAPSHOTS.head(key))?.size ?? 0));
    await env.SOURCE_SNAPSHOTS.delete(chunk);
    const freed = sizes.reduce((sum, size) => sum + size, 0);
    if (freed > 0) await d1SnapshotBytes(home).release(orgId, freed);
  }

  const deletes = new Map<D1Database, D1PreparedStatement[]>(databases(env, home).map((db) => [db, []]));
  const add = (db: D1Database, statement: D1PreparedStatement) => deletes.get(db)?.push(statement);
  // The plan index lives in the home database, the search-session index in the directory.
  for (const [ids, db, table, column] of [[plans, home, "plans", "plan_id"], [sessions, env.DB, "search_sessions", "session_id"]] as const) {
    for (let start = 0; start < ids.length; start += IDS) {
      const chunk = ids.slice(start, start + IDS);
      add(db, db.prepare(`DELETE FROM ${table} WHERE org_id = ? AND ${column} IN (${chunk.map(() => "?").join(", ")})`).bind(orgId, ...chunk));
    }
  }
  for (const db of deletes.keys()) {
    const { results: ranges } = await db
      .prepare(`SELECT table_name AS tableName, first_rowid AS first, last_rowid AS last FROM ${JOURNAL} WHERE org_id = ? AND import_lock = ? AND first_rowid IS NOT NULL ORDER BY id`)
      .bind(orgId, lock)
      .all<{ tableName: string; first: number; last: number | null }>();
    for (const range of ranges) {
      // The name comes from storage, not from the file: still, only a table an export holds is ever named in SQL.
      if (!ROW_TABLE_NAMES.has(range.tableName)) throw new CairnError("internal", `The import journal names an unknown table (${range.tableName}).`);
      // A range is closed in the transaction that opened it; an open one would mean rows without an end, so none are assumed.
      if (range.last === null) continue;
      add(db, db.prepare(`DELETE FROM ${range.tableName} WHERE org_id = ? AND rowid BETWEEN ? AND ?`).bind(orgId, range.first, range.last));
    }
  }
  // Each database's journal after its deletions; the directory's (with the begun row) last of all.
  for (const [db, statements] of [...deletes].sort(([a], [b]) => Number(a === env.DB) - Number(b === env.DB))) {
    statements.push(db.prepare(`DELETE FROM ${JOURNAL} WHERE org_id = ? AND import_lock = ?`).bind(orgId, lock));
    for (let start = 0; start < statements.length; start += BATCH) await db.batch(statements.slice(start, start + BATCH));
  }
}

/** The databases an org's import writes: the directory, and its home when that is another. */
function databases(env: Env, home: D1Database): D1Database[] {
  return home === env.DB ? [env.DB] : [env.DB, home];
}
