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
const MAX_TERMS = 24;

const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;

export function toFtsQuery(input: string): FtsQuery | null {
  const terms: string[] = [];
  // Quoted phrases first, so their words are not also taken one by one.
  const rest = input.replace(/"([^"]*)"/g, (_match, phrase: string) => {
    const words = phrase.match(WORD) ?? [];
    if (words.length > 0) terms.push(quote(words.join(" ")));
    return " ";
  });
  for (const match of rest.matchAll(new RegExp(`${WORD.source}(\\*)?`, "gu"))) {
    const word = (match[0] ?? "").replace(/\*$/, "").replace(/['’-]+$/, "");
    if (!word || /^(AND|OR|NOT|NEAR)$/.test(word)) continue;
    terms.push(match[0]?.endsWith("*") ? `${quote(word)}*` : quote(word));
  }
  const kept = terms.slice(0, MAX_TERMS);
  if (kept.length === 0) return null;
  return { all: kept.join(" "), any: kept.join(" OR "), terms: kept.length };
}
