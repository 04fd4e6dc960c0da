import { describe, expect, it } from "vitest";
import { newId } from "../ids";
import { EXPORT_FORMAT, FORMAT_VERSION, parseRecord, upgradePlanState } from "./format";
import { IdRemapper } from "./id-remap";

const header = { type: "header", format: EXPORT_FORMAT, formatVersion: FORMAT_VERSION, cairnVersion: "0.1.0", org: { id: "org_a", slug: "a", name: "A" } };

describe("org export lines", () => {
  it("reads each record type and refuses anything else, naming the line", () => {
    expect(parseRecord(JSON.stringify(header), 1).type).toBe("header");
    expect(parseRecord(JSON.stringify({ type: "row", table: "artifacts", row: { id: "art_x", title: "T", confidence: 0.5, plan_id: null } }), 2)).toMatchObject({ table: "artifacts" });
    expect(parseRecord(JSON.stringify({ type: "member", userId: "usr_1", email: "Ana@X.org", role: "admin" }), 3)).toMatchObject({ email: "ana@x.org", displayName: "Ana@X.org" });
    expect(() => parseRecord("{", 4)).toThrow("Line 4 is not JSON.");
    expect(() => parseRecord(JSON.stringify({ ...header, formatVersion: 4 }), 1)).toThrow("export format version 4; this Cairn reads versions 1, 2 and 3");
    expect(() => parseRecord(JSON.stringify({ ...header, format: "other" }), 1)).toThrow("not a Cairn org export");
    expect(() => parseRecord(JSON.stringify({ type: "row", table: "users", row: {} }), 5)).toThrow('Line 5: "users" is not a table an export holds.');
    expect(() => parseRecord(JSON.stringify({ type: "row", table: "artifacts", row: { "id; DROP TABLE x": 1 } }), 6)).toThrow("is not a column name");
    expect(() => parseRecord(JSON.stringify({ type: "row", table: "artifacts", row: { id: { nested: true } } }), 7)).toThrow("must hold text, a number or null");
    expect(() => parseRecord(JSON.stringify({ type: "plan_state", planId: "../x", tables: {} }), 8)).toThrow("needs a planId");
    expect(() => parseRecord(JSON.stringify({ type: "member", userId: "u", email: "nobody", role: "admin" }), 9)).toThrow("e-mail");
    expect(() => parseRecord(JSON.stringify({ type: "surprise" }), 10)).toThrow('unknown record type "surprise"');
  });
});

describe("the org settings in the header", () => {
  it("reads them normalized, and refuses a header whose settings an admin could not have set", () => {
    const settings = { planApproval: "required", sourcePolicy: { blockedDomains: ["Example.com"], preferredDomains: ["nature.com"] } };
    expect(parseRecord(JSON.stringify({ ...header, settings }), 1)).toMatchObject({
      settings: { planApproval: "required", sourcePolicy: { blockedDomains: ["example.com"], preferredDomains: ["nature.com"] } },
    });
    expect(parseRecord(JSON.stringify(header), 1)).not.toHaveProperty("settings");
    const both = { planApproval: "optional", sourcePolicy: { blockedDomains: ["x.com"], preferredDomains: ["x.com"] } };
    expect(() => parseRecord(JSON.stringify({ ...header, settings: both }), 1)).toThrow("Line 1: the org settings are not valid (settings.sourcePolicy.preferredDomains.0: x.com is both blocked and preferred");
    expect(() => parseRecord(JSON.stringify({ ...header, settings: { ...settings, extra: true } }), 1)).toThrow("settings.extra: Not a field");
    expect(() => parseRecord(JSON.stringify({ ...header, settings: "required" }), 1)).toThrow("the org settings are not valid");
  });
});

describe("reading older exports", () => {
  it("drops a version 1 plan audit's own sequence, and leaves a version 2 file's as it is (the policy refuses it)", () => {
    const tables = { plan: [{ id: 1, data: "{}" }], audit: [{ seq: 7, action: "plan.created" }] };
    expect(upgradePlanState(1, tables)).toEqual({ plan: [{ id: 1, data: "{}" }], audit: [{ action: "plan.created" }] });
    expect(upgradePlanState(2, tables)).toBe(tables);
  });
});

describe("id remapping", () => {
  const plan = newId("plan");
  const step = newId("step");
  const user = newId("usr");
  const key = newId("key");

  it("maps every id the same way everywhere, inside text too, and keeps users, keys and other orgs", () => {
    const remap = new IdRemapper(newId, new Map([["org_0000000000000000000000000", "org_1111111111111111111111111"]]));
    const newPlan = remap.id(plan);
    expect(newPlan).toMatch(/^plan_[0-9a-z]{25}$/);
    expect(newPlan).not.toBe(plan);
    expect(remap.id(plan)).toBe(newPlan);
    const text = JSON.stringify({ planId: plan, note: `see cairn://plans/${plan} step ${step}`, by: `${user}/${key}` });
    const mapped = JSON.parse(remap.value(text));
    expect(mapped.planId).toBe(newPlan);
    expect(mapped.note).toBe(`see cairn://plans/${newPlan} step ${remap.id(step)}`);
    expect(mapped.by).toBe(`${user}/${key}`);
    expect(remap.value("org_0000000000000000000000000")).toBe("org_1111111111111111111111111");
    expect(remap.value("org_2222222222222222222222222")).toBe("org_2222222222222222222222222");
    expect(remap.row({ id: plan, n: 3, gone: null })).toEqual({ id: newPlan, n: 3, gone: null });
  });

  it("maps users through the fixed map (by e-mail) and leaves text that only looks like an id alone", () => {
    const remap = new IdRemapper(newId, new Map([[user, "usr_9999999999999999999999999"]]));
    expect(remap.value(`created by ${user}`)).toBe("created by usr_9999999999999999999999999");
    expect(remap.value("snake_case_words and plan_short")).toBe("snake_case_words and plan_short");
  });
});
