/**
 * Anti-automation for password sign-in, as a pure policy over one counter
 * (an account, or a client address). The failure that reaches the policy's
 * count locks the counter; each further failure locks it for a window that
 * doubles, up to a cap. During a
 * lock every attempt is refused before the password is even checked, so a
 * correct guess cannot be confirmed. Counters forget after a quiet day.
 */
export interface ThrottlePolicy {
  /** The failure that starts the first lock: this many wrong passwords, and the next attempt is refused. */
  lockAfterFailures: number;
  /** The first lock; each further failure doubles it. */
  baseLockMs: number;
  maxLockMs: number;
  /** A counter with no failure for this long starts again from zero. */
  forgetAfterMs: number;
}

/** Per account (normalized e-mail): a person mistyping gets five tries, a guesser 30 s, 1 min, 2 min, … 15 min. */
export const ACCOUNT_THROTTLE: ThrottlePolicy = { lockAfterFailures: 5, baseLockMs: 30_000, maxLockMs: 15 * 60_000, forgetAfterMs: 24 * 3_600_000 };

/** Per client address: many people may share one (an office), so more failures are free across all its accounts. */
export const ADDRESS_THROTTLE: ThrottlePolicy = { lockAfterFailures: 20, baseLockMs: 30_000, maxLockMs: 15 * 60_000, forgetAfterMs: 24 * 3_600_000 };

export interface ThrottleState {
  failures: number;
  lastFailureAt: number | null;
  lockedUntil: number | null;
}

export const INITIAL_THROTTLE_STATE: ThrottleState = { failures: 0, lastFailureAt: null, lockedUntil: null };

/** The state as it stands at `now`: forgotten after a quiet period. */
function current(state: ThrottleState, policy: ThrottlePolicy, now: number): ThrottleState {
  return state.lastFailureAt !== null && now - state.lastFailureAt >= policy.forgetAfterMs ? INITIAL_THROTTLE_STATE : state;
}

/** Milliseconds until an attempt is allowed again; 0 when it is allowed now. */
export function lockRemainingMs(state: ThrottleState, policy: ThrottlePolicy, now: number): number {
  const { lockedUntil } = current(state, policy, now);
  return lockedUntil !== null && lockedUntil > now ? lockedUntil - now : 0;
}

export function afterFailure(state: ThrottleState, policy: ThrottlePolicy, now: number): ThrottleState {
  const failures = current(state, policy, now).failures + 1;
  // 0 for the failure that reaches the count (the first lock), 1 for the next (twice as long), …
  const beyond = failures - policy.lockAfterFailures;
  const lockedUntil = beyond >= 0 ? now + Math.min(policy.maxLockMs, policy.baseLockMs * 2 ** Math.min(beyond, 30)) : null;
  return { failures, lastFailureAt: now, lockedUntil };
}

export const afterSuccess = (): ThrottleState => INITIAL_THROTTLE_STATE;

/** `Retry-After` in whole seconds (at least 1) for a remaining lock. */
export const retryAfterSeconds = (remainingMs: number): number => Math.max(1, Math.ceil(remainingMs / 1000));
