import type { Env } from "../env";

const NO_STORE = { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache" };

/**
 * `grant_type=refresh_token` at the token endpoint, sent through the grant's
 * guard (GrantGuardObject), which serializes refreshes of one grant and
 * detects reuse. Null for every other token request: the provider answers
 * those itself, as it does a refresh token too malformed to name a grant.
 */
export async function guardedRefresh(request: Request, env: Env, origin: string): Promise<Response | null> {
  if (request.method !== "POST" || !(request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) return null;
  const form = await request.clone().text();
  const params = new URLSearchParams(form);
  if (params.get("grant_type") !== "refresh_token") return null;
  const parts = (params.get("refresh_token") ?? "").split(":");
  if (parts.length !== 3 || !parts[0] || !parts[1]) return null;
  const guard = env.GRANT_GUARD.getByName(`${parts[0]}:${parts[1]}`);
  const answer = await guard.refresh(form, request.headers.get("authorization"), origin);
  const headers = new Headers(NO_STORE);
  // As the provider answers its token endpoint: browser clients may call it from any origin (no ambient credentials).
  const callerOrigin = request.headers.get("origin");
  if (callerOrigin) {
    headers.set("access-control-allow-origin", callerOrigin);
    headers.set("access-control-allow-methods", "*");
    headers.set("access-control-allow-headers", "Authorization, *");
    headers.set("access-control-expose-headers", "WWW-Authenticate, Retry-After");
    headers.set("vary", "Origin");
  }
  return new Response(answer.body, { status: answer.status, headers });
}
