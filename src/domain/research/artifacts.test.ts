import { describe, expect, it } from "vitest";
import { pageEnd, relativeRelevance } from "./artifacts";

describe("pageEnd", () => {
  it("fills the room when the text needs no escapes, and stops at the end", () => {
    const text = "a".repeat(50);
    expect(pageEnd(text, 0, 20)).toBe(20);
    expect(pageEnd(text, 40, 20)).toBe(50);
    expect(pageEnd(text, 50, 20)).toBe(50);
  });

  it("counts escapes, so the page as a JSON string fits the room", () => {
    const text = '"\n'.repeat(100);
    const end = pageEnd(text, 0, 60);
    expect(JSON.stringify(text.slice(0, end)).length - 2).toBeLessThanOrEqual(60);
    expect(end).toBeGreaterThanOrEqual(28);
  });

  it("moves on by at least one character and never ends inside a surrogate pair", () => {
    const text = "🚀".repeat(10);
    const end = pageEnd(text, 0, 5);
    expect(end % 2).toBe(0);
    expect(pageEnd("🚀🚀", 0, 1)).toBe(2);
    expect(pageEnd("\u0001\u0002", 0, 1)).toBe(1);
  });
});

describe("relativeRelevance", () => {
  it("scores each hit against the best, which is 1, never rounding a hit to 0, keeping the order", () => {
    const hits = [{ id: "a", relevance: 2.4e-6 }, { id: "b", relevance: 1.2e-6 }, { id: "c", relevance: 1e-12 }];
    expect(relativeRelevance(hits)).toEqual([{ id: "a", relevance: 1 }, { id: "b", relevance: 0.5 }, { id: "c", relevance: 0.001 }]);
    expect(relativeRelevance([])).toEqual([]);
    expect(relativeRelevance([{ relevance: 0 }])).toEqual([{ relevance: 0 }]);
  });
});
