/**
 * A source's located passage with some of the page's text either side, so a reviewer judges a claim against what
 * the page says around the quote rather than against the worker's summary. Pure: the snapshot's text in, a bounded
 * window out. Everything it returns is the page's text: untrusted.
 *
 * The ledger keeps the passage's words (clipped to SOURCE_CHECK_LIMITS.passageChars), not its offsets, so the
 * passage is found again in the very text the verdict was reached on: at its exact position first, else by running
 * the quote check again (the dashboard's source page does the same).
 */
import { matchQuote } from "./quote-match";
import { SOURCE_CHECK_LIMITS, type VerificationStatus } from "./verification";

export const PASSAGE_CONTEXT = {
  /** Characters of the page shown either side of the passage, at most (cut back to a word boundary). */
  contextChars: 300,
  /** The passage itself shown up to this many characters; the text after it continues from there. */
  passageChars: SOURCE_CHECK_LIMITS.passageChars,
  /** How far a cut looks for whitespace to keep words whole before cutting mid-word (text without spaces). */
  wordSlack: 40,
} as const;

export interface PassageInContext {
  /** The located passage as it stands in the page (up to PASSAGE_CONTEXT.passageChars). */
  passage: string;
  /** The page's text just before and just after it: before + passage + after is one stretch of the page. */
  context: { before: string; after: string };
}

interface Span {
  start: number;
  end: number;
}

const ELLIPSIS = "…";
const isLowSurrogate = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff;
};
/** Moves an offset off the second half of a surrogate pair (forward for a start, back for an end), so no character is cut in two. */
const onCharacter = (text: string, at: number, direction: 1 | -1) => (at > 0 && at < text.length && isLowSurrogate(text, at) ? at + direction : at);

/** The stored passage's words: a passage longer than the row keeps was clipped and marked with an ellipsis. */
function storedWords(passage: string): string {
  return passage.length > PASSAGE_CONTEXT.passageChars && passage.endsWith(ELLIPSIS) ? passage.slice(0, -ELLIPSIS.length) : passage;
}

/**
 * Where the verdict's passage stands in the text: its stored words at their first exact place, else where the
 * quote check places the quote (verified) or its closest passage (partial). Null when neither finds it.
 */
export function locatePassage(text: string, verdict: { status: VerificationStatus; passage: string | null }, quote: string | null): Span | null {
  if (verdict.status !== "verified" && verdict.status !== "partial") return null;
  const words = verdict.passage ? storedWords(verdict.passage) : "";
  if (words.trim()) {
    const at = text.indexOf(words);
    if (at >= 0) return { start: at, end: at + words.length };
  }
  if (!quote?.trim()) return null;
  const match = matchQuote(quote, text);
  return match.passage && (match.status === "verified" || match.status === "partial") ? { start: match.passage.start, end: match.passage.end } : null;
}

/** A cut point moved to the nearest whitespace inward (a start: just past it; an end: onto it), so words stay whole. */
function onWord(text: string, at: number, direction: 1 | -1, limit: number): number {
  for (let i = 0; i <= PASSAGE_CONTEXT.wordSlack; i++) {
    const offset = at + i * direction;
    if (direction === 1 ? offset >= limit : offset <= limit) return limit;
    if (/\s/.test(text[direction === 1 ? offset - 1 : offset] ?? "")) return offset;
  }
  return at;
}

/**
 * The window around a located span: the passage (up to PASSAGE_CONTEXT.passageChars) and at most
 * PASSAGE_CONTEXT.contextChars either side, cut at word boundaries where the text has them and never inside a
 * character. A span that does not fit the text gives null.
 */
export function passageWindow(text: string, span: Span): PassageInContext | null {
  if (!(span.start >= 0 && span.end > span.start && span.end <= text.length)) return null;
  const start = onCharacter(text, span.start, 1);
  const end = onCharacter(text, Math.min(span.end, start + PASSAGE_CONTEXT.passageChars), -1);
  if (end <= start) return null;
  const from = start <= PASSAGE_CONTEXT.contextChars ? 0 : onCharacter(text, onWord(text, start - PASSAGE_CONTEXT.contextChars, 1, start), 1);
  const to = text.length - end <= PASSAGE_CONTEXT.contextChars ? text.length : onCharacter(text, onWord(text, end + PASSAGE_CONTEXT.contextChars, -1, end), -1);
  return { passage: text.slice(start, end), context: { before: text.slice(from, start), after: text.slice(end, to) } };
}

/** The verdict's passage in the snapshot's text with its context, or null when it is not located there. */
export function passageInContext(text: string, verdict: { status: VerificationStatus; passage: string | null }, quote: string | null): PassageInContext | null {
  const span = locatePassage(text, verdict, quote);
  return span ? passageWindow(text, span) : null;
}
