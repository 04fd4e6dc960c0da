import { describe, expect, it } from "vitest";
import type { VerificationStatus } from "../sources/verification";
import { describeCheck, sourceStanding, standingOf } from "./source-standing";

const check = (status: VerificationStatus, reason: string | null = null) => ({ status, reason });

describe("source standing", () => {
  it("fails not_found, partial and dead pages (new codes and old spellings); walled, timed-out and unchecked pages hold", () => {
    expect(sourceStanding(check("not_found"))).toBe("failed");
    expect(sourceStanding(check("partial"))).toBe("failed");
    expect(sourceStanding(check("unreachable", "dead: HTTP 404"))).toBe("failed");
    expect(sourceStanding(check("unreachable", "HTTP error: 410"))).toBe("failed");
    expect(sourceStanding(check("unreachable", "blocked: HTTP 403 (a bot wall, paywall or rate limit)"))).toBe("holds");
    expect(sourceStanding(check("unreachable", "walled: HTTP 429"))).toBe("holds");
    expect(sourceStanding(check("unreachable", "timeout: no complete answer within 15 s"))).toBe("holds");
    expect(sourceStanding(check("unreachable", "HTTP error: 500"))).toBe("holds");
    expect(sourceStanding(check("unchecked", "content type image/png is not read"))).toBe("holds");
    expect(sourceStanding(check("verified"))).toBe("holds");
    expect(sourceStanding(check("pending"))).toBe("pending");
  });

  it("holds a set when one source holds, waits while one is pending, and fails it when every one failed or none is known", () => {
    expect(standingOf([check("not_found"), check("unreachable", "dead: HTTP 404"), check("verified")])).toBe("holds");
    expect(standingOf([check("not_found"), check("pending")])).toBe("pending");
    expect(standingOf([check("partial"), check("unreachable", "dead: DNS: no such host")])).toBe("failed");
    expect(standingOf([])).toBe("failed");
  });

  it("names a source with its status, and an unreachable one with why", () => {
    expect(describeCheck({ ref: "E2", ...check("not_found") })).toBe("E2 (not_found)");
    expect(describeCheck({ ref: "E4", ...check("unreachable", "dead: HTTP 404") })).toBe("E4 (unreachable: dead: HTTP 404)");
  });
});
