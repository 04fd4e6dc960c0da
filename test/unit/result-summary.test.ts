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

  it("is always an object: small results whole, text as { text }, a list as { items }, a number or flag as { value }", () => {
    expect(resultSummaryOf({ resultSummary: summarize({ a: 1 }), note: null })).toEqual({ a: 1 });
    expect(resultSummaryOf({ resultSummary: summarize("done"), note: null })).toEqual({ text: "done" });
    expect(resultSummaryOf({ resultSummary: summarize(["x", "y"]), note: null })).toEqual({ items: ["x", "y"] });
    expect(resultSummaryOf({ resultSummary: summarize(42), note: null })).toEqual({ value: 42 });
    expect(resultSummaryOf({ resultSummary: summarize(null), note: null })).toEqual({ value: null });
  });

  it("reads a summary stored before summaries were bounded values (clipped JSON text) as { text }, the stored text unchanged", () => {
    const legacy = `{"summary":"${"s".repeat(390)}…`;
    expect(resultSummaryOf({ resultSummary: legacy, note: null })).toEqual({ text: legacy });
  });

  it("is { note } for a step that was skipped or failed, and null for a step with neither", () => {
    expect(resultSummaryOf({ resultSummary: null, note: "covered by step 2" })).toEqual({ note: "covered by step 2" });
    expect(resultSummaryOf({ note: null })).toBeNull();
  });
});
