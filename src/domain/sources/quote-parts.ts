/**
 * A quote as the matcher reads it: the marks of an editor taken apart from the quoted words.
 *
 * - An ellipsis (`…`, `...`, `. . .`, `[…]`, `(...)`) marks an omission: the quote splits into
 *   groups that must appear in the source in order, with anything between them.
 * - A bracket (`[the ministry]`) is the editor's, not the source's: it stands for at most a few words
 *   of the page, which the matcher finds between the parts on either side of it (and judges with
 *   brackets.ts). Brackets side by side are one. An annotation (`[sic]`, `[emphasis added]`) stands for
 *   nothing: the words on either side must meet. A one- or two-letter bracket inside a word is a
 *   change of case or ending (`[T]he`, `walk[ed]`) and stays as text: the word it makes must be the page's.
 * - A quote that is one bracket whole (a caption quoted as "[Figure 9: …]") is its content.
 * - Quotation marks wrapped around the whole quote and punctuation at either end of a part are
 *   dropped: they are the writer's framing, and matching less of the quote can only make it stricter.
 */
import { isAnnotation } from "./brackets";
import { normalizeText, tokenize } from "./normalize";

/** A bracket of a group: where it stands among the group's parts, and what it says. */
export interface GroupBracket {
  /** As the quote writes it, brackets included ("[the minister]"; side-by-side brackets together). */
  text: string;
  /** Its content. */
  inner: string;
  /** The parts before it in its group: 0 before the first part, the group's part count after the last. */
  at: number;
  /** It begins a sentence of the quote (the quote's start, or after ". ! ?" or an omission). */
  sentenceStart: boolean;
  /** Its position among the quote's marks, so edits list in the quote's order. */
  order: number;
}

/** A mark that stands for no page words (an annotation), or for one word the quote respells (`[T]he`). */
export interface FixedBracket {
  text: string;
  /** For a bracket inside a word: the word it makes, normalized, and its group; null for an annotation. */
  word: { text: string; group: number } | null;
  order: number;
}

export interface QuoteParts {
  /** Groups separated by omissions; each group's parts are separated by bracketed insertions. Normalized, non-empty. */
  groups: string[][];
  /** For each group, its brackets (standing for page words), in order. */
  brackets: GroupBracket[][];
  /** Annotations and brackets inside words. */
  fixed: FixedBracket[];
  /** Words in the quote, brackets and ellipses left out, a hyphenated compound counted once. */
  words: number;
  /** Characters of quoted text, normalized. */
  chars: number;
}

const WRAPPING_QUOTES = new Set(['"', "'", "“", "”", "‘", "’", "«", "»", "„", "‚", "‹", "›", "「", "」", "『", "』"]);
const EDGE_PUNCTUATION = new Set([",", ";", ":", ".", "!", "?", " "]);
const isLetter = (char: string | undefined) => char !== undefined && /\p{L}/u.test(char);

/** Strips one pair of wrapping quotation marks at a time (`"“…”"`), and surrounding whitespace. */
function unwrap(quote: string): string {
  let text = quote.trim();
  while (text.length >= 2 && WRAPPING_QUOTES.has(text[0] ?? "") && WRAPPING_QUOTES.has(text[text.length - 1] ?? "")) {
    text = text.slice(1, -1).trim();
  }
  return text;
}

/** Length of an ellipsis starting at `i` (`…`, three or more dots, `. . .`), or 0. */
function ellipsisAt(text: string, i: number): number {
  if (text[i] === "…") return 1;
  let j = i;
  let dots = 0;
  while (j < text.length && (text[j] === "." || (text[j] === " " && text[j + 1] === "." && dots > 0 && dots < 3))) {
    if (text[j] === ".") dots++;
    j++;
  }
  return dots >= 3 ? j - i : 0;
}

type Piece =
  | { kind: "text"; text: string }
  | { kind: "omission" }
  | { kind: "bracket"; text: string; inner: string; sentenceStart: boolean }
  | { kind: "annotation"; text: string }
  | { kind: "in-word"; text: string; word: string };

const SENTENCE_END = new Set([".", "!", "?"]);
const isSpaceOrMark = (char: string) => /\s/u.test(char) || WRAPPING_QUOTES.has(char);

/** The word around a bracket inside it, as written (`[T]he`) and as it reads ("The"). */
function wordAround(quote: string, open: number, close: number): { written: string; word: string } {
  let start = open;
  while (start > 0 && isLetter(quote[start - 1])) start--;
  let end = close + 1;
  while (end < quote.length && isLetter(quote[end])) end++;
  return { written: quote.slice(start, end), word: `${quote.slice(start, open)}${quote.slice(open + 1, close)}${quote.slice(close + 1, end)}` };
}

/** The raw quote cut into text, omissions and brackets. Linear: every bracket is closed within 200 characters or is text. */
function pieces(quote: string): Piece[] {
  const out: Piece[] = [];
  let text = "";
  // Whether what comes next begins a sentence of the quote: its capital letter may be the sentence's.
  let sentenceStart = true;
  const flush = () => {
    out.push({ kind: "text", text });
    text = "";
  };
  let i = 0;
  while (i < quote.length) {
    const char = quote[i] ?? "";
    const opener = char === "[" ? "]" : char === "(" ? ")" : null;
    if (opener) {
      const close = quote.indexOf(opener, i + 1);
      const inner = close > i && close - i <= 200 ? quote.slice(i + 1, close) : null;
      if (inner !== null && inner.trim() !== "" && ellipsisAt(inner.trim(), 0) === inner.trim().length) {
        flush();
        out.push({ kind: "omission" });
        sentenceStart = true;
        i = close + 1;
        continue;
      }
      if (inner !== null && char === "[") {
        const written = quote.slice(i, close + 1);
        const inWord = inner.length <= 2 && isLetter(inner[0]) && (isLetter(quote[close + 1]) || isLetter(quote[i - 1]));
        if (inWord) {
          text += inner;
          const around = wordAround(quote, i, close);
          out.push({ kind: "in-word", text: around.written, word: normalizeText(around.word) });
          sentenceStart = false;
        } else if (isAnnotation(inner)) {
          // Stands for nothing: the words on either side meet, as if it were not there.
          text += " ";
          out.push({ kind: "annotation", text: written });
        } else {
          flush();
          out.push({ kind: "bracket", text: written, inner, sentenceStart });
          sentenceStart = false;
        }
        i = close + 1;
        continue;
      }
    }
    const ellipsis = ellipsisAt(quote, i);
    if (ellipsis > 0) {
      flush();
      out.push({ kind: "omission" });
      sentenceStart = true;
      i += ellipsis;
      continue;
    }
    if (!isSpaceOrMark(char)) sentenceStart = SENTENCE_END.has(char);
    text += char;
    i++;
  }
  flush();
  return out;
}

function trimEdges(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && EDGE_PUNCTUATION.has(text[start] ?? "")) start++;
  while (end > start && EDGE_PUNCTUATION.has(text[end - 1] ?? "")) end--;
  return text.slice(start, end);
}

/** The content of a quote that is one bracket whole ("[Figure 9: …]"), unless it is an annotation; else null. */
function wholeBracket(text: string): string | null {
  if (!text.startsWith("[") || !text.endsWith("]")) return null;
  const inner = text.slice(1, -1);
  if (inner.includes("[") || inner.includes("]") || inner.trim() === "" || isAnnotation(inner)) return null;
  return ellipsisAt(inner.trim(), 0) === inner.trim().length ? null : inner;
}

/** The quote's groups and parts, normalized; empty groups and parts dropped. */
export function quoteParts(quote: string): QuoteParts {
  const groups: string[][] = [];
  const brackets: GroupBracket[][] = [];
  const fixed: FixedBracket[] = [];
  let group: string[] = [];
  let groupBrackets: GroupBracket[] = [];
  let order = 0;
  const closeGroup = () => {
    if (group.length > 0) {
      groups.push(group);
      brackets.push(groupBrackets);
      groupBrackets = [];
    }
    // A group of brackets alone ("… [not] …") opens the next group: it is judged there, never dropped.
    group = [];
  };
  const unwrapped = unwrap(quote);
  for (const piece of pieces(wholeBracket(unwrapped) ?? unwrapped)) {
    if (piece.kind === "omission") closeGroup();
    else if (piece.kind === "text") {
      const part = trimEdges(normalizeText(piece.text));
      if (part !== "") group.push(part);
    } else if (piece.kind === "bracket") {
      const last = groupBrackets[groupBrackets.length - 1];
      if (last && last.at === group.length) {
        // Side by side ("[a] [b]"): one bracket standing for the words between the parts around them.
        last.text = `${last.text} ${piece.text}`;
        last.inner = `${last.inner} ${piece.inner}`;
      } else groupBrackets.push({ text: piece.text, inner: piece.inner, at: group.length, sentenceStart: piece.sentenceStart, order: order++ });
    } else if (piece.kind === "annotation") fixed.push({ text: piece.text, word: null, order: order++ });
    else fixed.push({ text: piece.text, word: { text: piece.word, group: groups.length }, order: order++ });
  }
  closeGroup();
  const lastGroup = groups[groups.length - 1];
  // Brackets after the last words stand at the end of the last group.
  if (lastGroup) for (const bracket of groupBrackets) brackets[brackets.length - 1]?.push({ ...bracket, at: lastGroup.length });
  const all = groups.flat();
  // A hyphenated compound ("bar-tailed") is one word here: shortness is about what a reader counts.
  const words = all.reduce((sum, part) => sum + tokenize(part).filter((token) => part[token.start - 1] !== "-").length, 0);
  return { groups, brackets, fixed, words, chars: all.reduce((sum, part) => sum + part.length, 0) };
}
