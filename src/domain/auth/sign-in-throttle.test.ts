import { describe, expect, it } from "vitest";
import { ACCOUNT_THROTTLE, afterFailure, afterSuccess, INITIAL_THROTTLE_STATE, lockRemainingMs, retryAfterSeconds, type ThrottleState } from "./sign-in-throttle";

const failTimes = (count: number, at: number, state: ThrottleState = INITIAL_THROTTLE_STATE) => {
  let next = state;
  for (let i = 0; i < count; i++) next = afterFailure(next, ACCOUNT_THROTTLE, at);
  return next;
};

describe("sign-in throttle policy", () => {
  it("lets the free failures through, then locks for a window that doubles up to the cap", () => {
    const free = failTimes(ACCOUNT_THROTTLE.freeFailures, 0);
    expect(lockRemainingMs(free, ACCOUNT_THROTTLE, 0)).toBe(0);
    const first = afterFailure(free, ACCOUNT_THROTTLE, 0);
    expect(lockRemainingMs(first, ACCOUNT_THROTTLE, 0)).toBe(30_000);
    expect(lockRemainingMs(afterFailure(first, ACCOUNT_THROTTLE, 0), ACCOUNT_THROTTLE, 0)).toBe(60_000);
    expect(lockRemainingMs(failTimes(40, 0), ACCOUNT_THROTTLE, 0)).toBe(ACCOUNT_THROTTLE.maxLockMs);
  });

  it("unlocks when the window has passed, but the next failure locks again, longer", () => {
    const locked = failTimes(ACCOUNT_THROTTLE.freeFailures + 1, 0);
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
