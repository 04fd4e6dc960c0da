/**
 * The org-wide index of search sessions in D1 (migration 0007): one row per
 * session, so an org's active sessions can be counted (the limit) and listed,
 * and an expired session can be told apart from one that never existed. The
 * session's content lives only in its Durable Object.
 */
import type { SessionLimitReached } from "../domain/sessions/store";

export type SessionIndexStatus = "active" | "completed" | "expired";

export interface SessionIndexRow {
  session_id: string;
  org_id: string;
  created_by: string;
  research_goal: string | null;
  status: SessionIndexStatus;
  step_count: number;
  started_at: number;
  last_activity_at: number;
  expires_at: number;
  completed_at: number | null;
}

/**
 * Claims a slot for a new session in one statement, so two concurrent starts
 * cannot both take the last slot. A session counts as active until it completes
 * or its expiry passes, whether or not its alarm has run yet.
 */
export async function reserveSession(
  db: D1Database,
  row: { sessionId: string; orgId: string; createdBy: string; researchGoal: string | null; now: number; expiresAt: number },
  limits: { maxActive: number; maxActivePerMember: number },
): Promise<SessionLimitReached | null> {
  const result = await db
    .prepare(
      `INSERT INTO search_sessions (session_id, org_id, created_by, research_goal, status, step_count, started_at, last_activity_at, expires_at, completed_at)
       SELECT ?, ?, ?, ?, 'active', 0, ?, ?, ?, NULL
        WHERE (SELECT COUNT(*) FROM search_sessions WHERE org_id = ? AND status = 'active' AND expires_at > ?) < ?
          AND (SELECT COUNT(*) FROM search_sessions WHERE org_id = ? AND created_by = ? AND status = 'active' AND expires_at > ?) < ?`,
    )
    .bind(
      row.sessionId, row.orgId, row.createdBy, row.researchGoal, row.now, row.now, row.expiresAt,
      row.orgId, row.now, limits.maxActive,
      row.orgId, row.createdBy, row.now, limits.maxActivePerMember,
    )
    .run();
  if (result.meta.changes === 1) return null;
  return whichLimit(db, row, limits);
}

/** After a refused reservation: the share that is full, and when its first session expires. */
async function whichLimit(
  db: D1Database,
  row: { orgId: string; createdBy: string; now: number },
  limits: { maxActive: number; maxActivePerMember: number },
): Promise<SessionLimitReached> {
  const counts = await db
    .prepare(
      `SELECT COUNT(*) AS org_active, MIN(expires_at) AS org_next,
              SUM(CASE WHEN created_by = ? THEN 1 ELSE 0 END) AS member_active,
              MIN(CASE WHEN created_by = ? THEN expires_at END) AS member_next
         FROM search_sessions WHERE org_id = ? AND status = 'active' AND expires_at > ?`,
    )
    .bind(row.createdBy, row.createdBy, row.orgId, row.now)
    .first<{ org_active: number; org_next: number | null; member_active: number | null; member_next: number | null }>();
  if ((counts?.member_active ?? 0) >= limits.maxActivePerMember) {
    return { scope: "member", limit: limits.maxActivePerMember, nextExpiryAt: counts?.member_next ?? null };
  }
  return { scope: "org", limit: limits.maxActive, nextExpiryAt: counts?.org_next ?? null };
}

export async function releaseSession(db: D1Database, orgId: string, sessionId: string): Promise<void> {
  await db.prepare("DELETE FROM search_sessions WHERE org_id = ? AND session_id = ? AND step_count = 0").bind(orgId, sessionId).run();
}

export async function updateSessionIndex(
  db: D1Database,
  orgId: string,
  sessionId: string,
  state: { stepCount: number; lastActivityAt: number; expiresAt: number; completedAt: number | null },
): Promise<void> {
  await db
    .prepare(
      `UPDATE search_sessions SET status = ?, step_count = ?, last_activity_at = ?, expires_at = ?, completed_at = ?
        WHERE org_id = ? AND session_id = ? AND status <> 'expired' AND step_count <= ?`,
    )
    .bind(state.completedAt === null ? "active" : "completed", state.stepCount, state.lastActivityAt, state.expiresAt, state.completedAt, orgId, sessionId, state.stepCount)
    .run();
}

export async function markSessionExpired(db: D1Database, orgId: string, sessionId: string): Promise<void> {
  await db.prepare("UPDATE search_sessions SET status = 'expired' WHERE org_id = ? AND session_id = ?").bind(orgId, sessionId).run();
}

export async function findSessionRow(db: D1Database, orgId: string, sessionId: string): Promise<SessionIndexRow | null> {
  return db.prepare("SELECT * FROM search_sessions WHERE org_id = ? AND session_id = ?").bind(orgId, sessionId).first<SessionIndexRow>();
}

/** The org's sessions that still count against its limit, most recently active first. */
export async function listActiveSessions(db: D1Database, orgId: string, now: number, limit = 100): Promise<SessionIndexRow[]> {
  const { results } = await db
    .prepare("SELECT * FROM search_sessions WHERE org_id = ? AND status = 'active' AND expires_at > ? ORDER BY last_activity_at DESC LIMIT ?")
    .bind(orgId, now, limit)
    .all<SessionIndexRow>();
  return results;
}
