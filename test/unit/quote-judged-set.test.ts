import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM bench modules without type declarations
import { scoreResults, sourceGoalLines } from "../../bench/sources-report.mjs";
import { matchQuote, prepareSnapshot } from "../../src/domain/sources/quote-match";

interface JudgedCase {
  id: string;
  page: string;
  kind: string;
  class: "genuine" | "altered" | "unsupported" | "unchecked";
  expected: string;
  quote: string;
}
const set: { pages: { id: string; text: string }[]; cases: JudgedCase[] } = JSON.parse(readFileSync("bench/sources/judged-set.json", "utf8"));

describe("the quote matcher on the judged set (bench/sources/judged-set.json)", () => {
  it("has at least 200 cases covering every class, and every case cites a page of the set", () => {
    expect(set.cases.length).toBeGreaterThanOrEqual(200);
    const classes = new Set(set.cases.map((c) => c.class));
    expect([...classes].sort()).toEqual(["altered", "genuine", "unchecked", "unsupported"]);
    const pages = new Set(set.pages.map((p) => p.id));
    for (const c of set.cases) expect(pages.has(c.page), c.id).toBe(true);
    for (const kind of ["altered:number", "altered:negation", "altered:word", "altered:bracket-antonym", "ellipsis", "bracket", "truncated", "other-page", "short", "long"]) {
      expect(set.cases.some((c) => c.kind === kind), kind).toBe(true);
    }
  });

  it("meets both goals: no altered or unsupported quote verified, ≥ 97 % of genuine quotes verified", () => {
    const snapshots = new Map(set.pages.map((p) => [p.id, prepareSnapshot(p.text)]));
    const results = set.cases.map((c) => ({ ...c, got: matchQuote(c.quote, snapshots.get(c.page) ?? "").status }));
    const goals = sourceGoalLines(scoreResults(results));
    expect(goals.lines.join("\n")).not.toContain("MISS");
    expect(goals.pass).toBe(true);
  });
});
