import { describe, expect, it } from "vitest";
import { ID_PATTERN, newId } from "./ids";

describe("newId", () => {
  it("has the prefix and 25 base-36 characters (≥128 bits)", () => {
    const id = newId("exec");
    expect(id).toMatch(ID_PATTERN);
    expect(id.startsWith("exec_")).toBe(true);
    expect(25 * Math.log2(36)).toBeGreaterThan(128);
  });

  it("never repeats over 100,000 ids and is not sequential", () => {
    const ids = Array.from({ length: 100_000 }, () => newId("x"));
    expect(new Set(ids).size).toBe(ids.length);
    const sorted = [...ids].sort();
    expect(sorted).not.toEqual(ids);
  });

  it("uses every character of the alphabet about equally", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) for (const c of newId("x").slice(2)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(36);
    const expected = (4000 * 25) / 36;
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.15);
  });
});
