/**
 * A page's text made ready for matching, once per page however many quotes cite it: normalized with
 * its map back to the original, and (only when a quote needs the fuzzy search) cut into words with
 * how often each occurs.
 */
import { forEachWord, type NormalizedText, normalizeWithMap } from "./normalize";

/** Characters of page text searched; a longer text is searched over its first this many (and says so). */
export const SNAPSHOT_MAX_CHARS = 1_000_000;

export interface SnapshotWords {
  /** Offsets of each word in the normalized text. */
  starts: Int32Array;
  ends: Int32Array;
  /** Each word's id in `vocabulary`. */
  ids: Int32Array;
  vocabulary: Map<string, number>;
  /** Occurrences of each vocabulary id in the page. */
  frequency: Int32Array;
}

export interface PreparedSnapshot {
  /** The text offsets refer to (the page text, cut at SNAPSHOT_MAX_CHARS). */
  original: string;
  /** Whether the page text was longer than SNAPSHOT_MAX_CHARS. */
  truncated: boolean;
  normalized: NormalizedText;
  words(): SnapshotWords;
  /** The page text in lower case, offset for offset (a character whose lower case is longer is kept as it is). */
  lowerCased(): string;
}

/** Lower case that keeps every offset: a character whose lower case has another length stays as it is. */
export function lowerCaseInPlace(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = "";
  for (const char of text) {
    const down = char.toLowerCase();
    out += down.length === char.length ? down : char;
  }
  return out;
}

function wordsOf(text: string): SnapshotWords {
  const vocabulary = new Map<string, number>();
  let starts = new Int32Array(1024);
  let ends = new Int32Array(1024);
  let ids = new Int32Array(1024);
  const counts: number[] = [];
  let length = 0;
  forEachWord(text, (start, end) => {
    if (length === starts.length) {
      const grow = (from: Int32Array) => {
        const to = new Int32Array(from.length * 2);
        to.set(from);
        return to;
      };
      starts = grow(starts);
      ends = grow(ends);
      ids = grow(ids);
    }
    const word = text.slice(start, end);
    let id = vocabulary.get(word);
    if (id === undefined) {
      id = vocabulary.size;
      vocabulary.set(word, id);
      counts.push(0);
    }
    counts[id] = (counts[id] ?? 0) + 1;
    starts[length] = start;
    ends[length] = end;
    ids[length] = id;
    length++;
  });
  return { starts: starts.subarray(0, length), ends: ends.subarray(0, length), ids: ids.subarray(0, length), vocabulary, frequency: Int32Array.from(counts) };
}

export function prepareSnapshot(text: string): PreparedSnapshot {
  const truncated = text.length > SNAPSHOT_MAX_CHARS;
  let original = text;
  if (truncated) {
    const end = SNAPSHOT_MAX_CHARS - (/[\ud800-\udbff]/.test(text[SNAPSHOT_MAX_CHARS - 1] ?? "") ? 1 : 0);
    original = text.slice(0, end);
  }
  const normalized = normalizeWithMap(original);
  let words: SnapshotWords | undefined;
  let lower: string | undefined;
  return {
    original,
    truncated,
    normalized,
    words: () => {
      words ??= wordsOf(normalized.text);
      return words;
    },
    lowerCased: () => {
      lower ??= lowerCaseInPlace(original);
      return lower;
    },
  };
}
