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
}

export async function findUserByEmail(db: D1Database, email: string): Promise<UserRecord | null> {
  const row = await db
    .prepare("SELECT id, email, display_name, password_hash FROM users WHERE email = ?")
    .bind(email.trim().toLowerCase())
    .first<{ id: string; email: string; display_name: string; password_hash: string }>();
  return row ? { id: row.id, email: row.email, displayName: row.display_name, passwordHash: row.password_hash } : null;
}

export async function membershipsOf(db: D1Database, userId: string): Promise<MembershipRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT m.org_id, o.name, o.slug, m.role FROM memberships m JOIN orgs o ON o.id = m.org_id
        WHERE m.user_id = ? ORDER BY o.name`,
    )
    .bind(userId)
    .all<{ org_id: string; name: string; slug: string; role: Role }>();
  return results.map((row) => ({ orgId: row.org_id, orgName: row.name, orgSlug: row.slug, role: row.role }));
}

export async function roleIn(db: D1Database, orgId: string, userId: string): Promise<Role | null> {
  const row = await db
    .prepare("SELECT role FROM memberships WHERE org_id = ? AND user_id = ?")
    .bind(orgId, userId)
    .first<{ role: Role }>();
  return row?.role ?? null;
}
