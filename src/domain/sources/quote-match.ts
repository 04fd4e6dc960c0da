/**
 * Is the quote an assistant sent really in the page it cites? Pure; the page text is what a reader
 * of the page sees (the fetch and the visible-text extraction happen elsewhere).
 *
 * In order, the first that answers:
 * 1. exact: the quote, trimmed, is in the page as it stands;
 * 2. normalized: it is there once both are normalized (see normalize.ts: Unicode compatibility
 *    forms, case, whitespace, quotation marks, dashes, invisible characters), an ellipsis splitting
 *    it into groups that must appear in order and a bracketed insertion standing for at most a few
 *    words (see quote-parts.ts);
 * 3. fuzzy: the passage of the page closest to it (see fuzzy.ts), scored 0–1.
 *
 * `verified` comes only from 1 and 2, so a quote with one word or number changed, a negation added
 * or dropped, or two words swapped is never verified: at best it is `partial`, and the passage it
 * returns is the page's own wording, for the assistant to quote exactly. Matches must start and end
 * on word boundaries ("50 percent" is not in "150 percent", nor "2" in "2.4"), an omission
 * (ellipsis or bracket) may not skip a negation that governs the words after it ("the drug was …
 * effective"),
 * and a quote may not start right after one ("effective in children", quoting "not effective in children").
 *
 * Bounded: a quote over QUOTE_MAX_CHARS is not checked; a page is read up to SNAPSHOT_MAX_CHARS;
 * every pass is linear in the page plus an alignment bounded by the quote's length squared; no
 * regular expression is built from either text.
 */
import { fuzzyMatch } from "./fuzzy";
import { isWordCode, normalizeText, tokenize } from "./normalize";
import { isNegation } from "./negation";
import { BRACKET_MAX_WORDS, quoteParts } from "./quote-parts";
import { type PreparedSnapshot, prepareSnapshot, SNAPSHOT_MAX_CHARS } from "./snapshot";

export { type PreparedSnapshot, prepareSnapshot } from "./snapshot";

export const QUOTE_MATCH_LIMITS = {
  /** Longest quote checked (the ledger's limit on an evidence quote). */
  quoteChars: 4_000,
  /** Page text searched. */
  snapshotChars: SNAPSHOT_MAX_CHARS,
  /** Shorter quotes match almost any page, so they are not checked: fewer words… */
  minWords: 3,
  /** …or fewer characters (normalized, brackets and ellipses left out). */
  minChars: 10,
  /** Omissions (ellipses) in one quote. */
  maxOmissions: 9,
  /** Fuzzy score from which the closest passage is reported as `partial`. */
  partialScore: 0.5,
  /** Fuzzy scores stay below 1: 1 means the quote is in the page. */
  maxFuzzyScore: 0.99,
  /** Occurrences of a part tried before giving up on a placement of the quote. */
  maxAttempts: 500,
} as const;

export type QuoteStatus = "verified" | "partial" | "not_found" | "unchecked";
export type QuoteMethod = "exact" | "normalized" | "fuzzy";

export interface QuotePassage {
  /** Offsets into the page text as given (UTF-16 units), end exclusive. */
  start: number;
  end: number;
  text: string;
}

export interface QuoteMatch {
  status: QuoteStatus;
  /** The pass that answered; null when the quote was not checked. */
  method: QuoteMethod | null;
  /** 1 when verified; the fuzzy similarity (below 1) otherwise; 0 when not checked. */
  score: number;
  /** Where the quote (verified) or the closest passage (partial) stands. Its text is the page's: untrusted. */
  passage?: QuotePassage;
  /** Why it is not verified. Only the matcher's own words and the quote's, never the page's. */
  reason?: string;
}

const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";
const isWordChar = (char: string | undefined) => char !== undefined && isWordCode(char.charCodeAt(0));

/**
 * Whether text[start, end) stands on word boundaries, as the quote it matched would be read: no
 * letter or digit glued on either side, no digits continuing a number across a point or comma, no
 * sign or percent sign left out next to a number.
 */
function onBoundaries(text: string, start: number, end: number): boolean {
  const first = text[start];
  const last = text[end - 1];
  const before = text[start - 1];
  const after = text[end];
  if (isWordChar(first) && isWordChar(before)) return false;
  if (isWordChar(last) && isWordChar(after)) return false;
  if (isDigit(first) && (before === "-" || before === "+" || ((before === "." || before === ",") && isDigit(text[start - 2])))) return false;
  if (isDigit(last) && (after === "%" || ((after === "." || after === ",") && isDigit(text[end + 1])))) return false;
  return true;
}

/** Occurrences of `needle` in `text` from `from` on, on word boundaries. */
function* occurrences(text: string, needle: string, from: number): Generator<number> {
  let at = text.indexOf(needle, from);
  while (at >= 0) {
    if (onBoundaries(text, at, at + needle.length)) yield at;
    at = text.indexOf(needle, at + 1);
  }
}

const wordsOf = (text: string) => tokenize(text).map((token) => token.text);

/**
 * Whether the word right before `start` (no punctuation between) negates what follows: a quote that
 * starts after "not" or "no" says the opposite of its source ("descartamos traer agua", quoting "no
 * descartamos traer agua"). `text` is normalized.
 */
function negatedBefore(text: string, start: number): boolean {
  let end = start;
  while (end > 0 && text[end - 1] === " ") end--;
  if (end === 0 || !isWordChar(text[end - 1])) return false;
  const words = wordsOf(text.slice(Math.max(0, end - 40), end));
  const last = words[words.length - 1];
  return last !== undefined && isNegation(last);
}

/** Punctuation that closes a clause; a point between digits is a decimal point, not a boundary. */
function clauseStart(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    const char = text[i] ?? "";
    if (",;:!?()".includes(char)) return i + 1;
    if (char === "." && !(isDigit(text[i - 1]) && isDigit(text[i + 1]))) return i + 1;
  }
  return 0;
}

/**
 * Whether an omission drops a negation that governs what the quote keeps after it: a negation in
 * the omitted text's last clause ("the drug was … effective" over " not "). A negation in an
 * omitted clause that punctuation closes ("flew to Tasmania … a journey of 11 days" over
 * " without stopping, ") governs nothing that was kept.
 */
const skipsNegation = (gap: string) => wordsOf(gap.slice(clauseStart(gap))).some(isNegation);

interface Placement {
  start: number;
  end: number;
}

/** Characters a bracket may stand for: BRACKET_MAX_WORDS long words and their spaces. */
const BRACKET_MAX_CHARS = 200;

/** The first occurrence of `part` on word boundaries starting within BRACKET_MAX_CHARS of `from`, or -1: bounded work. */
function nearbyOccurrence(text: string, part: string, from: number): number {
  const window = text.slice(from, from + BRACKET_MAX_CHARS + part.length);
  for (let at = window.indexOf(part); at >= 0; at = window.indexOf(part, at + 1)) {
    if (onBoundaries(text, from + at, from + at + part.length)) return from + at;
  }
  return -1;
}

/** Where a group's parts stand, each within BRACKET_MAX_WORDS words (no negation, no number) of the one before. */
function placeGroup(text: string, parts: readonly string[], start: number, firstPart: string): Placement | null {
  let end = start + firstPart.length;
  for (const part of parts.slice(1)) {
    const next = nearbyOccurrence(text, part, end);
    if (next < 0) return null;
    const gap = text.slice(end, next);
    const gapWords = wordsOf(gap);
    if (gapWords.length > BRACKET_MAX_WORDS || gapWords.some((word) => isNegation(word) || /\d/.test(word))) return null;
    end = next + part.length;
  }
  return { start, end };
}

interface Search {
  attempts: number;
  /** For each group, the position from which it does not occur at all (so no search from there repeats a scan of the page). */
  absentFrom: number[];
  /** Set when a placement was refused because an omission skipped a negation… */
  droppedNegation: boolean;
  /** …or because the page negates the words the quote starts with. */
  negatedBefore: boolean;
}

/** The groups placed in order from `from`, or null. Backtracks over occurrences, at most maxAttempts in all. */
function placeGroups(text: string, groups: readonly (readonly string[])[], index: number, from: number, search: Search): Placement[] | null {
  const parts = groups[index];
  if (!parts) return [];
  const firstPart = parts[0] ?? "";
  if (from >= (search.absentFrom[index] ?? Number.POSITIVE_INFINITY)) return null;
  let found = false;
  for (const at of occurrences(text, firstPart, from)) {
    found = true;
    if (++search.attempts > QUOTE_MATCH_LIMITS.maxAttempts) return null;
    const placed = placeGroup(text, parts, at, firstPart);
    if (!placed) continue;
    if (index === 0 && negatedBefore(text, placed.start)) {
      search.negatedBefore = true;
      continue;
    }
    if (index > 0 && skipsNegation(text.slice(from, placed.start))) {
      search.droppedNegation = true;
      continue;
    }
    const rest = placeGroups(text, groups, index + 1, placed.end, search);
    if (rest) return [placed, ...rest];
    if (search.attempts > QUOTE_MATCH_LIMITS.maxAttempts) return null;
  }
  if (!found) search.absentFrom[index] = Math.min(from, search.absentFrom[index] ?? Number.POSITIVE_INFINITY);
  return null;
}

const unchecked = (reason: string): QuoteMatch => ({ status: "unchecked", method: null, score: 0, reason });

/** Matches `quote` against a page's visible text (a string, or one prepared once for several quotes). */
export function matchQuote(quote: string, page: string | PreparedSnapshot): QuoteMatch {
  if (quote.length > QUOTE_MATCH_LIMITS.quoteChars) return unchecked(`quote longer than ${QUOTE_MATCH_LIMITS.quoteChars} characters`);
  const parts = quoteParts(quote);
  if (parts.words < QUOTE_MATCH_LIMITS.minWords || parts.chars < QUOTE_MATCH_LIMITS.minChars) {
    return unchecked(
      parts.words === 0
        ? "empty quote"
        : `quote too short to check (${parts.words} words, ${parts.chars} characters; at least ${QUOTE_MATCH_LIMITS.minWords} words and ${QUOTE_MATCH_LIMITS.minChars} characters)`,
    );
  }
  if (parts.groups.length > QUOTE_MATCH_LIMITS.maxOmissions + 1) return unchecked(`more than ${QUOTE_MATCH_LIMITS.maxOmissions} omissions in one quote`);
  const snapshot = typeof page === "string" ? prepareSnapshot(page) : page;
  if (snapshot.normalized.text === "") return unchecked("the page has no text");
  const cut = snapshot.truncated ? ` (the page was searched over its first ${QUOTE_MATCH_LIMITS.snapshotChars} characters)` : "";
  const passageAt = (start: number, end: number): QuotePassage => ({ start, end, text: snapshot.original.slice(start, end) });

  // 1. Exact.
  const trimmed = quote.trim();
  for (const at of occurrences(snapshot.original, trimmed, 0)) {
    const before = normalizeText(snapshot.original.slice(Math.max(0, at - 40), at));
    if (negatedBefore(before, before.length)) continue;
    return { status: "verified", method: "exact", score: 1, passage: passageAt(at, at + trimmed.length) };
  }

  // 2. Normalized, omissions and insertions allowed.
  const { text, starts, ends } = snapshot.normalized;
  const search: Search = { attempts: 0, absentFrom: [], droppedNegation: false, negatedBefore: false };
  const placed = placeGroups(text, parts.groups, 0, 0, search);
  if (placed && placed.length > 0) {
    const first = placed[0] as Placement;
    const last = placed[placed.length - 1] as Placement;
    return { status: "verified", method: "normalized", score: 1, passage: passageAt(starts[first.start] ?? 0, ends[last.end - 1] ?? 0) };
  }

  // 3. Fuzzy, group by group; the score weighs each group by its length.
  const words = snapshot.words();
  let weighted = 0;
  let total = 0;
  const hits: FuzzyPassage[] = [];
  for (const group of parts.groups) {
    const groupWords = group.flatMap(wordsOf);
    const hit = fuzzyMatch(words, groupWords);
    total += groupWords.length;
    if (!hit) continue;
    weighted += hit.score * groupWords.length;
    hits.push({ score: hit.score, start: words.starts[hit.firstWord] ?? 0, end: words.ends[hit.endWord - 1] ?? 0, missing: hit.missing, extra: hit.extra });
  }
  const score = Math.min(QUOTE_MATCH_LIMITS.maxFuzzyScore, total === 0 ? 0 : weighted / total);
  const negation = `${search.droppedNegation ? "; an omission in the quote skips a negation" : ""}${search.negatedBefore ? "; the page negates what the quote starts with" : ""}`;
  const passage = closestPassage(hits, parts.chars, hits.length === parts.groups.length);
  if (!passage || score < QUOTE_MATCH_LIMITS.partialScore) {
    return { status: "not_found", method: "fuzzy", score: round(score), reason: `no passage of the page matches the quote${negation}${cut}` };
  }
  const list = (words: string[]) => words.map((word) => `"${word}"`).join(", ");
  const missing = passage.missing.length > 0 ? `; the quote's ${list(passage.missing)} not in it` : "";
  const extra = passage.extra > 0 ? `; ${passage.extra} ${passage.extra === 1 ? "word" : "words"} of the passage not in the quote` : "";
  return {
    status: "partial",
    method: "fuzzy",
    score: round(score),
    passage: passageAt(starts[passage.start] ?? 0, ends[passage.end - 1] ?? 0),
    reason: `the closest passage differs from the quote${missing}${extra}${negation}${cut}`,
  };
}

interface FuzzyPassage {
  score: number;
  /** Offsets in the normalized text. */
  start: number;
  end: number;
  missing: string[];
  extra: number;
}

/**
 * One passage for the whole quote: the groups' passages together when every group was placed, in
 * order and close (at most twice the quote's length plus 200 characters), else the best group's.
 */
function closestPassage(hits: readonly FuzzyPassage[], quoteChars: number, everyGroup: boolean): FuzzyPassage | null {
  const first = hits[0];
  const last = hits[hits.length - 1];
  if (!first || !last) return null;
  const inOrder = hits.every((hit, i) => i === 0 || hit.start >= (hits[i - 1] as FuzzyPassage).end);
  if (everyGroup && hits.length > 1 && inOrder && last.end - first.start <= 2 * quoteChars + 200) {
    return { score: first.score, start: first.start, end: last.end, missing: hits.flatMap((hit) => hit.missing).slice(0, 5), extra: hits.reduce((sum, hit) => sum + hit.extra, 0) };
  }
  return hits.reduce((best, hit) => (hit.score > best.score ? hit : best), first);
}

const round = (value: number) => Math.round(value * 1000) / 1000;
