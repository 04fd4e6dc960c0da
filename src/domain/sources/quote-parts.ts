/**
 * A quote as the matcher reads it: the marks of an editor taken apart from the quoted words.
 *
 * - An ellipsis (`…`, `...`, `. . .`, `[…]`, `(...)`) marks an omission: the quote splits into
 *   groups that must appear in the source in order, with anything between them.
 * - A bracketed insertion (`[sic]`, `[the ministry]`, `[emphasis added]`) is the editor's, not the
 *   source's: the words on either side must appear with at most a few words between them (an
 *   insertion, or a bracket standing in for a name). A one- or two-letter bracket inside a word is a
 *   change of case or ending (`[T]he`, `walk[ed]`) and stays as text.
 * - Quotation marks wrapped around the whole quote and punctuation at either end of a part are
 *   dropped: they are the writer's framing, and matching less of the quote can only make it stricter.
 */
import { normalizeText, tokenize } from "./normalize";

/** Words between two parts of a group that a bracket may stand in for. */
export const BRACKET_MAX_WORDS = 4;

export interface QuoteParts {
  /** Groups separated by omissions; each group's parts are separated by bracketed insertions. Normalized, non-empty. */
  groups: string[][];
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

type Piece = { kind: "text"; text: string } | { kind: "omission" } | { kind: "insertion" };

/** The raw quote cut into text, omissions and insertions. Linear: every bracket is closed within 200 characters or is text. */
function pieces(quote: string): Piece[] {
  const out: Piece[] = [];
  let text = "";
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
        i = close + 1;
        continue;
      }
      if (inner !== null && char === "[") {
        const inWord = inner.length <= 2 && isLetter(inner[0]) && (isLetter(quote[close + 1]) || isLetter(quote[i - 1]));
        if (inWord) text += inner;
        else {
          flush();
          out.push({ kind: "insertion" });
        }
        i = close + 1;
        continue;
      }
    }
    const ellipsis = ellipsisAt(quote, i);
    if (ellipsis > 0) {
      flush();
      out.push({ kind: "omission" });
      i += ellipsis;
      continue;
    }
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

/** The quote's groups and parts, normalized; empty groups and parts dropped. */
export function quoteParts(quote: string): QuoteParts {
  const groups: string[][] = [];
  let group: string[] = [];
  const closeGroup = () => {
    if (group.length > 0) groups.push(group);
    group = [];
  };
  for (const piece of pieces(unwrap(quote))) {
    if (piece.kind === "omission") closeGroup();
    else if (piece.kind === "text") {
      const part = trimEdges(normalizeText(piece.text));
      if (part !== "") group.push(part);
    }
    // An insertion separates the parts around it, which `group` already keeps apart.
  }
  closeGroup();
  const all = groups.flat();
  // A hyphenated compound ("bar-tailed") is one word here: shortness is about what a reader counts.
  const words = all.reduce((sum, part) => sum + tokenize(part).filter((token) => part[token.start - 1] !== "-").length, 0);
  return { groups, words, chars: all.reduce((sum, part) => sum + part.length, 0) };
}
