import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM bench modules without type declarations
import { goalLines, ratioRows } from "../../bench/report.mjs";
// @ts-expect-error: plain ESM bench modules without type declarations
import { ROUND_TRIP_GOALS, roundTripLines } from "../../bench/round-trips.mjs";
// @ts-expect-error: plain ESM bench modules without type declarations
import { articleGoalLines, renderKindCounts, scoreResults, sourceGoalLines } from "../../bench/sources-report.mjs";
// @ts-expect-error: plain ESM bench modules without type declarations
import { CHECK_GOALS, checkGoalLines } from "../../bench/checks-report.mjs";
// @ts-expect-error: plain ESM bench modules without type declarations
import { scaleGoalLines } from "../../bench/search-goals.mjs";

/** A summary as bench/report.mjs's summarize() makes it, with only the fields the goals read. */
const summary = (caseId: string, concurrency: number, rps: number, cpuMs: number, p50 = 1) => ({
  caseId,
  concurrency,
  rps,
  p50,
  p99: p50 * 3,
  serverCpuMsPerRequest: cpuMs,
});
const runsOf = (summaries: ReturnType<typeof summary>[]) =>
  summaries.map((s) => ({ caseId: s.caseId, concurrency: s.concurrency, rep: 1, result: { rps: s.rps, p50: s.p50, p99: s.p99, serverCpuMsPerRequest: s.serverCpuMsPerRequest } }));

describe("the bench's goal lines", () => {
  it("judges P1 against the bare row and the template row, and P2 against the bare row and one plan alone", () => {
    const summaries = [
      summary("A", 8, 10_000, 0.1),
      summary("B", 8, 1_500, 0.9), // 15 % of A, 9× A's CPU
      summary("T", 8, 1_000, 1.2), // B is 1.5× T
      summary("P", 8, 500, 2.5), // 25× A's CPU
      summary("M", 1, 400, 2.5, 2.4),
    ];
    const lines: string[] = goalLines(summaries, ratioRows(summaries, runsOf(summaries)));
    expect(lines[0]).toContain("P1 MCP read @8");
    expect(lines[0]).toMatch(/≤ 10× bare: PASS \(9\.0×\)/);
    expect(lines[0]).toMatch(/≥ 10 % of bare req\/s: PASS \(15\.0 %\)/);
    expect(lines[0]).toMatch(/1\.5× the template's req\/s: PASS \(1\.50×/);
    expect(lines[1]).toMatch(/P2 step call @8.*≤ 20× bare: MISS \(25\.0×\)/);
    expect(lines[2]).toMatch(/one plan alone.*≤ 2 ms: MISS \(2\.40 ms\)/);
  });

  it("says the template row was not run rather than passing without it", () => {
    const summaries = [summary("A", 32, 10_000, 0.1), summary("B", 32, 2_000, 0.5)];
    const [line] = goalLines(summaries, ratioRows(summaries, runsOf(summaries)));
    expect(line).toContain("template row T not run");
  });

  it("passes the round trips only when every counted call is within its goal and the test passed", () => {
    // Every counted call exactly at its goal.
    const counts: Record<string, number> = { ...ROUND_TRIP_GOALS };
    expect(roundTripLines({ counts, failed: [] }).pass).toBe(true);
    expect(roundTripLines({ counts: { ...counts, get_next_step: ROUND_TRIP_GOALS.get_next_step + 1 }, failed: [] }).pass).toBe(false);
    expect(roundTripLines({ counts, failed: ["a test"] }).pass).toBe(false);
    const { get_plan_status: _omitted, ...missing } = counts;
    const partial = roundTripLines({ counts: missing, failed: [] });
    expect(partial.pass).toBe(false);
    expect(partial.lines.join("\n")).toContain("not counted: get_plan_status");
  });

  it("passes the quote matcher's goals only with no altered quote verified and ≥ 97 % of genuine ones verified", () => {
    const answers = (genuineVerified: number, genuinePartial: number, alteredVerified: number) => [
      ...Array.from({ length: genuineVerified }, (_, i) => ({ id: `g${i}`, kind: "exact", class: "genuine", expected: "verified", got: "verified" })),
      ...Array.from({ length: genuinePartial }, (_, i) => ({ id: `p${i}`, kind: "exact", class: "genuine", expected: "verified", got: "partial" })),
      ...Array.from({ length: alteredVerified }, (_, i) => ({ id: `a${i}`, kind: "altered:number", class: "altered", expected: "partial", got: "verified" })),
      { id: "n", kind: "other-page", class: "unsupported", expected: "not_found", got: "not_found" },
    ];
    const passing = sourceGoalLines(scoreResults(answers(97, 3, 0)));
    expect(passing.pass).toBe(true);
    expect(passing.lines[0]).toMatch(/is ever verified — PASS \(0 of 1 /);
    expect(passing.lines[1]).toMatch(/genuine quotes verified — PASS \(97 of 100, 97\.0 %\)/);
    const tooFew = sourceGoalLines(scoreResults(answers(96, 4, 0)));
    expect(tooFew.pass).toBe(false);
    expect(tooFew.lines[1]).toContain("MISS");
    const oneFalse = sourceGoalLines(scoreResults(answers(100, 0, 1)));
    expect(oneFalse.pass).toBe(false);
    expect(oneFalse.lines[0]).toMatch(/MISS .*: a0$/);
    expect(sourceGoalLines(scoreResults([])).pass).toBe(false); // nothing measured is not a pass
  });

  it("passes the article set's goals only with no altered, made-up or hidden quote verified and ≥ 99 % of genuine ones verified", () => {
    const answers = (genuineVerified: number, genuinePartial: number, hiddenVerified: number) => [
      ...Array.from({ length: genuineVerified }, (_, i) => ({ id: `g${i}`, kind: "genuine:plain", class: "genuine", expected: "verified", got: "verified" })),
      ...Array.from({ length: genuinePartial }, (_, i) => ({ id: `p${i}`, kind: "genuine:plain", class: "genuine", expected: "verified", got: "partial" })),
      ...Array.from({ length: hiddenVerified }, (_, i) => ({ id: `h${i}`, kind: "hidden:display-none", class: "unsupported", expected: "not_found", got: "verified" })),
      { id: "n0", kind: "made-up", class: "unsupported", expected: "not_found", got: "not_found" },
    ];
    const passing = articleGoalLines(scoreResults(answers(99, 1, 0)), "held-out");
    expect(passing.pass).toBe(true);
    expect(passing.lines[0]).toMatch(/^Goal \(held-out\): no altered, made-up or hidden quote verified — PASS \(0 of 1\)$/);
    expect(passing.lines[1]).toMatch(/PASS \(99 of 100, 99\.0 %\)/);
    expect(passing.lines[2]).toMatch(/precision 100\.0 % .*recall 99\.0 %/);
    expect(articleGoalLines(scoreResults(answers(98, 2, 0)), "development").lines[1]).toContain("MISS (98 of 100");
    const hidden = articleGoalLines(scoreResults(answers(100, 0, 2)), "development");
    expect(hidden.pass).toBe(false);
    expect(hidden.lines[0]).toMatch(/MISS \(2 of 3\): h0, h1$/);
    expect(hidden.lines[2]).toMatch(/precision 98\.0 %/);
    expect(renderKindCounts(answers(1, 1, 1))).toContain("| hidden:display-none | unsupported | not_found | 1 | 0 | 1 | 0 | 0 | 0 |");
  });

  it("passes the source checks' goals only when A alone is quick and A beside the noisy org stays within its p95, every verdict counted", () => {
    const fast = Array.from({ length: 20 }, () => 1_000);
    expect(CHECK_GOALS).toEqual({ aloneP50Ms: 2_000, noisyP95Ms: 10_000 });
    const passing = checkGoalLines({ alone: fast, noisy: [...fast, 9_000] });
    expect(passing.pass).toBe(true);
    expect(passing.lines[0]).toMatch(/p50 ≤ 2 s — PASS \(1\.00 s, 20 sources\)/);
    expect(checkGoalLines({ alone: Array(20).fill(2_500), noisy: fast }).pass).toBe(false);
    const slowTail = checkGoalLines({ alone: fast, noisy: [...Array(18).fill(1_000), 11_000, 12_000] });
    expect(slowTail.pass).toBe(false);
    expect(slowTail.lines[1]).toContain("MISS (11.00 s");
    // A verdict that never came is a miss, and nothing measured is not a pass.
    expect(checkGoalLines({ alone: fast, noisy: [...Array(10).fill(1_000), Number.POSITIVE_INFINITY] }).lines[1]).toContain("no verdict within the run");
    expect(checkGoalLines({ alone: [], noisy: [] }).pass).toBe(false);
  });

  it("judges search at a large size against the same run's 100,000: p95, its ratio to the floor, every class, growth and the longest search", () => {
    const size = (count: number, p95: number, floorP95: number, classes: [string, number, number][]) => ({
      count,
      overall: { p95, max: Math.max(...classes.map(([, , max]) => max)) },
      floor: { p95: floorP95 },
      byClass: classes.map(([cls, classP95, max]) => ({ cls, p95: classP95, max })),
    });
    const base = size(100_000, 20, 2, [["rare term", 8, 10], ["phrase", 25, 30]]);
    const passing: string[] = scaleGoalLines(base, size(1_000_000, 30, 2, [["rare term", 9, 12], ["phrase", 45, 90]]));
    expect(passing).toHaveLength(5);
    for (const line of passing) expect(line).toMatch(/: PASS \(/);
    const missing: string[] = scaleGoalLines(base, size(1_000_000, 41, 2, [["rare term", 9, 12], ["phrase", 61, 101]]));
    expect(missing[0]).toMatch(/p95 over the whole query set at 1,000,000 ≤ 40 ms: MISS \(41\.00 ms\)/);
    expect(missing[1]).toMatch(/≤ 20× the same Worker's one-row read: MISS \(20\.5×/);
    expect(missing[2]).toMatch(/every class's p95 at 1,000,000 ≤ 60 ms: MISS \(worst: phrase, 61\.00 ms\)/);
    expect(missing[3]).toMatch(/p95 growth 100,000 → 1,000,000 ≤ 1\.5×: MISS \(20\.00 → 41\.00 ms, 2\.05×\)/);
    expect(missing[4]).toMatch(/no single search at 1,000,000 longer than 100 ms: MISS \(longest 101\.00 ms\)/);
  });
});
