import { describe, expect, it } from "vitest";
import { DAY_MS, dayLabel, fillDays, labelledIndexes, niceMax } from "../../src/web/dashboard/chart-geometry";

describe("analytics chart geometry", () => {
  const day0 = Date.UTC(2026, 10, 20);

  it("fills every day of the window, keeping what storage had", () => {
    const days = fillDays([{ day: day0 + DAY_MS, values: [5, 1] }], day0 + 3_600_000, day0 + 2 * DAY_MS + 60_000, 2);
    expect(days).toEqual([
      { day: day0, values: [0, 0] },
      { day: day0 + DAY_MS, values: [5, 1] },
      { day: day0 + 2 * DAY_MS, values: [0, 0] },
    ]);
  });

  it("rounds the axis up to 1, 2 or 5 times a power of ten", () => {
    expect([0, 1, 3, 7, 10, 11, 47, 120, 999].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 50, 200, 1000]);
  });

  it("labels days by date, and at most seven bars including the last", () => {
    expect(dayLabel(day0)).toBe("20 Nov");
    expect([...labelledIndexes(5)].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
    const thirty = labelledIndexes(30);
    expect(thirty.size).toBeLessThanOrEqual(7);
    expect(thirty.has(29)).toBe(true);
  });
});
