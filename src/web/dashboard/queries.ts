import type { PlanIndexEntry } from "../../domain/plans/index-entry";
import { PLAN_STATUSES } from "../../domain/plans/model";
import type { Role } from "../../domain/scopes";
import { ACTIVE_STATUSES, type PlanIndexRow, toPlanIndexEntry } from "../../storage/plan-engine";

/**
 * The dashboard's own reads: org-wide listings and aggregates the operations do
 * not need. Every query takes the org id and filters by it, like the repositories.
 */

export const STATUS_FILTERS = ["open", "all", ...PLAN_STATUSES] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
const OPEN_STATUSES = ACTIVE_STATUSES;

export interface PlanFilters {
  status: StatusFilter;
  stalledOnly: boolean;
  query: string;
  /** Only these plans (live polling of one page). */
  planIds?: string[];
}

export const PLANS_PAGE = 100;

export async function listPlans(db: D1Database, orgId: string, filters: PlanFilters, limit = PLANS_PAGE): Promise<PlanIndexEntry[]> {
  const where = ["org_id = ?"];
  const params: unknown[] = [orgId];
  if (filters.status === "open") {
    where.push(`status IN (${OPEN_STATUSES.map(() => "?").join(", ")})`);
    params.push(...OPEN_STATUSES);
  } else if (filters.status !== "all") {
    where.push("status = ?");
    params.push(filters.status);
  }
  if (filters.stalledOnly) where.push("stalled = 1");
  if (filters.query) {
    // LIKE with the wildcards of the query escaped: the text is matched literally.
    const pattern = `%${filters.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push("(name LIKE ? ESCAPE '\\' OR research_question LIKE ? ESCAPE '\\')");
    params.push(pattern, pattern);
  }
  if (filters.planIds) {
    if (filters.planIds.length === 0) return [];
    where.push(`plan_id IN (${filters.planIds.map(() => "?").join(", ")})`);
    params.push(...filters.planIds);
  }
  const { results } = await db
    .prepare(`SELECT * FROM plans WHERE ${where.join(" AND ")} ORDER BY updated_at DESC, plan_id DESC LIMIT ?`)
    .bind(...params, limit)
    .all<PlanIndexRow>();
  return results.map(toPlanIndexEntry);
}

/** The name of a record's plan, or null when it has none (or the plan is gone, or is another org's). */
export async function planNameOf(db: D1Database, orgId: string, planId: string | null): Promise<string | null> {
  if (!planId) return null;
  const [plan] = await listPlans(db, orgId, { status: "all", stalledOnly: false, query: "", planIds: [planId] }, 1);
  return plan?.name ?? null;
}

/** Plans with a step awaiting a person, per the index (the plan object has the review itself). */
export async function plansAwaitingReview(db: D1Database, orgId: string, limit = 50): Promise<PlanIndexEntry[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM plans WHERE org_id = ? AND status NOT IN ('completed', 'failed', 'cancelled')
          AND (status = 'awaiting_review' OR derived_status = 'awaiting_review')
        ORDER BY updated_at DESC LIMIT ?`,
    )
    .bind(orgId, limit)
    .all<PlanIndexRow>();
  return results.map(toPlanIndexEntry);
}

/**
 * A cheap fingerprint of what the open page shows: it changes whenever the index of any listed plan does, and on a
 * plan's page also when its ledger does (a source recorded or checked, a claim recorded, a verdict given), which
 * the plan's index does not follow.
 */
export async function liveFingerprint(db: D1Database, orgId: string, planId: string | null): Promise<string> {
  if (!planId) {
    const row = await db.prepare("SELECT COALESCE(SUM(index_seq), 0) AS s, COUNT(*) AS n, COALESCE(MAX(updated_at), 0) AS u FROM plans WHERE org_id = ?").bind(orgId).first<{ s: number; n: number; u: number }>();
    return `${row?.n ?? 0}.${row?.s ?? 0}.${row?.u ?? 0}`;
  }
  const row = await db
    .prepare(
      `SELECT COALESCE(MAX(index_seq), 0) AS s, COUNT(*) AS n, COALESCE(MAX(updated_at), 0) AS u,
              (SELECT COUNT(*) || '.' || COALESCE(MAX(verification_checked_at), 0) || '.' || COALESCE(SUM(verification_status = 'pending'), 0)
                 FROM ledger_evidence WHERE org_id = ?1 AND plan_id = ?2) AS e,
              (SELECT COUNT(*) || '.' || COALESCE(MAX(updated_at), 0) FROM ledger_claims WHERE org_id = ?1 AND plan_id = ?2) AS c,
              (SELECT COUNT(*) || '.' || COALESCE(MAX(created_at), 0) FROM ledger_verdicts WHERE org_id = ?1 AND plan_id = ?2) AS v
         FROM plans WHERE org_id = ?1 AND plan_id = ?2`,
    )
    .bind(orgId, planId)
    .first<{ s: number; n: number; u: number; e: string; c: string; v: string }>();
  return `${row?.n ?? 0}.${row?.s ?? 0}.${row?.u ?? 0}:${row?.e ?? ""}:${row?.c ?? ""}:${row?.v ?? ""}`;
}

export interface FeedbackRow {
  phase: string;
  satisfaction: number | null;
  summary: string;
  improvementSuggestions: string[];
  followUpRequested: boolean;
  createdAt: number;
}

function parseList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

export async function feedbackFor(db: D1Database, orgId: string, executionId: string, planId: string | null): Promise<FeedbackRow[]> {
  const { results } = await db
    .prepare(
      `SELECT phase, satisfaction, summary, improvement_suggestions, follow_up_requested, created_at FROM research_feedback
        WHERE org_id = ? AND (execution_id = ? OR (? IS NOT NULL AND plan_id = ?)) ORDER BY created_at LIMIT 50`,
    )
    .bind(orgId, executionId, planId, planId)
    .all<{ phase: string; satisfaction: number | null; summary: string; improvement_suggestions: string; follow_up_requested: number; created_at: number }>();
  return results.map((r) => ({
    phase: r.phase,
    satisfaction: r.satisfaction,
    summary: r.summary,
    improvementSuggestions: parseList(r.improvement_suggestions),
    followUpRequested: r.follow_up_requested === 1,
    createdAt: r.created_at,
  }));
}

// ---------------------------------------------------------------------------
// Analytics

export interface RoutingRow {
  route: string;
  executions: number;
  withFeedback: number;
  avgSatisfaction: number | null;
  /** Executions whose feedback averaged 4 or 5 of 5. */
  satisfied: number;
}

/**
 * Routing accuracy: each execution's route (metadata.delegatedTo) against the
 * satisfaction of its feedback (linked by execution, or by its plan).
 */
export async function routingAccuracy(db: D1Database, orgId: string, since: number): Promise<RoutingRow[]> {
  const { results } = await db
    .prepare(
      `WITH e AS (
         SELECT id, plan_id, COALESCE(CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.delegatedTo') END, 'unrouted') AS route
           FROM skill_executions WHERE org_id = ? AND created_at >= ?
       ), s AS (
         SELECT e.id, e.route,
                (SELECT AVG(f.satisfaction) FROM research_feedback f
                  WHERE f.org_id = ? AND f.satisfaction IS NOT NULL
                    AND (f.execution_id = e.id OR (e.plan_id IS NOT NULL AND f.plan_id = e.plan_id))) AS sat
           FROM e
       )
       SELECT route, COUNT(*) AS executions, COUNT(sat) AS with_feedback, AVG(sat) AS avg_sat,
              SUM(CASE WHEN sat >= 4 THEN 1 ELSE 0 END) AS satisfied
         FROM s GROUP BY route ORDER BY route`,
    )
    .bind(orgId, since, orgId)
    .all<{ route: string; executions: number; with_feedback: number; avg_sat: number | null; satisfied: number }>();
  return results.map((r) => ({
    route: String(r.route),
    executions: r.executions,
    withFeedback: r.with_feedback,
    avgSatisfaction: r.avg_sat,
    satisfied: r.satisfied ?? 0,
  }));
}

export interface StallStats {
  plans: number;
  stalledNow: number;
  open: number;
}

export async function stallStats(db: D1Database, orgId: string, since: number): Promise<StallStats> {
  const row = await db
    .prepare(
      `SELECT COUNT(*) AS plans,
              SUM(CASE WHEN stalled = 1 OR status = 'stalled' THEN 1 ELSE 0 END) AS stalled_now,
              SUM(CASE WHEN status IN ('active', 'awaiting_review', 'stalled') THEN 1 ELSE 0 END) AS open
         FROM plans WHERE org_id = ? AND updated_at >= ?`,
    )
    .bind(orgId, since)
    .first<{ plans: number; stalled_now: number | null; open: number | null }>();
  return { plans: row?.plans ?? 0, stalledNow: row?.stalled_now ?? 0, open: row?.open ?? 0 };
}

export interface OperationStats {
  operation: string;
  calls: number;
  errors: number;
  avgMs: number;
  p95Ms: number;
  maxMs: number;
  topError: string | null;
}

export async function toolCallStats(db: D1Database, orgId: string, since: number): Promise<OperationStats[]> {
  const { results } = await db
    .prepare(
      `WITH c AS (
         SELECT operation, duration_ms, outcome, error_code,
                ROW_NUMBER() OVER (PARTITION BY operation ORDER BY duration_ms) AS rn,
                COUNT(*) OVER (PARTITION BY operation) AS n
           FROM tool_call_log WHERE org_id = ? AND created_at >= ?
       )
       SELECT operation, COUNT(*) AS calls,
              SUM(CASE WHEN outcome = 'error' THEN 1 ELSE 0 END) AS errors,
              AVG(duration_ms) AS avg_ms,
              -- Nearest rank (domain/percentile.ts): the value at rank ceil(0.95 n), in integer arithmetic.
              MAX(CASE WHEN rn <= (95 * n + 99) / 100 THEN duration_ms END) AS p95_ms,
              MAX(duration_ms) AS max_ms,
              (SELECT error_code FROM c c2 WHERE c2.operation = c.operation AND c2.error_code IS NOT NULL
                GROUP BY error_code ORDER BY COUNT(*) DESC LIMIT 1) AS top_error
         FROM c GROUP BY operation ORDER BY calls DESC, operation`,
    )
    .bind(orgId, since)
    .all<{ operation: string; calls: number; errors: number; avg_ms: number; p95_ms: number | null; max_ms: number; top_error: string | null }>();
  return results.map((r) => ({
    operation: r.operation,
    calls: r.calls,
    errors: r.errors,
    avgMs: r.avg_ms,
    p95Ms: r.p95_ms ?? r.max_ms,
    maxMs: r.max_ms,
    topError: r.top_error,
  }));
}

// ---------------------------------------------------------------------------
// Org admin

export interface MemberRow {
  userId: string;
  email: string;
  displayName: string;
  role: Role;
  joinedAt: number;
}

export async function listMembers(db: D1Database, orgId: string): Promise<MemberRow[]> {
  const { results } = await db
    .prepare(
      `SELECT u.id, u.email, u.display_name, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.org_id = ? ORDER BY u.email`,
    )
    .bind(orgId)
    .all<{ id: string; email: string; display_name: string; role: Role; created_at: number }>();
  return results.map((r) => ({ userId: r.id, email: r.email, displayName: r.display_name, role: r.role, joinedAt: r.created_at }));
}

/** Changes a member's role unless it would leave the org without an admin. */
export async function setMemberRole(db: D1Database, orgId: string, userId: string, role: Role): Promise<"ok" | "not_found" | "last_admin"> {
  const result = await db
    .prepare(
      `UPDATE memberships SET role = ? WHERE org_id = ? AND user_id = ?
          AND (? = 'admin' OR (SELECT COUNT(*) FROM memberships WHERE org_id = ? AND role = 'admin' AND user_id <> ?) > 0)`,
    )
    .bind(role, orgId, userId, role, orgId, userId)
    .run();
  if (result.meta.changes > 0) return "ok";
  const exists = await db.prepare("SELECT 1 AS x FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, userId).first();
  return exists ? "last_admin" : "not_found";
}

/**
 * Takes a person out of the org: the membership goes (never the last admin's)
 * and their API keys in the org are revoked with it, so re-adding them later
 * does not bring old keys back, and they leave the org's approver group (a review assigned to them reads as no
 * one's: assignees are shown and notified only while members). One batch: all or nothing.
 */
export async function removeMember(db: D1Database, orgId: string, userId: string, now: number): Promise<"ok" | "not_found" | "last_admin"> {
  const [removed] = await db.batch([
    db
      .prepare(
        `DELETE FROM memberships WHERE org_id = ? AND user_id = ?
            AND (role <> 'admin' OR (SELECT COUNT(*) FROM memberships WHERE org_id = ? AND role = 'admin' AND user_id <> ?) > 0)`,
      )
      .bind(orgId, userId, orgId, userId),
    db
      .prepare("UPDATE api_keys SET revoked_at = ? WHERE org_id = ? AND user_id = ? AND revoked_at IS NULL AND NOT EXISTS (SELECT 1 FROM memberships WHERE org_id = ? AND user_id = ?)")
      .bind(now, orgId, userId, orgId, userId),
    db
      .prepare(
        `UPDATE orgs SET approvers = (SELECT COALESCE(json_group_array(j.value), '[]') FROM json_each(CASE WHEN json_valid(approvers) THEN approvers ELSE '[]' END) j WHERE j.value <> ?)
          WHERE id = ? AND NOT EXISTS (SELECT 1 FROM memberships WHERE org_id = ? AND user_id = ?)`,
      )
      .bind(userId, orgId, orgId, userId),
  ]);
  if ((removed?.meta.changes ?? 0) > 0) return "ok";
  const exists = await db.prepare("SELECT 1 AS x FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, userId).first();
  return exists ? "last_admin" : "not_found";
}

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  ownerEmail: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export async function listApiKeys(db: D1Database, orgId: string): Promise<ApiKeyRow[]> {
  const { results } = await db
    .prepare(
      `SELECT k.id, k.name, k.prefix, k.scopes, u.email, k.created_at, k.last_used_at, k.revoked_at
         FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.org_id = ?
        ORDER BY k.revoked_at IS NOT NULL, k.created_at DESC LIMIT 200`,
    )
    .bind(orgId)
    .all<{ id: string; name: string; prefix: string; scopes: string; email: string; created_at: number; last_used_at: number | null; revoked_at: number | null }>();
  return results.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: JSON.parse(r.scopes) as string[],
    ownerEmail: r.email,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  }));
}

export async function insertApiKey(
  db: D1Database,
  key: { id: string; orgId: string; userId: string; name: string; prefix: string; hash: string; scopes: string[]; now: number },
): Promise<void> {
  await db
    .prepare("INSERT INTO api_keys (id, org_id, user_id, name, prefix, key_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    .bind(key.id, key.orgId, key.userId, key.name, key.prefix, key.hash, JSON.stringify(key.scopes), key.now)
    .run();
}

export async function revokeApiKey(db: D1Database, orgId: string, keyId: string, now: number): Promise<boolean> {
  const result = await db.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND org_id = ? AND revoked_at IS NULL").bind(now, keyId, orgId).run();
  return result.meta.changes > 0;
}
