/**
 * The passage of a page closest to a quote that is not in it word for word.
 *
 * Two passes, linear in the page's length plus a bounded alignment:
 * 1. a window as long as the quote slides over the page's words, keeping the weighted count of the
 *    quote's words inside it (each step adds one word and drops one); the best few windows are kept;
 * 2. around each, the quote's words are aligned in order with the page's (a longest common
 *    subsequence, weighted), so a swapped or reordered word costs what it should.
 *
 * Words are weighted by rarity in the page (1 / (1 + ln(1 + occurrences))): "the" agrees with any
 * page, the quote's own nouns and numbers do not; a word the page never uses weighs 1. The score is
 * the Dice coefficient of the aligned weight against the quote's and the passage's total weights.
 */
import type { SnapshotWords } from "./snapshot";

export interface FuzzyHit {
  /** 0–1: twice the aligned weight over the quote's weight plus the passage's. */
  score: number;
  /** The passage, as word indexes into the page's words: [firstWord, endWord). */
  firstWord: number;
  endWord: number;
  /** Quote words the passage lacks, first five distinct. */
  missing: string[];
  /** How many of the passage's words the quote lacks (a count: the passage is page text, never echoed in a reason). */
  extra: number;
}

/** Windows aligned after the sliding pass. */
const CANDIDATES = 4;
const EPSILON = 1e-9;

interface Alignment {
  weight: number;
  firstQ: number;
  firstR: number;
  lastQ: number;
  lastR: number;
}

/** Weighted longest common subsequence of the quote and page words [lo, hi), with where it starts and ends. */
function align(quoteIds: Int32Array, quoteWeights: Float64Array, pageIds: Int32Array, lo: number, hi: number): Alignment {
  const m = quoteIds.length;
  let prev = { v: new Float64Array(m + 1), fq: new Int32Array(m + 1).fill(-1), fr: new Int32Array(m + 1).fill(-1), lq: new Int32Array(m + 1), lr: new Int32Array(m + 1) };
  let cur = { v: new Float64Array(m + 1), fq: new Int32Array(m + 1).fill(-1), fr: new Int32Array(m + 1).fill(-1), lq: new Int32Array(m + 1), lr: new Int32Array(m + 1) };
  for (let j = lo; j < hi; j++) {
    const pageId = pageIds[j] ?? -1;
    for (let i = 1; i <= m; i++) {
      // Skip the page word (from the left) or the quote word (from above); on a tie, the later start (a tighter passage).
      let v = prev.v[i] ?? 0;
      let fq = prev.fq[i] ?? -1;
      let fr = prev.fr[i] ?? -1;
      let lq = prev.lq[i] ?? 0;
      let lr = prev.lr[i] ?? 0;
      const up = cur.v[i - 1] ?? 0;
      if (up > v + EPSILON || (Math.abs(up - v) <= EPSILON && (cur.fr[i - 1] ?? -1) > fr)) {
        v = up;
        fq = cur.fq[i - 1] ?? -1;
        fr = cur.fr[i - 1] ?? -1;
        lq = cur.lq[i - 1] ?? 0;
        lr = cur.lr[i - 1] ?? 0;
      }
      if (pageId >= 0 && quoteIds[i - 1] === pageId) {
        const before = prev.v[i - 1] ?? 0;
        const diagonal = before + (quoteWeights[i - 1] ?? 0);
        const startsHere = (prev.fr[i - 1] ?? -1) < 0;
        const dfq = startsHere ? i - 1 : (prev.fq[i - 1] ?? -1);
        const dfr = startsHere ? j : (prev.fr[i - 1] ?? -1);
        if (diagonal > v + EPSILON || (Math.abs(diagonal - v) <= EPSILON && dfr > fr)) {
          v = diagonal;
          fq = dfq;
          fr = dfr;
          lq = i - 1;
          lr = j;
        }
      }
      cur.v[i] = v;
      cur.fq[i] = fq;
      cur.fr[i] = fr;
      cur.lq[i] = lq;
      cur.lr[i] = lr;
    }
    [prev, cur] = [cur, prev];
  }
  return { weight: prev.v[m] ?? 0, firstQ: prev.fq[m] ?? -1, firstR: prev.fr[m] ?? -1, lastQ: prev.lq[m] ?? 0, lastR: prev.lr[m] ?? 0 };
}

/** The page's best passage for the quote's words (normalized, in order), or null when no word of the quote is on the page. */
export function fuzzyMatch(words: SnapshotWords, quoteWords: readonly string[]): FuzzyHit | null {
  const m = quoteWords.length;
  const n = words.ids.length;
  if (m === 0 || n === 0) return null;
  const weightOfId = (id: number) => (id < 0 ? 1 : 1 / (1 + Math.log(1 + (words.frequency[id] ?? 0))));
  const quoteIds = Int32Array.from(quoteWords, (word) => words.vocabulary.get(word) ?? -1);
  const quoteWeights = Float64Array.from(quoteIds, weightOfId);
  const quoteWeight = quoteWeights.reduce((sum, w) => sum + w, 0);

  // 1. Sliding window: the weight of the quote's words inside it, no word counted more often than the quote has it.
  // Each page word maps to a slot of the quote's vocabulary (or -1) through one array lookup.
  const slotOfId = new Int32Array(words.frequency.length).fill(-1);
  const need: number[] = [];
  const slotWeight: number[] = [];
  for (const id of quoteIds) {
    if (id < 0) continue;
    if (slotOfId[id] === -1) {
      slotOfId[id] = need.length;
      need.push(0);
      slotWeight.push(weightOfId(id));
    }
    const slot = slotOfId[id] ?? 0;
    need[slot] = (need[slot] ?? 0) + 1;
  }
  if (need.length === 0) return null;
  const have = new Int32Array(need.length);
  const width = Math.min(m, n);
  const windowScores = new Float64Array(n - width + 1);
  let overlap = 0;
  for (let j = 0; j < n; j++) {
    const added = slotOfId[words.ids[j] ?? 0] ?? -1;
    if (added >= 0) {
      if ((have[added] ?? 0) < (need[added] ?? 0)) overlap += slotWeight[added] ?? 0;
      have[added] = (have[added] ?? 0) + 1;
    }
    if (j >= width) {
      const dropped = slotOfId[words.ids[j - width] ?? 0] ?? -1;
      if (dropped >= 0) {
        have[dropped] = (have[dropped] ?? 1) - 1;
        if ((have[dropped] ?? 0) < (need[dropped] ?? 0)) overlap -= slotWeight[dropped] ?? 0;
      }
    }
    if (j >= width - 1) windowScores[j - width + 1] = overlap;
  }

  // The best few windows, no two closer than half a window. Scores within EPSILON are ties (the running sum drifts
  // by rounding), and a tie keeps the earlier window.
  const chosen: number[] = [];
  const apart = Math.max(1, width / 2);
  for (let k = 0; k < CANDIDATES; k++) {
    let best = -1;
    let bestScore = EPSILON;
    for (let s = 0; s < windowScores.length; s++) {
      const windowScore = windowScores[s] ?? 0;
      if (windowScore <= bestScore + (best >= 0 ? EPSILON : 0)) continue;
      let near = false;
      for (const c of chosen) if (Math.abs(c - s) < apart) near = true;
      if (near) continue;
      best = s;
      bestScore = windowScore;
    }
    if (best < 0) break;
    chosen.push(best);
  }

  // 2. Align the quote around each window, with slack for words the quote left out or added.
  const slack = Math.max(4, Math.ceil(width / 4));
  let hit: FuzzyHit | null = null;
  for (const start of chosen) {
    const lo = Math.max(0, start - slack);
    const hi = Math.min(n, start + width + slack);
    const a = align(quoteIds, quoteWeights, words.ids, lo, hi);
    if (a.weight <= EPSILON || a.firstR < 0) continue;
    // Widen the passage over the page words standing where the quote's unmatched first and last words are.
    const firstWord = Math.max(lo, a.firstR - a.firstQ);
    const endWord = Math.min(hi, a.lastR + (m - a.lastQ));
    let passageWeight = 0;
    for (let j = firstWord; j < endWord; j++) passageWeight += weightOfId(words.ids[j] ?? -1);
    const score = (2 * a.weight) / (quoteWeight + passageWeight);
    if (!hit || score > hit.score) hit = { score, firstWord, endWord, missing: [], extra: 0 };
  }
  if (!hit) return null;
  return { ...hit, ...differences(quoteWords, quoteIds, words, hit.firstWord, hit.endWord) };
}

/** Words of the quote not in the passage (five at most) and how many words of the passage are not in the quote (as multisets). */
function differences(quoteWords: readonly string[], quoteIds: Int32Array, words: SnapshotWords, first: number, end: number) {
  const inPassage = new Map<number, number>();
  for (let j = first; j < end; j++) inPassage.set(words.ids[j] ?? -1, (inPassage.get(words.ids[j] ?? -1) ?? 0) + 1);
  const missing: string[] = [];
  quoteIds.forEach((id, i) => {
    const left = id >= 0 ? (inPassage.get(id) ?? 0) : 0;
    if (left > 0) inPassage.set(id, left - 1);
    else {
      const word = quoteWords[i] ?? "";
      if (missing.length < 5 && !missing.includes(word)) missing.push(word);
    }
  });
  let extra = 0;
  for (const left of inPassage.values()) extra += left;
  return { missing, extra };
}
