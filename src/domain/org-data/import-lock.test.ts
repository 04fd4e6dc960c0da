import { describe, expect, it } from "vitest";
import { erasureBegun, IMPORT_LOCK_STALE_MS, importHolds, importRunning } from "./import-lock";

describe("the org import lock", () => {
  const now = Date.UTC(2026, 10, 25, 12);

  it("holds from its start until an hour has passed, and not at all when no import began", () => {
    expect(importHolds(null, now)).toBe(false);
    expect(importHolds(now, now)).toBe(true);
    expect(importHolds(now - 10 * 60_000, now)).toBe(true);
    expect(importHolds(now - IMPORT_LOCK_STALE_MS, now)).toBe(true);
    expect(importHolds(now - IMPORT_LOCK_STALE_MS - 1, now)).toBe(false);
  });

  it("refuses with import_in_progress (409) that says when the import began and when to retry", () => {
    const error = importRunning(now - 60_000, "Another import into this organization is running");
    expect(error.code).toBe("import_in_progress");
    expect(error.message).toContain("Another import into this organization is running (started 2026-11-25T11:59:00.000Z)");
    expect(error.details.retryAfterSeconds).toBe(30);
  });

  it("refuses an import into an org being erased for good (org_erasing), with how to finish the erasure, and no retry hint", () => {
    const error = erasureBegun(now - 60_000);
    expect(error.code).toBe("org_erasing");
    expect(error.message).toContain("being erased (started 2026-11-25T11:59:00.000Z)");
    expect(error.message).toContain("run it again");
    expect(error.details.retryAfterSeconds).toBeUndefined();
  });
});
