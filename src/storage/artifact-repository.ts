import type { D1Queries } from "./database";
import { batchUnlessRaceLost } from "./versioned";
import type { ArtifactRepository } from "../domain/ports";
import type { Artifact } from "../domain/research/artifacts";
import { filterSql, type Row, SUMMARY_COLUMNS, toSummary } from "./artifact-rows";
import { toAuditRow } from "./audit-log";
import { storedIndexForm } from "../domain/research/search-text";

export function d1ArtifactRepository(db: D1Queries): ArtifactRepository {
  return {
    async save(artifact, expectedVersion) {
      const tagIndex = ` ${artifact.tags.join(" ")} `;
      const content = JSON.stringify(artifact.content);
      const tags = JSON.stringify(artifact.tags);
      // What the full-text indexes get beside the title and text, where it differs from them (migration 0039).
      const searchTitle = storedIndexForm(artifact.title);
      const searchText = storedIndexForm(artifact.contentText);
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
              `INSERT INTO artifacts (id, org_id, artifact_type, title, content, content_text, search_title, search_text, confidence, plan_id, step_id, tags, tag_index, source_url, version, created_by, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .bind(artifact.artifactId, artifact.orgId, artifact.artifactType, artifact.title, content, artifact.contentText, searchTitle, searchText, artifact.confidence, artifact.planId, artifact.stepId, tags, tagIndex, artifact.sourceUrl, artifact.version, artifact.createdBy, artifact.createdAt, artifact.updatedAt),
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
            `UPDATE artifacts SET artifact_type = ?, title = ?, content = ?, content_text = ?, search_title = ?, search_text = ?, confidence = ?, plan_id = ?, step_id = ?, tags = ?,
                    tag_index = ?, source_url = ?, version = ?, updated_at = ?
              WHERE org_id = ? AND id = ? AND version = ?`,
          )
          .bind(artifact.artifactType, artifact.title, content, artifact.contentText, searchTitle, searchText, artifact.confidence, artifact.planId, artifact.stepId, tags, tagIndex, artifact.sourceUrl, artifact.version, artifact.updatedAt, artifact.orgId, artifact.artifactId, expectedVersion),
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

/** Kept here too: the search's windows are part of what this repository promises its callers. */
export { PLAN_WINDOW, RANKING_WINDOW } from "./artifact-search";
