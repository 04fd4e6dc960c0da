/**
 * Bounds on single sign-on's public routes, which anyone may call without a session: starting a sign-in
 * (`GET /dashboard/sign-in/sso?email=…` writes a pending record and sends the browser to the org's provider) and
 * the provider's callback (reads that record and exchanges a code at the provider). Without a bound a caller
 * looping on them makes Cairn write and fetch at the caller's rate.
 *
 * What is counted, and in what order:
 * - every start, per client address, before anything is looked up (an unknown domain counts too);
 * - then, once the address is within its bound and the domain's org is known, every start per org: a refused
 *   address spends none of its org's budget, so one address takes at most its own bound of the org's;
 * - every callback, per client address, before the pending record is read. A callback's code exchange needs a
 *   pending record, which only a counted start writes, so the org's budget bounds those already.
 *
 * Counted by Cloudflare's Rate Limiting binding (the adapter, src/auth/sso/sign-in-limits.ts), not by an exact
 * counter like the password throttle's (src/domain/auth/sign-in-throttle.ts): this bound is on volume, not on
 * guesses, and an exact counter is a storage write per request, at the caller's rate, which is what the bound is
 * for. The window is named in each key, so a refused caller is told when its window ends (Retry-After) rather than
 * the whole period, and every count of a window is that window's alone. Pure: the adapter asks it.
 */

/** The window, in seconds: the `period` of SSO_ADDRESS_RATE_LIMITER and SSO_ORG_RATE_LIMITER in wrangler.toml. */
export const SSO_LIMIT_WINDOW_SECONDS = 60;

export type SsoLimitStep = "start" | "callback";

export interface SsoLimitCounter {
  /** Which binding counts it: per client address, or per org. */
  bound: "address" | "org";
  key: string;
  /** Whole seconds (at least 1) until the window this key counts ends: the refused caller's Retry-After. */
  retryAfterSeconds: number;
}

/** The window `now` falls in: its number (named in the keys) and the whole seconds until it ends. */
export function ssoLimitWindow(now: number): { index: number; retryAfterSeconds: number } {
  const windowMs = SSO_LIMIT_WINDOW_SECONDS * 1000;
  const index = Math.floor(now / windowMs);
  return { index, retryAfterSeconds: Math.max(1, Math.ceil(((index + 1) * windowMs - now) / 1000)) };
}

/** The per-address counter of a step: starts and callbacks each have their own budget. */
export function ssoAddressCounter(step: SsoLimitStep, address: string, now: number): SsoLimitCounter {
  const { index, retryAfterSeconds } = ssoLimitWindow(now);
  return { bound: "address", key: `sso-${step}:${address.slice(0, 64)}:${index}`, retryAfterSeconds };
}

/** The per-org counter of started sign-ins, asked only after the address's. */
export function ssoOrgCounter(orgId: string, now: number): SsoLimitCounter {
  const { index, retryAfterSeconds } = ssoLimitWindow(now);
  return { bound: "org", key: `sso-org:${orgId}:${index}`, retryAfterSeconds };
}
