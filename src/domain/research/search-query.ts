/**
 * Turns anything a person or a model types into an FTS5 query that cannot
 * fail to parse. FTS5 syntax (quotes, AND/OR/NOT/NEAR, parentheses, `*`,
 * column filters like `title:`) is never passed through: every word becomes a
 * quoted string, so it is matched as text. Two things are kept because they
 * help: "quoted phrases" stay phrases, and a trailing `*` on a word is a prefix.
 */
export interface FtsQuery {
  /** All terms required (FTS5's implicit AND). */
  all: string;
  /** Any term suffices: the fallback when nothing has every term. */
  any: string;
  terms: number;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'’-]*/gu;
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

export function toFtsQuery(input: string): FtsQuery | null {
  const terms: string[] = [];
  // Quoted phrases first, so their words are not also taken one by one.
  const rest = input.replace(/"([^"]*)"/g, (_match, phrase: string) => {
    const words = phrase.match(WORD) ?? [];
    if (words.length > 0) terms.push(quote(words.join(" ")));
    return " ";
  });
  const stop: string[] = [];
  for (const match of rest.matchAll(new RegExp(`${WORD.source}(\\*)?`, "gu"))) {
    const word = (match[0] ?? "").replace(/\*$/, "").replace(/['’-]+$/, "");
    if (!word || /^(AND|OR|NOT|NEAR)$/.test(word)) continue;
    const prefix = match[0]?.endsWith("*") === true && [...word].length >= MIN_PREFIX_CHARS;
    const term = prefix ? `${quote(word)}*` : quote(word);
    if (!prefix && STOP_WORDS.has(word.toLowerCase())) stop.push(term);
    else terms.push(term);
  }
  const kept = (terms.length > 0 ? terms : stop).slice(0, MAX_TERMS);
  if (kept.length === 0) return null;
  return { all: kept.join(" "), any: kept.join(" OR "), terms: kept.length };
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
