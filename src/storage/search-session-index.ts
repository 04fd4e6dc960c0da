/**
 * The org-wide index of search sessions in D1 (migration 0007): one row per
 * session, so an org's active sessions can be counted (the limit) and listed,
 * and an expired session can be told apart from one that never existed. The
 * session's content lives only in its Durable Object.
 */
import type { SessionHeader } from "../domain/sessions/model";
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

/**
 * Makes the session's row say what its object holds (written by the object after each step, and
 * retried by its alarm until D1 takes it). Recreates a row the Worker released while the object's
 * answer was lost: the object holds the session, so the index must list it. Never moves a row
 * backwards (fewer steps) or out of "expired".
 */
export async function syncSessionIndex(db: D1Database, session: SessionHeader & { stepCount: number }): Promise<void> {
  await db
    .prepare(
      `INSERT INTO search_sessions (session_id, org_id, created_by, research_goal, status, step_count, started_at, last_activity_at, expires_at, completed_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
       ON CONFLICT (session_id) DO UPDATE SET status = excluded.status, step_count = excluded.step_count, last_activity_at = excluded.last_activity_at,
              expires_at = excluded.expires_at, completed_at = excluded.completed_at
        WHERE search_sessions.org_id = excluded.org_id AND search_sessions.status <> 'expired' AND search_sessions.step_count <= excluded.step_count`,
    )
    .bind(
      session.sessionId, session.orgId, session.createdBy, session.researchGoal, session.completedAt === null ? "active" : "completed", session.stepCount,
      session.startedAt, session.lastActivityAt, session.expiresAt, session.completedAt,
    )
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
