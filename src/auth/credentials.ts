import type { OAuthResourceContext, ResolveExternalTokenResult } from "@cloudflare/workers-oauth-provider";
import type { OrgMarks } from "../domain/org-data/write-gate";
import type { Principal } from "../domain/principal";
import { isOAuthScope, isScope, type Role, type Scope, scopesAllowedForRole } from "../domain/scopes";
import { hashApiKey, looksLikeApiKey } from "./api-keys";

/** What an OAuth grant carries (set at consent, refreshed on every token refresh). */
export interface GrantProps {
  kind: "grant";
  userId: string;
  orgId: string;
  role: Role;
}

/** What an API key resolves to. The key's scopes are already cut to what its user's role allows. */
export interface ApiKeyProps {
  kind: "api_key";
  apiKeyId: string;
  userId: string;
  orgId: string;
  role: Role;
  scopes: Scope[];
  /** The org's import and erasure marks when the key resolved (joined in the same statement: the write gate). */
  orgMarks?: OrgMarks;
}

export type CredentialProps = GrantProps | ApiKeyProps;

/**
 * OAuthProvider hands its API handlers an ExecutionContext extended with `auth`
 * (what it verified about the token) and `props`; its handler type does not say so.
 */
export const protectedContext = (ctx: ExecutionContext): OAuthResourceContext<unknown> => ctx as OAuthResourceContext<unknown>;

/** The caller of a protected route, from what the OAuth provider verified. Null when the props are not ours. */
export function principalFrom(ctx: OAuthResourceContext<unknown>): Principal | null {
  const props = ctx.props as Partial<CredentialProps> | undefined;
  if (!props || typeof props.orgId !== "string" || typeof props.userId !== "string") return null;
  const role: Role = props.role === "admin" ? "admin" : "member";
  if (props.kind === "api_key") {
    return { orgId: props.orgId, userId: props.userId, role, scopes: props.scopes ?? [], apiKeyId: props.apiKeyId, ...(props.orgMarks ? { orgMarks: props.orgMarks } : {}) };
  }
  const allowed = scopesAllowedForRole(role);
  return {
    orgId: props.orgId,
    userId: props.userId,
    role,
    scopes: ctx.auth.scope.filter(isOAuthScope).filter((scope) => allowed.includes(scope)),
    clientId: ctx.auth.clientId,
  };
}

interface ApiKeyRow {
  id: string;
  org_id: string;
  user_id: string;
  scopes: string;
  role: Role;
  importing_since: number | null;
  erasing_since: number | null;
}

/**
 * Resolves an API key presented as a bearer token. A revoked key, an unknown key,
 * or a key whose user has left the org resolves to null (a plain 401).
 */
export async function resolveApiKey(db: D1Database, token: string, resource: string): Promise<ResolveExternalTokenResult | null> {
  if (!looksLikeApiKey(token)) return null;
  const row = await db
    .prepare(
      `SELECT k.id, k.org_id, k.user_id, k.scopes, m.role, COALESCE(o.import_heartbeat_at, o.importing_since) AS importing_since, o.erasing_since
         FROM api_keys k JOIN memberships m ON m.org_id = k.org_id AND m.user_id = k.user_id JOIN orgs o ON o.id = k.org_id
        WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    )
    .bind(await hashApiKey(token))
    .first<ApiKeyRow>();
  if (!row) return null;
  const allowed = scopesAllowedForRole(row.role);
  const stored = JSON.parse(row.scopes) as string[];
  const props: ApiKeyProps = {
    kind: "api_key",
    apiKeyId: row.id,
    userId: row.user_id,
    orgId: row.org_id,
    role: row.role,
    scopes: stored.filter(isScope).filter((scope) => allowed.includes(scope)),
    orgMarks: { importingSince: row.importing_since, erasingSince: row.erasing_since },
  };
  return { props, audience: resource };
}

const TOUCH_INTERVAL_MS = 60_000;
const lastTouched = new Map<string, number>();

/**
 * Records that a key was used, at most once a minute per key: this isolate
 * remembers its own last write, and the SQL condition covers the others, so a
 * busy key costs one small write a minute rather than one per request.
 */
export async function touchApiKey(db: D1Database, apiKeyId: string, now: number): Promise<void> {
  if (now - (lastTouched.get(apiKeyId) ?? 0) < TOUCH_INTERVAL_MS) return;
  lastTouched.set(apiKeyId, now);
  if (lastTouched.size > 10_000) lastTouched.clear();
  await db
    .prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)")
    .bind(now, apiKeyId, now - TOUCH_INTERVAL_MS)
    .run();
}
