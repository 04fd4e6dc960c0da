/**
 * The reading the judged sets' builders check their labels with (build-judged-set.mjs,
 * build-article-set.mjs), independent of the matcher: plain string operations over NFKC, case,
 * whitespace, quotation marks, dashes and invisible characters.
 */
/** An independent normalization, for checking labels only. */
export function reference(text) {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u00ad\u200b-\u200f\u2060\ufeff]/g, "")
    .replace(/["\u201c\u201d\u201e\u201f\u00ab\u00bb]/g, "")
    .replace(/(^|[^\p{L}\p{N}])['\u2018\u2019]|['\u2018\u2019](?=[^\p{L}\p{N}]|$)/gu, "$1")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u2010-\u2015\u2212]+/g, "-")
    .replace(/\s+/g, " ")
    .replace(/\s*-+\s*/g, "-")
    .replace(/\s+([,.;:!?)%‰])/g, "$1")
    .trim();
}

const isWord = (char) => char !== undefined && /[\p{L}\p{N}]/u.test(char) && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(char);

/**
 * Whether the quote, read by reference(), is in the page at word (and number) boundaries; an
 * ellipsis splits it into groups found in order, a bracketed insertion is dropped and a bracketed
 * letter ("[T]he") kept.
 */
export function inPage(quote, page) {
  const haystack = reference(page);
  const groups = quote
    .replace(/\[(\p{L})\](?=\p{L})/gu, "$1")
    .split(/\s*(?:\[(?:…|\.\.\.)\]|\((?:…|\.\.\.)\)|…|\.\.\.)\s*/u)
    .map((group) => reference(group.replace(/\s*\[[^\]]*\]/g, "")).replace(/^["'.,;:!?\s]+|["'.,;:!?\s]+$/g, ""))
    .filter(Boolean);
  if (groups.length === 0) return false;
  let from = 0;
  for (const needle of groups) {
    const at = findOnBoundaries(haystack, needle, from);
    if (at < 0) return false;
    from = at + needle.length;
  }
  return true;
}

export function findOnBoundaries(haystack, needle, from) {
  for (let at = haystack.indexOf(needle, from); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    const numberGoesOn = /\d/.test(needle.at(-1) ?? "") && /^[.,]\d/.test(haystack.slice(at + needle.length, at + needle.length + 2));
    if (!(isWord(needle[0]) && isWord(before)) && !(isWord(needle.at(-1)) && isWord(after)) && !numberGoesOn) return at;
  }
  return -1;
}
