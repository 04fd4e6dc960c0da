import type { OAuthResourceContext } from "@cloudflare/workers-oauth-provider";
import { trustedUntil, VerifiedTokens } from "../domain/auth/verified-tokens";
import type { Env } from "../env";
import { bearerTokenOf } from "./api-key-origin";
import { looksLikeApiKey } from "./api-keys";

/**
 * The isolate's memory of bearer tokens the OAuth provider has verified (OAuth
 * access tokens and API keys alike): a request carrying one of them again
 * within 30 s reaches /mcp or /api/v1 without the provider's storage read and
 * decryption (policy: domain/auth/verified-tokens.ts). What the provider
 * established (props, auth) is restored as it was; the membership is still
 * re-read within its 5 s bound for every caller served from here.
 */

type Verified = { props: unknown; auth: OAuthResourceContext<unknown>["auth"] };

const verified = new VerifiedTokens<Verified>();
/** Contexts restored from memory, so admission neither stores them again (that would extend the window) nor skips the membership. */
const restored = new WeakSet<object>();

/**
 * An OAuth token is remembered for the origin the request arrived on (the one the provider checked its audience
 * against), so a token verified on one origin is never let through on another. An API key is good on every origin
 * the deployment serves (api-key-origin.ts): it is remembered once for all of them.
 */
async function keyOf(origin: string, token: string): Promise<string> {
  const scope = looksLikeApiKey(token) ? "api-key" : origin;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${scope} ${token}`));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Which protected face a path belongs to, as the provider routes it; null for everything else. */
export function protectedFaceOf(pathname: string): "mcp" | "rest" | null {
  if (pathname === "/mcp" || pathname.startsWith("/mcp/")) return "mcp";
  if (pathname.startsWith("/api/v1/")) return "rest";
  return null;
}

/**
 * Restores a remembered caller into `ctx` and says so. Only for what the provider would
 * otherwise verify and hand over unchanged: not preflights, not browser requests (the
 * provider adds their CORS headers), and only once the provider has set up this env.
 */
export async function restoreVerifiedCaller(request: Request, env: Env, ctx: ExecutionContext, now = Date.now()): Promise<boolean> {
  if (request.method === "OPTIONS" || request.headers.has("Origin") || !env.OAUTH_PROVIDER) return false;
  const token = bearerTokenOf(request);
  if (!token) return false;
  const hit = verified.get(await keyOf(new URL(request.url).origin, token), now);
  if (!hit) return false;
  // The provider sets these two on the context itself; here they are set to what it set then.
  const target = ctx as unknown as { props: unknown; auth: Verified["auth"] };
  target.props = hit.props;
  target.auth = hit.auth;
  restored.add(ctx);
  return true;
}

export const wasRestored = (ctx: object): boolean => restored.has(ctx);

/** Remembers a caller the provider has just verified on `origin`, the request's (never one restored from memory). */
export async function rememberVerifiedCaller(origin: string, ctx: OAuthResourceContext<unknown>, now = Date.now()): Promise<void> {
  if (restored.has(ctx) || !ctx.auth?.token) return;
  const props = ctx.props as { userId?: unknown; orgId?: unknown; apiKeyId?: unknown } | undefined;
  if (typeof props?.userId !== "string" || typeof props.orgId !== "string") return;
  const [, grantId] = ctx.auth.token.split(":");
  verified.set(
    await keyOf(origin, ctx.auth.token),
    {
      value: { props: ctx.props, auth: ctx.auth },
      until: trustedUntil(now, ctx.auth.expiresAt),
      userId: props.userId,
      orgId: props.orgId,
      apiKeyId: typeof props.apiKeyId === "string" ? props.apiKeyId : null,
      grantId: grantId ?? null,
    },
    now,
  );
}

/** A member removed or their role changed: their tokens in that org are verified again. */
export const forgetVerifiedMember = (orgId: string, userId: string) => verified.forget((entry) => entry.orgId === orgId && entry.userId === userId);
/** An org erased: every token of it is verified again (and refused). */
export const forgetVerifiedOrg = (orgId: string) => verified.forget((entry) => entry.orgId === orgId);
/** An API key revoked: it is refused here at once. */
export const forgetVerifiedApiKey = (apiKeyId: string) => verified.forget((entry) => entry.apiKeyId === apiKeyId);
/** A grant revoked (refresh-token reuse): its access tokens are refused here at once. */
export const forgetVerifiedGrant = (userId: string, grantId: string) => verified.forget((entry) => entry.userId === userId && entry.grantId === grantId);
