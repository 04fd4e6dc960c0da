import { orgsOpenedBy } from "../../domain/auth/sso/sign-in-orgs";
import type { OrgMarks } from "../../domain/org-data/write-gate";
import type { Role } from "../../domain/scopes";
import type { Env } from "../../env";
import { type MembershipRecord, membershipsOf } from "../../storage/accounts";

/**
 * Dashboard sessions: a random token in an HttpOnly cookie, its SHA-256 the key
 * of the record in KV (so a leaked KV listing reveals no usable token). The org
 * and role are re-read from D1 on every request, so a removed member or a
 * demoted admin loses access at once, not when the session ends.
 */
export const SESSION_TTL_SECONDS = 8 * 60 * 60;
const LOGIN_CSRF_TTL_SECONDS = 600;
const sessionKey = (hash: string) => `cairn:dash:session:${hash}`;

export interface SessionRecord {
  userId: string;
  email: string;
  displayName: string;
  /** The org the person is looking at; one of their memberships. */
  orgId: string;
  /** Synchronizer token every form of this session carries. */
  csrf: string;
  createdAt: number;
  expiresAt: number;
  /** Signed in through this org's provider: the session opens this org only. Absent: a password sign-in. */
  ssoOrgId?: string;
}

/** A verified session with the current membership it acts under. */
export interface DashboardSession extends SessionRecord {
  orgName: string;
  role: Role;
  /** The org's import and erasure marks, read with the membership (the write gate). */
  orgMarks: OrgMarks;
  memberships: MembershipRecord[];
  /** KV key hash of the cookie's token, for sign-out and org switching. */
  keyHash: string;
}

/**
 * `__Host-` cookies must be Secure, and a browser drops a Secure cookie set over
 * plain http on anything but a loopback host. So: `__Host-` + Secure whenever the
 * deployment is https (or not loopback), plain names only on http://localhost.
 */
export function cookieSecurity(publicUrl: string): { secure: boolean; session: string; login: string } {
  const url = new URL(publicUrl);
  const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  const secure = url.protocol === "https:" || !loopback;
  return secure
    ? { secure, session: "__Host-cairn-dash", login: "__Host-cairn-dash-login" }
    : { secure, session: "cairn-dash", login: "cairn-dash-login" };
}

export function cookieHeader(publicUrl: string, name: string, value: string, maxAge: number): string {
  const { secure } = cookieSecurity(publicUrl);
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

export function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

export function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

export function randomToken(bytes = 32): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Starts a session; returns the Set-Cookie value. */
export async function createSession(env: Env, user: { userId: string; email: string; displayName: string; ssoOrgId?: string }, orgId: string, now: number): Promise<string> {
  const token = randomToken();
  const record: SessionRecord = { ...user, orgId, csrf: randomToken(24), createdAt: now, expiresAt: now + SESSION_TTL_SECONDS * 1000 };
  await env.OAUTH_KV.put(sessionKey(await sha256Hex(token)), JSON.stringify(record), { expirationTtl: SESSION_TTL_SECONDS });
  return cookieHeader(env.PUBLIC_URL, cookieSecurity(env.PUBLIC_URL).session, token, SESSION_TTL_SECONDS);
}

/** The verified session of this request, or null (no cookie, unknown, expired, or no longer a member of its org). */
export async function loadSession(env: Env, request: Request, now: number): Promise<DashboardSession | null> {
  const token = readCookie(request, cookieSecurity(env.PUBLIC_URL).session);
  if (!token || token.length > 100) return null;
  const keyHash = await sha256Hex(token);
  const raw = await env.OAUTH_KV.get(sessionKey(keyHash));
  if (!raw) return null;
  const record = JSON.parse(raw) as SessionRecord;
  // KV expiry is eventually consistent; the record's own deadline is exact.
  if (record.expiresAt <= now) return null;
  // Re-read each time: an org that starts requiring single sign-on ends its members' password sessions at once.
  const memberships = orgsOpenedBy(await membershipsOf(env.DB, record.userId), record.ssoOrgId ? { kind: "sso", orgId: record.ssoOrgId } : { kind: "password" });
  const current = memberships.find((m) => m.orgId === record.orgId);
  if (!current) return null;
  return { ...record, orgName: current.orgName, role: current.role, orgMarks: current.marks, memberships, keyHash };
}

export async function switchOrg(env: Env, session: DashboardSession, orgId: string): Promise<boolean> {
  if (!session.memberships.some((m) => m.orgId === orgId)) return false;
  const { orgName: _n, role: _r, orgMarks: _o, memberships: _m, keyHash, ...record } = session;
  const ttl = Math.max(60, Math.floor((record.expiresAt - Date.now()) / 1000));
  await env.OAUTH_KV.put(sessionKey(keyHash), JSON.stringify({ ...record, orgId }), { expirationTtl: ttl });
  return true;
}

export async function endSession(env: Env, session: DashboardSession): Promise<string> {
  await env.OAUTH_KV.delete(sessionKey(session.keyHash));
  return cookieHeader(env.PUBLIC_URL, cookieSecurity(env.PUBLIC_URL).session, "", 0);
}

/** The sign-in form has no session yet: a double-submit cookie protects it. */
export function loginCsrfCookie(env: Env, token: string, maxAge = LOGIN_CSRF_TTL_SECONDS): string {
  return cookieHeader(env.PUBLIC_URL, cookieSecurity(env.PUBLIC_URL).login, token, maxAge);
}

export function loginCsrfValid(env: Env, request: Request, field: string): boolean {
  const cookie = readCookie(request, cookieSecurity(env.PUBLIC_URL).login);
  return Boolean(cookie && field && sameString(cookie, field));
}

/** A form of a signed-in page: its token must be this session's. */
export const formCsrfValid = (session: SessionRecord, field: unknown) => typeof field === "string" && field !== "" && sameString(field, session.csrf);
