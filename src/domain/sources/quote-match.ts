/**
 * Is the quote an assistant sent really in the page it cites? Pure; the page text is what a reader
 * of the page sees (the fetch and the visible-text extraction happen elsewhere).
 *
 * In order, the first that answers:
 * 1. exact: the quote, trimmed, is in the page as it stands;
 * 2. normalized: it is there once both are normalized (see normalize.ts: Unicode compatibility
 *    forms, case, whitespace, quotation marks, dashes, invisible characters), an ellipsis splitting
 *    it into groups that must appear in order (within one paragraph of the page, or at most
 *    ellipsisGapWords words apart) and a bracket standing for at most a few page words, which it
 *    may clarify but not add to (see quote-parts.ts, quote-placement.ts, brackets.ts);
 * 3. fuzzy: the passage of the page closest to it (see fuzzy.ts), scored 0–1.
 *
 * `verified` comes only from 1 and 2, so a quote with one word or number changed, a negation added
 * or dropped, or two words swapped is never verified: at best it is `partial`, and the passage it
 * returns is the page's own wording, for the assistant to quote exactly. A bracket that adds a
 * negation, a number or a name is `partial` too, the page's passage and each bracket with the page
 * words it stands for (`edits`) returned. Matches must start and end
 * on word boundaries ("50 percent" is not in "150 percent", nor "2" in "2.4"), an omission
 * (ellipsis or bracket) may not skip a negation that governs the words after it ("the drug was …
 * effective"),
 * and a quote may not start right after one ("effective in children", quoting "not effective in children").
 *
 * Bounded: a quote over QUOTE_MAX_CHARS is not checked; a page is read up to SNAPSHOT_MAX_CHARS;
 * every pass is linear in the page plus an alignment bounded by the quote's length squared; no
 * regular expression is built from either text.
 */

import { BRACKET_MAX_WORDS, type QuoteEdit } from "./brackets";
import { fuzzyMatch } from "./fuzzy";
import { normalizeText } from "./normalize";
import { quoteParts } from "./quote-parts";
import { answerOnLineAbove, editsOf, negatedBefore, occurrences, type Page, PLACEMENT_LIMITS, type Placement, placeGroups, type Search, wordsOf } from "./quote-placement";
import { lowerCaseInPlace, type PreparedSnapshot, prepareSnapshot, SNAPSHOT_MAX_CHARS } from "./snapshot";

export type { QuoteEdit } from "./brackets";
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
  maxAttempts: PLACEMENT_LIMITS.maxAttempts,
  /** Page words a bracket may stand for. */
  bracketWords: BRACKET_MAX_WORDS,
  /** Words an ellipsis may skip across a paragraph break (within one paragraph, any number). */
  ellipsisGapWords: PLACEMENT_LIMITS.ellipsisGapWords,
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
  /**
   * When the quote was placed on the page (verified, or partial because of a bracket): each bracket of the
   * quote and the page words it stands for. `replaces` is the page's text: untrusted.
   */
  edits?: QuoteEdit[];
}


/**
 * Whether the page negates what starts at `at` (the word right before it, see negatedBefore), unless that word is
 * an answer alone on the line above ("Plan to share data: No" over a heading).
 */
function negatedAt(original: string, at: number): boolean {
  const from = Math.max(0, at - 40);
  const before = normalizeText(original.slice(from, at));
  if (!negatedBefore(before, before.length)) return false;
  let word = at;
  while (word > from && !/[\p{L}\p{N}]/u.test(original[word - 1] ?? "")) word--;
  while (word > from && /[\p{L}\p{N}'’]/u.test(original[word - 1] ?? "")) word--;
  return !answerOnLineAbove(original, word, at);
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
    if (negatedAt(snapshot.original, at)) continue;
    return { status: "verified", method: "exact", score: 1, passage: passageAt(at, at + trimmed.length), edits: [] };
  }

  // 1b. As the page has it but for case, brackets kept as text: a bracket the page itself holds at that spot (a
  // citation marker "[2]", a "[sic]" of its own) is the page's text, not an editor's, and adds nothing to judge.
  if (trimmed.includes("[")) {
    const lowerQuote = lowerCaseInPlace(trimmed);
    const lowerPage = snapshot.lowerCased();
    for (const at of occurrences(lowerPage, lowerQuote, 0)) {
      if (negatedAt(snapshot.original, at)) continue;
      return { status: "verified", method: "normalized", score: 1, passage: passageAt(at, at + lowerQuote.length), edits: [] };
    }
  }

  // 2. Normalized, omissions and brackets allowed.
  const { text, starts, ends } = snapshot.normalized;
  const placing: Page = { text, starts, ends, original: snapshot.original, lowerCase: new Map() };
  const search: Search = { attempts: 0, absentFrom: [], droppedNegation: false, negatedBefore: false, tooFar: false, bracket: null };
  const placed = placeGroups(placing, parts, 0, 0, search);
  const spanOf = (placements: readonly Placement[]): QuotePassage => {
    const first = placements[0] as Placement;
    const last = placements[placements.length - 1] as Placement;
    return passageAt(starts[first.start] ?? 0, ends[last.end - 1] ?? 0);
  };
  if (placed && placed.length > 0) {
    return { status: "verified", method: "normalized", score: 1, passage: spanOf(placed), edits: editsOf(placing, parts, placed) };
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
  if (search.bracket) {
    // The quote's own words are on the page, but a bracket says more than the words it stands for: the page's passage instead.
    const { placements, reason } = search.bracket;
    return { status: "partial", method: "fuzzy", score: round(score), passage: spanOf(placements), reason: `${reason}${cut}`, edits: editsOf(placing, parts, placements) };
  }
  const apart = search.tooFar
    ? `; the quote's parts are too far apart (an ellipsis may join parts of one paragraph, or at most ${QUOTE_MATCH_LIMITS.ellipsisGapWords} words apart)`
    : "";
  const negation = `${search.droppedNegation ? "; an omission in the quote skips a negation" : ""}${search.negatedBefore ? "; the page negates what the quote starts with" : ""}${apart}`;
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
