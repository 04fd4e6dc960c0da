import type { D1Queries } from "./database";
import type { CompletableKind, CompletionPort } from "../domain/completion";
import { topicOfPlanName } from "../domain/completion";

/** Table and columns per kind: fixed here, never taken from the caller. */
const SOURCES: Record<CompletableKind, { table: string; id: string }> = {
  plans: { table: "plans", id: "plan_id" },
  artifacts: { table: "artifacts", id: "id" },
  outputs: { table: "research_outputs", id: "id" },
};

/**
 * Completion queries on D1. An id prefix is a range on the id (`id >= p AND
 * id < p || U+FFFF`), so `_` and `%` in ids need no escaping; the org filter
 * comes first in every query, and the newest records are suggested first.
 */
export function d1Completions(db: D1Queries): CompletionPort {
  return {
    async ids(kind, orgId, prefix, limit) {
      const { table, id } = SOURCES[kind];
      const { results } = await db
        .prepare(`SELECT ${id} AS id FROM ${table} WHERE org_id = ?1 AND ${id} >= ?2 AND ${id} < ?3 ORDER BY created_at DESC, ${id} LIMIT ?4`)
        .bind(orgId, prefix, `${prefix}\uffff`, limit)
        .all<{ id: string }>();
      return results.map((row) => row.id);
    },
    async topics(orgId, text, limit) {
      // instr on lower(): a plain substring test, no pattern characters to escape.
      const { results } = await db
        .prepare("SELECT name FROM plans WHERE org_id = ?1 AND instr(lower(name), lower(?2)) > 0 ORDER BY created_at DESC LIMIT ?3")
        .bind(orgId, text, limit * 2)
        .all<{ name: string }>();
      return results.map((row) => topicOfPlanName(row.name)).filter(Boolean);
    },
  };
}
