import { describe, expect, it } from "vitest";
import { ACCOUNT_THROTTLE, ADDRESS_THROTTLE, afterFailure, afterSuccess, INITIAL_THROTTLE_STATE, lockRemainingMs, retryAfterSeconds, type ThrottleState } from "./sign-in-throttle";

const failTimes = (count: number, at: number, state: ThrottleState = INITIAL_THROTTLE_STATE) => {
  let next = state;
  for (let i = 0; i < count; i++) next = afterFailure(next, ACCOUNT_THROTTLE, at);
  return next;
};

describe("sign-in throttle policy", () => {
  // The README promises these numbers: "after 5 wrong passwords for an account, or 20 from one address".
  it.each([
    { name: "an account", policy: ACCOUNT_THROTTLE, lockAt: 5 },
    { name: "a client address", policy: ADDRESS_THROTTLE, lockAt: 20 },
  ])("locks $name at exactly failure $lockAt, not one later", ({ policy, lockAt }) => {
    let state = INITIAL_THROTTLE_STATE;
    for (let i = 1; i < lockAt; i++) {
      state = afterFailure(state, policy, 0);
      expect(lockRemainingMs(state, policy, 0), `after failure ${i}`).toBe(0);
    }
    state = afterFailure(state, policy, 0);
    expect(lockRemainingMs(state, policy, 0), `after failure ${lockAt}`).toBe(policy.baseLockMs);
  });

  it("locks for a window that doubles with each further failure, up to the cap", () => {
    const first = failTimes(ACCOUNT_THROTTLE.lockAfterFailures, 0);
    expect(lockRemainingMs(first, ACCOUNT_THROTTLE, 0)).toBe(30_000);
    expect(lockRemainingMs(afterFailure(first, ACCOUNT_THROTTLE, 0), ACCOUNT_THROTTLE, 0)).toBe(60_000);
    expect(lockRemainingMs(failTimes(40, 0), ACCOUNT_THROTTLE, 0)).toBe(ACCOUNT_THROTTLE.maxLockMs);
  });

  it("unlocks when the window has passed, but the next failure locks again, longer", () => {
    const locked = failTimes(ACCOUNT_THROTTLE.lockAfterFailures, 0);
    expect(lockRemainingMs(locked, ACCOUNT_THROTTLE, 30_000)).toBe(0);
    const again = afterFailure(locked, ACCOUNT_THROTTLE, 30_000);
    expect(lockRemainingMs(again, ACCOUNT_THROTTLE, 30_000)).toBe(60_000);
  });

  it("forgets after a quiet period, and resets on success", () => {
    const locked = failTimes(20, 0);
    expect(lockRemainingMs(afterFailure(locked, ACCOUNT_THROTTLE, ACCOUNT_THROTTLE.forgetAfterMs), ACCOUNT_THROTTLE, ACCOUNT_THROTTLE.forgetAfterMs)).toBe(0);
    expect(afterSuccess()).toEqual(INITIAL_THROTTLE_STATE);
  });

  it("rounds Retry-After up to whole seconds, at least one", () => {
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(30_000)).toBe(30);
    expect(retryAfterSeconds(30_001)).toBe(31);
  });
});
