import type { SsoLimitCounter } from "../../domain/auth/sso/sign-in-limits";
import type { Env } from "../../env";

export type SsoLimitRefusal = { bound: SsoLimitCounter["bound"]; retryAfterSeconds: number };

/**
 * Counts one request against its counter (the policy, and why a Rate Limiting binding counts it:
 * src/domain/auth/sso/sign-in-limits.ts). Null when it is within the bound; the refusal (which bound, and how
 * long to wait) when it is past it.
 */
export async function ssoLimitRefusal(env: Env, counter: SsoLimitCounter): Promise<SsoLimitRefusal | null> {
  const limiter = counter.bound === "address" ? env.SSO_ADDRESS_RATE_LIMITER : env.SSO_ORG_RATE_LIMITER;
  const { success } = await limiter.limit({ key: counter.key });
  return success ? null : { bound: counter.bound, retryAfterSeconds: counter.retryAfterSeconds };
}
