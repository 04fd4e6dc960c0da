import { describe, expect, it } from "vitest";
import { type Caller, isPerson, loosensProtection, PERSON_ACTIONS, PERSON_SCOPE, type PersonAction, personRefusal } from "./person-actions";

const all = ["research:read", "research:write", "org:admin", "plans:approve"] as const;

const cases: [string, Caller, boolean][] = [
  ["a research API key", { scopes: ["research:read", "research:write"], apiKeyId: "key_1" }, false],
  ["an org:admin API key without the person scope", { scopes: ["research:read", "research:write", "org:admin"], apiKeyId: "key_1" }, false],
  ["an OAuth token, even one claiming every scope", { scopes: all, clientId: "cli_1" }, false],
  ["no credential named", { scopes: all }, false],
  ["an API key with the person scope", { scopes: ["research:read", PERSON_SCOPE], apiKeyId: "key_1" }, true],
  ["a dashboard session", { scopes: ["research:read", "research:write"], clientId: "dashboard", signedIn: true as const }, true],
];

describe("a person's decision", () => {
  it.each(cases)("%s: person %s", (_name, caller, expected) => {
    expect(isPerson(caller)).toBe(expected);
    for (const action of Object.keys(PERSON_ACTIONS) as PersonAction[]) {
      const refused = personRefusal(caller, action, "https://cairn.test/dashboard/admin/settings");
      if (expected) expect(refused).toBeNull();
      else {
        expect(refused).toMatchObject({ code: "forbidden", details: { url: "https://cairn.test/dashboard/admin/settings" } });
        expect(refused?.message).toContain(PERSON_ACTIONS[action]);
        expect(refused?.message).toContain("dashboard");
        expect(refused?.message).toContain(PERSON_SCOPE);
      }
    }
  });

  it("lowering or lifting a protection: approval to optional, sharing opened, a blocked domain no longer blocked", () => {
    const base = { planApproval: "required" as const, sharing: "admins" as const, sourcePolicy: { blockedDomains: ["www.spam.test", "junk.test"], preferredDomains: [] } };
    expect(loosensProtection(base, base)).toBe(false);
    expect(loosensProtection(base, { ...base, planApproval: "optional" })).toBe(true);
    expect(loosensProtection({ ...base, planApproval: "optional" }, base)).toBe(false);
    expect(loosensProtection(base, { ...base, sharing: "members" })).toBe(true);
    expect(loosensProtection(base, { ...base, sharing: "off" })).toBe(false);
    // The approver group: naming one, or narrowing it, tightens; lifting it or adding someone loosens.
    const group = { ...base, approvers: ["ana@example.com", "bo@example.com"] };
    expect(loosensProtection(base, group)).toBe(false);
    expect(loosensProtection(group, { ...base, approvers: ["ana@example.com"] })).toBe(false);
    expect(loosensProtection(group, { ...base, approvers: [] })).toBe(true);
    expect(loosensProtection(group, { ...base, approvers: ["ana@example.com", "cy@example.com"] })).toBe(true);
    expect(loosensProtection(base, { ...base, sourcePolicy: { blockedDomains: ["junk.test"], preferredDomains: [] } })).toBe(true);
    // A parent domain blocks what the removed subdomain did; adding a domain or preferring one loosens nothing.
    expect(loosensProtection(base, { ...base, sourcePolicy: { blockedDomains: ["spam.test", "junk.test"], preferredDomains: ["a.test"] } })).toBe(false);
  });
});
