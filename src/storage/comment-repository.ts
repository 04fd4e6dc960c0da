import type { CommentRepository } from "../domain/ports";
import type { Comment, CommentAnchor, CommentTarget } from "../domain/research/comments";
import { WEBHOOK_LIMITS } from "../domain/webhooks/policy";
import type { D1Queries } from "./database";
import { recordWebhookEvent } from "./webhook-outbox";

/** People's comments (migration 0038), in the org's home database beside the deliverables and plans they are about. */

interface Row {
  id: string;
  org_id: string;
  output_id: string | null;
  plan_id: string | null;
  step_id: string | null;
  reply_to: string | null;
  body: string;
  anchor_heading: string | null;
  anchor_quote: string | null;
  author_user_id: string;
  created_at: number;
  resolved_at: number | null;
  resolved_by: string | null;
  answered_by_output_id: string | null;
  answered_by_version: number | null;
}

function toComment(row: Row): Comment {
  const target: CommentTarget = row.output_id !== null ? { kind: "output", outputId: row.output_id } : { kind: "step", planId: row.plan_id ?? "", stepId: row.step_id ?? "" };
  const anchor: CommentAnchor | null =
    row.anchor_heading !== null || row.anchor_quote !== null
      ? { ...(row.anchor_heading !== null ? { heading: row.anchor_heading } : {}), ...(row.anchor_quote !== null ? { quote: row.anchor_quote } : {}) }
      : null;
  return {
    commentId: row.id,
    orgId: row.org_id,
    target,
    planId: row.plan_id,
    replyTo: row.reply_to,
    body: row.body,
    anchor,
    authorUserId: row.author_user_id,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
    resolvedBy: row.resolved_by,
    answeredBy: row.answered_by_output_id !== null && row.answered_by_version !== null ? { outputId: row.answered_by_output_id, version: row.answered_by_version } : null,
  };
}

/** The thread of `id`: its first comment and every reply to it. */
const THREAD = "org_id = ?1 AND (id = ?2 OR reply_to = ?2)";

export function d1CommentRepository(db: D1Queries): CommentRepository {
  const all = async (sql: string, ...params: unknown[]) => (await db.prepare(sql).bind(...params).all<Row>()).results.map(toComment);
  return {
    async insert(comment, events) {
      const { target } = comment;
      const insert = db
        .prepare(
          `INSERT INTO comments (id, org_id, output_id, plan_id, step_id, reply_to, body, anchor_heading, anchor_quote, author_user_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          comment.commentId,
          comment.orgId,
          target.kind === "output" ? target.outputId : null,
          comment.planId,
          target.kind === "step" ? target.stepId : null,
          comment.replyTo,
          comment.body,
          comment.anchor?.heading ?? null,
          comment.anchor?.quote ?? null,
          comment.authorUserId,
          comment.createdAt,
        );
      // A reply to a resolved thread opens it again: someone still has something to say.
      const reopen = comment.replyTo
        ? [db.prepare(`UPDATE comments SET resolved_at = NULL, resolved_by = NULL, answered_by_output_id = NULL, answered_by_version = NULL WHERE ${THREAD}`).bind(comment.orgId, comment.replyTo)]
        : [];
      const announce = events.map((event) => recordWebhookEvent(db, event, comment.createdAt, comment.createdAt + WEBHOOK_LIMITS.outboxGraceMs));
      await db.batch([insert, ...reopen, ...announce]);
    },

    async get(orgId, commentId) {
      const row = await db.prepare("SELECT * FROM comments WHERE org_id = ? AND id = ?").bind(orgId, commentId).first<Row>();
      return row ? toComment(row) : null;
    },

    async getMany(orgId, ids) {
      if (ids.length === 0) return [];
      return all(`SELECT * FROM comments WHERE org_id = ? AND id IN (${ids.map(() => "?").join(", ")})`, orgId, ...ids);
    },

    onOutput: (orgId, outputId) => all("SELECT * FROM comments WHERE org_id = ? AND output_id = ? ORDER BY created_at, id", orgId, outputId),
    onStep: (orgId, planId, stepId) => all("SELECT * FROM comments WHERE org_id = ? AND plan_id = ? AND step_id = ? ORDER BY created_at, id", orgId, planId, stepId),
    onPlanSteps: (orgId, planId, limit) => all("SELECT * FROM comments WHERE org_id = ? AND plan_id = ? AND step_id IS NOT NULL ORDER BY created_at, id LIMIT ?", orgId, planId, limit),
    openOnOutput: (orgId, outputId, limit) =>
      all("SELECT * FROM comments WHERE org_id = ? AND output_id = ? AND resolved_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ?", orgId, outputId, limit),
    openOnPlan: (orgId, planId, limit) =>
      all("SELECT * FROM comments WHERE org_id = ? AND plan_id = ? AND resolved_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ?", orgId, planId, limit),

    async count(orgId, target) {
      const row =
        target.kind === "output"
          ? await db.prepare("SELECT COUNT(*) AS n FROM comments WHERE org_id = ? AND output_id = ?").bind(orgId, target.outputId).first<{ n: number }>()
          : await db.prepare("SELECT COUNT(*) AS n FROM comments WHERE org_id = ? AND plan_id = ? AND step_id = ?").bind(orgId, target.planId, target.stepId).first<{ n: number }>();
      return row?.n ?? 0;
    },

    async setResolved(orgId, threads, resolution) {
      if (threads.length === 0) return;
      await db.batch(
        threads.map((thread) =>
          db
            .prepare(`UPDATE comments SET resolved_at = ?3, resolved_by = ?4, answered_by_output_id = ?5, answered_by_version = ?6 WHERE ${THREAD}`)
            .bind(orgId, thread, resolution?.resolvedAt ?? null, resolution?.resolvedBy ?? null, resolution?.answeredBy?.outputId ?? null, resolution?.answeredBy?.version ?? null),
        ),
      );
    },
  };
}
