/**
 * Deterministic text helpers for coverage: key terms of a goal or gap, and whether
 * a text mentions them. No language model, no randomness: the same session always
 * gives the same facets, coverage and refinement queries.
 */

// Function words, question words and research filler that say nothing about a topic.
const STOPWORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both but by can " +
    "could did do does doing down during each either few for from further had has have having he her here hers how i if in into is it " +
    "its itself just like many may me might more most much must my no nor not now of off on once only or other our ours out over own " +
    "per same she should so some such than that the their theirs them then there these they this those through to too under until up " +
    "upon us very via vs was we were what when where whether which while who whom whose why will with within without would you your " +
    "best better find finding good get use used using way ways need needs know new make makes question research researching regarding " +
    "look looking compare comparing comparison versus fit fits choose choosing pick work works help helps"
  ).split(" "),
);

// A hyphenated compound ("solid-state", "lithium-ion") is one word: its parts alone mean something else.
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*(?:-[\p{L}\p{N}][\p{L}\p{N}'’]*)*/gu;

/** A light, rule-based stem: enough to match "databases" with "database" and "benchmarking" with "benchmark". */
export function stem(word: string): string {
  // A compound is stemmed on its last part: "solid-state batteries" and "solid-states" meet at "solid-state".
  const dash = word.lastIndexOf("-");
  if (dash > 0) return `${word.slice(0, dash + 1).toLowerCase()}${stem(word.slice(dash + 1))}`;
  let w = word.toLowerCase().replace(/['’]s?$/, "");
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  return w;
}

export interface Term {
  /** The word as first written (for queries). */
  word: string;
  stem: string;
}

/** Content words of a text in order of first appearance, one per stem. */
export function keyTerms(text: string, max = Number.POSITIVE_INFINITY): Term[] {
  const seen = new Set<string>();
  const terms: Term[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = (match[0] ?? "").replace(/['’]s?$/, "");
    const lower = word.toLowerCase();
    if (word.length < 2 || STOPWORDS.has(lower) || /^\d{1,2}$/.test(word)) continue;
    const s = stem(lower);
    if (seen.has(s)) continue;
    seen.add(s);
    terms.push({ word: lower, stem: s });
    if (terms.length >= max) break;
  }
  return terms;
}

/** The stems of every word of a text, for matching against terms. */
export function stemSet(text: string): Set<string> {
  const stems = new Set<string>();
  let previous: string | null = null;
  for (const match of text.matchAll(WORD)) {
    const word = match[0] ?? "";
    stems.add(stem(word));
    // "solid state" written apart, or as one word, still mentions the compound "solid-state"; a compound's parts are
    // mentioned by it too.
    if (previous !== null) stems.add(stem(`${previous}-${word}`));
    if (word.includes("-")) {
      stems.add(stem(word.replaceAll("-", "")));
      for (const part of word.split("-")) if (part) stems.add(stem(part));
    }
    previous = word.includes("-") ? null : word;
  }
  return stems;
}

/**
 * Whether a text covers a list of terms: every term when there are one or two,
 * otherwise at least two thirds of them (rounded up).
 */
export function covers(stems: Set<string>, terms: readonly Term[]): boolean {
  if (terms.length === 0) return false;
  const needed = terms.length <= 2 ? terms.length : Math.ceil((terms.length * 2) / 3);
  return terms.filter((term) => stems.has(term.stem)).length >= needed;
}

/** Cuts a text to `max` characters, saying so, so a shortened text is never mistaken for the whole. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [truncated: ${text.length} characters in full]`;
}
