import type { Role } from "../domain/scopes";

/** An org's single sign-on as stored (src/domain/auth/sso/config.ts). Plain SQL: a few small reads on sign-in. */
export interface StoredSso {
  orgId: string;
  issuer: string;
  clientId: string;
  clientSecretSealed: string;
  providerMetadata: Record<string, unknown>;
  emailDomains: string[];
  defaultRole: Role;
  required: boolean;
  updatedBy: string;
  updatedAt: number;
}

interface SsoRow {
  org_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  provider_metadata: string;
  default_role: Role;
  required: number;
  updated_by: string;
  updated_at: number;
}

async function domainsOf(db: D1Database, orgId: string): Promise<string[]> {
  const { results } = await db.prepare("SELECT domain FROM org_sso_domains WHERE org_id = ? ORDER BY domain").bind(orgId).all<{ domain: string }>();
  return results.map((row) => row.domain);
}

const fromRow = (row: SsoRow, emailDomains: string[]): StoredSso => ({
  orgId: row.org_id,
  issuer: row.issuer,
  clientId: row.client_id,
  clientSecretSealed: row.client_secret_sealed,
  providerMetadata: JSON.parse(row.provider_metadata) as Record<string, unknown>,
  emailDomains,
  defaultRole: row.default_role,
  required: row.required === 1,
  updatedBy: row.updated_by,
  updatedAt: row.updated_at,
});

export async function readOrgSso(db: D1Database, orgId: string): Promise<StoredSso | null> {
  const row = await db.prepare("SELECT * FROM org_sso WHERE org_id = ?").bind(orgId).first<SsoRow>();
  return row ? fromRow(row, await domainsOf(db, orgId)) : null;
}

/** The org whose provider signs in this e-mail domain, if any. */
export async function orgSsoForDomain(db: D1Database, domain: string): Promise<StoredSso | null> {
  const row = await db
    .prepare("SELECT s.* FROM org_sso_domains d JOIN org_sso s ON s.org_id = d.org_id JOIN orgs o ON o.id = s.org_id WHERE d.domain = ? AND o.erasing_since IS NULL")
    .bind(domain)
    .first<SsoRow>();
  return row ? fromRow(row, await domainsOf(db, row.org_id)) : null;
}

/** Which of these domains another org's provider already signs in. */
export async function domainsTakenElsewhere(db: D1Database, orgId: string, domains: readonly string[]): Promise<string[]> {
  if (domains.length === 0) return [];
  const { results } = await db
    .prepare(`SELECT domain FROM org_sso_domains WHERE org_id <> ? AND domain IN (${domains.map(() => "?").join(", ")})`)
    .bind(orgId, ...domains)
    .all<{ domain: string }>();
  return results.map((row) => row.domain);
}

/** Replaces the org's configuration and its domains in one batch, with the audit statement given. */
export async function writeOrgSso(db: D1Database, sso: StoredSso, audit: D1PreparedStatement): Promise<void> {
  await db.batch([
    db
      .prepare(
        `INSERT INTO org_sso (org_id, issuer, client_id, client_secret_sealed, provider_metadata, default_role, required, updated_by, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (org_id) DO UPDATE SET issuer = excluded.issuer, client_id = excluded.client_id, client_secret_sealed = excluded.client_secret_sealed,
           provider_metadata = excluded.provider_metadata, default_role = excluded.default_role, required = excluded.required,
           updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
      )
      .bind(sso.orgId, sso.issuer, sso.clientId, sso.clientSecretSealed, JSON.stringify(sso.providerMetadata), sso.defaultRole, sso.required ? 1 : 0, sso.updatedBy, sso.updatedAt),
    db.prepare("DELETE FROM org_sso_domains WHERE org_id = ?").bind(sso.orgId),
    ...sso.emailDomains.map((domain) => db.prepare("INSERT INTO org_sso_domains (domain, org_id) VALUES (?, ?)").bind(domain, sso.orgId)),
    audit,
  ]);
}

/** Removes the org's configuration; whether there was one. */
export async function deleteOrgSso(db: D1Database, orgId: string, audit: D1PreparedStatement): Promise<boolean> {
  const [, removed] = await db.batch([db.prepare("DELETE FROM org_sso_domains WHERE org_id = ?").bind(orgId), db.prepare("DELETE FROM org_sso WHERE org_id = ?").bind(orgId), audit]);
  return (removed?.meta.changes ?? 0) > 0;
}

/**
 * A person the org's provider signed in: the user with that e-mail (created, without a usable password, if new)
 * and their membership of the org (created with the default role if they had none). Returns what it did.
 */
export async function ensureSsoMember(
  db: D1Database,
  input: { orgId: string; email: string; displayName: string; role: Role; newUserId: string; now: number; audit: (userId: string) => D1PreparedStatement },
): Promise<{ userId: string; displayName: string; createdUser: boolean; joined: boolean }> {
  const existing = await db.prepare("SELECT id, display_name FROM users WHERE email = ?").bind(input.email).first<{ id: string; display_name: string }>();
  const userId = existing?.id ?? input.newUserId;
  const member = existing ? await db.prepare("SELECT 1 AS one FROM memberships WHERE org_id = ? AND user_id = ?").bind(input.orgId, userId).first() : null;
  if (existing && member) return { userId, displayName: existing.display_name, createdUser: false, joined: false };
  await db.batch([
    ...(existing
      ? []
      : [db.prepare("INSERT INTO users (id, email, display_name, password_hash, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING").bind(userId, input.email, input.displayName, SSO_ONLY_PASSWORD, input.now)]),
    db.prepare("INSERT INTO memberships (org_id, user_id, role, created_at) SELECT ?, id, ?, ? FROM users WHERE email = ? ON CONFLICT DO NOTHING").bind(input.orgId, input.role, input.now, input.email),
    input.audit(userId),
  ]);
  return { userId, displayName: existing?.display_name ?? input.displayName, createdUser: !existing, joined: true };
}

/** The password hash of an account made by single sign-on: no password verifies against it (it names no scheme). */
export const SSO_ONLY_PASSWORD = "sso-only";
