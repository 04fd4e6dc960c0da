import { describe, expect, it } from "vitest";
import { cleanStrings, cleanText, STORED_JSON_LIMITS, storedJsonIssue } from "./stored-input";

const nestedArrays = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
};

describe("storedJsonIssue", () => {
  it("accepts inputs up to the depth limit and names the path of the first level past it", () => {
    expect(storedJsonIssue(nestedArrays(STORED_JSON_LIMITS.maxDepth))).toBeNull();
    const issue = storedJsonIssue({ metadata: nestedArrays(STORED_JSON_LIMITS.maxDepth) });
    expect(issue?.path).toBe(`metadata${".0".repeat(STORED_JSON_LIMITS.maxDepth - 1)}`);
    expect(issue?.message).toMatch(/Nested too deeply/);
  });

  it("walks 100,000 levels without exhausting the stack", () => {
    expect(storedJsonIssue(nestedArrays(100_000))?.message).toMatch(/Nested too deeply/);
  });

  it("refuses __proto__ keys and over-long keys, and too many values", () => {
    expect(storedJsonIssue(JSON.parse('{"a":{"__proto__":{"x":1}}}'))?.path).toBe("a.__proto__");
    expect(storedJsonIssue({ ["k".repeat(201)]: 1 })?.message).toMatch(/Key too long/);
    expect(storedJsonIssue({ list: Array.from({ length: STORED_JSON_LIMITS.maxNodes }, () => 0) })?.message).toMatch(/Too many values/);
    expect(storedJsonIssue({ constructor: "fine", prototype: "fine", n: 1e308, s: "NaN" })).toBeNull();
  });
});

describe("cleanText", () => {
  it("drops C0 (but tab, LF, CR), DEL and C1 controls", () => {
    expect(cleanText("a\u0000b\u0007c\td\ne\rf\u007fg\u0085h\u009fi")).toBe("abc\td\ne\rfghi");
  });

  it("replaces lone surrogates and keeps pairs and direction marks", () => {
    expect(cleanText("x\ud800y\udc00z")).toBe("x\ufffdy\ufffdz");
    expect(cleanText("emoji 😀 \u202eRTL")).toBe("emoji 😀 \u202eRTL");
  });
});

describe("cleanStrings", () => {
  it("cleans values and keys at every level and leaves other values alone", () => {
    expect(cleanStrings({ "k\u0000": ["v\u0001", { n: 1, b: true, z: null }] })).toEqual({ k: ["v", { n: 1, b: true, z: null }] });
  });
});
