import { describe, expect, it } from "vitest";
import { DEFAULT_SESSION_CONFIG } from "./config";
import { analyzeCoverage, refinementQueries } from "./coverage";
import type { SearchSession } from "./model";
import { mergeRefinementResults, REFINEMENT_LIMITS } from "./search";
import { appendStep, startSession } from "./steps";
import { clip, keyTerms, stem, stemSet } from "./text";

function session(): SearchSession {
  let s = startSession(
    { sessionId: "srch_x", orgId: "org", createdBy: "usr" },
    {
      stepNumber: 1,
      nextStepNeeded: true,
      researchGoal: "Which vector database fits on-device search for mobile apps?",
      searchStep: "Listed candidate vector databases",
      sources: [{ url: "https://a.example/dbs", title: "Embedded vector databases compared", snippet: "SQLite extensions and on-device search engines" }],
      knowledgeGap: "What are the licensing costs?",
    },
    0,
    DEFAULT_SESSION_CONFIG,
  );
  s = appendStep(
    s,
    { sessionId: "srch_x", stepNumber: 2, nextStepNeeded: true, searchStep: "Read about mobile apps", sources: [{ url: "https://b.example/cooking", title: "Pasta recipes" }] },
    1,
    DEFAULT_SESSION_CONFIG,
  ).session;
  return s;
}

describe("text helpers", () => {
  it("stems plurals and -ing forms and drops function words", () => {
    expect(["databases", "queries", "benchmarking", "analysis"].map(stem)).toEqual(["database", "query", "benchmark", "analysis"]);
    expect(keyTerms("What is the best way to compare vector databases?").map((t) => t.word)).toEqual(["vector", "databases"]);
  });

  it("keeps a hyphenated compound one facet, matched however a source writes it", () => {
    expect(keyTerms("battery solid-state").map((t) => t.word)).toEqual(["battery", "solid-state"]);
    expect(stem("solid-states")).toBe("solid-state");
    const term = keyTerms("solid-state")[0];
    for (const text of ["Solid-state cells", "solid state batteries", "Solid-states"]) expect(stemSet(text).has(term?.stem ?? ""), text).toBe(true);
    expect(stemSet("a solid plan for the state").has(term?.stem ?? "")).toBe(false);
  });

  it("marks a cut text as cut", () => {
    expect(clip("abcdef", 3)).toBe("abc… [truncated: 6 characters in full]");
    expect(clip("abc", 3)).toBe("abc");
  });
});

describe("coverage analysis", () => {
  it("lists which sources and steps cover each facet of the goal and of the open gaps", () => {
    const coverage = analyzeCoverage(session());
    expect(coverage.facets.map((f) => [f.facet, f.kind, f.covered, f.sources, f.steps])).toEqual([
      ["vector", "goal", true, ["S1"], [1]],
      ["database", "goal", true, ["S1"], [1]],
      ["on-device", "goal", true, ["S1"], []],
      ["search", "goal", true, ["S1"], []],
      ["mobile", "goal", false, [], [2]],
      ["apps", "goal", false, [], [2]],
      ["What are the licensing costs?", "gap", false, [], []],
    ]);
    expect(coverage).toMatchObject({ coveredFacets: 4, totalFacets: 7, sourcesMatchingNoFacet: ["S2"] });
    expect(coverage.uncovered).toEqual(["mobile", "apps", "What are the licensing costs?"]);
  });

  it("suggests refinement queries for open gaps first, then uncovered goal terms, deterministically", () => {
    const s = session();
    const queries = refinementQueries(s, analyzeCoverage(s));
    expect(queries).toEqual(["licensing costs vector database", "mobile vector database", "apps vector database"]);
    expect(refinementQueries(session(), analyzeCoverage(session()))).toEqual(queries);
  });

  it("has nothing to measure without a goal or gaps", () => {
    const s = startSession({ sessionId: "s", orgId: "o", createdBy: "u" }, { stepNumber: 1, nextStepNeeded: true, searchStep: "x" }, 0, DEFAULT_SESSION_CONFIG);
    const coverage = analyzeCoverage(s);
    expect(coverage).toEqual({ facets: [], coveredFacets: 0, totalFacets: 0, uncovered: [], sourcesMatchingNoFacet: [] });
    expect(refinementQueries(s, coverage)).toEqual([]);
  });
});

describe("merging refinement results", () => {
  it("interleaves by rank, drops repeated URLs and non-web URLs, and caps the total", () => {
    const hits = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://${prefix}.example/${i + 1}`, title: `${prefix}${i + 1}`, snippet: "s" }));
    const { results, dropped } = mergeRefinementResults([
      { provider: "brave", query: "q1", results: [...hits("a", 5)], error: null },
      { provider: "brave", query: "q2", results: [{ url: "https://a.example/1#x", title: "dup", snippet: "" }, { url: "javascript:alert(1)", title: "bad", snippet: "" }, ...hits("b", 5)], error: null },
      { provider: "brave", query: "q3", results: hits("c", 5), error: null },
    ]);
    expect(results.slice(0, 4).map((r) => [r.query, r.title, r.rank])).toEqual([
      ["q1", "a1", 1],
      ["q3", "c1", 1],
      ["q1", "a2", 2],
      ["q3", "c2", 2],
    ]);
    expect(results).toHaveLength(REFINEMENT_LIMITS.total);
    expect(dropped).toBe(15 - REFINEMENT_LIMITS.total);
    expect(results.every((r) => r.provider === "brave" && r.url.startsWith("https://"))).toBe(true);
  });
});
