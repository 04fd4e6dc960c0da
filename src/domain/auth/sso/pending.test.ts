import { describe, expect, it } from "vitest";
import { checkPending, type PendingSsoSignIn, SSO_PENDING_TTL_SECONDS } from "./pending";
import { orgsOpenedBy } from "./sign-in-orgs";

const pending: PendingSsoSignIn = { orgId: "org_a", state: "state-1", nonce: "n", codeVerifier: "v", createdAt: 1_000, after: { kind: "dashboard", next: "/dashboard/plans" } };

describe("a pending sign-in through the org's provider", () => {
  it("goes on with its own state in the callback and in this browser's cookie", () => {
    expect(checkPending(pending, "state-1", "state-1", 2_000)).toEqual({ ok: true, pending });
  });

  it("refuses a replayed state (the record is gone after its first use) and an unknown one", () => {
    expect(checkPending(null, "state-1", "state-1", 2_000)).toEqual({ ok: false, refusal: "state_unknown" });
    expect(checkPending(pending, "state-2", "state-2", 2_000)).toEqual({ ok: false, refusal: "state_unknown" });
  });

  it("refuses a callback carried to another browser (no cookie, or another one), and one past its ten minutes", () => {
    expect(checkPending(pending, "state-1", undefined, 2_000)).toEqual({ ok: false, refusal: "state_mismatch" });
    expect(checkPending(pending, "state-1", "state-9", 2_000)).toEqual({ ok: false, refusal: "state_mismatch" });
    expect(checkPending(pending, "state-1", "state-1", 1_000 + SSO_PENDING_TTL_SECONDS * 1000 + 1)).toEqual({ ok: false, refusal: "state_unknown" });
  });
});

describe("the orgs a sign-in opens", () => {
  const memberships = [
    { orgId: "a", passwordAllowed: true },
    { orgId: "b", passwordAllowed: false },
  ];
  it("a password opens only the orgs that allow passwords; a provider opens its own org only", () => {
    expect(orgsOpenedBy(memberships, { kind: "password" }).map((m) => m.orgId)).toEqual(["a"]);
    expect(orgsOpenedBy(memberships, { kind: "sso", orgId: "b" }).map((m) => m.orgId)).toEqual(["b"]);
    expect(orgsOpenedBy(memberships, { kind: "sso", orgId: "c" })).toEqual([]);
  });
});
