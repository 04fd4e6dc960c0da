import { describe, expect, it } from "vitest";
import { liveLinksRefusal, newShareToken, SHARE_LIMITS, SHARE_TOKEN_PATTERN, shareExpiryOf, shareStatus, sharingRefusal } from "./shares";

const NOW = 1_700_000_000_000;
const DAY = 86_400_000;

describe("share links", () => {
  it("lets members share under 'members', only admins under 'admins', no one under 'off'", () => {
    expect(sharingRefusal("members", "member")).toBeNull();
    expect(sharingRefusal("admins", "admin")).toBeNull();
    expect(sharingRefusal("admins", "member")?.code).toBe("forbidden");
    expect(sharingRefusal("admins", "member")?.message).toContain("Only the organization's admins");
    expect(sharingRefusal("off", "admin")?.message).toContain("Sharing is turned off");
  });

  it("expires after 30 days by default, at most a year, and refuses anything else by name", () => {
    expect(shareExpiryOf({}, NOW)).toBe(NOW + 30 * DAY);
    expect(shareExpiryOf({ expiresInDays: 365 }, NOW)).toBe(NOW + 365 * DAY);
    expect(shareExpiryOf({ expiresInDays: 1 }, NOW)).toBe(NOW + DAY);
    for (const bad of [0, 366, 1.5, "7", null]) {
      expect(() => shareExpiryOf({ expiresInDays: bad }, NOW)).toThrow(/expiresInDays is a whole number of days from 1 to 365/);
    }
    expect(() => shareExpiryOf({ days: 3 }, NOW)).toThrow(/Unknown fields: days/);
    expect(() => shareExpiryOf([], NOW)).toThrow(/JSON object/);
  });

  it("makes 256-bit tokens that never repeat, and tells a link's state", () => {
    const tokens = new Set(Array.from({ length: 200 }, newShareToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) expect(token).toMatch(SHARE_TOKEN_PATTERN);
    expect(SHARE_LIMITS.tokenBytes * 8).toBeGreaterThanOrEqual(128);
    expect(shareStatus({ revokedAt: null, expiresAt: NOW + 1 }, NOW)).toBe("active");
    expect(shareStatus({ revokedAt: null, expiresAt: NOW }, NOW)).toBe("expired");
    expect(shareStatus({ revokedAt: NOW - 5, expiresAt: NOW + DAY }, NOW)).toBe("revoked");
    expect(liveLinksRefusal(SHARE_LIMITS.livePerOutput - 1)).toBeNull();
    expect(liveLinksRefusal(SHARE_LIMITS.livePerOutput)?.code).toBe("conflict");
  });
});
