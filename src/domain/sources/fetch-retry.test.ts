import { describe, expect, it } from "vitest";
import { afterFailure, FETCH_RETRY, isTransient, mayDefer, retryAfterMs } from "./fetch-retry";

describe("afterFailure: the network's failures are tried again, the page's are not", () => {
  it("retries a lost connection, a timeout before the first byte, 429, 502, 503 and 504, twice, the wait doubling", () => {
    for (const failure of [
      { kind: "connection" as const },
      { kind: "timeout" as const, headers: false },
      ...[429, 502, 503, 504].map((status) => ({ kind: "status" as const, status, retryAfterMs: null })),
    ]) {
      expect(isTransient(failure), JSON.stringify(failure)).toBe(true);
      expect(afterFailure(failure, 1)).toEqual({ retry: true, waitMs: FETCH_RETRY.baseDelayMs });
      expect(afterFailure(failure, 2)).toEqual({ retry: true, waitMs: 2 * FETCH_RETRY.baseDelayMs });
      expect(afterFailure(failure, 3)).toMatchObject({ retry: false });
    }
  });

  it("never retries a 404, a 410, another status, or a body too slow after its answer began", () => {
    for (const failure of [404, 410, 403, 500].map((status) => ({ kind: "status" as const, status, retryAfterMs: null }))) {
      expect(afterFailure(failure, 1), String(failure.status)).toEqual({ retry: false, retryAfterMs: null });
    }
    expect(afterFailure({ kind: "timeout", headers: true }, 1)).toEqual({ retry: false, retryAfterMs: null });
  });

  it("honours a short Retry-After within the fetch, and ends with a long one for the check to be put off", () => {
    expect(afterFailure({ kind: "status", status: 503, retryAfterMs: 3_000 }, 1)).toEqual({ retry: true, waitMs: 3_000 });
    expect(afterFailure({ kind: "status", status: 429, retryAfterMs: 120_000 }, 1)).toEqual({ retry: false, retryAfterMs: 120_000 });
  });
});

describe("retryAfterMs and mayDefer", () => {
  it("reads delay seconds and HTTP dates; anything else is none", () => {
    const now = Date.UTC(2026, 10, 28, 12, 0, 0);
    expect(retryAfterMs("120", now)).toBe(120_000);
    expect(retryAfterMs("Sat, 28 Nov 2026 12:01:00 GMT", now)).toBe(60_000);
    expect(retryAfterMs("Sat, 28 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs("soon", now)).toBeNull();
  });

  it("puts a check off only while it still ends in a verdict within the 15-minute bound", () => {
    const asked = 0;
    expect(mayDefer(asked, 1_000, 2 * 60_000)).toBe(true);
    expect(mayDefer(asked, 1_000, 9 * 60_000)).toBe(false);
    expect(mayDefer(asked, 8 * 60_000, 2 * 60_000)).toBe(false);
  });
});
