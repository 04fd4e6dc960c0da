import { queryPieces } from "./search-text";

/**
 * Turns anything a person or a model types into an FTS5 query that cannot
 * fail to parse. FTS5 syntax (quotes, AND/OR/NOT/NEAR, parentheses, `*`,
 * column filters like `title:`) is never passed through: every word becomes a
 * quoted string, so it is matched as text. Two things are kept because they
 * help: "quoted phrases" stay phrases, and a trailing `*` on a word is a prefix.
 */
export interface FtsQuery {
  /** All terms required (FTS5's implicit AND), each word matched as written (a typed `*` kept). */
  all: string;
  /** Any term suffices: the fallback when nothing has every term. */
  any: string;
  /**
   * All terms required, a long word also found as the head of a longer one ("Batterie" → "Batteriezellen"):
   * the second try when `all` finds fewer than asked for, null when no word is long enough. Not the first:
   * a head is a prefix, and FTS5 gathers every record of every word it begins before matching, which for a
   * common word at a million artifacts cost 40–600 ms a search where the word alone costs 1–10.
   */
  heads: string | null;
  terms: number;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}_'’-]*/gu;
/**
 * Each term costs a pass over its whole list in the index on every search (bm25 weighs a term by
 * counting the records that hold it), however few records the search ranks: a pasted page is cut to
 * its first words. 12 → 8 took a 906-character query from 139 to 89 ms of CPU at 380,000 artifacts.
 */
const MAX_TERMS = 8;
/** A prefix shorter than this matches most of a large index and ranks nothing well: it is searched as the word itself. */
const MIN_PREFIX_CHARS = 3;

/**
 * English words that carry no topic: dropped from a query that has other words (they match nearly
 * every record, so they only slow the search and blur its ranking). A query of nothing else keeps them.
 */
const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have how i if in into is it its " +
    "may might more most no not of on or our should so such than that the their them then there these they this " +
    "those to was we were what when where which while who whom why will with would you your about after also any " +
    "before between both each few other over same some through under until up very"
  ).split(" "),
);

const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * A word this long or longer is also found as the head of a longer word: "Batterie" finds
 * "Batteriezellen", "Energie" "Energiespeicher" (German, Dutch, Swedish compounds; inflected forms in
 * other languages). Shorter words are matched whole: a short prefix matches too many words to rank.
 */
export const HEAD_MIN_CHARS = 5;
/**
 * A query of more words than this is matched as written only (a pasted passage): its heads rarely find together
 * what its words did not, and each head of a common word costs a pass over every word it begins.
 */
const MAX_HEAD_TERMS = 4;

/**
 * The words of a query as the index holds them: a Japanese, Chinese or Korean run is cut into words
 * by the runtime's dictionary (Intl.Segmenter), each then read as the phrase of its characters (the
 * index holds one piece per character: search-text.ts); a lone particle (の, は, 的, 了) is dropped
 * like an English stop word (in nearly every record, it only slows the search). Other words come back as they are.
 */
function queryWords(word: string): string[] {
  const pieces = queryPieces(word);
  if (pieces.length <= 1) return [word];
  // An Arabic or Hebrew word with its article: the word itself, so that it is found with the article or without.
  if (ARTICLE_SCRIPT.test(word)) return [pieces[pieces.length - 1] as string];
  const parts = segmentWords(word);
  const kept = parts.filter((part) => !PARTICLE.test(part));
  return kept.length > 0 ? kept : parts;
}

/** A Japanese particle (one hiragana) or a Chinese function character standing alone. */
const PARTICLE = /^(?:\p{Script=Hiragana}|[的了是在和与及或之也都就])$/u;
const ARTICLE_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;
/** A Russian (Cyrillic) word's ending vowel: its head is the word without it ("пшеница" finds "пшеницы", "энергия" "энергией"). */
const CYRILLIC_ENDING = /(?<=\p{Script=Cyrillic}{4})[аеёиоуыэюяйь]$/iu;

/** One query word as an FTS5 term: the phrase of its pieces, or the word (with a typed `*`, or long enough and `asHead`, the word as a head). */
function wordTerm(word: string, prefix: boolean, asHead: boolean): string {
  const pieces = queryPieces(word);
  if (pieces.length > 1) return quote(pieces.join(" "));
  if (prefix) return `${quote(word)}*`;
  return asHead && isHead(word) ? `${quote(word.replace(CYRILLIC_ENDING, ""))}*` : quote(word);
}

const isHead = (word: string) => [...word].length >= HEAD_MIN_CHARS && /^[\p{L}\p{M}]+$/u.test(word);

/** A run of text cut at the runtime's dictionary word boundaries (its words only, not the spaces or punctuation between). */
function segmentWords(text: string): string[] {
  wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
  return Array.from(wordSegmenter.segment(text))
    .filter((part) => part.isWordLike !== false)
    .map((part) => part.segment);
}
let wordSegmenter: Intl.Segmenter | null = null;

export function toFtsQuery(input: string): FtsQuery | null {
  // Each term as written, and as a head where it may be one (the same place in both lists).
  const terms: [string, string][] = [];
  // Quoted phrases first, so their words are not also taken one by one.
  const rest = input.replace(/"([^"]*)"/g, (_match, phrase: string) => {
    const words = (phrase.match(WORD) ?? []).flatMap(queryPieces);
    if (words.length > 0) terms.push([quote(words.join(" ")), quote(words.join(" "))]);
    return " ";
  });
  const stop: [string, string][] = [];
  for (const match of rest.matchAll(new RegExp(`${WORD.source}(\\*)?`, "gu"))) {
    const typed = (match[0] ?? "").replace(/\*$/, "").replace(/['’-]+$/, "");
    if (!typed || /^(AND|OR|NOT|NEAR)$/.test(typed)) continue;
    const prefix = match[0]?.endsWith("*") === true && [...typed].length >= MIN_PREFIX_CHARS;
    if (!prefix && STOP_WORDS.has(typed.toLowerCase())) {
      stop.push([quote(typed), quote(typed)]);
      continue;
    }
    for (const word of queryWords(typed)) terms.push([wordTerm(word, prefix, false), wordTerm(word, prefix, true)]);
  }
  const kept = (terms.length > 0 ? terms : stop).slice(0, MAX_TERMS);
  if (kept.length === 0) return null;
  const written = kept.map(([term]) => term);
  const heads = kept.map(([, head]) => head);
  const widens = kept.length <= MAX_HEAD_TERMS && heads.some((head, i) => head !== written[i]);
  return { all: written.join(" "), any: written.join(" OR "), heads: widens ? heads.join(" ") : null, terms: kept.length };
}

/**
 * The index lists a query built by toFtsQuery reads: each word (a phrase's words one by one) and
 * each prefix, once. FTS5 walks each of them whole to match and to weigh the query, so their
 * lengths are what a search of the full index costs.
 */
export function indexLists(ftsQuery: string): string[] {
  const lists = new Set<string>();
  for (const match of ftsQuery.matchAll(/"((?:[^"]|"")*)"(\*?)/g)) {
    const text = (match[1] ?? "").replace(/""/g, '"');
    if (match[2]) lists.add(`${quote(text)}*`);
    else for (const word of text.split(" ").filter(Boolean)) lists.add(quote(word));
  }
  return [...lists];
}

/**
 * A query built by toFtsQuery restricted to one org's records of the recent index, whose fourth column
 * holds the org's id as one word (migration 0036): FTS5 then reads the query's lists only where they meet
 * the org's own list. The query's words are matched in the three text columns only.
 */
export function withinOrg(ftsQuery: string, orgId: string): string {
  return `org_key : ${quote(orgKey(orgId))} AND {title content_text tag_index} : (${ftsQuery})`;
}

/** An org's id as the recent index holds it: without '_' and '-', so that it is one word. */
export const orgKey = (orgId: string) => orgId.replace(/[_-]/g, "");

/** A text folded as the index folds it for matching: no diacritics, lower case. */
const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
/** How many of a record's words one prefix is replaced by (the most frequent first). */
const WORDS_PER_PREFIX = 16;

/**
 * The query a record's snippet is read with: each prefix (`"lith"*`) replaced by the record's own words that begin
 * with it (`("lithium" OR "lithography")`), so FTS5 looks the record up instead of first gathering every record of
 * every word in the index the prefix begins (30–40 ms at a million artifacts for a common prefix, per record). The
 * highlights are the same words. A prefix none of whose words `text` holds as written is kept: the index reads
 * words through Porter's stemmer, which can begin where the written word does not ("happi"* finds "happy").
 */
export function prefixesAsWordsOf(ftsQuery: string, text: string): string {
  let words: Map<string, number> | null = null;
  const asWords = (term: string, quoted: string) => {
    const prefix = fold(quoted.replace(/""/g, '"'));
    if (words === null) {
      words = new Map();
      for (const word of fold(text).match(/[\p{L}\p{N}]+/gu) ?? []) words.set(word, (words.get(word) ?? 0) + 1);
    }
    const begun = [...words.entries()]
      .filter(([word]) => word.startsWith(prefix))
      .sort((a, b) => b[1] - a[1])
      .slice(0, WORDS_PER_PREFIX)
      .map(([word]) => quote(word));
    return begun.length === 0 ? term : `(${begun.join(" OR ")})`;
  };
  // A query toFtsQuery built: its terms side by side (every one required) or joined by OR. FTS5 takes a group in
  // parentheses only with its operator written, so terms side by side are joined by AND.
  const terms = ftsQuery.match(/"(?:[^"]|"")*"\*?/g) ?? [];
  if (!terms.some((term) => term.endsWith("*"))) return ftsQuery;
  const joined = /"\s+OR\s+"/.test(ftsQuery) ? " OR " : " AND ";
  return terms.map((term) => (term.endsWith("*") ? asWords(term, term.slice(1, -2)) : term)).join(joined);
}
