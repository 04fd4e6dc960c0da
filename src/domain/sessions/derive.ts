import type { Branch, KnowledgeGap, SearchSession, SessionSource, SessionStep } from "./model";
import { covers, keyTerms, stemSet } from "./text";

/** Everything a step says, for matching: its text and its sources' titles and snippets. */
export const stepText = (step: SessionStep): string =>
  [step.searchStep, ...step.sources.flatMap((source) => [source.title, source.snippet ?? ""])].join("\n");

const sameGap = (a: string, b: string) => a.trim().toLowerCase().replace(/\s+/g, " ") === b.trim().toLowerCase().replace(/\s+/g, " ");

/** What a step brought as evidence, for matching: its attached sources' titles and snippets (not its own words). */
const sourceText = (step: SessionStep): string => step.sources.map((source) => `${source.title}\n${source.snippet ?? ""}`).join("\n");

/**
 * Knowledge gaps, open → addressed. Each distinct `knowledgeGap` text opens a gap
 * (the same text noted again is the same gap). A gap is addressed by the first
 * later step that attached a source whose title or snippet contains its key terms
 * (all of one or two terms, else two thirds of them): evidence on the gap, not a
 * step that merely mentions it ("manufacturing yield still unknown" addresses
 * nothing). Derived from the steps alone, so the rule gives the same answer every
 * time the session is read.
 */
export function deriveGaps(steps: readonly SessionStep[]): KnowledgeGap[] {
  const gaps: KnowledgeGap[] = [];
  const stems = steps.map((step) => stemSet(sourceText(step)));
  for (const step of steps) {
    const text = step.knowledgeGap?.trim();
    if (!text || gaps.some((gap) => sameGap(gap.text, text))) continue;
    const terms = keyTerms(text, 12);
    const addressedBy = steps.find((later, i) => later.stepNumber > step.stepNumber && covers(stems[i] ?? new Set(), terms));
    gaps.push({
      gapId: `G${gaps.length + 1}`,
      text,
      openedAtStep: step.stepNumber,
      status: addressedBy ? "addressed" : "open",
      addressedAtStep: addressedBy?.stepNumber ?? null,
    });
  }
  return gaps;
}

const urlKey = (url: string) => url.trim().replace(/#.*$/, "").replace(/\/+$/, "").toLowerCase();

/** The session's sources, numbered S1, S2, … by first appearance; a URL attached again keeps its ref. */
export function deriveSources(steps: readonly SessionStep[]): SessionSource[] {
  const byUrl = new Map<string, SessionSource>();
  for (const step of steps) {
    for (const source of step.sources) {
      const key = urlKey(source.url);
      const known = byUrl.get(key);
      if (known) {
        if (!known.steps.includes(step.stepNumber)) known.steps.push(step.stepNumber);
        continue;
      }
      byUrl.set(key, { ref: `S${byUrl.size + 1}`, url: source.url, title: source.title, snippet: source.snippet, steps: [step.stepNumber] });
    }
  }
  return [...byUrl.values()];
}

/** Refs of the sources a step attached, in the session's numbering. */
export function sourceRefsOf(step: SessionStep, sources: readonly SessionSource[]): string[] {
  const refs = new Map(sources.map((source) => [urlKey(source.url), source.ref]));
  return [...new Set(step.sources.map((source) => refs.get(urlKey(source.url)) ?? ""))].filter(Boolean);
}

/** Branches by id, with the step each started from and the steps recorded on it. */
export function deriveBranches(steps: readonly SessionStep[]): Branch[] {
  const branches = new Map<string, Branch>();
  for (const step of steps) {
    if (!step.branchId) continue;
    const branch = branches.get(step.branchId) ?? { branchId: step.branchId, fromStep: step.branchFromStep, steps: [] };
    branch.steps.push(step.stepNumber);
    branches.set(step.branchId, branch);
  }
  return [...branches.values()];
}

export const lastStepOf = (session: SearchSession): SessionStep | undefined => session.steps[session.steps.length - 1];
