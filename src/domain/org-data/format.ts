import { validationError } from "../errors";
import { type OrgSettingsValues, parseExportedSettings } from "../org-settings";
import { type ClientTextRecord, parseClientTextRecord } from "./client-text-records";
import { parseSnapshotRecord, type SnapshotRecord } from "./snapshot-records";

/**
 * The org export format: NDJSON, one JSON object per line.
 *   header        { type, format, formatVersion, cairnVersion, org, exportedAt, toolCalls, settings }
 *   member        { type, userId, email, displayName, role, joinedAt }    (never a password hash)
 *   row           { type, table, row }       a D1 row of the org, columns as stored (never a key hash)
 *   plan_state    { type, planId, tables }   a plan object's storage: plan, steps, versions, audit
 *   session_state { type, sessionId, tables } a search session object's storage
 *   snapshot      { type, sha256, url, finalUrl, status, contentType, title, fetchedAt, truncated, text }
 *                 a page Cairn read for a cited source (snapshot-records.ts); all of them before the
 *                 evidence rows, whose verdicts name them by sha256
 *   client_text   { type, sha256, text }   a text an assistant sent for a page Cairn could not read
 *                 (client-text-records.ts); before the evidence rows, which name theirs (client_text_sha256)
 *   end           { type, counts }           present only when the export finished
 * Rows are written in each table's insertion order, so an import keeps versions in order.
 */
export const EXPORT_FORMAT = "cairn-org-export";
export const FORMAT_VERSION = 3;
/**
 * Versions an import reads. Version 1 (exports made before plan audit sequences were left out)
 * carried each plan audit entry's `seq`: the plan object's own counter, which an import numbers
 * afresh anyway and which no other plan or org shares, so a version 1 file's `seq` there is dropped
 * rather than refused (see `upgradePlanState`). Backups made then stay importable; a version 2 file
 * carrying it is refused like any server-managed column. Version 3 adds each source's verdict to its evidence
 * row and the org's page snapshots (imported-verdicts.ts); versions 1 and 2 carry neither (their sources are
 * checked afresh after the import) and a verdict in one is refused. Client texts (and the evidence rows' names of
 * them) came later within version 3: a reader that predates them refuses such a file by its unknown record type
 * rather than misreading it, and a version 3 file without them imports as before.
 */
export const READABLE_FORMAT_VERSIONS: readonly number[] = [1, 2, 3];

/** A version 1 plan state as version 2 writes it: the audit's own sequence left out. */
export function upgradePlanState(formatVersion: number, tables: TableDump): TableDump {
  if (formatVersion !== 1 || !tables.audit) return tables;
  return { ...tables, audit: tables.audit.map(({ seq: _seq, ...row }) => row) };
}

/** D1 tables exported as rows, in an order that puts what others refer to first. */
export const ROW_TABLES = [
  "skill_executions",
  "plans",
  "artifacts",
  "artifact_versions",
  "research_outputs",
  "research_output_versions",
  "research_feedback",
  "comments",
  "evidence_ledgers",
  "ledger_evidence",
  "ledger_claims",
  "ledger_verdicts",
  "search_sessions",
  "audit_log",
  "api_keys",
  "tool_call_log",
] as const;
export type RowTable = (typeof ROW_TABLES)[number];

/**
 * Columns the server assigns itself: never exported, and refused in an import file (import-policy.ts).
 * Sequence numbers are the full-text indexes' keys, and SQLite's AUTOINCREMENT keeps the highest ever
 * used for every org of the database; `index_seq` orders a plan object's index updates, and the object
 * an import creates counts afresh.
 */
export const SERVER_MANAGED_COLUMNS: Readonly<Partial<Record<RowTable, readonly string[]>>> = {
  // search_*: what the full-text indexes get, made again from the texts they are the indexed form of (search-text.ts).
  artifacts: ["seq", "search_title", "search_text"],
  plans: ["index_seq"],
  research_outputs: ["seq", "search_title", "search_content"],
  ledger_claims: ["seq", "search_text", "search_subtopic"],
  // When the org asked for a source's check: counts its own checks against its limits. A verdict is exported,
  // and judged again on its snapshot when imported (imported-verdicts.ts). (client_text_sha256 is exported: it
  // names a client_text line of the same file, and the import sets it only to a text that file carried.)
  // What a re-check after delivery found (the snapshot it replaced, the changed/gone mark) is rebuilt, not imported.
  // When a check started (earlier versions wrote it) and when the pending sweep sent it again: the checks' own bookkeeping.
  ledger_evidence: ["verification_requested_at", "verification_previous_snapshot", "verification_changed", "verification_started_at", "verification_requeued_at"],
};

/** Columns never exported: secrets, and what the server assigns itself. */
export const OMITTED_COLUMNS: Readonly<Partial<Record<RowTable, readonly string[]>>> = {
  ...SERVER_MANAGED_COLUMNS,
  api_keys: ["key_hash"],
};

/** Tables an import does not recreate: an API key cannot be restored without its secret. */
export const NOT_IMPORTED: ReadonlySet<string> = new Set(["api_keys"]);

/** The largest line an import reads: a whole plan's state is one line. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export type ScalarValue = string | number | null;
export type StoredRow = Record<string, ScalarValue>;
export type TableDump = Record<string, StoredRow[]>;

export interface ExportHeader {
  type: "header";
  format: typeof EXPORT_FORMAT;
  formatVersion: number;
  cairnVersion: string;
  org: { id: string; slug: string; name: string; createdAt: number };
  exportedAt: string;
  toolCalls: boolean;
  /** The org's settings (plan approval, source policy); absent in files exported before they were carried. */
  settings?: OrgSettingsValues;
}

export interface MemberRecord {
  type: "member";
  userId: string;
  email: string;
  displayName: string;
  role: "member" | "admin";
  joinedAt: number;
}

export type ExportRecord =
  | ExportHeader
  | MemberRecord
  | { type: "row"; table: RowTable; row: StoredRow }
  | { type: "plan_state"; planId: string; tables: TableDump }
  | { type: "session_state"; sessionId: string; tables: TableDump }
  | SnapshotRecord
  | ClientTextRecord
  | { type: "end"; counts: Record<string, number> };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): value is ScalarValue => value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
const COLUMN = /^[a-z][a-z0-9_]{0,63}$/;

function checkRow(value: unknown, where: string): StoredRow {
  if (!isObject(value)) throw validationError(`${where}: a row must be an object.`);
  const entries = Object.entries(value);
  if (entries.length > 64) throw validationError(`${where}: a row has at most 64 columns.`);
  for (const [column, cell] of entries) {
    if (!COLUMN.test(column)) throw validationError(`${where}: "${column.slice(0, 40)}" is not a column name.`);
    if (!isScalar(cell)) throw validationError(`${where}: column ${column} must hold text, a number or null.`);
  }
  return value as StoredRow;
}

function checkTables(value: unknown, where: string): TableDump {
  if (!isObject(value)) throw validationError(`${where}: tables must be an object.`);
  const tables: TableDump = {};
  for (const [table, rows] of Object.entries(value)) {
    if (!COLUMN.test(table)) throw validationError(`${where}: "${table.slice(0, 40)}" is not a table name.`);
    if (!Array.isArray(rows) || rows.length > 100_000) throw validationError(`${where}: table ${table} must be a list of rows.`);
    tables[table] = rows.map((row, i) => checkRow(row, `${where} ${table}[${i}]`));
  }
  return tables;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * One line of an export, checked for shape (never trusted: an import file is
 * caller input). `lineNumber` is 1-based, for the error the caller reads.
 */
export function parseRecord(line: string, lineNumber: number): ExportRecord {
  const where = `Line ${lineNumber}`;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw validationError(`${where} is not JSON.`);
  }
  if (!isObject(value) || typeof value.type !== "string") throw validationError(`${where}: each line must be an object with a type.`);
  switch (value.type) {
    case "header": {
      if (value.format !== EXPORT_FORMAT) throw validationError(`${where}: not a Cairn org export (format must be "${EXPORT_FORMAT}").`);
      if (!READABLE_FORMAT_VERSIONS.includes(value.formatVersion as number)) {
        throw validationError(`${where}: export format version ${String(value.formatVersion).slice(0, 10)}; this Cairn reads versions ${READABLE_FORMAT_VERSIONS.slice(0, -1).join(", ")} and ${READABLE_FORMAT_VERSIONS.at(-1)}.`);
      }
      const org = value.org;
      if (!isObject(org) || typeof org.id !== "string" || typeof org.slug !== "string" || typeof org.name !== "string") throw validationError(`${where}: the header names no org.`);
      const header = value as unknown as ExportHeader;
      // Checked as an admin's change would be: a file cannot set a policy the settings page would refuse.
      return value.settings === undefined ? header : { ...header, settings: parseExportedSettings(value.settings, where) };
    }
    case "member": {
      if (typeof value.email !== "string" || !/^[^\s@]{1,200}@[^\s@]{1,200}$/.test(value.email)) throw validationError(`${where}: a member needs an e-mail address.`);
      if (value.role !== "member" && value.role !== "admin") throw validationError(`${where}: a member's role is member or admin.`);
      if (typeof value.userId !== "string" || !ID.test(value.userId)) throw validationError(`${where}: a member needs a user id.`);
      const displayName = typeof value.displayName === "string" && value.displayName.trim() ? value.displayName.slice(0, 100) : value.email;
      return { type: "member", userId: value.userId, email: value.email.toLowerCase(), displayName, role: value.role, joinedAt: Number(value.joinedAt) || 0 };
    }
    case "row": {
      if (!(ROW_TABLES as readonly unknown[]).includes(value.table)) throw validationError(`${where}: "${String(value.table).slice(0, 40)}" is not a table an export holds.`);
      return { type: "row", table: value.table as RowTable, row: checkRow(value.row, where) };
    }
    case "plan_state":
    case "session_state": {
      const key = value.type === "plan_state" ? "planId" : "sessionId";
      const id = value[key];
      if (typeof id !== "string" || !ID.test(id)) throw validationError(`${where}: ${value.type} needs a ${key}.`);
      const tables = checkTables(value.tables, where);
      return value.type === "plan_state" ? { type: "plan_state", planId: id, tables } : { type: "session_state", sessionId: id, tables };
    }
    // Another kind of the org's stored objects (R2) gets its own record type here, beside its export and import
    // (src/platform/org-data/org-objects.ts).
    case "snapshot":
      return parseSnapshotRecord(value, where);
    case "client_text":
      return parseClientTextRecord(value, where);
    case "end": {
      if (!isObject(value.counts)) throw validationError(`${where}: the end line carries counts.`);
      return { type: "end", counts: value.counts as Record<string, number> };
    }
    default:
      throw validationError(`${where}: unknown record type "${value.type.slice(0, 40)}".`);
  }
}
