import { describe, expect, it } from "vitest";
import { erasureBegun, heartbeatDue, IMPORT_HEARTBEAT_MS, IMPORT_LOCK_STALE_MS, importHolds, importRunning } from "./import-lock";
import { MEMBERSHIP_CACHE_MS } from "../auth/request-limits";

describe("the org import lock", () => {
  const now = Date.UTC(2026, 10, 25, 12);

  it("holds while its heartbeat is under a minute old, and not at all when no import began", () => {
    expect(importHolds(null, now)).toBe(false);
    expect(importHolds(now, now)).toBe(true);
    expect(importHolds(now - 30_000, now)).toBe(true);
    expect(importHolds(now - IMPORT_LOCK_STALE_MS, now)).toBe(true);
    expect(importHolds(now - IMPORT_LOCK_STALE_MS - 1, now)).toBe(false);
    // A dead import's lock lapses in a minute, not an hour.
    expect(importHolds(now - 10 * 60_000, now)).toBe(false);
  });

  it("beats often enough that a live import, seen through an isolate's cached marks, is never taken for dead", () => {
    expect(heartbeatDue(now, now)).toBe(false);
    expect(heartbeatDue(now - IMPORT_HEARTBEAT_MS + 1, now)).toBe(false);
    expect(heartbeatDue(now - IMPORT_HEARTBEAT_MS, now)).toBe(true);
    // The oldest a live import's beat can look: a beat just missed, read into a cache that is about to lapse.
    const oldestLiveBeat = now - IMPORT_HEARTBEAT_MS - MEMBERSHIP_CACHE_MS;
    expect(importHolds(oldestLiveBeat, now)).toBe(true);
    expect(IMPORT_HEARTBEAT_MS + MEMBERSHIP_CACHE_MS).toBeLessThan(IMPORT_LOCK_STALE_MS / 2);
  });

  it("refuses with import_in_progress (409) that says when the import began and when to retry", () => {
    const error = importRunning(now - 60_000, "Another import into this organization is running");
    expect(error.code).toBe("import_in_progress");
    expect(error.message).toContain("Another import into this organization is running (started 2026-11-25T11:59:00.000Z)");
    expect(error.details.retryAfterSeconds).toBe(30);
    expect(importRunning(now - 60_000, "Writes wait", "last active").message).toContain("Writes wait (last active 2026-11-25T11:59:00.000Z)");
  });

  it("refuses an import into an org being erased for good (org_erasing), with how to finish the erasure, and no retry hint", () => {
    const error = erasureBegun(now - 60_000);
    expect(error.code).toBe("org_erasing");
    expect(error.message).toContain("being erased (started 2026-11-25T11:59:00.000Z)");
    expect(error.message).toContain("run it again");
    expect(error.details.retryAfterSeconds).toBeUndefined();
  });
});
