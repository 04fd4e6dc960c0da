import { describe, expect, it } from "vitest";
import { CHECK_FAILURE_REASONS, groupBy, isLastAttempt, PENDING_SWEEP, retryDelayMs, SOURCE_CHECK_CONCURRENCY, sweepAction, sweepAfterMs } from "./check-scheduling";
import { SOURCE_CHECK_LIMITS } from "./verification";

describe("source-check scheduling", () => {
  it("groups by key in order of first appearance", () => {
    expect(groupBy(["a1", "b1", "a2", "c1", "b2"], (s) => s[0] ?? "")).toEqual([["a1", "a2"], ["b1", "b2"], ["c1"]]);
  });

  it("the last attempt is the queue's last: max_retries 3 gives 4", () => {
    expect(SOURCE_CHECK_CONCURRENCY.maxAttempts).toBe(4);
    expect([1, 2, 3, 4, 5].map(isLastAttempt)).toEqual([false, false, false, true, true]);
  });

  it("the sweep sends a check again once, then gives up; it looks early enough for the next run to come within the bound", () => {
    expect(sweepAction({ requeuedAt: null })).toBe("requeue");
    expect(sweepAction({ requeuedAt: 1 })).toBe("give_up");
    expect(SOURCE_CHECK_LIMITS.pendingMaxMs).toBeLessThanOrEqual(15 * 60_000);
    // Found before sweepAfterMs + everyMs, sent again, given up one period later: all within the bound.
    expect(sweepAfterMs() + 2 * PENDING_SWEEP.everyMs).toBe(SOURCE_CHECK_LIMITS.pendingMaxMs);
    expect(sweepAfterMs()).toBeGreaterThan(0);
    expect(CHECK_FAILURE_REASONS.noVerdict()).toBe("not checked: no verdict within 15 minutes");
  });

  it("a failed check waits twice as long before each next attempt, all of them well within the pending bound", () => {
    expect([1, 2, 3].map((attempt) => retryDelayMs(attempt, 5_000))).toEqual([5_000, 10_000, 20_000]);
    expect(retryDelayMs(1, 0)).toBe(0);
    const waits = [1, 2, 3].reduce((sum, attempt) => sum + retryDelayMs(attempt), 0);
    expect(waits + SOURCE_CHECK_CONCURRENCY.maxAttempts * SOURCE_CHECK_LIMITS.timeoutMs).toBeLessThan(sweepAfterMs());
  });

  it("a run of an org's checker starts checks for a while, then hands over well within an alarm's 15 minutes", () => {
    // The last checks started finish within the fetch's deadline (and their writes) after the budget.
    expect(SOURCE_CHECK_CONCURRENCY.runBudgetMs + 4 * SOURCE_CHECK_LIMITS.timeoutMs).toBeLessThan(SOURCE_CHECK_CONCURRENCY.runBackstopMs);
    expect(SOURCE_CHECK_CONCURRENCY.runBackstopMs).toBeLessThan(15 * 60_000);
  });
});
