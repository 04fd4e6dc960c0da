import { describe, expect, it } from "vitest";
import { nearestRankPercentile } from "./percentile";

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe("nearest-rank percentile", () => {
  it("is the largest value for small samples, never below the mean", () => {
    expect(nearestRankPercentile([5], 95)).toBe(5);
    expect(nearestRankPercentile([1, 1, 1, 100], 95)).toBe(100);
    expect(nearestRankPercentile(range(19), 95)).toBe(19);
    expect(nearestRankPercentile(range(20), 95)).toBe(19);
    expect(nearestRankPercentile(range(21), 95)).toBe(20);
    expect(nearestRankPercentile(range(100), 95)).toBe(95);
    expect(nearestRankPercentile([], 95)).toBeNull();
  });
});
