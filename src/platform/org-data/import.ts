import { forgetOrgMarks } from "../../auth/admission";
import { conflict, notFound, validationError } from "../../domain/errors";
import { erasureBegun, heartbeatDue, importHolds, importRunning } from "../../domain/org-data/import-lock";
import { type ExportHeader, type ExportRecord, NOT_IMPORTED, parseRecord, type RowTable, type StoredRow, type TableDump, upgradePlanState } from "../../domain/org-data/format";
import { importBudget } from "../../domain/org-data/import-budget";
import { checkImportRow, ONLY_INTO_EMPTY, rowKeys } from "../../domain/org-data/import-policy";
import { checkPlanState, checkSessionState } from "../../domain/org-data/object-state-policy";
import { sessionConfig } from "../../domain/sessions/config";
import { IdRemapper } from "../../domain/org-data/id-remap";
import { newId } from "../../domain/ids";
import type { OrgSettingsValues } from "../../domain/org-settings";
import type { ApprovalMode } from "../../domain/plans/approval";
import type { Env } from "../../env";
import { d1OrgSettings, importedSettingsStatements } from "../../storage/org-settings";
import { countPlacement, type ImportedMembers } from "../../domain/org-data/members";
import { livesInHome } from "../../domain/org-data/placement";
import { homeDatabase } from "../org-homes";
import { queueImportedSourceChecks } from "../sources/imported";
import { rebuildDeliveredSources } from "../../storage/delivered-sources";
import { indexFormColumns } from "../../storage/index-forms";
import { completeImport, journalBegun, journaledInserts, journalObject, takeBack, takeBackUnfinished } from "./import-journal";
import { ImportMeter } from "./import-meter";
import { ImportedObjects } from "./org-objects";
import { VERDICTS_SINCE_VERSION } from "../../domain/org-data/imported-verdicts";
import { placeImportedMember } from "./members";

/**
 * Statements, and bytes of their lines, per D1 batch while importing rows: a batch is one
 * transaction, and other orgs' queries on the database wait behind it.
 */
const BATCH = 50;
const BATCH_BYTES = 1024 * 1024;

export interface ImportSummary {
  /** Member records: restored (already in this org) or not (src/domain/org-data/members.ts). */
  members: ImportedMembers;
  rows: Record<string, number>;
  plans: number;
  /** Imported plans that wait for a person's approval in this org before their next step (src/domain/plans/spend-gate.ts). */
  plansAwaitingApproval: number;
  searchSessions: number;
  /** Page snapshots stored (the org's sources' verdicts were reached on them). */
  snapshots: number;
  /** Texts assistants sent for pages Cairn could not read, stored. */
  clientTexts: number;
  skipped: Record<string, number>;
  /** The org's settings (plan approval, source policy): restored from the file, or the file carried none (an older export). */
  settings: "restored" | "not_in_file";
}

/** What an import read: its summary, and the settings its header carries (written as the import ends). */
interface Imported {
  summary: ImportSummary;
  settings: OrgSettingsValues | null;
}

/** Whether the org held rows of the tables restored only into an org without any, before the import began. */
type HeldBefore = ReadonlySet<RowTable>;

/** The refusal of an import that stalled past the stale bound: a later import or erasure took it for dead. */
const takenOver = () => conflict("This import stalled for over a minute and was taken for stopped; what it wrote has been taken back. Run the import again.");

/**
 * The running import's hold on the org: its lock value (`orgs.importing_since`), and its heartbeat. Each
 * beat is also the check that the lock is still its own: an import that stalled past the stale bound may
 * have been taken for dead (and taken back) by a later import or erasure, and must then write nothing more.
 */
class ImportHold {
  private beatAt: number;
  constructor(
    private readonly directory: D1Database,
    readonly orgId: string,
    readonly lock: number,
  ) {
    this.beatAt = lock;
  }

  /** Refreshes the heartbeat when it is due (`force`: before every write), or refuses if the lock is no longer this import's. */
  async beat(force = false): Promise<void> {
    const now = Date.now();
    if (!force && !heartbeatDue(this.beatAt, now)) return;
    const held = await this.directory
      .prepare("UPDATE orgs SET import_heartbeat_at = ?1 WHERE id = ?2 AND importing_since = ?3 RETURNING id")
      .bind(now, this.orgId, this.lock)
      .first();
    if (!held) throw takenOver();
    this.beatAt = now;
  }
}

/**
 * Imports an export into `orgId`, which must hold no research yet. Lines are
 * read one at a time; ids are remapped consistently (see IdRemapper), rows
 * keep their versions and timestamps, full-text indexes fill through their
 * triggers, and each plan and search session is recreated in its own object
 * (a pending review stays pending; stall and expiry alarms are armed again).
 * Any bad line, or a file that stops before its end line, undoes the import:
 * what it wrote is taken back, and only that (src/platform/org-data/import-journal.ts). One import runs
 * into an org at a time: a second one meanwhile would pass the emptiness check too and mix its rows with
 * the first's. While it runs, the org's writes are refused (the write gate reads its heartbeat); reads go
 * on. An import whose Worker died half-way stops holding the org once its heartbeat is a minute old, and
 * the org's next import (or erasure) first takes back what it wrote, from its journal.
 */
export async function importOrg(env: Env, orgId: string, lines: AsyncIterable<string>, now = Date.now()): Promise<ImportSummary> {
  const lock = await claimImport(env.DB, orgId);
  // This isolate's callers see the lock on their next write (other isolates within the membership bound).
  forgetOrgMarks(orgId);
  try {
    // Research rows go to the org's home database (an org moves by being imported into a new org placed elsewhere).
    const home = await homeDatabase(env, orgId);
    // Written before anything else: from here on, whatever becomes of this Worker, the org's next import or erasure finds this one unfinished.
    await journalBegun(env.DB, orgId, lock);
    // What an import that died half-way (or whose own undo was cut off) left behind goes first, exactly.
    await takeBackUnfinished(env, home, orgId, lock);
    const { summary, settings } = await importUnlocked(env, home, new ImportHold(env.DB, orgId, lock), lines, now);
    // The file's settings replace the org's, with the import's end: an import that fails changes none of them.
    const restoreSettings = settings ? importedSettingsStatements(env.DB, orgId, lock, settings) : [];
    if (!(await completeImport(env.DB, home, orgId, lock, restoreSettings))) throw takenOver();
    // Which sources each imported deliverable cites is rebuilt from it (a file cannot say what was verified at
    // delivery): each stands at the verdict it arrived with (judged again on its snapshot), or pending until
    // Cairn's first verdict on it, queued next.
    await rebuildDeliveredSources(home, orgId, Date.now()).catch((error: unknown) =>
      console.error(JSON.stringify({ level: "error", message: "imported deliverables' cited sources not recorded", orgId, error: String(error) })),
    );
    // Imported sources without a verdict (older files, or one still pending when exported): Cairn checks them itself.
    await queueImportedSourceChecks(env, orgId, Date.now()).catch((error: unknown) =>
      console.error(JSON.stringify({ level: "error", message: "imported sources not queued for checking", orgId, error: String(error) })),
    );
    return summary;
  } finally {
    forgetOrgMarks(orgId);
    // A release that fails must not hide how the import ended: the lock then lapses with its heartbeat, and an
    // unfinished import's begun row stays for the next import or erasure to act on.
    await env.DB.prepare("UPDATE orgs SET importing_since = NULL, import_heartbeat_at = NULL WHERE id = ? AND importing_since = ?")
      .bind(orgId, lock)
      .run()
      .catch((error: unknown) => console.error(JSON.stringify({ level: "error", message: "org import lock not released", orgId, error: String(error) })));
  }
}

/**
 * Marks the org as being imported into (the directory's row is the one writer), or refuses while another
 * import holds it (its heartbeat is fresh) or its erasure runs. The lock taken over is named in the update,
 * so two imports that both find it stale cannot both claim it.
 */
async function claimImport(directory: D1Database, orgId: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const since = Date.now();
    const row = await directory
      .prepare("SELECT importing_since, import_heartbeat_at, erasing_since FROM orgs WHERE id = ?")
      .bind(orgId)
      .first<{ importing_since: number | null; import_heartbeat_at: number | null; erasing_since: number | null }>();
    if (!row) throw notFound("organization", orgId);
    if (row.erasing_since !== null) throw erasureBegun(row.erasing_since);
    const running = row.importing_since;
    if (running !== null && (attempt > 0 || importHolds(row.import_heartbeat_at ?? running, since))) {
      throw importRunning(running, "Another import into this organization is running");
    }
    const claimed = await directory
      .prepare("UPDATE orgs SET importing_since = ?1, import_heartbeat_at = ?1 WHERE id = ?2 AND erasing_since IS NULL AND importing_since IS ?3 RETURNING id")
      .bind(since, orgId, running)
      .first();
    if (claimed) return since;
  }
}

async function importUnlocked(env: Env, home: D1Database, hold: ImportHold, lines: AsyncIterable<string>, now: number): Promise<Imported> {
  const { orgId } = hold;
  await assertNoResearch(env.DB, home, orgId);
  const held = await heldBefore(env.DB, home, orgId);
  const meter = new ImportMeter(env.DB, orgId, importBudget(env));
  // An org past its day's budget is refused before a line is read.
  await meter.settle();
  try {
    return await apply(env, home, hold, lines, now, meter, held, await d1OrgSettings(env.DB).planApproval(orgId));
  } catch (error) {
    // What was read counts, however the import ended (the refusal itself has been counted already).
    await meter.settle().catch(() => undefined);
    // An undo cut off here is finished by the org's next import or erasure (the begun row stays); the import's own error is the answer.
    await takeBack(env, home, orgId, hold.lock).catch((undoError: unknown) =>
      console.error(JSON.stringify({ level: "error", message: "org import not taken back; the next import or erasure will", orgId, error: String(undoError) })),
    );
    throw error;
  }
}

/** Which of the tables restored only into an org without rows of them this org has rows of already. */
async function heldBefore(directory: D1Database, home: D1Database, orgId: string): Promise<HeldBefore> {
  const held = new Set<RowTable>();
  for (const table of ONLY_INTO_EMPTY) {
    // `table` is one of the policy's constant names, never caller input.
    const db = livesInHome(table) ? home : directory;
    if (await db.prepare(`SELECT 1 FROM ${table} WHERE org_id = ? LIMIT 1`).bind(orgId).first()) held.add(table);
  }
  return held;
}

async function assertNoResearch(directory: D1Database, home: D1Database, orgId: string): Promise<void> {
  const count = (db: D1Database, tables: string[]) =>
    db.prepare(`SELECT ${tables.map((t) => `(SELECT COUNT(*) FROM ${t} WHERE org_id = ?1)`).join(" + ")} AS n`).bind(orgId).first<number>("n");
  const held = (await count(home, ["plans", "artifacts", "research_outputs", "skill_executions", "evidence_ledgers"])) ?? 0;
  const sessions = (await count(directory, ["search_sessions"])) ?? 0;
  if (held + sessions > 0) throw conflict("This organization already holds research; import into a new, empty organization.");
}

async function apply(
  env: Env,
  home: D1Database,
  hold: ImportHold,
  lines: AsyncIterable<string>,
  now: number,
  meter: ImportMeter,
  held: HeldBefore,
  orgApproval: ApprovalMode,
): Promise<Imported> {
  const { orgId, lock } = hold;
  const summary: ImportSummary = { members: { restored: 0, notRestored: 0 }, rows: {}, plans: 0, plansAwaitingApproval: 0, searchSessions: 0, snapshots: 0, clientTexts: 0, skipped: {}, settings: "not_in_file" };
  const columnsOf = new Map<string, Set<string>>();
  let header: ExportHeader | null = null;
  let remap: IdRemapper | null = null;
  let ended = false;
  // The file's keys so far (hashed: a file may hold many rows), and the line that claimed each. The hash is
  // seeded per import, so the odd chance of two keys sharing one cannot refuse the same file twice.
  const keys = new Map<number, number>();
  const seed = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
  const objects = new Map<string, number>();
  const maxSessionSteps = sessionConfig(env).maxStepsPerSession;
  // Rows wait in file order; each run of rows bound for one database goes in one batch.
  let pending: { db: D1Database; table: string; statement: D1PreparedStatement }[] = [];
  let pendingBytes = 0;
  // The file's snapshots and client texts, stored under this org as they are read; each journaled before it is put.
  const stored = new ImportedObjects(env, orgId, (key) => journalObject(env.DB, orgId, lock, "r2", key));
  const flush = async () => {
    // Nothing is written past the day's budget, nor by an import whose lock is no longer its own.
    await meter.settle();
    if (pending.length === 0) return;
    await hold.beat(true);
    for (let start = 0; start < pending.length; ) {
      const db = pending[start]?.db as D1Database;
      let end = start;
      while (end < pending.length && pending[end]?.db === db) end++;
      // The rows and the journal of their rowid ranges in one transaction: no inserted row escapes an undo.
      await db.batch(journaledInserts(db, orgId, lock, pending.slice(start, end)));
      start = end;
    }
    pending = [];
    pendingBytes = 0;
  };
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    // A long file keeps its lock alive as it is read (one directory write per heartbeat period at most).
    await hold.beat();
    if (!line.trim()) continue;
    if (ended) throw validationError(`Line ${lineNumber}: nothing may follow the end line.`);
    const record = parseRecord(line, lineNumber);
    const bytes = new TextEncoder().encode(line).byteLength;
    meter.read(recordsIn(record), bytes);
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
        const checked = checkImportRow(record.table, record.row, lineNumber, header.formatVersion);
        for (const key of rowKeys(record.table, checked)) claimOnce(keys, hashKey(key, seed), lineNumber, `a ${record.table} row with the same key`);
        if (ONLY_INTO_EMPTY.has(record.table) && held.has(record.table)) {
          throw conflict(
            `Line ${lineNumber}: this organization already has its own ${record.table} entries; they are restored only into an organization that has none. Import into a new organization, or leave the ${record.table} lines out.`,
          );
        }
        const db = livesInHome(record.table) ? home : env.DB;
        const columns = columnsOf.get(record.table) ?? (await tableColumns(db, record.table));
        columnsOf.set(record.table, columns);
        const row: StoredRow = { ...remap.row(checked), org_id: orgId };
        // A source's verdict is judged again on the snapshot or client text it names (one this file carried); none, or pending, is checked afresh.
        if (record.table === "ledger_evidence") Object.assign(row, await stored.verdictColumns(checked, lineNumber));
        // The server sets the plan index's update counter (a file's is refused): the plan's new object
        // numbers its index updates from 1, and the index takes only newer ones.
        if (record.table === "plans") row.index_seq = 0;
        // What the full-text indexes get of a row is made here from its texts, as when it was stored.
        Object.assign(row, indexFormColumns(record.table, row));
        const names = Object.keys(row);
        const unknown = names.find((name) => !columns.has(name));
        if (unknown) throw validationError(`Line ${lineNumber}: table ${record.table} has no column ${unknown}.`);
        pending.push({ db, table: record.table, statement: db.prepare(`INSERT INTO ${record.table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`).bind(...names.map((n) => row[n] ?? null)) });
        summary.rows[record.table] = (summary.rows[record.table] ?? 0) + 1;
        pendingBytes += bytes;
        if (pending.length >= BATCH || pendingBytes >= BATCH_BYTES) await flush();
        break;
      }
      case "plan_state": {
        record.tables = upgradePlanState(header.formatVersion, record.tables);
        checkPlanState(record.planId, record.tables, lineNumber, header.org.id);
        claimOnce(objects, `plan:${record.planId}`, lineNumber, `a plan_state of plan ${record.planId}`);
        await flush();
        const planId = remap.id(record.planId);
        await hold.beat(true);
        await journalObject(env.DB, orgId, lock, "plan", planId);
        // Through the spend gate as this org lets a plan spend: its own requirement before the import, or the file's settings'.
        const approvalHere = orgApproval === "required" || header.settings?.planApproval === "required" ? "required" : "optional";
        const result = await env.PLAN.get(env.PLAN.idFromName(`${orgId}:${planId}`)).importState(remapTables(remap, record.tables), approvalHere, now);
        if (!result.ok) throw validationError(`Line ${lineNumber}: ${result.error.message}`);
        summary.plans++;
        if (result.value.awaitingApproval) summary.plansAwaitingApproval++;
        break;
      }
      case "session_state": {
        checkSessionState(record.sessionId, record.tables, lineNumber, header.org.id, maxSessionSteps);
        claimOnce(objects, `session:${record.sessionId}`, lineNumber, `a session_state of session ${record.sessionId}`);
        await flush();
        const sessionId = remap.id(record.sessionId);
        await hold.beat(true);
        await journalObject(env.DB, orgId, lock, "session", sessionId);
        const result = await env.SEARCH_SESSION.get(env.SEARCH_SESSION.idFromName(`${orgId}:${sessionId}`)).importState(remapTables(remap, record.tables), now);
        if (!result.ok) throw validationError(`Line ${lineNumber}: ${result.error.message}`);
        summary.searchSessions++;
        break;
      }
      case "snapshot": {
        if (header.formatVersion < VERDICTS_SINCE_VERSION) throw validationError(`Line ${lineNumber}: a version ${header.formatVersion} export carries no snapshots (they are carried from version ${VERDICTS_SINCE_VERSION} on).`);
        // What was read so far is settled against the day's budget (this snapshot's bytes included) before it is stored.
        await flush();
        await hold.beat(true);
        await stored.importSnapshot(record, lineNumber);
        summary.snapshots++;
        break;
      }
      case "client_text": {
        if (header.formatVersion < VERDICTS_SINCE_VERSION) throw validationError(`Line ${lineNumber}: a version ${header.formatVersion} export carries no client texts (they are carried from version ${VERDICTS_SINCE_VERSION} on).`);
        // As for a snapshot: settled against the day's budget (this text's bytes included) before it is stored.
        await flush();
        await hold.beat(true);
        await stored.importClientText(record, lineNumber);
        summary.clientTexts++;
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
  if (header.settings) summary.settings = "restored";
  return { summary, settings: header.settings ?? null };
}

/** Records a line counts against the daily budget: each row it writes (a plan's state writes many). */
function recordsIn(record: ExportRecord): number {
  if (record.type === "plan_state" || record.type === "session_state") return Object.values(record.tables).reduce((n, rows) => n + rows.length, 0);
  return record.type === "header" || record.type === "end" ? 0 : 1;
}

/** Refuses a key the file has claimed on an earlier line. */
function claimOnce<K>(claimed: Map<K, number>, key: K, line: number, what: string): void {
  const earlier = claimed.get(key);
  if (earlier !== undefined) throw validationError(`Line ${line}: line ${earlier} holds ${what} already; each record appears once in an export.`);
  claimed.set(key, line);
}

/** A 53-bit hash of a key (cyrb53): the file's keys are kept as numbers, so a large file's fit in memory. */
function hashKey(key: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

function remapTables(remap: IdRemapper, tables: TableDump): TableDump {
  return Object.fromEntries(Object.entries(tables).map(([table, rows]) => [table, rows.map((row: StoredRow) => remap.row(row))]));
}

async function tableColumns(db: D1Database, table: string): Promise<Set<string>> {
  // `table` passed parseRecord's check against the exported tables: a constant, never free text.
  const { results } = await db.prepare(`PRAGMA table_info(${table})`).all<{ name: string }>();
  return new Set(results.map((column) => column.name));
}
