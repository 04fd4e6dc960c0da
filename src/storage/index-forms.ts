import type { D1Queries } from "./database";
import { storedIndexForm } from "../domain/research/search-text";

/**
 * A table whose full-text index reads each row's indexed forms (src/domain/research/search-text.ts) where it has
 * them, and the rows stored before it did, listed by the migration that gave it the forms.
 */
export interface IndexedTable {
  table: "artifacts" | "research_outputs" | "ledger_claims";
  /** Each text column with the column of its indexed form. */
  forms: readonly (readonly [text: string, form: string])[];
  /**
   * A column whose value moves whenever the texts do (a version), else none: the texts themselves are compared.
   * Either way a row stored again meanwhile got its forms when it was stored, and is only taken off the list.
   */
  version: string | null;
  /** Rows given their forms per statement batch: a batch holds its database well under a second at the usual sizes. */
  batch: number;
}

/**
 * Deliverables and claims (0042) first: thousands per org, they are done in the first runs; then artifacts (0039).
 * Measured (docs/capacity.md): a deliverable of 7,000 Japanese characters (≈ 20 KB) ≈ 3.7 ms (the form 0.7, the
 * index's update 3.1), a claim 0.09 ms, on a two-core machine at load average 3; an artifact of 700 characters
 * 3.8–5.9 ms at load average 15–25 (bench/README.md). A deliverable is up to 1 MB, fifty times that.
 */
export const INDEXED_TABLES: readonly IndexedTable[] = [
  { table: "research_outputs", forms: [["title", "search_title"], ["content", "search_content"]], version: "version", batch: 10 },
  { table: "ledger_claims", forms: [["text", "search_text"], ["subtopic", "search_subtopic"]], version: null, batch: 200 },
  { table: "artifacts", forms: [["title", "search_title"], ["content_text", "search_text"]], version: "version", batch: 50 },
];

/**
 * Rows of `spec.table` listed in its `_index_pending` table (stored before its index read indexed forms): each gets
 * its forms now, and the update triggers index it again. Only the forms change. How many entries were taken off the
 * list (fewer than `spec.batch`: none is left).
 */
export async function indexPendingRows(db: D1Queries, spec: IndexedTable): Promise<number> {
  const pending = `${spec.table}_index_pending`;
  const texts = spec.forms.map(([text]) => text);
  const { results } = await db
    .prepare(
      `SELECT p.seq AS seq, t.seq AS present, ${texts.map((text) => `t.${text} AS ${text}`).join(", ")}${spec.version ? `, t.${spec.version} AS version` : ""}
         FROM (SELECT seq FROM ${pending} ORDER BY seq LIMIT ?) p LEFT JOIN ${spec.table} t ON t.seq = p.seq`,
    )
    .bind(spec.batch)
    .all<Record<string, unknown> & { seq: number; present: number | null; version?: number }>();
  if (results.length === 0) return 0;
  const statements = results.flatMap((row) => {
    const done = db.prepare(`DELETE FROM ${pending} WHERE seq = ?`).bind(row.seq);
    if (row.present === null) return [done]; // erased before its turn
    const forms = texts.map((text) => storedIndexForm(String(row[text] ?? "")));
    if (forms.every((form) => form === null)) return [done]; // indexed as it is already
    const set = spec.forms.map(([, form]) => `${form} = ?`).join(", ");
    const unchanged = spec.version ? `${spec.version} = ?` : texts.map((text) => `${text} = ?`).join(" AND ");
    const guard = spec.version ? [row.version] : texts.map((text) => row[text]);
    return [db.prepare(`UPDATE ${spec.table} SET ${set} WHERE seq = ? AND ${unchanged}`).bind(...forms, row.seq, ...guard), done];
  });
  await db.batch(statements);
  return results.length;
}

/** The indexed-form columns of a row of `table` about to be stored, made from its texts (none for a table without them). */
export function indexFormColumns(table: string, row: Readonly<Record<string, unknown>>): Record<string, string | null> {
  const spec = INDEXED_TABLES.find((indexed) => indexed.table === table);
  return Object.fromEntries((spec?.forms ?? []).map(([text, form]) => [form, storedIndexForm(String(row[text] ?? ""))]));
}
