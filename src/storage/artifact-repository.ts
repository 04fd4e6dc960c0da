import type { D1Queries } from "./database";
import type { Query } from "./query";
import { batchUnlessRaceLost } from "./versioned";
import type { ArtifactFilters, ArtifactRepository } from "../domain/ports";
import type { Artifact, ArtifactSummary, ArtifactType, SearchHit } from "../domain/research/artifacts";
import { toAuditRow } from "./audit-log";

interface Row {
  id: string;
  org_id: string;
  artifact_type: string;
  title: string;
  content?: string;
  content_text?: string;
  confidence: number | null;
  plan_id: string | null;
  step_id: string | null;
  tags: string;
  source_url: string | null;
  version: number;
  created_by: string;
  created_at: number;
  updated_at: number;
}

const SUMMARY_COLUMNS = "a.id, a.org_id, a.artifact_type, a.title, a.confidence, a.plan_id, a.step_id, a.tags, a.source_url, a.version, a.created_by, a.created_at, a.updated_at";

const toSummary = (row: Row): ArtifactSummary => ({
  artifactId: row.id,
  orgId: row.org_id,
  artifactType: row.artifact_type as ArtifactType,
  title: row.title,
  confidence: row.confidence,
  planId: row.plan_id,
  stepId: row.step_id,
  tags: JSON.parse(row.tags) as string[],
  sourceUrl: row.source_url,
  version: row.version,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The WHERE fragments every filtered read shares; `a` is the artifacts table. */
function filterSql(orgId: string, filters: ArtifactFilters, matching = false): { sql: string; params: unknown[] } {
  // In a full-text query the match drives: a unary + keeps SQLite from walking an index of
  // artifacts (say, every row since a date) and testing the match row by row (2 s at 100k).
  const col = (name: string) => (matching ? `+a.${name}` : `a.${name}`);
  const clauses = [`${col("org_id")} = ?`];
  const params: unknown[] = [orgId];
  if (filters.artifactType) {
    clauses.push(`${col("artifact_type")} = ?`);
    params.push(filters.artifactType);
  }
  if (filters.planId) {
    clauses.push(`${col("plan_id")} = ?`);
    params.push(filters.planId);
  }
  if (filters.tag) {
    clauses.push(`${col("tag_index")} LIKE ? ESCAPE '\\'`);
    params.push(`% ${filters.tag.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)} %`);
  }
  if (filters.since !== undefined) {
    clauses.push(`${col("updated_at")} >= ?`);
    params.push(filters.since);
  }
  return { sql: clauses.join(" AND "), params };
}

export function d1ArtifactRepository(db: D1Queries): ArtifactRepository {
  return {
    async save(artifact, expectedVersion) {
      const tagIndex = ` ${artifact.tags.join(" ")} `;
      const content = JSON.stringify(artifact.content);
      const tags = JSON.stringify(artifact.tags);
      const version = db
        .prepare(
          `INSERT INTO artifact_versions (artifact_id, version, org_id, title, content, content_text, confidence, tags, source_url, created_by, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(artifact.artifactId, artifact.version, artifact.orgId, artifact.title, content, artifact.contentText, artifact.confidence, tags, artifact.sourceUrl, artifact.createdBy, artifact.updatedAt);
      if (expectedVersion === null) {
        await db.batch([
          db
            .prepare(
              `INSERT INTO artifacts (id, org_id, artifact_type, title, content, content_text, confidence, plan_id, step_id, tags, tag_index, source_url, version, created_by, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .bind(artifact.artifactId, artifact.orgId, artifact.artifactType, artifact.title, content, artifact.contentText, artifact.confidence, artifact.planId, artifact.stepId, tags, tagIndex, artifact.sourceUrl, artifact.version, artifact.createdBy, artifact.createdAt, artifact.updatedAt),
          version,
        ]);
        return true;
      }
      // A new version replaces the searchable row only if nobody stored another version meanwhile;
      // the version row goes in first, and its primary key makes a lost race fail the whole batch.
      const [, updated] = await batchUnlessRaceLost(db, [
        version,
        db
          .prepare(
            `UPDATE artifacts SET artifact_type = ?, title = ?, content = ?, content_text = ?, confidence = ?, plan_id = ?, step_id = ?, tags = ?,
                    tag_index = ?, source_url = ?, version = ?, updated_at = ?
              WHERE org_id = ? AND id = ? AND version = ?`,
          )
          .bind(artifact.artifactType, artifact.title, content, artifact.contentText, artifact.confidence, artifact.planId, artifact.stepId, tags, tagIndex, artifact.sourceUrl, artifact.version, artifact.updatedAt, artifact.orgId, artifact.artifactId, expectedVersion),
      ]);
      // D1 counts the full-text index's trigger writes too: any change means the row was ours.
      return (updated?.meta.changes ?? 0) > 0;
    },

    async get(orgId, artifactId, version) {
      const current = await db.prepare("SELECT * FROM artifacts WHERE org_id = ? AND id = ?").bind(orgId, artifactId).first<Row>();
      if (!current) return null;
      let row: Row = current;
      if (version !== undefined && version !== current.version) {
        const old = await db
          .prepare("SELECT * FROM artifact_versions WHERE org_id = ? AND artifact_id = ? AND version = ?")
          .bind(orgId, artifactId, version)
          .first<{ title: string; content: string; content_text: string; confidence: number | null; tags: string; source_url: string | null; created_by: string; created_at: number }>();
        if (!old) return null;
        row = { ...current, ...old, version, updated_at: old.created_at };
      }
      return { ...toSummary(row), content: JSON.parse(row.content ?? "null"), contentText: row.content_text ?? "" } satisfies Artifact;
    },

    async list(orgId, filters, page) {
      const where = filterSql(orgId, filters);
      const after = page.after ? " AND (a.updated_at < ? OR (a.updated_at = ? AND a.id < ?))" : "";
      const { results } = await db
        .prepare(`SELECT ${SUMMARY_COLUMNS} FROM artifacts a WHERE ${where.sql}${after} ORDER BY a.updated_at DESC, a.id DESC LIMIT ?`)
        .bind(...where.params, ...(page.after ? [page.after.createdAt, page.after.createdAt, page.after.id] : []), page.limit)
        .all<Row>();
      return results.map(toSummary);
    },

    async delete(orgId, artifactId, audit) {
      const entry = toAuditRow(audit, Date.now());
      // One transaction: the audit row is written only if there is something to delete, then the deletes.
      const [, removed] = await db.batch([
        db
          .prepare(
            `INSERT INTO audit_log (id, org_id, actor_user_id, actor_client_id, action, target_type, target_id, detail, created_at)
             SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM artifacts WHERE org_id = ? AND id = ?)`,
          )
          .bind(entry.id, entry.orgId, entry.actorUserId, entry.actorClientId, entry.action, entry.targetType, entry.targetId, entry.detail, entry.createdAt, orgId, artifactId),
        db.prepare("DELETE FROM artifacts WHERE org_id = ? AND id = ?").bind(orgId, artifactId),
        db.prepare("DELETE FROM artifact_versions WHERE org_id = ? AND artifact_id = ?").bind(orgId, artifactId),
      ]);
      return (removed?.meta.changes ?? 0) > 0;
    },
  };
}

/**
 * How many of the newest matching artifacts are ranked. Below it (rare and topic words, phrases:
 * almost every query) every match is ranked; a word in nearly every record has more matches than
 * can be ranked in time, so its newest ones are, and the answer says so (`ranking: "recent-window"`).
 */
export const RANKING_WINDOW = 500;
/** With a plan filter the candidates are the plan's own newest artifacts, found by index: this many. */
export const PLAN_WINDOW = 2_000;

/**
 * The candidates ranking looks at (`win`, newest first, one past the window so a full window shows),
 * its parameters and its size. Filtered to a plan: the plan's newest artifacts, by index (a plan's share
 * of a common word's matches can be small, and walking the matches to find it is slow). Otherwise: the
 * newest matches that pass the filters.
 */
function candidates(orgId: string, ftsQuery: string, filters: ArtifactFilters): { sql: string; params: unknown[]; window: number; byPlan: boolean } {
  if (filters.planId) {
    const where = filterSql(orgId, filters, false);
    return { sql: `SELECT a.seq AS r FROM artifacts a WHERE ${where.sql} ORDER BY a.seq DESC LIMIT ?`, params: [...where.params, PLAN_WINDOW + 1], window: PLAN_WINDOW, byPlan: true };
  }
  const where = filterSql(orgId, filters, true);
  return {
    sql: `SELECT artifacts_fts.rowid AS r FROM artifacts_fts JOIN artifacts a ON a.seq = artifacts_fts.rowid
           WHERE artifacts_fts MATCH ? AND ${where.sql} ORDER BY artifacts_fts.rowid DESC LIMIT ?`,
    params: [ftsQuery, ...where.params, RANKING_WINDOW + 1],
    window: RANKING_WINDOW,
    byPlan: false,
  };
}

/** Full-text search of the org's artifacts, best first, and whether the window was full (sent alone or in a batch with the other searches). */
export function artifactSearch(db: D1Queries, orgId: string, ftsQuery: string, filters: ArtifactFilters, limit: number): Query<{ hits: SearchHit[]; beyondWindow: boolean }> {
  const c = candidates(orgId, ftsQuery, filters);
  const where = filterSql(orgId, filters, true);
  // bm25 weights: title 4×, text 1×, tags 2×. The plan index and the skill execution supply
  // what a prior-research check shows beside each hit: the question and the original request.
  // Only candidates are ranked (and given snippets). Matches are bounded by rowid from below, at the
  // window's oldest candidate: FTS5 then reads only the doclist pages of the window instead of every
  // match of the word in the database (a common word's whole doclist: linear in the org's memory).
  // bm25 itself still counts each term's records over the whole index to weigh it (see MAX_TERMS).
  // Filtered to a plan, the candidates are also checked as a list (the plan's artifacts are spread among
  // everyone else's); the unary + keeps that list from being handed to FTS5 as rowid lookups (each
  // would run the whole match again: 500 ms at 30k rows).
  const bound = `artifacts_fts.rowid >= (SELECT lo FROM bound)${c.byPlan ? ` AND +artifacts_fts.rowid IN (SELECT r FROM win ORDER BY r DESC LIMIT ${c.window})` : ""}`;
  const statement = db
    .prepare(
      `WITH win AS MATERIALIZED (${c.sql}),
            bound AS (SELECT COUNT(*) AS n, COALESCE((SELECT r FROM win ORDER BY r DESC LIMIT 1 OFFSET ${c.window - 1}), 0) AS lo FROM win)
       SELECT ${SUMMARY_COLUMNS}, snippet(artifacts_fts, 1, '«', '»', '…', 24) AS snippet,
              bm25(artifacts_fts, 4.0, 1.0, 2.0) AS rank, p.research_question AS research_question,
              CASE WHEN json_valid(e.metadata) THEN json_extract(e.metadata, '$.originalQuery') END AS original_query,
              (SELECT n FROM bound) AS candidates
         FROM artifacts_fts
         JOIN artifacts a ON a.seq = artifacts_fts.rowid
         LEFT JOIN plans p ON p.plan_id = a.plan_id AND p.org_id = a.org_id
         LEFT JOIN skill_executions e ON e.id = p.execution_id AND e.org_id = a.org_id
        WHERE artifacts_fts MATCH ? AND ${bound} AND ${where.sql}
        ORDER BY rank LIMIT ?`,
    )
    .bind(...c.params, ftsQuery, ...where.params, limit);
  type Ranked = Row & { snippet: string; rank: number; research_question: string | null; original_query: unknown; candidates: number };
  const read = (rows: unknown[]) => ({
    // No row, no match: a window cannot be full.
    beyondWindow: ((rows[0] as Ranked | undefined)?.candidates ?? 0) > c.window,
    hits: (rows as Ranked[]).map(
      (row): SearchHit => ({
        kind: "artifact",
        id: row.id,
        title: row.title,
        type: row.artifact_type,
        snippet: row.snippet,
        relevance: -row.rank,
        planId: row.plan_id,
        sourceUrl: row.source_url,
        createdAt: row.created_at,
        researchQuestion: row.research_question || null,
        originalQuery: typeof row.original_query === "string" ? row.original_query : null,
      }),
    ),
  });
  return { statement, read };
}
