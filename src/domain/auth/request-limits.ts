import type { Principal } from "../principal";

/**
 * Per-credential request limits on /mcp and /api/v1: each API key, and each
 * OAuth client acting for a user, has its own budget (the Rate Limiting
 * binding's `limit` per `period`, set per deployment in wrangler.toml). One
 * noisy integration cannot starve the org's other callers.
 */
export function requestLimitKey(principal: Principal): string {
  if (principal.apiKeyId) return `key:${principal.apiKeyId}`;
  return `oauth:${principal.clientId ?? "unknown"}:${principal.userId}`;
}

/**
 * How long a refused caller waits: the binding does not say when its window
 * ends, so the whole period is the honest upper bound.
 */
export const REQUEST_LIMIT_RETRY_AFTER_SECONDS = 60;

/**
 * How long this isolate may trust a membership it read for an OAuth token.
 * A removal or role change made through Cairn takes effect at once in the
 * isolate that made it (the entry is dropped) and within this bound in every
 * other isolate; the removed member's grants are revoked as well.
 */
export const MEMBERSHIP_CACHE_MS = 5_000;
export const MEMBERSHIP_CACHE_ENTRIES = 10_000;
