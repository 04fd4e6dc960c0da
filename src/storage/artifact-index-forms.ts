import type { D1Queries } from "./database";
import { storedIndexForm } from "../domain/research/search-text";

/**
 * Artifacts stored before the full-text indexes got indexed forms (migration 0039 lists them in
 * artifacts_index_pending): each gets its forms now, and the update triggers index it again. Only the
 * forms change: a row stored again meanwhile (its version moved on) got its forms when it was stored,
 * and is only taken off the list. How many entries were taken off (0: none was left).
 */
export async function indexPendingArtifacts(db: D1Queries, limit: number): Promise<number> {
  const { results } = await db
    .prepare(
      `SELECT p.seq AS seq, a.title AS title, a.content_text AS content_text, a.version AS version
         FROM (SELECT seq FROM artifacts_index_pending ORDER BY seq LIMIT ?) p LEFT JOIN artifacts a ON a.seq = p.seq`,
    )
    .bind(limit)
    .all<{ seq: number; title: string | null; content_text: string | null; version: number | null }>();
  if (results.length === 0) return 0;
  const statements = results.flatMap((row) => {
    const done = db.prepare("DELETE FROM artifacts_index_pending WHERE seq = ?").bind(row.seq);
    if (row.title === null || row.content_text === null) return [done]; // erased before its turn
    const title = storedIndexForm(row.title);
    const text = storedIndexForm(row.content_text);
    if (title === null && text === null) return [done]; // indexed as it is already
    return [db.prepare("UPDATE artifacts SET search_title = ?, search_text = ? WHERE seq = ? AND version = ?").bind(title, text, row.seq, row.version), done];
  });
  await db.batch(statements);
  return results.length;
}
