import { looksLikeApiKey } from "./api-keys";

// The provider's own reading of the header: one bearer token, nothing after it.
const BEARER = /^Bearer[\t ]+([^\s,]+)$/i;

/** The bearer token a request carries, as the OAuth provider reads it; null without one. */
export const bearerTokenOf = (request: Request): string | null => BEARER.exec(request.headers.get("Authorization") ?? "")?.[1] ?? null;

/**
 * An API key is an org's credential, not an OAuth token issued for one resource: it is good on every origin the
 * deployment serves (localhost and 127.0.0.1 in development; a custom domain and workers.dev in production). The
 * provider checks a credential's audience against the request's URL, so a request carrying an API key is handed
 * to it addressed to the configured origin; its Host header, which the MCP face checks, is left as it came. A
 * request carrying an OAuth token is handed over unchanged: the token stays bound to the resource it was issued for.
 */
export function addressedForApiKey(request: Request, origin: string): Request {
  const token = bearerTokenOf(request);
  const url = new URL(request.url);
  if (!token || !looksLikeApiKey(token) || url.origin === origin) return request;
  return new Request(`${origin}${url.pathname}${url.search}`, request);
}
