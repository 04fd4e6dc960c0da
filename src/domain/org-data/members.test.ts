import { describe, expect, it } from "vitest";
import { countPlacement, type ImportedMembers, placeForOperator, placeForOrgAdmin } from "./members";

describe("whom an org admin's import restores", () => {
  it("restores only a person who already belongs to the org, and counts the rest", () => {
    expect(placeForOrgAdmin({ userId: "usr_a" })).toEqual({ kind: "restored", userId: "usr_a" });
    expect(placeForOrgAdmin(null)).toEqual({ kind: "not_restored" });
    let members: ImportedMembers = { restored: 0, notRestored: 0 };
    for (const current of [{ userId: "usr_a" }, null, null]) members = countPlacement(members, placeForOrgAdmin(current));
    expect(members).toEqual({ restored: 1, notRestored: 2 });
  });

  it("carries no role: a restored person keeps the one they have", () => {
    expect(Object.keys(placeForOrgAdmin({ userId: "usr_a" }))).not.toContain("role");
  });
});

describe("whom the operator's --restore-members places", () => {
  it("creates an account for an unknown e-mail, adds a known one with the file's role, and leaves a member as they are", () => {
    expect(placeForOperator("admin", null, null)).toEqual({ kind: "created", role: "admin" });
    expect(placeForOperator("admin", { userId: "usr_b" }, null)).toEqual({ kind: "matched", userId: "usr_b", role: "admin" });
    expect(placeForOperator("admin", { userId: "usr_c" }, { role: "member" })).toEqual({ kind: "already_member", userId: "usr_c" });
  });
});
