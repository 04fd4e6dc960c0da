/**
 * What an editorial bracket in a quote may do: clarify, never add. A bracket stands for words of the
 * page (`[the president]` for "he", `[T]he` for "the"), or is an annotation that stands for nothing
 * (`[sic]`, `[emphasis added]`). It may not say what the page's words it replaces do not: a negation
 * ("exports had [not] grown"), a number or quantity ("[3.1 million, up from] 2.4 million"), or a
 * name ("[Smith] said", where the page says "Jones said"), nor put another word in place of a page's
 * word ("announced it [first] month" over "last month", "hyping [down]" over "hyping up"): a bracket
 * may replace a pronoun, demonstrative or article (and say what it points at), or respell the page's
 * own word (case, tense, number: "[is]" for "was"). Nor may it leave out what those words carry: a
 * bracket standing for "not", "37 %" or "most" must say it too. Pure.
 */
import { isNegation } from "./negation";
import { normalizeText, tokenize } from "./normalize";
import { extractNumbers } from "./numbers";
import { isPointingWord, isReferringWord, sameWord } from "./word-forms";

/** Page words one bracket may stand for. */
export const BRACKET_MAX_WORDS = 4;

/** One bracket of a quote and the page words it stands for ("" for none): the page's text, untrusted. */
export interface QuoteEdit {
  bracket: string;
  replaces: string;
}

/**
 * Annotations that stand for no words of the page: they say something about the quote, not about what
 * the page says. Compared normalized, a trailing point dropped.
 */
const ANNOTATIONS = new Set([
  "sic",
  "emphasis added",
  "emphasis mine",
  "emphasis in original",
  "emphasis original",
  "italics added",
  "italics mine",
  "italics in original",
  "citation omitted",
  "citations omitted",
  "footnote omitted",
  "footnotes omitted",
  "internal quotation marks omitted",
  "internal citations omitted",
  "alteration in original",
  "alterations in original",
  "original emphasis",
  "translation mine",
]);

/** Whether a bracket's content (without its brackets) is an annotation that stands for no words. */
export function isAnnotation(inner: string): boolean {
  const text = normalizeText(inner).replace(/\.$/, "").trim();
  return ANNOTATIONS.has(text);
}

/** Words that state a quantity without a digit; compared as written (normalized). */
const QUANTITY_WORDS = new Set([
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "twenty",
  "thirty",
  "forty",
  "fifty",
  "sixty",
  "seventy",
  "eighty",
  "ninety",
  "hundred",
  "hundreds",
  "thousand",
  "thousands",
  "million",
  "millions",
  "billion",
  "billions",
  "trillion",
  "dozen",
  "dozens",
  "half",
  "quarter",
  "third",
  "double",
  "doubled",
  "twice",
  "triple",
  "tripled",
  "percent",
  "all",
  "every",
  "most",
  "many",
  "few",
  "fewer",
  "several",
  "majority",
  "minority",
  "more",
  "less",
  "least",
]);

/**
 * Words that open a sentence and are no name, in the languages the matcher meets most: a bracket that
 * begins a sentence with one ("[It] said") has the sentence's capital, not a name's.
 */
const SENTENCE_OPENERS = new Set(
  (
    "a an the this that these those it its he she they we you his her their our there here and but or so then in on at for with as " +
    "le la les un une il elle ils elles on ce cette ces der die das ein eine er sie es wir el los las una él ella ellos lo o os um uma ele ela eles " +
    "de het een hij zij"
  ).split(" "),
);

export type BracketProblem =
  | { kind: "adds"; what: "negation" | "number" | "name"; word: string }
  | { kind: "drops"; what: "negation" | "number" }
  | { kind: "replaces"; word: string };

const wordsOf = (text: string) => tokenize(text).map((token) => token.text);

/** The quantities a text states: numbers by value (a percentage apart), and quantity words as written. */
function quantities(text: string): Set<string> {
  const found = new Set(extractNumbers(text).map((number) => `${number.value}${number.percent ? "%" : ""}`));
  for (const word of wordsOf(normalizeText(text))) if (QUANTITY_WORDS.has(word)) found.add(word);
  return found;
}

export interface BracketContext {
  /** The bracket begins a sentence of the quote (the quote's start, or after ". ! ?" or an omission): its first word's capital may be the sentence's. */
  sentenceStart: boolean;
  /** Whether the page writes this word (lower case) in lower case somewhere: a common word, not a name. */
  usedInLowerCase: (word: string) => boolean;
  /**
   * The bracket opens its group ("before": it stands for up to BRACKET_MAX_WORDS page words before the next
   * part, read back from it) or closes it ("after"): it may stand for any of those words nearest the quote.
   * Absent: it stands between two parts, for exactly the words between them.
   */
  edge?: "before" | "after";
}

/** The names a bracket's content states: capitalised words (not "I"), the first only if it is not just a sentence's capital. */
function names(inner: string, context: BracketContext): string[] {
  const words = inner.split(/[^\p{L}\p{N}'’-]+/u).filter((word) => word !== "");
  return words.filter((word, i) => {
    if (!/^\p{Lu}/u.test(word) || word === "I") return false;
    if (i === 0 && context.sentenceStart) return !SENTENCE_OPENERS.has(normalizeText(word)) && !context.usedInLowerCase(normalizeText(word));
    return true;
  });
}

/**
 * What is wrong with a bracket standing for the page's words `replaces`, or null when it only clarifies.
 * `inner` is the bracket's content without its brackets. An annotation is judged by the caller (it must
 * replace nothing).
 */
export function bracketProblem(inner: string, replaces: string, context: BracketContext): BracketProblem | null {
  const bracketWords = wordsOf(normalizeText(inner));
  const pageWords = wordsOf(normalizeText(replaces));
  const pageSet = new Set(pageWords);
  const negation = bracketWords.find(isNegation);
  const pageNegates = pageWords.some(isNegation);
  if (negation !== undefined && !pageNegates) return { kind: "adds", what: "negation", word: negation };
  if (pageNegates && negation === undefined) return { kind: "drops", what: "negation" };
  const said = quantities(inner);
  const carried = quantities(replaces);
  for (const quantity of said) if (!carried.has(quantity)) return { kind: "adds", what: "number", word: quantity };
  for (const quantity of carried) if (!said.has(quantity)) return { kind: "drops", what: "number" };
  for (const name of names(inner, context)) {
    if (!pageSet.has(normalizeText(name))) return { kind: "adds", what: "name", word: name };
  }
  const replaced = anotherWord(bracketWords, pageWords, context.edge);
  return replaced === null ? null : { kind: "replaces", word: replaced };
}

/** Words that carry what is said, not what is pointed at (negations and quantities are judged above). */
const contentWords = (words: readonly string[]) =>
  words.flatMap(expandContraction).filter((word) => !isPointingWord(word) && !isNegation(word) && !QUANTITY_WORDS.has(word) && !/^\p{N}/u.test(word));

/** "didn't" → "did" (its negation is judged apart), "won't" → "will", "can't" → "can". */
function expandContraction(word: string): string[] {
  if (word === "won't") return ["will"];
  if (word === "can't") return ["can"];
  if (word === "shan't") return ["shall"];
  if (word.endsWith("n't")) return [word.slice(0, -3)];
  return [word];
}

/**
 * The bracket's first word that stands in place of a page word it is no form of, or null. A bracket standing
 * for no words, or only for words that point (a pronoun, demonstrative, article), may say what they point at;
 * one standing for other words may respell them and add words that point, or, when a pronoun or demonstrative is
 * among them, say what it points at while keeping every other word ("[the annual report]" for "this report"). At a group's edge
 * the bracket may stand for any run of the words nearest the quote: it is judged by the run that suits it best.
 */
function anotherWord(bracketWords: readonly string[], pageWords: readonly string[], edge: BracketContext["edge"]): string | null {
  const said = contentWords(bracketWords);
  if (said.length === 0) return null;
  const judge = (page: readonly string[]) => {
    const carried = contentWords(page);
    if (carried.length === 0) return null;
    const other = said.find((word) => !carried.some((pageWord) => sameWord(word, pageWord))) ?? null;
    // "[the annual report]" for "this report": it says what "this" points at, and keeps every word the page has.
    const keepsAll = carried.every((pageWord) => said.some((word) => sameWord(word, pageWord)));
    return other !== null && keepsAll && page.some(isReferringWord) ? null : other;
  };
  if (!edge || pageWords.length <= 1) return judge(pageWords);
  let first: string | null = null;
  for (let n = 1; n <= pageWords.length; n++) {
    const found = judge(edge === "before" ? pageWords.slice(-n) : pageWords.slice(0, n));
    if (found === null) return null;
    first ??= found;
  }
  return first;
}

/** The reason a verdict gives for a bracket's problem: the quote's words only, never the page's. */
export function bracketReason(bracket: string, problem: BracketProblem): string {
  const shown = bracket.length > 80 ? `${bracket.slice(0, 79)}…` : bracket;
  if (problem.kind === "replaces") {
    return `the bracket "${shown}" puts another word in place of the page's words it stands for (a bracket may replace a pronoun, demonstrative or article, or respell the page's own word); quote the page's passage instead`;
  }
  if (problem.kind === "drops") {
    return `the bracket "${shown}" stands for page words that carry a ${problem.what} it leaves out; quote the page's passage instead`;
  }
  const what = problem.what === "number" ? "a number or quantity" : `a ${problem.what}`;
  return `the bracket "${shown}" adds ${what} the page's words it stands for do not carry; quote the page's passage instead`;
}
