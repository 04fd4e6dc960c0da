import type { D1Queries } from "./database";
import type { Query } from "./query";
import { batchUnlessRaceLost } from "./versioned";
import type { FeedbackRepository, OutputRepository } from "../domain/ports";
import type { SearchHit } from "../domain/research/artifacts";
import type { Citation, MediaType, ResearchOutput, ResearchOutputSummary } from "../domain/research/outputs";
import { WEBHOOK_LIMITS } from "../domain/webhooks/policy";
import { recordWebhookEvent } from "./webhook-outbox";
import { deliveredSourceCounts, deliveredSourcesStatements } from "./delivered-sources";
import { readSnippet, storedIndexForm } from "../domain/research/search-text";

interface Row {
  id: string;
  org_id: string;
  plan_id: string | null;
  execution_id: string | null;
  title: string;
  media_type: string;
  content?: string;
  formatting_instructions: string | null;
  citations: string;
  version: number;
  created_by: string;
  created_at: number;
  updated_at: number;
}

const SUMMARY_COLUMNS = "o.id, o.org_id, o.plan_id, o.execution_id, o.title, o.media_type, o.formatting_instructions, o.citations, o.version, o.created_by, o.created_at, o.updated_at";

const toSummary = (row: Row): ResearchOutputSummary => ({
  outputId: row.id,
  orgId: row.org_id,
  planId: row.plan_id,
  executionId: row.execution_id,
  title: row.title,
  mediaType: row.media_type as MediaType,
  formattingInstructions: row.formatting_instructions,
  citations: JSON.parse(row.citations) as Citation[],
  version: row.version,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function d1OutputRepository(db: D1Queries): OutputRepository {
  return {
    async save(output, expectedVersion, events = [], citedSources) {
      // A new output's events commit with it or not at all: an announced output exists, a stored one is announced.
      const announce = events.map((event) => recordWebhookEvent(db, event, output.updatedAt, output.updatedAt + WEBHOOK_LIMITS.outboxGraceMs));
      // The sources this version cites, with their verdicts as they stand now, commit with it (re-checks compare with them).
      const sources =
        output.planId !== null && citedSources !== undefined
          ? deliveredSourcesStatements(db, { orgId: output.orgId, outputId: output.outputId, version: output.version, planId: output.planId }, citedSources, output.updatedAt)
          : [];
      const citations = JSON.stringify(output.citations);
      // What the full-text index gets beside the title and content, where it differs from them (migration 0042).
      const searchTitle = storedIndexForm(output.title);
      const searchContent = storedIndexForm(output.content);
      const version = db
        .prepare(
          `INSERT INTO research_output_versions (output_id, version, org_id, title, media_type, content, formatting_instructions, citations, created_by, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(output.outputId, output.version, output.orgId, output.title, output.mediaType, output.content, output.formattingInstructions, citations, output.createdBy, output.updatedAt);
      if (expectedVersion === null) {
        await db.batch([
          db
            .prepare(
              `INSERT INTO research_outputs (id, org_id, plan_id, execution_id, title, media_type, content, search_title, search_content, formatting_instructions, citations, version, created_by, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .bind(output.outputId, output.orgId, output.planId, output.executionId, output.title, output.mediaType, output.content, searchTitle, searchContent, output.formattingInstructions, citations, output.version, output.createdBy, output.createdAt, output.updatedAt),
          version,
          ...announce,
          ...sources,
        ]);
        return true;
      }
      // As for artifacts: the version row's key refuses a lost race, and the guarded update applies only to the expected version.
      const [, updated] = await batchUnlessRaceLost(db, [
        version,
        db
          .prepare(
            `UPDATE research_outputs SET plan_id = ?, execution_id = ?, title = ?, media_type = ?, content = ?, search_title = ?, search_content = ?, formatting_instructions = ?,
                    citations = ?, version = ?, updated_at = ? WHERE org_id = ? AND id = ? AND version = ?`,
          )
          .bind(output.planId, output.executionId, output.title, output.mediaType, output.content, searchTitle, searchContent, output.formattingInstructions, citations, output.version, output.updatedAt, output.orgId, output.outputId, expectedVersion),
        // A lost race rolls these back with the rest; a version of no checked plan keeps no sources of an earlier one.
        ...(sources.length > 0 ? sources : [db.prepare("DELETE FROM research_output_sources WHERE org_id = ? AND output_id = ?").bind(output.orgId, output.outputId)]),
      ]);
      return (updated?.meta.changes ?? 0) > 0;
    },

    async get(orgId, outputId, version) {
      // Not its indexed forms (as large as the content again).
      const current = await db.prepare(`SELECT ${SUMMARY_COLUMNS}, o.content FROM research_outputs o WHERE o.org_id = ? AND o.id = ?`).bind(orgId, outputId).first<Row>();
      if (!current) return null;
      let row: Row = current;
      if (version !== undefined && version !== current.version) {
        const old = await db
          .prepare("SELECT title, media_type, content, formatting_instructions, citations, created_at FROM research_output_versions WHERE org_id = ? AND output_id = ? AND version = ?")
          .bind(orgId, outputId, version)
          .first<Pick<Row, "title" | "media_type" | "content" | "formatting_instructions" | "citations" | "created_at">>();
        if (!old) return null;
        row = { ...current, ...old, version, updated_at: old.created_at };
      }
      return { ...toSummary(row), content: row.content ?? "" } satisfies ResearchOutput;
    },

    sourceCounts: (orgId, outputId, version) => deliveredSourceCounts(db, orgId, outputId, version),

    async list(orgId, filters, page) {
      const clauses = ["o.org_id = ?"];
      const params: unknown[] = [orgId];
      if (filters.planId) {
        clauses.push("o.plan_id = ?");
        params.push(filters.planId);
      }
      if (page.after) {
        clauses.push("(o.updated_at < ? OR (o.updated_at = ? AND o.id < ?))");
        params.push(page.after.createdAt, page.after.createdAt, page.after.id);
      }
      const { results } = await db
        .prepare(`SELECT ${SUMMARY_COLUMNS} FROM research_outputs o WHERE ${clauses.join(" AND ")} ORDER BY o.updated_at DESC, o.id DESC LIMIT ?`)
        .bind(...params, page.limit)
        .all<Row>();
      return results.map(toSummary);
    },

  };
}

export function d1FeedbackRepository(db: D1Queries): FeedbackRepository {
  return {
    async insert(feedback) {
      await db
        .prepare(
          `INSERT INTO research_feedback (id, org_id, plan_id, output_id, execution_id, phase, satisfaction, summary, improvement_suggestions, follow_up_requested, created_by, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          feedback.feedbackId,
          feedback.orgId,
          feedback.planId,
          feedback.outputId,
          feedback.executionId,
          feedback.phase,
          feedback.satisfaction,
          feedback.summary,
          JSON.stringify(feedback.improvementSuggestions),
          feedback.followUpRequested ? 1 : 0,
          feedback.createdBy,
          feedback.createdAt,
        )
        .run();
    },
  };
}

/** Full-text search of the org's deliverables, best first (sent alone or in a batch with the other searches). */
export function outputSearch(db: D1Queries, orgId: string, ftsQuery: string, filters: { planId?: string; since?: number }, limit: number): Query<SearchHit[]> {
  // The match drives (unary +: no walking an index of deliverables, testing the match row by row).
  const clauses = ["+o.org_id = ?"];
  const params: unknown[] = [orgId];
  if (filters.planId) {
    clauses.push("+o.plan_id = ?");
    params.push(filters.planId);
  }
  if (filters.since !== undefined) {
    clauses.push("+o.updated_at >= ?");
    params.push(filters.since);
  }
  const statement = db
    .prepare(
      `SELECT o.id, o.title, o.media_type, o.plan_id, o.created_at, snippet(research_outputs_fts, 1, '«', '»', '…', 24) AS snippet,
              bm25(research_outputs_fts, 4.0, 1.0) AS rank, p.research_question AS research_question,
              CASE WHEN json_valid(e.metadata) THEN json_extract(e.metadata, '$.originalQuery') END AS original_query
         FROM research_outputs_fts
         JOIN research_outputs o ON o.seq = research_outputs_fts.rowid
         LEFT JOIN plans p ON p.plan_id = o.plan_id AND p.org_id = o.org_id
         LEFT JOIN skill_executions e ON e.id = COALESCE(o.execution_id, p.execution_id) AND e.org_id = o.org_id
        WHERE research_outputs_fts MATCH ? AND ${clauses.join(" AND ")}
        ORDER BY rank LIMIT ?`,
    )
    .bind(ftsQuery, ...params, limit);
  const read = (rows: unknown[]) => (rows as { id: string; title: string; media_type: string; plan_id: string | null; created_at: number; snippet: string; rank: number; research_question: string | null; original_query: unknown }[]).map(
    (row): SearchHit => ({
      kind: "output",
      id: row.id,
      title: row.title,
      type: row.media_type,
      // The index's text has separators between the pieces of Japanese, Chinese, Korean and Thai runs: read without them.
      snippet: readSnippet(row.snippet),
      relevance: -row.rank,
      planId: row.plan_id,
      sourceUrl: null,
      createdAt: row.created_at,
      researchQuestion: row.research_question || null,
      originalQuery: typeof row.original_query === "string" ? row.original_query : null,
    }),
  );
  return { statement, read };
}
