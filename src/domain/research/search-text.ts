/**
 * What text the full-text index gets, beside what a person stored. The index (FTS5, `unicode61`) cuts
 * words at spaces and punctuation only, so a Japanese, Chinese, Korean or Thai run is one "word" up to
 * its next punctuation, and "天気" is not found in "東京の天気は晴れです。". The indexed form is the
 * stored text with an invisible separator (U+200B, zero width space, which `unicode61` reads as a
 * separator) put between the words of such runs; the stored text itself is never changed, and snippets
 * lose the separators again (`readSnippet`). A query is read through the same function
 * (search-query.ts), so the words it holds meet the same pieces in the index.
 *
 * - Han, kana and Hangul: one piece per character (read back as a phrase, a query finds any run of
 *   characters it holds: "天気" in "天気予報", "발전" in "발전의"). Measured against word segmentation
 *   (Intl.Segmenter): segmentation depends on the words around, so a query segmented alone could miss
 *   the same word segmented in its sentence; characters cannot (bench/README.md "Words in every script").
 * - Thai, Lao, Khmer and Myanmar (letters, not syllables): cut at the runtime's dictionary word
 *   boundaries (`Intl.Segmenter`, word granularity).
 * - Arabic: the article (ال) and the one-letter conjunctions and prepositions before it (و ف ب ك ل)
 *   are pieces of their own, so "طاقة" finds "الطاقة" and "والطاقة".
 * - Hebrew: the article ה and the prefixes ו ב ל מ ש כ before it, likewise ("שמש" finds "השמש").
 */
export const SEPARATOR = "\u200B";

/** Scripts read one character at a time. */
const CHARACTER_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC]/u;
/** Scripts cut at dictionary word boundaries. */
const WORD_SCRIPT_RUN = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;
/** Any script the indexed form differs in: a text without it is indexed as stored. */
const DIFFERENT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Arabic}\p{Script=Hebrew}]/u;

/** Arabic: conjunction/preposition (optional), then the article, then at least two letters. */
const ARABIC_ARTICLE = /(?<![\p{L}\p{M}])([وفبك]?)(ال|لل)(?=\p{Script=Arabic}{2})/gu;
/** Hebrew: a prefix letter (optional), then the article ה, then at least two letters. */
const HEBREW_ARTICLE = /(?<![\p{L}\p{M}])([ובלמשכ]?)(ה)(?=\p{Script=Hebrew}{2})/gu;

let segmenter: Intl.Segmenter | null = null;
const words = (run: string): string[] => {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
  return Array.from(segmenter.segment(run), (part) => part.segment);
};

/** Whether two neighbouring characters are pieces of their own. */
const bothCharacters = (a: string, b: string) => CHARACTER_SCRIPT.test(a) && CHARACTER_SCRIPT.test(b);

/**
 * The text the index gets for `text`: the same characters, with SEPARATOR between the pieces of runs
 * the index would otherwise read as one word. A text of other scripts only comes back unchanged.
 */
export function indexForm(text: string): string {
  if (!DIFFERENT.test(text)) return text;
  let out = text.replace(WORD_SCRIPT_RUN, (run) => words(run).join(SEPARATOR));
  out = out.replace(ARABIC_ARTICLE, (_m, before: string, article: string) => `${before ? before + SEPARATOR : ""}${article}${SEPARATOR}`);
  out = out.replace(HEBREW_ARTICLE, (_m, before: string, article: string) => `${before ? before + SEPARATOR : ""}${article}${SEPARATOR}`);
  const chars = Array.from(out);
  let joined = "";
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string;
    const previous = chars[i - 1];
    if (previous !== undefined && bothCharacters(previous, char)) joined += SEPARATOR;
    joined += char;
  }
  return joined;
}

/** The indexed form to store beside a text: null when it is the text itself (most texts; the index reads the text). */
export function storedIndexForm(text: string): string | null {
  const form = indexForm(text);
  return form === text ? null : form;
}

/**
 * The pieces a query word is read as: one piece for a word of other scripts, else its pieces (matched
 * as a phrase: side by side, in order, as they stand in the word).
 */
export function queryPieces(word: string): string[] {
  return indexForm(word)
    .split(SEPARATOR)
    .filter((piece) => piece.length > 0);
}

/**
 * A snippet of the indexed form as a person reads it: separators gone, and the highlights of pieces
 * side by side joined into one ("«天»«気»" → "«天気»").
 */
export function readSnippet(snippet: string, open = "«", close = "»"): string {
  return snippet.split(`${close}${SEPARATOR}${open}`).join("").split(SEPARATOR).join("");
}
