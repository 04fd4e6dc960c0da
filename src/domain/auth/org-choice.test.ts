import { describe, expect, it } from "vitest";
import { defaultOrg } from "./org-choice";

describe("the org a sign-in opens in", () => {
  it("is the only org, whether used or not", () => {
    expect(defaultOrg([{ orgId: "org_a", lastUsedAt: null }])).toBe("org_a");
  });

  it("is the one used last, whatever the names or the order", () => {
    expect(defaultOrg([{ orgId: "org_a", lastUsedAt: null }, { orgId: "org_z", lastUsedAt: 5 }, { orgId: "org_m", lastUsedAt: 3 }])).toBe("org_z");
  });

  it("is none when several were never used, or there are none: the person chooses", () => {
    expect(defaultOrg([{ orgId: "org_a", lastUsedAt: null }, { orgId: "org_b", lastUsedAt: null }])).toBeNull();
    expect(defaultOrg([])).toBeNull();
  });
});
