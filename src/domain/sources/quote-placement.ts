/**
 * Where a quote's parts stand on the page, once both are normalized (see quote-match.ts for the passes
 * around this one): its groups in order (an ellipsis between two), each group's parts close together
 * with its brackets standing for the few page words between them (judged by brackets.ts), on word
 * boundaries, no omission skipping a negation, no quote starting right after one, and the parts of an
 * elided quote within one paragraph or PLACEMENT_LIMITS.ellipsisGapWords words apart. Pure, bounded.
 */
import { BRACKET_MAX_WORDS, bracketProblem, bracketReason, type QuoteEdit } from "./brackets";
import { isNegation } from "./negation";
import { isWordCode, tokenize } from "./normalize";
import type { GroupBracket, QuoteParts } from "./quote-parts";

export const PLACEMENT_LIMITS = {
  /** Occurrences of a part tried before giving up on a placement of the quote. */
  maxAttempts: 500,
  /** Words an ellipsis may skip across a paragraph break (a line of the page's text); within one paragraph, any number. */
  ellipsisGapWords: 100,
} as const;

const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";
export const isWordChar = (char: string | undefined) => char !== undefined && isWordCode(char.charCodeAt(0));

/**
 * Whether text[start, end) stands on word boundaries, as the quote it matched would be read: no
 * letter or digit glued on either side, no digits continuing a number across a point or comma, no
 * sign or percent sign left out next to a number.
 */
export function onBoundaries(text: string, start: number, end: number): boolean {
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
export function* occurrences(text: string, needle: string, from: number): Generator<number> {
  let at = text.indexOf(needle, from);
  while (at >= 0) {
    if (onBoundaries(text, at, at + needle.length)) yield at;
    at = text.indexOf(needle, at + 1);
  }
}

export const wordsOf = (text: string) => tokenize(text).map((token) => token.text);

/**
 * Whether the word right before `start` (no punctuation between) negates what follows: a quote that
 * starts after "not" or "no" says the opposite of its source ("descartamos traer agua", quoting "no
 * descartamos traer agua"). `text` is normalized.
 */
export function negatedBefore(text: string, start: number): boolean {
  return negationBefore(text, start) >= 0;
}

/**
 * Whether the negating word at `negation` (an offset of the original) is an answer standing alone at the end of
 * the line above the quote's start at `quote` ("Plan to share data: No", a table cell "No"): it governs nothing on
 * the next line. A negation ending a line mid-sentence ("the drug was not⏎effective", a PDF's line) still does.
 */
export function answerOnLineAbove(original: string, negation: number, quote: number): boolean {
  if (!/[\n\r\u2028\u2029]/.test(original.slice(negation, quote))) return false;
  let i = negation - 1;
  while (i >= 0 && (original[i] === " " || original[i] === "\t" || original[i] === "\u00a0")) i--;
  return i < 0 || "\n\r\u2028\u2029:;,.!?()|".includes(original[i] ?? "");
}

/** Where the negating word right before `start` begins (see negatedBefore), or -1. */
function negationBefore(text: string, start: number): number {
  let end = start;
  while (end > 0 && text[end - 1] === " ") end--;
  if (end === 0 || !isWordChar(text[end - 1])) return -1;
  const from = Math.max(0, end - 40);
  const tokens = tokenize(text.slice(from, end));
  const last = tokens[tokens.length - 1];
  return last !== undefined && isNegation(last.text) ? from + last.start : -1;
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

export interface Placement {
  /** Normalized offsets of the group's span, the page words its brackets stand for included. */
  start: number;
  end: number;
  /** Its brackets and the normalized span of the page words each stands for (from === to: none). */
  edits: PlacedEdit[];
}

interface PlacedEdit {
  bracket: string;
  order: number;
  from: number;
  to: number;
}

/** The page as the placement reads it: normalized text, its map back to the original, and the original. */
export interface Page {
  text: string;
  starts: Int32Array;
  ends: Int32Array;
  original: string;
  /** Words of the original already looked up in lower case (a common word, not a name). */
  lowerCase: Map<string, boolean>;
}

/** Characters a bracket may stand for: BRACKET_MAX_WORDS long words and their spaces. */
const BRACKET_MAX_CHARS = 200;
/** Punctuation that ends the words a bracket at a group's edge may stand for. */
const CLAUSE_MARKS = new Set([",", ";", ":", ".", "!", "?", "(", ")"]);

/** The first occurrence of `part` on word boundaries starting within BRACKET_MAX_CHARS of `from`, or -1: bounded work. */
function nearbyOccurrence(text: string, part: string, from: number): number {
  const window = text.slice(from, from + BRACKET_MAX_CHARS + part.length);
  for (let at = window.indexOf(part); at >= 0; at = window.indexOf(part, at + 1)) {
    if (onBoundaries(text, from + at, from + at + part.length)) return from + at;
  }
  return -1;
}

/** Whether the original page breaks a line (a paragraph, a block) between two normalized offsets. */
function lineBreakBetween(page: Page, from: number, to: number): boolean {
  const start = page.starts[from] ?? page.original.length;
  const end = to >= page.text.length ? page.original.length : (page.starts[to] ?? page.original.length);
  const between = page.original.slice(start, end);
  return /[\n\r\u2028\u2029]/.test(between);
}

/**
 * The span of page words a bracket at a group's edge stands for: up to BRACKET_MAX_WORDS words before
 * `at` (or after it), within the clause and the line. Normalized offsets; from === to when none.
 */
function edgeWords(page: Page, at: number, direction: "before" | "after", floor = 0): { from: number; to: number } {
  const before = direction === "before";
  const windowStart = before ? Math.max(0, at - BRACKET_MAX_CHARS) : at;
  const tokens = tokenize(page.text.slice(windowStart, before ? at : at + BRACKET_MAX_CHARS));
  if (before) tokens.reverse();
  let span = null as { from: number; to: number } | null;
  let edge = at;
  for (const token of tokens.slice(0, BRACKET_MAX_WORDS)) {
    const start = windowStart + token.start;
    const end = windowStart + token.end;
    if (start < floor) break;
    const [gapFrom, gapTo] = before ? [end, edge] : [edge, start];
    if ([...page.text.slice(gapFrom, gapTo)].some((char) => CLAUSE_MARKS.has(char)) || lineBreakBetween(page, gapFrom, gapTo)) break;
    span = before ? { from: start, to: span?.to ?? end } : { from: span?.from ?? start, to: end };
    edge = before ? start : end;
  }
  return span ?? { from: at, to: at };
}

/** Whether the page writes `word` (lower case) in lower case on word boundaries somewhere: memoized, one scan a word. */
function usedInLowerCase(page: Page, word: string): boolean {
  const known = page.lowerCase.get(word);
  if (known !== undefined) return known;
  let found = false;
  for (let at = page.original.indexOf(word); at >= 0 && !found; at = page.original.indexOf(word, at + 1)) {
    found = !isWordChar(page.original[at - 1]) && !isWordChar(page.original[at + word.length]);
  }
  page.lowerCase.set(word, found);
  return found;
}

/** The original text of a normalized span ("" when empty). */
export const originalOf = (page: Page, span: { from: number; to: number }): string =>
  span.to > span.from ? page.original.slice(page.starts[span.from] ?? 0, page.ends[span.to - 1] ?? 0) : "";

/** The span's page words as normalized text, spaces and edge punctuation trimmed: what a bracket stands for. */
function trimmedSpan(text: string, from: number, to: number): { from: number; to: number } {
  let start = from;
  let end = to;
  while (start < end && !isWordChar(text[start])) start++;
  while (end > start && !isWordChar(text[end - 1])) end--;
  return { from: start, to: end };
}

type GroupResult = { placed: Placement } | { refused: Placement; reason: string } | null;

/**
 * Where a group's parts stand, each within BRACKET_MAX_WORDS words of the one before, and its brackets
 * judged against the page words they stand for (brackets.ts): a bracket that adds a negation, a number or
 * a name, or leaves out one the page's words carry, refuses the placement with its reason.
 */
function placeGroup(page: Page, parts: readonly string[], brackets: readonly GroupBracket[], start: number, firstPart: string, floor: number): GroupResult {
  const { text } = page;
  let end = start + firstPart.length;
  const spans = new Map<number, { from: number; to: number }>();
  for (const [k, part] of parts.entries()) {
    if (k === 0) continue;
    const next = nearbyOccurrence(text, part, end);
    if (next < 0) return null;
    if (wordsOf(text.slice(end, next)).length > BRACKET_MAX_WORDS) return null;
    spans.set(k, trimmedSpan(text, end, next));
    end = next + part.length;
  }
  let spanStart = start;
  let spanEnd = end;
  const edits: PlacedEdit[] = [];
  let problem: string | null = null;
  for (const bracket of brackets) {
    const span =
      bracket.at === 0 ? edgeWords(page, start, "before", floor) : bracket.at >= parts.length ? edgeWords(page, end, "after") : (spans.get(bracket.at) ?? { from: end, to: end });
    if (bracket.at === 0) spanStart = Math.min(spanStart, span.from);
    if (bracket.at >= parts.length) spanEnd = Math.max(spanEnd, span.to);
    edits.push({ bracket: bracket.text, order: bracket.order, from: span.from, to: span.to });
    const replaces = originalOf(page, span);
    const found = problem
      ? null
      : bracketProblem(bracket.inner, replaces, {
          sentenceStart: bracket.sentenceStart,
          usedInLowerCase: (word) => usedInLowerCase(page, word),
          ...(bracket.at === 0 ? { edge: "before" as const } : bracket.at >= parts.length ? { edge: "after" as const } : {}),
        });
    if (found) problem = bracketReason(bracket.text, found);
  }
  const placement = { start: spanStart, end: spanEnd, edits };
  return problem ? { refused: placement, reason: problem } : { placed: placement };
}

export interface Search {
  attempts: number;
  /** For each group, the position from which it does not occur at all (so no search from there repeats a scan of the page). */
  absentFrom: number[];
  /** Set when a placement was refused because an omission skipped a negation… */
  droppedNegation: boolean;
  /** …or because the page negates the words the quote starts with… */
  negatedBefore: boolean;
  /** …or because an omission joined parts too far apart… */
  tooFar: boolean;
  /** …or, the first time, because a bracket says what the page's words it stands for do not. */
  bracket: { placements: Placement[]; reason: string } | null;
}

/** Whether an omission from `from` to `to` leaves the paragraph and skips more than ellipsisGapWords words. */
function tooFarApart(page: Page, from: number, to: number): boolean {
  if (!lineBreakBetween(page, from, to)) return false;
  let words = 0;
  for (let i = from; i < to; i++) {
    if (isWordChar(page.text[i]) && !isWordChar(page.text[i - 1]) && ++words > PLACEMENT_LIMITS.ellipsisGapWords) return true;
  }
  return false;
}

/** The groups placed in order from `from`, or null. Backtracks over occurrences, at most maxAttempts in all. */
export function placeGroups(page: Page, quote: QuoteParts, index: number, from: number, search: Search, prior: readonly Placement[] = []): Placement[] | null {
  const { text } = page;
  const parts = quote.groups[index];
  if (!parts) return [];
  const brackets = quote.brackets[index] ?? [];
  const firstPart = parts[0] ?? "";
  if (from >= (search.absentFrom[index] ?? Number.POSITIVE_INFINITY)) return null;
  let found = false;
  for (const at of occurrences(text, firstPart, from)) {
    found = true;
    if (++search.attempts > PLACEMENT_LIMITS.maxAttempts) return null;
    if (index > 0 && tooFarApart(page, from, at)) {
      // Every later occurrence is farther still.
      search.tooFar = true;
      break;
    }
    // A bracket opening this group stands for page words after the group before it, never within it.
    const result = placeGroup(page, parts, brackets, at, firstPart, from);
    if (!result) continue;
    const placed = "placed" in result ? result.placed : result.refused;
    const negation = index === 0 ? negationBefore(text, placed.start) : -1;
    if (negation >= 0 && !answerOnLineAbove(page.original, page.starts[negation] ?? 0, page.starts[placed.start] ?? 0)) {
      search.negatedBefore = true;
      continue;
    }
    if (index > 0 && skipsNegation(text.slice(from, placed.start))) {
      search.droppedNegation = true;
      continue;
    }
    // A refused bracket still places the quote, for the verdict to show the page's passage, unless a placement with none is found.
    const rest = placeGroups(page, quote, index + 1, placed.end, search, [...prior, placed]);
    if (rest && "placed" in result) return [placed, ...rest];
    if (rest && "refused" in result) search.bracket ??= { placements: [...prior, placed, ...rest], reason: result.reason };
    if (search.attempts > PLACEMENT_LIMITS.maxAttempts) return null;
  }
  if (!found) search.absentFrom[index] = Math.min(from, search.absentFrom[index] ?? Number.POSITIVE_INFINITY);
  return null;
}
/** Each bracket of the quote with the page words it stands for (an annotation: none), in the quote's order. */
export function editsOf(page: Page, parts: QuoteParts, placements: readonly Placement[]): QuoteEdit[] {
  const listed: (QuoteEdit & { order: number })[] = placements.flatMap((placement) =>
    placement.edits.map((edit) => ({ bracket: edit.bracket, replaces: originalOf(page, edit), order: edit.order })),
  );
  for (const mark of parts.fixed) {
    const group = mark.word ? placements[mark.word.group] : undefined;
    let replaces = "";
    if (mark.word && group) {
      const within = page.text.slice(group.start, group.end);
      for (let at = within.indexOf(mark.word.text); at >= 0; at = within.indexOf(mark.word.text, at + 1)) {
        const from = group.start + at;
        const to = from + mark.word.text.length;
        if (onBoundaries(page.text, from, to)) {
          replaces = originalOf(page, { from, to });
          break;
        }
      }
    }
    listed.push({ bracket: mark.text, replaces, order: mark.order });
  }
  return listed.sort((a, b) => a.order - b.order).map(({ bracket, replaces }) => ({ bracket, replaces }));
}

