import { describe, expect, it } from "vitest";
import { isCairnError } from "./errors";
import { applySettingsChange, type OrgSettingsValues, parseExportedSettings, refuseNonMembers, settingsChangeDetail } from "./org-settings";

const current: OrgSettingsValues = { planApproval: "optional", sourcePolicy: { blockedDomains: ["spam.net"], preferredDomains: ["nature.com"] }, sharing: "members", approvers: [] };

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isCairnError(error)) return { code: error.code, message: error.message, issues: error.details.issues };
    throw error;
  }
  throw new Error("not refused");
}

describe("applySettingsChange", () => {
  it("changes what is given and keeps the rest; a list given replaces the stored one, normalized", () => {
    expect(applySettingsChange({ planApproval: "required" }, current)).toEqual({ ...current, planApproval: "required" });
    expect(applySettingsChange({ sourcePolicy: { blockedDomains: ["HTTPS://Example.com/x", "spam.net"] } }, current)).toEqual({
      planApproval: "optional",
      sourcePolicy: { blockedDomains: ["example.com", "spam.net"], preferredDomains: ["nature.com"] },
      sharing: "members",
      approvers: [],
    });
    expect(applySettingsChange({ sharing: "off" }, current)).toEqual({ ...current, sharing: "off" });
    expect(applySettingsChange({ approvers: [" Ana@Example.com", "ana@example.com", "bo@example.com"] }, current).approvers).toEqual(["ana@example.com", "bo@example.com"]);
    expect(refusal(() => applySettingsChange({ approvers: ["not an address"] }, current)).issues).toEqual([{ path: "approvers", message: "Each entry is a member's e-mail" }]);
    expect(refusal(() => applySettingsChange({ approvers: "ana@example.com" }, current)).issues?.[0]?.path).toBe("approvers");
    const outside = refusal(() => refuseNonMembers(["ana@example.com", "eve@elsewhere.test"], ["ANA@example.com"], "approvers"));
    expect(outside.message).toBe("Not a member of the organization: eve@elsewhere.test. Name members only; nothing was changed.");
    expect(applySettingsChange({ sourcePolicy: { preferredDomains: [] } }, current).sourcePolicy).toEqual({ blockedDomains: ["spam.net"], preferredDomains: [] });
  });

  it("refuses unknown fields, nothing to change, bad values and a domain both blocked and preferred, naming each", () => {
    expect(refusal(() => applySettingsChange({ planApproval: "required", other: 1 }, current)).issues).toEqual([{ path: "other", message: "Not a field" }]);
    expect(refusal(() => applySettingsChange({}, current)).issues).toEqual([{ path: "planApproval", message: "Give planApproval, sourcePolicy, sharing, approvers, locale or several" }]);
    expect(refusal(() => applySettingsChange({ sharing: "everyone" }, current)).issues).toEqual([{ path: "sharing", message: "One of members, admins, off" }]);
    expect(refusal(() => applySettingsChange({ planApproval: "always" }, current)).issues).toEqual([{ path: "planApproval", message: "One of required, optional" }]);
    expect(refusal(() => applySettingsChange({ sourcePolicy: { blocked: [] } }, current)).issues).toEqual([{ path: "sourcePolicy.blocked", message: "Not a field" }]);
    expect(refusal(() => applySettingsChange({ sourcePolicy: ["x.com"] }, current)).issues?.[0]?.path).toBe("sourcePolicy");
    const both = refusal(() => applySettingsChange({ sourcePolicy: { blockedDomains: ["nature.com"] } }, current));
    expect(both).toMatchObject({ code: "validation", issues: [{ path: "sourcePolicy.preferredDomains.0", message: expect.stringContaining("nature.com is both blocked and preferred") }] });
    expect(both.message).toContain("The settings were not changed");
    expect(refusal(() => applySettingsChange([], current)).message).toBe("The body must be a JSON object.");
  });
});

describe("the org's locale", () => {
  it("is set as a canonical BCP 47 tag, unset with null, kept when not given, and a bad one is refused naming it", () => {
    const set = applySettingsChange({ locale: "en-us" }, current);
    expect(set).toEqual({ ...current, locale: "en-US" });
    expect(applySettingsChange({ sharing: "admins" }, set).locale).toBe("en-US");
    expect(applySettingsChange({ locale: null }, set)).toEqual(current);
    for (const bad of ["", "not a locale", "x".repeat(36), 7, ["en"]]) {
      expect(refusal(() => applySettingsChange({ locale: bad }, current)).issues, String(bad)).toEqual([{ path: "locale", message: "A BCP 47 language tag such as en-US or ja-JP, or null" }]);
    }
    expect(settingsChangeDetail(current, set)).toEqual({ locale: { from: null, to: "en-US" } });
    expect(parseExportedSettings(set, "Line 1")).toEqual(set);
    expect(refusal(() => parseExportedSettings({ ...current, locale: "??" }, "Line 1")).issues).toEqual([{ path: "settings.locale", message: "A BCP 47 language tag such as en-US or ja-JP, or null" }]);
  });
});

describe("parseExportedSettings", () => {
  it("reads what an export wrote and refuses what an admin could not have set", () => {
    expect(parseExportedSettings(current, "Line 1")).toEqual(current);
    // An export from before sharing was a setting: the default.
    expect(parseExportedSettings({ planApproval: "optional", sourcePolicy: current.sourcePolicy }, "Line 1").sharing).toBe("members");
    // …and before approver groups: none. A group is a list of e-mails.
    expect(parseExportedSettings({ planApproval: "optional", sourcePolicy: current.sourcePolicy }, "Line 1").approvers).toEqual([]);
    expect(parseExportedSettings({ ...current, approvers: ["Ana@example.com"] }, "Line 1").approvers).toEqual(["ana@example.com"]);
    expect(refusal(() => parseExportedSettings({ ...current, approvers: [42] }, "Line 1")).issues).toEqual([{ path: "settings.approvers", message: "Each entry is a member's e-mail" }]);
    expect(refusal(() => parseExportedSettings({ ...current, sharing: "all" }, "Line 1")).issues).toEqual([{ path: "settings.sharing", message: "One of members, admins, off" }]);
    expect(refusal(() => parseExportedSettings({ planApproval: "required", sourcePolicy: { blockedDomains: ["10.0.0.1"], preferredDomains: [] } }, "Line 1")).message).toMatch(
      /^Line 1: the org settings are not valid \(settings\.sourcePolicy\.blockedDomains\.0: "10\.0\.0\.1" is an IP address/,
    );
    expect(refusal(() => parseExportedSettings({ planApproval: "never", sourcePolicy: { blockedDomains: [], preferredDomains: [] } }, "Line 1")).issues).toEqual([
      { path: "settings.planApproval", message: "One of required, optional" },
    ]);
    expect(refusal(() => parseExportedSettings({ planApproval: "optional" }, "Line 1")).code).toBe("validation");
    const many = Array.from({ length: 501 }, (_, i) => `d${i}.com`);
    expect(refusal(() => parseExportedSettings({ planApproval: "optional", sourcePolicy: { blockedDomains: many, preferredDomains: [] } }, "Line 1")).issues?.[0]?.message).toBe(
      "At most 500 domains (501 given)",
    );
  });
});

describe("settingsChangeDetail", () => {
  it("names what changed", () => {
    const after: OrgSettingsValues = { planApproval: "required", sourcePolicy: { blockedDomains: ["spam.net", "x.com"], preferredDomains: [] }, sharing: "admins", approvers: [] };
    expect(settingsChangeDetail(current, after)).toEqual({
      planApproval: { from: "optional", to: "required" },
      sharing: { from: "members", to: "admins" },
      blockedDomains: { added: ["x.com"], removed: [], total: 2 },
      preferredDomains: { added: [], removed: ["nature.com"], total: 0 },
    });
    expect(settingsChangeDetail(current, current)).toEqual({});
  });
});
