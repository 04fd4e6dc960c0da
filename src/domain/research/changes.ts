/**
 * What changed between two deliverables of a series (the previous run's and this run's): sections added and removed
 * (by Markdown headings), claims new, dropped and changed (the claims each deliverable cites, matched by wording and
 * subtopic, not a text diff), sources new and gone (by URL), and numbers that changed (in matching claims and
 * sentences). Each side is what that deliverable said (deliverable-said.ts), never the rest of its plan's ledger.
 * Pure and bounded: at most CHANGE_LIMITS of each input is compared and of each list returned.
 */

export interface DeliverableSide {
  content: string;
  /** The grounded claims the deliverable cites. */
  claims: readonly { subtopic: string; text: string }[];
  /** URLs of the sources the deliverable cites. */
  sourceUrls: readonly string[];
}

export interface NumberChange {
  before: string;
  after: string;
  /** The sentence or claim it is in, as it reads now. */
  context: string;
}

export interface DeliverableChanges {
  /** One paragraph a person reads. */
  summary: string;
  sections: { added: string[]; removed: string[] };
  claims: { new: string[]; dropped: string[]; changed: { before: string; after: string }[] };
  sources: { new: string[]; gone: string[] };
  numbers: NumberChange[];
  /** Some list was longer than its bound (the counts in the summary are whole). */
  clipped: boolean;
}

export const CHANGE_LIMITS = {
  /** Claims, sentences and sources compared per side. */
  claims: 300,
  sentences: 300,
  sources: 1_000,
  headings: 200,
  /** Items listed per list. */
  listed: 20,
  /** Characters of one listed text. */
  textChars: 300,
} as const;

/** Two texts this alike (shared words over all words, numbers set aside) say the same thing, perhaps differently. */
const SAME_THING = 0.5;
/** Within one subtopic a looser likeness is enough. */
const SAME_THING_IN_SUBTOPIC = 0.35;

const NUMBER = /\d+(?:[.,]\d+)*(?:\s?%)?/g;

const clip = (text: string) => (text.length > CHANGE_LIMITS.textChars ? `${text.slice(0, CHANGE_LIMITS.textChars - 1)}…` : text);
const normalize = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();
const wordsOf = (text: string): Set<string> => new Set(normalize(text.replace(NUMBER, " ")).match(/[\p{L}\p{N}]+/gu) ?? []);
const numbersOf = (text: string): string[] => text.match(NUMBER)?.map((n) => n.replace(/\s/g, "")) ?? [];

function likeness(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Markdown headings (ATX), as their text. */
export function headingsOf(content: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of content.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = fenced ? null : /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (match?.[1]) headings.push(match[1].trim());
    if (headings.length >= CHANGE_LIMITS.headings) break;
  }
  return headings;
}

/** The prose sentences of a Markdown text that carry a number (where a changed figure shows). */
function sentencesWithNumbers(content: string): string[] {
  const prose = content
    .split("\n")
    .filter((line) => !/^\s{0,3}#/.test(line))
    .join(" ")
    .replace(/\[(?:[CE]\d+(?:,\s*)?)+\]/g, "");
  const sentences = prose.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter((s) => s.length > 0 && numbersOf(s).length > 0);
  return sentences.slice(0, CHANGE_LIMITS.sentences);
}

interface Matchable {
  text: string;
  subtopic: string | null;
  words: Set<string>;
}

/** Pairs each of `after` with the most alike of `before` not yet taken (best pairs first). */
function matchTexts(before: readonly Matchable[], after: readonly Matchable[]): { pairs: [Matchable, Matchable][]; unmatchedBefore: Matchable[]; unmatchedAfter: Matchable[] } {
  const candidates: { i: number; j: number; score: number }[] = [];
  for (let j = 0; j < after.length; j++) {
    for (let i = 0; i < before.length; i++) {
      const a = before[i] as Matchable;
      const b = after[j] as Matchable;
      const score = likeness(a.words, b.words);
      const sameSubtopic = a.subtopic !== null && b.subtopic !== null && normalize(a.subtopic) === normalize(b.subtopic);
      if (score >= (sameSubtopic ? SAME_THING_IN_SUBTOPIC : SAME_THING)) candidates.push({ i, j, score: score + (sameSubtopic ? 0.01 : 0) });
    }
  }
  candidates.sort((x, y) => y.score - x.score || x.j - y.j || x.i - y.i);
  const takenBefore = new Set<number>();
  const takenAfter = new Set<number>();
  const pairs: [Matchable, Matchable][] = [];
  for (const { i, j } of candidates) {
    if (takenBefore.has(i) || takenAfter.has(j)) continue;
    takenBefore.add(i);
    takenAfter.add(j);
    pairs.push([before[i] as Matchable, after[j] as Matchable]);
  }
  return {
    pairs,
    unmatchedBefore: before.filter((_, i) => !takenBefore.has(i)),
    unmatchedAfter: after.filter((_, j) => !takenAfter.has(j)),
  };
}

/** The figures of a pair that differ, position by position (the first that differs, and any beyond). */
function numberChanges(before: string, after: string): NumberChange[] {
  const a = numbersOf(before);
  const b = numbersOf(after);
  const changes: NumberChange[] = [];
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    if (a[k] !== b[k]) changes.push({ before: a[k] as string, after: b[k] as string, context: clip(after) });
  }
  return changes;
}

function unique(values: Iterable<string>): string[] {
  const seen = new Map<string, string>();
  for (const value of values) if (!seen.has(normalize(value))) seen.set(normalize(value), value);
  return [...seen.values()];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function deliverableChanges(previous: DeliverableSide, current: DeliverableSide): DeliverableChanges {
  let clipped = false;
  const listed = <T>(items: T[]): T[] => {
    if (items.length > CHANGE_LIMITS.listed) clipped = true;
    return items.slice(0, CHANGE_LIMITS.listed);
  };

  const headingsBefore = new Set(headingsOf(previous.content).map(normalize));
  const headingsAfter = new Set(headingsOf(current.content).map(normalize));
  const added = unique(headingsOf(current.content).filter((h) => !headingsBefore.has(normalize(h))));
  const removed = unique(headingsOf(previous.content).filter((h) => !headingsAfter.has(normalize(h))));

  const asMatchable = (claims: DeliverableSide["claims"]): Matchable[] =>
    claims.slice(0, CHANGE_LIMITS.claims).map((claim) => ({ text: claim.text, subtopic: claim.subtopic, words: wordsOf(claim.text) }));
  const claimMatch = matchTexts(asMatchable(previous.claims), asMatchable(current.claims));
  const changedClaims = claimMatch.pairs.filter(([a, b]) => normalize(a.text) !== normalize(b.text));
  const numbers: NumberChange[] = changedClaims.flatMap(([a, b]) => numberChanges(a.text, b.text));

  // Figures in the prose, for deliverables whose claims did not carry them (sentences matched as claims are).
  const asSentences = (content: string): Matchable[] => sentencesWithNumbers(content).map((text) => ({ text, subtopic: null, words: wordsOf(text) }));
  const sentenceMatch = matchTexts(asSentences(previous.content), asSentences(current.content));
  const seen = new Set(numbers.map((n) => `${n.before}→${n.after}`));
  for (const [a, b] of sentenceMatch.pairs) {
    for (const change of numberChanges(a.text, b.text)) {
      const key = `${change.before}→${change.after}`;
      if (!seen.has(key)) {
        seen.add(key);
        numbers.push(change);
      }
    }
  }

  const urlKey = (url: string) => url.trim().replace(/#.*$/, "").replace(/\/$/, "");
  const urlsBefore = new Set(previous.sourceUrls.slice(0, CHANGE_LIMITS.sources).map(urlKey));
  const urlsAfter = new Set(current.sourceUrls.slice(0, CHANGE_LIMITS.sources).map(urlKey));
  const newSources = [...urlsAfter].filter((url) => !urlsBefore.has(url));
  const goneSources = [...urlsBefore].filter((url) => !urlsAfter.has(url));

  const counts = {
    added: added.length,
    removed: removed.length,
    newClaims: claimMatch.unmatchedAfter.length,
    dropped: claimMatch.unmatchedBefore.length,
    changed: changedClaims.length,
    newSources: newSources.length,
    gone: goneSources.length,
    numbers: numbers.length,
  };
  const parts = [
    counts.added || counts.removed ? `sections: ${counts.added} added, ${counts.removed} removed` : null,
    counts.newClaims || counts.dropped || counts.changed ? `claims: ${counts.newClaims} new, ${counts.dropped} dropped, ${counts.changed} changed` : null,
    counts.newSources || counts.gone ? `sources: ${counts.newSources} new, ${counts.gone} gone` : null,
    counts.numbers ? plural(counts.numbers, "number changed", "numbers changed") : null,
  ].filter((part): part is string => part !== null);
  const summary = parts.length === 0 ? "Nothing changed since the previous run: the same sections, claims, sources and figures." : `Since the previous run: ${parts.join("; ")}.`;

  return {
    summary,
    sections: { added: listed(added).map(clip), removed: listed(removed).map(clip) },
    claims: {
      new: listed(claimMatch.unmatchedAfter).map((c) => clip(c.text)),
      dropped: listed(claimMatch.unmatchedBefore).map((c) => clip(c.text)),
      changed: listed(changedClaims).map(([a, b]) => ({ before: clip(a.text), after: clip(b.text) })),
    },
    sources: { new: listed(newSources).map(clip), gone: listed(goneSources).map(clip) },
    numbers: listed(numbers),
    clipped,
  };
}
