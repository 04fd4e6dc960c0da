/**
 * Text normalization for matching quotes against page text, with a map back to the original.
 *
 * What it folds, because it does not change what a text says: Unicode compatibility forms (NFKC:
 * ligatures, full-width forms, the ellipsis character), case, every kind of whitespace (line breaks,
 * non-breaking and thin spaces) collapsed to one space, quotation marks (curly, straight, single,
 * double, guillemets: all dropped, since a quote nested in a quote changes its marks; an apostrophe
 * inside a word stays, as "'"), the dashes and the minus sign (a run of them is one "-", with no
 * space around it), spaces before closing punctuation, and the invisible characters text extraction
 * leaves behind (soft hyphens, zero-width spaces and joiners, byte-order marks, bidirectional marks).
 *
 * What it drops as page furniture: citation markers ("[3]", "[citation needed]"), superscript
 * footnote markers after punctuation ("points.¹²"), and the hyphen and line break of a word broken
 * across lines ("con-\ncluded").
 *
 * What it keeps, because it does: letters with their diacritics, digits and the punctuation inside
 * numbers. One trap of NFKC is defused: a superscript digit right after a digit is an exponent, so
 * "10²" becomes "10^2", never "102".
 *
 * Every unit of the normalized text records where the original character it came from starts and
 * ends, so a passage found in normalized text maps back to offsets into the original.
 */

export interface NormalizedText {
  text: string;
  /** For each UTF-16 unit of `text`: the offset in the original where its source character starts. */
  starts: Int32Array;
  /** … and where it ends (exclusive). */
  ends: Int32Array;
}

const INVISIBLE = new Set([
  0x00ad, 0x034f, 0x061c, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2061, 0x2062,
  0x2063, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff,
]);
const SINGLE_QUOTES = new Set([0x2018, 0x2019, 0x201a, 0x201b, 0x2032, 0x2035, 0x0060, 0x00b4, 0x2039, 0x203a, 0xff07]);
const DOUBLE_QUOTES = new Set([0x201c, 0x201d, 0x201e, 0x201f, 0x2033, 0x2036, 0x00ab, 0x00bb, 0x301d, 0x301e, 0x301f, 0xff02]);
const DASHES = new Set([0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2043, 0x2212, 0x2e3a, 0x2e3b, 0xfe58, 0xfe63, 0xff0d]);
/** Superscript digits and the digit each stands for (as a code). */
const SUPERSCRIPT_DIGITS = new Map([
  [0x2070, 0x30],
  [0x00b9, 0x31],
  [0x00b2, 0x32],
  [0x00b3, 0x33],
  [0x2074, 0x34],
  [0x2075, 0x35],
  [0x2076, 0x36],
  [0x2077, 0x37],
  [0x2078, 0x38],
  [0x2079, 0x39],
]);
/** Closing punctuation and percent signs: a space before one is typography ("37 %") or an accident of text extraction ("Smith , 2020"). */
const CLOSING = new Set([",", ".", ";", ":", "!", "?", ")", "%", "‰"].map((char) => char.charCodeAt(0)));
const COMBINING = /\p{M}/u;

export function isWhitespaceCode(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

const isDigitCode = (code: number) => code >= 0x30 && code <= 0x39;
const isVulgarFraction = (code: number) => (code >= 0xbc && code <= 0xbe) || (code >= 0x2150 && code <= 0x215e);

const APOSTROPHE = 0x27;
const QUOTATION_MARK = 0x22;
const HYPHEN = 0x2d;
const SPACE = 0x20;
const OPEN_PARENTHESIS = 0x28;

/** Growable output: the normalized units and, for each, its span in the original. */
class Builder {
  units = new Uint16Array(256);
  starts = new Int32Array(256);
  ends = new Int32Array(256);
  length = 0;
  /** The last unit written (a pending space or apostrophe not included), or -1. */
  lastCode = -1;
  /** A space waiting for the next written unit, from original[pendingStart, pendingEnd); -1 if none. */
  #pendingStart = -1;
  #pendingEnd = -1;
  #apostropheStart = -1;
  #apostropheEnd = -1;

  #write(code: number, start: number, end: number) {
    if (this.length === this.units.length) {
      const units = new Uint16Array(this.length * 2);
      units.set(this.units);
      this.units = units;
      const starts = new Int32Array(this.length * 2);
      starts.set(this.starts);
      this.starts = starts;
      const ends = new Int32Array(this.length * 2);
      ends.set(this.ends);
      this.ends = ends;
    }
    this.units[this.length] = code;
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.length++;
    this.lastCode = code;
  }

  /** One normalized unit (a UTF-16 code unit of the folded text) that came from original[start, end). */
  put(code: number, start: number, end: number) {
    if (this.#apostropheStart >= 0) {
      if (isWordCode(code)) this.#write(APOSTROPHE, this.#apostropheStart, this.#apostropheEnd);
      this.#apostropheStart = -1;
    }
    if (isWhitespaceCode(code)) {
      if (this.length > 0 && this.lastCode !== HYPHEN && this.lastCode !== OPEN_PARENTHESIS && this.#pendingStart < 0) {
        this.#pendingStart = start;
        this.#pendingEnd = end;
      }
      return;
    }
    let folded = code;
    if (SINGLE_QUOTES.has(code)) folded = APOSTROPHE;
    else if (DOUBLE_QUOTES.has(code)) folded = QUOTATION_MARK;
    else if (DASHES.has(code)) folded = HYPHEN;
    else if (code === 0x2044) folded = 0x2f; // fraction slash, as NFKC writes ½
    else if (code === 0x3c2) folded = 0x3c3; // final sigma, so "ΟΔΟΣ" and "οδος" agree
    if (folded === QUOTATION_MARK) return;
    if (folded === APOSTROPHE) {
      if (this.#pendingStart < 0 && isWordCode(this.lastCode)) {
        this.#apostropheStart = start; // kept if a letter follows ("trial's")
        this.#apostropheEnd = end;
      }
      return;
    }
    if (folded === HYPHEN) {
      this.#pendingStart = -1;
      if (this.lastCode === HYPHEN) {
        this.ends[this.length - 1] = end; // a run of dashes is one dash
        return;
      }
    } else if (CLOSING.has(folded)) {
      this.#pendingStart = -1;
    }
    if (this.#pendingStart >= 0) {
      this.#write(SPACE, this.#pendingStart, this.#pendingEnd);
      this.#pendingStart = -1;
    }
    this.#write(folded, start, end);
  }

  /** A space if text follows (used between a number and a vulgar fraction: "1½" → "1 1/2"). */
  space(start: number, end: number) {
    if (this.length > 0 && this.#pendingStart < 0) {
      this.#pendingStart = start;
      this.#pendingEnd = end;
    }
  }

  finish(): NormalizedText {
    const chunks: string[] = [];
    for (let i = 0; i < this.length; i += 4096) chunks.push(String.fromCharCode.apply(null, this.units.subarray(i, Math.min(this.length, i + 4096)) as unknown as number[]));
    return { text: chunks.join(""), starts: this.starts.subarray(0, this.length), ends: this.ends.subarray(0, this.length) };
  }
}

/** Page furniture in brackets: citation and note markers ("[3]", "[4–6]", "[a]", "[citation needed]"). */
const CITATION_MARKER = /^(?:\d{1,4}(?:[-–,] ?\d{1,4}){0,3}|[a-z]|citation needed|clarification needed|note \d{1,3})$/i;
const LOWERCASE = /\p{Ll}/u;

/** Where a citation marker starting at `i` ends, or -1. */
function citationMarkerEnd(text: string, i: number): number {
  if (text[i] !== "[") return -1;
  const close = text.indexOf("]", i + 1);
  return close > i && close - i <= 24 && CITATION_MARKER.test(text.slice(i + 1, close)) ? close + 1 : -1;
}

/**
 * Where a word broken across a line ends its hyphen and line break ("con-\ncluded"), or -1: a
 * hyphen after a letter, then a line break, then a lower-case letter. Text extracted from
 * print (PDF) is full of them; a compound broken at a line's end ("well-\nknown") loses its hyphen.
 */
function lineBreakHyphenEnd(text: string, i: number, afterLetter: boolean): number {
  const code = text.charCodeAt(i);
  if (!afterLetter || (code !== 0x2d && code !== 0x2010 && code !== 0xad)) return -1;
  let j = i + 1;
  while (text[j] === " " || text[j] === "\t" || text[j] === "\r") j++;
  if (text[j] !== "\n") return -1;
  while (text[j] === " " || text[j] === "\t" || text[j] === "\r" || text[j] === "\n") j++;
  return LOWERCASE.test(text[j] ?? "") ? j : -1;
}

const isLetterUnit = (unit: string) => isWordCode(unit.charCodeAt(0)) && !isDigitCode(unit.charCodeAt(0));

/** The normalized form of `text` with, for each unit, its span in `text`. Linear in the length of `text`. */
export function normalizeWithMap(text: string): NormalizedText {
  const out = new Builder();
  let previousWasSuperscript = false;
  let inFootnote = false;
  let i = 0;
  while (i < text.length) {
    const first = text.charCodeAt(i);
    if (first === 0x5b || first === 0x2d || first === 0x2010 || first === 0xad) {
      const skipTo = Math.max(citationMarkerEnd(text, i), lineBreakHyphenEnd(text, i, i > 0 && isLetterUnit(text[i - 1] ?? "")));
      if (skipTo > i) {
        i = skipTo;
        continue;
      }
    }
    const start = i;
    const code = text.codePointAt(i) ?? 0;
    i += code > 0xffff ? 2 : 1;
    // A base character and the combining marks after it are folded together (NFKC composes them).
    while (i < text.length && text.charCodeAt(i) >= 0x300 && COMBINING.test(text[i] ?? "")) i++;
    const end = i;
    if (INVISIBLE.has(code)) continue;
    const superscript = SUPERSCRIPT_DIGITS.get(code);
    if (superscript !== undefined && end - start === 1) {
      // After a digit, an exponent; after punctuation, a footnote marker (dropped); after a letter, a unit's power ("km²").
      if (!previousWasSuperscript) inFootnote = out.length > 0 && !isWordCode(out.lastCode);
      if (!previousWasSuperscript && isDigitCode(out.lastCode)) out.put(0x5e, start, end); // "^"
      if (!inFootnote) out.put(superscript, start, end);
      previousWasSuperscript = true;
      continue;
    }
    previousWasSuperscript = false;
    if (code < 0x80 && end - start === 1) {
      out.put(code >= 0x41 && code <= 0x5a ? code + 32 : code, start, end);
      continue;
    }
    if (SINGLE_QUOTES.has(code) || DOUBLE_QUOTES.has(code) || DASHES.has(code)) {
      out.put(code, start, end); // before NFKC, which turns ´ into a space and a combining accent
      continue;
    }
    if (isVulgarFraction(code) && isDigitCode(out.lastCode)) out.space(start, start);
    const folded = text.slice(start, end).normalize("NFKC").toLowerCase();
    for (let k = 0; k < folded.length; k++) out.put(folded.charCodeAt(k), start, end);
  }
  return out.finish();
}

/** The normalized form alone (for short texts such as a quote or a title). */
export const normalizeText = (text: string): string => normalizeWithMap(text).text;

/** Letters of scripts written without spaces between words: each character is a word of its own. */
export function isUnspacedScriptCode(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) || // hiragana, katakana
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xd800 && code <= 0xdfff) // surrogates: CJK extensions live in the astral planes
  );
}

const WORD = /[\p{L}\p{N}\p{M}]/u;
/** What WORD said of each UTF-16 unit so far: 0 not asked, 1 a word character, 2 not. Bounded: 64 KiB. */
const wordUnits = new Uint8Array(0x10000);

/** A letter, digit or mark of a script written with spaces between words. */
export function isWordCode(code: number): boolean {
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  if (code > 0xffff || isUnspacedScriptCode(code)) return false;
  if (wordUnits[code] === 0) wordUnits[code] = WORD.test(String.fromCharCode(code)) ? 1 : 2;
  return wordUnits[code] === 1;
}

export interface Token {
  start: number;
  end: number;
  text: string;
}

/**
 * The words of a normalized text: runs of letters, digits and marks, an apostrophe inside a word
 * kept ("don't"), a point or comma between digits kept ("2.4", "1,200"); each character of an
 * unspaced script (Chinese, Japanese) a word of its own. Linear.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  forEachWord(text, (start, end) => tokens.push({ start, end, text: text.slice(start, end) }));
  return tokens;
}

/** The words tokenize() finds, as offsets, without building them (for whole pages). */
export function forEachWord(text: string, visit: (start: number, end: number) => void): void {
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isUnspacedScriptCode(code)) {
      const width = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
      visit(i, i + width);
      i += width;
      continue;
    }
    if (!isWordCode(code)) {
      i++;
      continue;
    }
    const start = i;
    i++;
    while (i < text.length) {
      const next = text.charCodeAt(i);
      if (isWordCode(next)) {
        i++;
        continue;
      }
      const after = text.charCodeAt(i + 1);
      const before = text.charCodeAt(i - 1);
      const joinsDigits = (next === 0x2e || next === 0x2c) && isDigitCode(before) && isDigitCode(after);
      const joinsLetters = next === 0x27 && isWordCode(before) && !isDigitCode(before) && isWordCode(after) && !isDigitCode(after);
      if (joinsDigits || joinsLetters) {
        i += 2;
        continue;
      }
      break;
    }
    visit(start, i);
  }
}
