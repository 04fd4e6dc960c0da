import { EXPORT_FORMAT, type ExportRecord, FORMAT_VERSION, OMITTED_COLUMNS, ROW_TABLES, type StoredRow } from "../../domain/org-data/format";
import { VERDICT_COLUMNS } from "../../domain/org-data/imported-verdicts";
import { OPERATOR_ACCOUNT_PASSWORD } from "../../domain/org-data/members";
import { livesInHome } from "../../domain/org-data/placement";
import { readSettings } from "../../domain/org-settings";
import type { Env } from "../../env";
import { d1OrgSettings } from "../../storage/org-settings";
import { homeDatabase } from "../org-homes";
import { exportOrgObjects } from "./org-objects";

/**
 * The account the operator CLI makes for one command, and its key, are the CLI's, not the org's:
 * an export leaves them out (a constant, quoted as SQL text).
 */
const OPERATOR = `'${OPERATOR_ACCOUNT_PASSWORD}'`;

/** Rows read per D1 query: the export holds at most one page (or one plan's state) in memory at a time. */
export const EXPORT_PAGE_ROWS = 200;
export const CAIRN_VERSION = "0.1.0";

export interface ExportOptions {
  toolCalls: boolean;
  pageRows?: number;
  now?: number;
}

/**
 * Every record of one org, in export order, read lazily: D1 in keyset pages
 * (rowid order, so versions keep their order), each plan's and each search
 * session's object when its index row passes. Nothing is read ahead.
 */
export async function* exportOrg(env: Env, orgId: string, options: ExportOptions): AsyncGenerator<ExportRecord> {
  const page = options.pageRows ?? EXPORT_PAGE_ROWS;
  const org = await env.DB.prepare("SELECT id, slug, name, created_at FROM orgs WHERE id = ?").bind(orgId).first<{ id: string; slug: string; name: string; created_at: number }>();
  if (!org) return;
  const home = await homeDatabase(env, orgId);
  const settings = await readSettings(d1OrgSettings(env.DB), orgId);
  const counts: Record<string, number> = {};
  const count = (kind: string) => {
    counts[kind] = (counts[kind] ?? 0) + 1;
  };
  yield {
    type: "header",
    format: EXPORT_FORMAT,
    formatVersion: FORMAT_VERSION,
    cairnVersion: CAIRN_VERSION,
    org: { id: org.id, slug: org.slug, name: org.name, createdAt: org.created_at },
    exportedAt: new Date(options.now ?? Date.now()).toISOString(),
    toolCalls: options.toolCalls,
    settings,
  };

  for await (const member of pages<{ user_id: string; email: string; display_name: string; role: "member" | "admin"; created_at: number }>(
    env.DB,
    `SELECT m.rowid AS cursor_rowid, m.user_id, u.email, u.display_name, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ?1 AND u.password_hash <> ${OPERATOR} AND m.rowid > ?2 ORDER BY m.rowid LIMIT ?3`,
    orgId,
    page,
  )) {
    count("member");
    yield { type: "member", userId: member.user_id, email: member.email, displayName: member.display_name, role: member.role, joinedAt: member.created_at };
  }

  // The hashes of the snapshots and client texts exported (64 characters each): the rows exported after them name only these.
  const snapshots = new Set<string>();
  const clientTexts = new Set<string>();
  for (const table of ROW_TABLES) {
    if (table === "tool_call_log" && !options.toolCalls) continue;
    const omitted = new Set(OMITTED_COLUMNS[table] ?? []);
    // The table name is one of ROW_TABLES, a constant: never caller input.
    const db = livesInHome(table) ? home : env.DB;
    // The org's stored objects (page snapshots, client texts) before the evidence rows that name them.
    if (table === "ledger_evidence") {
      for await (const object of exportOrgObjects(env, orgId)) {
        count(object.type);
        if (object.type === "snapshot") snapshots.add(object.sha256);
        if (object.type === "client_text") clientTexts.add(object.sha256);
        yield object;
      }
    }
    const own = table === "api_keys" ? ` AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = api_keys.user_id AND u.password_hash = ${OPERATOR})` : "";
    for await (const raw of pages<StoredRow>(db, `SELECT rowid AS cursor_rowid, * FROM ${table} WHERE org_id = ?1${own} AND rowid > ?2 ORDER BY rowid LIMIT ?3`, orgId, page)) {
      let row = Object.fromEntries(Object.entries(raw).filter(([column]) => !omitted.has(column))) as StoredRow;
      // A verdict whose snapshot is no longer kept could not be judged again by an import (which would refuse the
      // file): it goes without its verdict, and the import has the source checked afresh.
      if (table === "ledger_evidence" && typeof row.verification_snapshot === "string" && !snapshots.has(row.verification_snapshot)) row = withoutVerdict(row);
      // Likewise a client text no longer kept: the row names none, and a verdict reached on it goes too.
      if (table === "ledger_evidence" && typeof row.client_text_sha256 === "string" && !clientTexts.has(row.client_text_sha256)) {
        row = { ...(row.verification_basis === "client_text" ? withoutVerdict(row) : row), client_text_sha256: null };
      }
      count(table);
      yield { type: "row", table, row };
      if (table === "plans") {
        const planId = String(row.plan_id);
        const state = await env.PLAN.get(env.PLAN.idFromName(`${orgId}:${planId}`)).exportState();
        if (state) {
          count("plan_state");
          yield { type: "plan_state", planId, tables: state };
        }
      } else if (table === "search_sessions") {
        const sessionId = String(row.session_id);
        const state = await env.SEARCH_SESSION.get(env.SEARCH_SESSION.idFromName(`${orgId}:${sessionId}`)).exportState();
        if (state) {
          count("session_state");
          yield { type: "session_state", sessionId, tables: state };
        }
      }
    }
  }
  yield { type: "end", counts };
}

const withoutVerdict = (row: StoredRow): StoredRow => ({ ...row, ...Object.fromEntries(VERDICT_COLUMNS.map((column) => [column, null])) });

/** A keyset-paged query: `?1` the org, `?2` the last rowid seen, `?3` the page size; `cursor_rowid` is dropped from each row. */
async function* pages<T>(db: D1Database, sql: string, orgId: string, size: number): AsyncGenerator<T> {
  let after = 0;
  for (;;) {
    const { results } = await db.prepare(sql).bind(orgId, after, size).all<Record<string, unknown>>();
    for (const { cursor_rowid, ...row } of results) {
      after = Number(cursor_rowid);
      yield row as T;
    }
    if (results.length < size) return;
  }
}

/** The export as a stream of NDJSON lines, pulled as the client reads: a slow reader holds no more than a page. */
export function exportStream(records: AsyncGenerator<ExportRecord>, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await records.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
      } catch (error) {
        onError(error);
        // No end line follows: a reader can tell the file is incomplete.
        controller.error(error);
      }
    },
    async cancel() {
      await records.return(undefined);
    },
  });
}
