import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SSO_LIMIT_WINDOW_SECONDS, ssoAddressCounter, ssoLimitWindow, ssoOrgCounter } from "./sign-in-limits";

const MINUTE = 60_000;

describe("the bounds on single sign-on's public routes", () => {
  it("counts in windows of a minute and tells a refused caller the seconds left in its window", () => {
    expect(ssoLimitWindow(10 * MINUTE)).toEqual({ index: 10, retryAfterSeconds: 60 });
    expect(ssoLimitWindow(10 * MINUTE + 59_001)).toEqual({ index: 10, retryAfterSeconds: 1 });
    expect(ssoLimitWindow(10 * MINUTE + 59_999)).toEqual({ index: 10, retryAfterSeconds: 1 });
    expect(ssoLimitWindow(10 * MINUTE + 15_500)).toEqual({ index: 10, retryAfterSeconds: 45 });
    expect(ssoLimitWindow(11 * MINUTE)).toEqual({ index: 11, retryAfterSeconds: 60 });
  });

  it("counts starts and callbacks per client address, each with its own budget, and starts per org; a new window starts afresh", () => {
    const now = 10 * MINUTE + 30_000;
    const start = ssoAddressCounter("start", "203.0.113.9", now);
    const callback = ssoAddressCounter("callback", "203.0.113.9", now);
    const org = ssoOrgCounter("org_a", now);
    expect(start).toEqual({ bound: "address", key: "sso-start:203.0.113.9:10", retryAfterSeconds: 30 });
    expect(callback).toEqual({ bound: "address", key: "sso-callback:203.0.113.9:10", retryAfterSeconds: 30 });
    expect(org).toEqual({ bound: "org", key: "sso-org:org_a:10", retryAfterSeconds: 30 });
    expect(ssoAddressCounter("start", "198.51.100.1", now).key).not.toBe(start.key);
    expect(ssoOrgCounter("org_b", now).key).not.toBe(org.key);
    expect(ssoAddressCounter("start", "203.0.113.9", now + MINUTE).key).toBe("sso-start:203.0.113.9:11");
    // An address is at most 64 characters in a key, whatever the header carried.
    expect(ssoAddressCounter("start", "x".repeat(500), now).key).toBe(`sso-start:${"x".repeat(64)}:10`);
  });

  it("is the window of the Rate Limiting bindings that count it (wrangler.toml)", () => {
    const toml = readFileSync(new URL("../../../../wrangler.toml", import.meta.url), "utf8");
    for (const name of ["SSO_ADDRESS_RATE_LIMITER", "SSO_ORG_RATE_LIMITER"]) {
      const block = new RegExp(`name = "${name}"\\s*\\nnamespace_id = "\\d+"\\s*\\nsimple = \\{ limit = \\d+, period = (\\d+) \\}`).exec(toml);
      expect(block?.[1], name).toBe(String(SSO_LIMIT_WINDOW_SECONDS));
    }
  });
});
