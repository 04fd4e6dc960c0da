import { describe, expect, it } from "vitest";
import { resultSummaryOf, summarize } from "../../src/operations/plan-views";

describe("a step's result summary", () => {
  it("is the result bounded: still valid JSON of an object, with long strings clipped and what does not fit left out", () => {
    const result = { summary: "s".repeat(700), findings: ["a".repeat(300), "b".repeat(300), "c".repeat(300)], confidence: 0.8 };
    const stored = summarize(result);
    expect(stored.length).toBeLessThanOrEqual(400);
    const summary = resultSummaryOf({ resultSummary: stored, note: null }) as { summary: string; findings: string[] };
    expect(summary.summary).toBe(`${"s".repeat(159)}…`);
    expect(summary.findings[0]).toBe(`${"a".repeat(159)}…`);
  });

  it("keeps small results whole, text as text", () => {
    expect(resultSummaryOf({ resultSummary: summarize({ a: 1 }), note: null })).toEqual({ a: 1 });
    expect(resultSummaryOf({ resultSummary: summarize("done"), note: null })).toBe("done");
    expect(resultSummaryOf({ resultSummary: summarize(["x", "y"]), note: null })).toEqual(["x", "y"]);
  });

  it("reads a summary stored before summaries were bounded values (clipped JSON text) as that text", () => {
    const legacy = `{"summary":"${"s".repeat(390)}…`;
    expect(resultSummaryOf({ resultSummary: legacy, note: null })).toBe(legacy);
  });

  it("is the note of a step that was skipped or failed, and null for a step with neither", () => {
    expect(resultSummaryOf({ resultSummary: null, note: "covered by step 2" })).toBe("covered by step 2");
    expect(resultSummaryOf({ note: null })).toBeNull();
  });
});
