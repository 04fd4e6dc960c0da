import { describe, expect, it } from "vitest";
import { clipJson, clipRecord, clipText } from "./clip";

describe("clipText", () => {
  it("keeps short text and cuts long text to the limit, ending in …", () => {
    expect(clipText("abc", 3)).toBe("abc");
    expect(clipText("abcdef", 4)).toBe("abc…");
  });

  it("never splits a surrogate pair", () => {
    const clipped = clipText("ab🚀🚀", 4);
    expect(clipped).toBe("ab…");
    expect(clipped.charCodeAt(clipped.length - 2)).toBe(98); // "b": the pair is dropped whole
  });
});

describe("clipJson", () => {
  it("clips long strings anywhere in the value and leaves out what passes the budget", () => {
    const value = { a: "x".repeat(50), list: Array.from({ length: 100 }, (_, i) => i), b: true };
    const { value: clipped, clipped: cut } = clipJson(value, { stringChars: 10, budget: 60 });
    expect(cut).toBe(true);
    expect(JSON.stringify(clipped).length).toBeLessThanOrEqual(60);
    expect((clipped as { a: string }).a).toBe(`${"x".repeat(9)}…`);
    const list = (clipped as { list: number[] }).list;
    expect(list.length).toBeGreaterThan(0);
    expect(list).toEqual(Array.from({ length: list.length }, (_, i) => i)); // a prefix, in order
    expect(list.length).toBeLessThan(100);
    expect(clipped).not.toHaveProperty("b");
  });

  it("returns a value within its limits unchanged", () => {
    const value = { a: "short", n: [1, 2], o: { p: null } };
    expect(clipJson(value, { stringChars: 10, budget: 1000 })).toEqual({ value, clipped: false });
  });
});

describe("clipRecord", () => {
  it("names every key it cut or left out, and still keeps later keys that fit", () => {
    const { record, clippedKeys } = clipRecord({ a: "x".repeat(30), big: "y".repeat(500), c: 1 }, { stringChars: 200, budget: 100 });
    expect(record).toEqual({ a: "x".repeat(30), c: 1 });
    expect(clippedKeys).toEqual(["big"]);
    const json = JSON.stringify(clipRecord({ long: "z".repeat(300) }, { stringChars: 200, budget: 1000 }));
    expect(json).toContain(`${"z".repeat(199)}…`);
  });
});
