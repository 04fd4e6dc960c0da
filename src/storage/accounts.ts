import type { OrgMarks } from "../domain/org-data/write-gate";
import type { Role } from "../domain/scopes";

/** The reads sign-in and token refresh need. Kept as plain SQL: two small, hot queries. */

export interface UserRecord {
  id: string;
  email: string;
  displayName: string;
  passwordHash: string;
}

export interface MembershipRecord {
  orgId: string;
  orgName: string;
  orgSlug: string;
  role: Role;
  /** When the person last chose this org (consent, dashboard), or null. */
  lastUsedAt: number | null;
  /** The org's import and erasure marks, read in the same statement (the dashboard's write gate). */
  marks: OrgMarks;
  /** False when the org requires single sign-on and this member is not its break-glass admin: no password sign-in into it. */
  passwordAllowed: boolean;
}

interface MarkColumns {
  importing_since: number | null;
  erasing_since: number | null;
}

const marksOf = (row: MarkColumns): OrgMarks => ({ importingSince: row.importing_since, erasingSince: row.erasing_since });

export async function findUserByEmail(db: D1Database, email: string): Promise<UserRecord | null> {
  const row = await db
    .prepare("SELECT id, email, display_name, password_hash FROM users WHERE email = ?")
    .bind(email.trim().toLowerCase())
    .first<{ id: string; email: string; display_name: string; password_hash: string }>();
  return row ? { id: row.id, email: row.email, displayName: row.display_name, passwordHash: row.password_hash } : null;
}

/**
 * The orgs a person may act in (sign-in, consent, a dashboard session), with each org's marks. An org whose
 * erasure has begun is left out: its memberships are deleted last (so an interrupted erasure can be finished),
 * but from the mark on no session or consent is granted into it, and a dashboard session in it ends.
 */
export async function membershipsOf(db: D1Database, userId: string): Promise<MembershipRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT m.org_id, o.name, o.slug, m.role, m.last_used_at, COALESCE(o.import_heartbeat_at, o.importing_since) AS importing_since, o.erasing_since,
          (s.required IS NULL OR s.required = 0 OR m.password_break_glass_at IS NOT NULL) AS password_allowed
        FROM memberships m JOIN orgs o ON o.id = m.org_id LEFT JOIN org_sso s ON s.org_id = m.org_id
        WHERE m.user_id = ? AND o.erasing_since IS NULL ORDER BY o.name`,
    )
    .bind(userId)
    .all<{ org_id: string; name: string; slug: string; role: Role; last_used_at: number | null; password_allowed: number } & MarkColumns>();
  return results.map((row) => ({
    orgId: row.org_id,
    orgName: row.name,
    orgSlug: row.slug,
    role: row.role,
    lastUsedAt: row.last_used_at,
    marks: marksOf(row),
    passwordAllowed: row.password_allowed === 1,
  }));
}

/**
 * Remembers that the person chose this org (approved a consent for it, or opened it in the dashboard):
 * their next sign-in opens there. A convenience: a failed write is logged and never fails the sign-in
 * (the person is then asked, or offered the org they used before).
 */
export async function markOrgUsed(db: D1Database, userId: string, orgId: string, now: number): Promise<void> {
  try {
    await db.prepare("UPDATE memberships SET last_used_at = ? WHERE org_id = ? AND user_id = ?").bind(now, orgId, userId).run();
  } catch (error) {
    console.error(JSON.stringify({ level: "error", message: "last-used org not remembered", orgId, error: String(error) }));
  }
}

export async function roleIn(db: D1Database, orgId: string, userId: string): Promise<Role | null> {
  const row = await db
    .prepare("SELECT role FROM memberships WHERE org_id = ? AND user_id = ?")
    .bind(orgId, userId)
    .first<{ role: Role }>();
  return row?.role ?? null;
}

/** A member's role in an org with the org's import and erasure marks, in one statement: the write gate rides on the membership read. */
export async function membershipIn(db: D1Database, orgId: string, userId: string): Promise<{ role: Role; marks: OrgMarks } | null> {
  const row = await db
    .prepare("SELECT m.role, COALESCE(o.import_heartbeat_at, o.importing_since) AS importing_since, o.erasing_since FROM memberships m JOIN orgs o ON o.id = m.org_id WHERE m.org_id = ? AND m.user_id = ?")
    .bind(orgId, userId)
    .first<{ role: Role } & MarkColumns>();
  return row ? { role: row.role, marks: marksOf(row) } : null;
}
