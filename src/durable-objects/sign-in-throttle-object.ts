import { DurableObject } from "cloudflare:workers";
import {
  ACCOUNT_THROTTLE,
  ADDRESS_THROTTLE,
  afterFailure,
  afterSuccess,
  INITIAL_THROTTLE_STATE,
  lockRemainingMs,
  type ThrottlePolicy,
  type ThrottleState,
} from "../domain/auth/sign-in-throttle";
import type { Env } from "../env";

export type ThrottleKind = "account" | "address";

const POLICIES: Record<ThrottleKind, ThrottlePolicy> = { account: ACCOUNT_THROTTLE, address: ADDRESS_THROTTLE };
const STATE_KEY = "state";

/**
 * One sign-in counter (named "account:<hash of the e-mail>" or
 * "address:<client address>"), exact and serialized: a Durable Object, since
 * a sliding lockout needs precise counts that KV or the Rate Limiting binding
 * (approximate, per location) cannot give. The policy is
 * domain/auth/sign-in-throttle.ts; this only stores its state.
 */
export class SignInThrottleObject extends DurableObject<Env> {
  /** Milliseconds until an attempt is allowed; 0 when it is allowed now. */
  lockRemaining(kind: ThrottleKind, now: number): number {
    return lockRemainingMs(this.#state(), POLICIES[kind], now);
  }

  /** Counts a failed attempt; answers the lock it now carries (0 when none). */
  async recordFailure(kind: ThrottleKind, now: number): Promise<number> {
    const policy = POLICIES[kind];
    const next = afterFailure(this.#state(), policy, now);
    this.ctx.storage.kv.put(STATE_KEY, next);
    await this.ctx.storage.setAlarm(now + policy.forgetAfterMs);
    return lockRemainingMs(next, policy, now);
  }

  async recordSuccess(): Promise<void> {
    this.ctx.storage.kv.put(STATE_KEY, afterSuccess());
  }

  /** A day without failures: nothing left to remember. */
  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }

  #state(): ThrottleState {
    return this.ctx.storage.kv.get<ThrottleState>(STATE_KEY) ?? INITIAL_THROTTLE_STATE;
  }
}
