import type { OAuthResourceContext } from "@cloudflare/workers-oauth-provider";
import { MEMBERSHIP_CACHE_ENTRIES, MEMBERSHIP_CACHE_MS, requestLimitKey } from "../domain/auth/request-limits";
import type { CairnError } from "../domain/errors";
import { orgBeingErased, type OrgMarks } from "../domain/org-data/write-gate";
import type { Principal } from "../domain/principal";
import { type Role, scopesAllowedForRole } from "../domain/scopes";
import type { Env } from "../env";
import { membershipIn } from "../storage/accounts";
import { principalFrom } from "./credentials";
import { forgetVerifiedMember, forgetVerifiedOrg, rememberVerifiedCaller, wasRestored } from "./verified-callers";

export type Admission =
  | { ok: true; principal: Principal }
  | { ok: false; reason: "unauthorized" }
  | { ok: false; reason: "rate_limited" }
  /** The caller's org is being erased: nothing is served from it any more (the faces answer org_erasing). */
  | { ok: false; reason: "org_erasing"; error: CairnError };

interface CachedRole {
  role: Role | null;
  /** The org's import and erasure marks, read in the same statement: the write gate costs no read of its own. */
  marks: OrgMarks | null;
  readAt: number;
}

/** Memberships read for OAuth tokens in this isolate, oldest first (Map keeps insertion order). */
const memberships = new Map<string, CachedRole>();
const membershipKey = (orgId: string, userId: string) => `${orgId}:${userId}`;

/** Drops what this isolate remembers of a membership: called when it is removed or its role changes. */
export function forgetMembership(orgId: string, userId: string): void {
  memberships.delete(membershipKey(orgId, userId));
  forgetVerifiedMember(orgId, userId);
}

/** An org erased: nothing this isolate remembers of its members or their tokens is trusted again. */
export function forgetOrg(orgId: string): void {
  forgetOrgMarks(orgId);
  forgetVerifiedOrg(orgId);
}

/**
 * An org's import or erasure mark set or cleared: this isolate reads its members' memberships (and with them
 * the marks) again at once; other isolates within MEMBERSHIP_CACHE_MS.
 */
export function forgetOrgMarks(orgId: string): void {
  for (const key of memberships.keys()) if (key.startsWith(`${orgId}:`)) memberships.delete(key);
}

async function currentMembership(db: D1Database, orgId: string, userId: string, now: number): Promise<CachedRole> {
  const key = membershipKey(orgId, userId);
  const cached = memberships.get(key);
  if (cached && now - cached.readAt < MEMBERSHIP_CACHE_MS) return cached;
  const membership = await membershipIn(db, orgId, userId);
  return rememberRole(orgId, userId, membership?.role ?? null, membership?.marks ?? null, now);
}

/** A membership just read (directly, or joined when an API key resolved), trusted for MEMBERSHIP_CACHE_MS. */
function rememberRole(orgId: string, userId: string, role: Role | null, marks: OrgMarks | null, now: number): CachedRole {
  const key = membershipKey(orgId, userId);
  const entry = { role, marks, readAt: now };
  memberships.delete(key);
  memberships.set(key, entry);
  if (memberships.size > MEMBERSHIP_CACHE_ENTRIES) {
    const oldest = memberships.keys().next().value;
    if (oldest !== undefined) memberships.delete(oldest);
  }
  return entry;
}

/**
 * The caller of /mcp or /api/v1, once the provider has verified the token:
 * for an OAuth token the membership is read again (a removed member is out, a
 * changed role applies, without waiting for the token to expire; API keys
 * join the membership when they resolve), then the credential's request
 * budget is taken. Both faces admit through here. From the start of an org's
 * erasure its callers are refused in every isolate within the membership
 * bound (the marks come with the membership), whatever credential they hold;
 * only the erasure itself is let through (`forErasure`), so a stopped one can
 * be run again.
 */
export async function admitCaller(
  env: Env,
  ctx: OAuthResourceContext<unknown>,
  /** `requestOrigin`: the origin the request arrived on, which the provider checked the credential against. */
  options: { requestOrigin: string; forErasure?: boolean },
): Promise<Admission> {
  const fromToken = principalFrom(ctx);
  if (!fromToken) return { ok: false, reason: "unauthorized" };
  let principal = fromToken;
  // A caller restored from this isolate's memory of verified tokens skipped the provider's
  // check; API keys among them skipped the membership join too, so it is read here for them as well.
  const restored = wasRestored(ctx);
  if (!restored) {
    await rememberVerifiedCaller(options.requestOrigin, ctx);
    // An API key resolved just now with its membership joined: that is a fresh read of it.
    if (fromToken.apiKeyId) rememberRole(fromToken.orgId, fromToken.userId, fromToken.role, fromToken.orgMarks ?? null, Date.now());
  }
  if (!fromToken.apiKeyId || restored) {
    const { role, marks } = await currentMembership(env.DB, fromToken.orgId, fromToken.userId, Date.now());
    if (!role) return { ok: false, reason: "unauthorized" };
    const allowed = scopesAllowedForRole(role);
    principal = { ...fromToken, role, scopes: fromToken.scopes.filter((scope) => allowed.includes(scope)), ...(marks ? { orgMarks: marks } : {}) };
  }
  const erasingSince = principal.orgMarks?.erasingSince ?? null;
  if (erasingSince !== null && !options.forErasure) return { ok: false, reason: "org_erasing", error: orgBeingErased(erasingSince) };
  // A deployment without the binding has chosen no per-credential limit.
  if (env.API_RATE_LIMITER) {
    const { success } = await env.API_RATE_LIMITER.limit({ key: requestLimitKey(principal) });
    if (!success) return { ok: false, reason: "rate_limited" };
  }
  return { ok: true, principal };
}
