import { describe, expect, it } from "vitest";
import { trustedUntil, VERIFIED_TOKEN_TTL_MS, VerifiedTokens } from "./verified-tokens";

const T0 = 1_795_000_000_000;
const entry = (until: number, who: Partial<{ userId: string; orgId: string; apiKeyId: string | null; grantId: string | null }> = {}) => ({
  value: { until },
  until,
  userId: "usr_1",
  orgId: "org_1",
  apiKeyId: null,
  grantId: "g1",
  ...who,
});

describe("verified tokens", () => {
  it("trusts a token for the window at most, never past its own expiry", () => {
    expect(trustedUntil(T0, undefined)).toBe(T0 + VERIFIED_TOKEN_TTL_MS);
    expect(trustedUntil(T0, T0 / 1000 + 3600)).toBe(T0 + VERIFIED_TOKEN_TTL_MS);
    expect(trustedUntil(T0, T0 / 1000 + 10)).toBe(T0 + 10_000);
  });

  it("answers until the entry's end and not after; a hit does not extend it", () => {
    const cache = new VerifiedTokens<{ until: number }>();
    cache.set("k", entry(T0 + 1000), T0);
    expect(cache.get("k", T0 + 999)).not.toBeNull();
    expect(cache.get("k", T0 + 999)).not.toBeNull();
    expect(cache.get("k", T0 + 1000)).toBeNull();
    expect(cache.size).toBe(0);
    cache.set("expired", entry(T0), T0);
    expect(cache.size).toBe(0);
  });

  it("stays within its capacity, dropping the oldest entry first", () => {
    const cache = new VerifiedTokens<{ until: number }>(3);
    for (const key of ["a", "b", "c", "d"]) cache.set(key, entry(T0 + 1000), T0);
    expect(cache.size).toBe(3);
    expect(cache.get("a", T0)).toBeNull();
    expect(cache.get("d", T0)).not.toBeNull();
  });

  it("forgets a member's, a key's or a grant's entries at once", () => {
    const cache = new VerifiedTokens<{ until: number }>();
    cache.set("oauth", entry(T0 + 1000, { userId: "usr_1", grantId: "g1" }), T0);
    cache.set("other-grant", entry(T0 + 1000, { userId: "usr_1", grantId: "g2" }), T0);
    cache.set("key", entry(T0 + 1000, { userId: "usr_1", apiKeyId: "key_1", grantId: null }), T0);
    cache.set("someone-else", entry(T0 + 1000, { userId: "usr_2" }), T0);
    expect(cache.forget((e) => e.apiKeyId === "key_1")).toBe(1);
    expect(cache.forget((e) => e.userId === "usr_1" && e.grantId === "g1")).toBe(1);
    expect(cache.forget((e) => e.userId === "usr_1" && e.orgId === "org_1")).toBe(1);
    expect(cache.get("someone-else", T0)).not.toBeNull();
  });
});
