import { deriveGaps, deriveSources } from "./derive";
import type { SearchSession } from "./model";
import { covers, keyTerms, stemSet, type Term } from "./text";

export interface CoverageFacet {
  /** A key term of the research goal, or the text of an open knowledge gap. */
  facet: string;
  kind: "goal" | "gap";
  gapId?: string;
  /** True when at least one attached source mentions it: steps alone are the assistant's words, not evidence. */
  covered: boolean;
  sources: string[];
  steps: number[];
}

export interface Coverage {
  facets: CoverageFacet[];
  coveredFacets: number;
  totalFacets: number;
  uncovered: string[];
  /** Sources that mention no facet: possibly off-topic. */
  sourcesMatchingNoFacet: string[];
}

const MAX_GOAL_FACETS = 8;
const MAX_GAP_FACETS = 8;

interface FacetSpec {
  facet: string;
  kind: "goal" | "gap";
  gapId?: string;
  terms: Term[];
}

function facetsOf(session: SearchSession): FacetSpec[] {
  const goal = keyTerms(session.researchGoal ?? "", MAX_GOAL_FACETS).map((term): FacetSpec => ({ facet: term.word, kind: "goal", terms: [term] }));
  const gaps = deriveGaps(session.steps)
    .filter((gap) => gap.status === "open")
    .slice(0, MAX_GAP_FACETS)
    .map((gap): FacetSpec => ({ facet: gap.text.slice(0, 200), kind: "gap", gapId: gap.gapId, terms: keyTerms(gap.text, 12) }))
    .filter((spec) => spec.terms.length > 0);
  return [...goal, ...gaps];
}

/**
 * Which facets of the research goal and of the open gaps the sources and steps so
 * far mention, and which they do not. Descriptive only: it measures what was
 * gathered, it never answers the question.
 */
export function analyzeCoverage(session: SearchSession): Coverage {
  const sources = deriveSources(session.steps).map((source) => ({ ref: source.ref, stems: stemSet(`${source.title}\n${source.snippet ?? ""}`) }));
  const steps = session.steps.map((step) => ({ stepNumber: step.stepNumber, stems: stemSet(step.searchStep) }));
  const matched = new Set<string>();
  const facets = facetsOf(session).map((spec): CoverageFacet => {
    const bySource = sources.filter((source) => covers(source.stems, spec.terms)).map((source) => source.ref);
    for (const ref of bySource) matched.add(ref);
    return {
      facet: spec.facet,
      kind: spec.kind,
      ...(spec.gapId ? { gapId: spec.gapId } : {}),
      covered: bySource.length > 0,
      sources: bySource,
      steps: steps.filter((step) => covers(step.stems, spec.terms)).map((step) => step.stepNumber),
    };
  });
  const covered = facets.filter((facet) => facet.covered).length;
  return {
    facets,
    coveredFacets: covered,
    totalFacets: facets.length,
    uncovered: facets.filter((facet) => !facet.covered).map((facet) => facet.facet),
    sourcesMatchingNoFacet: facets.length === 0 ? [] : sources.filter((source) => !matched.has(source.ref)).map((source) => source.ref),
  };
}

export const MAX_REFINEMENT_QUERIES = 5;

/**
 * Follow-up search queries for what is not covered yet: open gaps first (oldest
 * first), then uncovered goal terms, each anchored with the goal's two leading terms.
 * The caller decides whether to run them.
 */
export function refinementQueries(session: SearchSession, coverage: Coverage): string[] {
  const anchor = keyTerms(session.researchGoal ?? "", 2);
  const specs = facetsOf(session);
  const queries: string[] = [];
  const seen = new Set<string>();
  // The same words in another order are the same search.
  const add = (words: string[]) => {
    const unique = [...new Set(words)];
    const key = [...unique].sort().join(" ");
    if (unique.length === 0 || seen.has(key)) return;
    seen.add(key);
    queries.push(unique.join(" "));
  };
  const uncovered = (facet: string) => coverage.facets.some((f) => f.facet === facet && !f.covered);
  for (const spec of specs.filter((s) => s.kind === "gap" && uncovered(s.facet))) {
    const own = new Set(spec.terms.map((t) => t.stem));
    add([...spec.terms.slice(0, 6).map((t) => t.word), ...anchor.filter((t) => !own.has(t.stem)).map((t) => t.word)]);
  }
  for (const spec of specs.filter((s) => s.kind === "goal" && uncovered(s.facet))) {
    const term = spec.terms[0];
    if (term) add([term.word, ...anchor.filter((t) => t.stem !== term.stem).map((t) => t.word)]);
  }
  return queries.slice(0, MAX_REFINEMENT_QUERIES);
}
