/**
 * Whether two words are forms of one word, as a quote's bracket may respell a page's word: another
 * case, tense or number ("[is]" for "was", "[announces]" for "announced", "[studies]" for "study",
 * "[the president's]" for "president"). Words that only point at something (pronouns, demonstratives,
 * articles) may be replaced by what they point at. Anything else put in a page word's place is
 * another word, however close in meaning ("[first]" for "last", "[down]" for "up"). Pure; English
 * inflection only: in another language two forms of one word compare as different words, which
 * refuses (never verifies) a bracket.
 */

/** Words that point at something named elsewhere: a bracket may say what, in their place. Normalized. */
const POINTING_WORDS = new Set(
  (
    // English pronouns, demonstratives, articles, relatives and place or time deixis.
    "a an the this that these those it its itself he him his himself she her hers herself they them their theirs themselves " +
    "we us our ours ourselves you your yours yourself yourselves i me my mine myself one one's who whom whose which what " +
    "here there then such " +
    // French, German, Spanish, Italian, Portuguese, Dutch: articles, pronouns, demonstratives.
    "le la les l un une des du il elle ils elles lui leur leurs son sa ses ce cet cette ces celui celle ceux celles " +
    "der die das den dem des ein eine einen einem einer eines er sie es ihn ihm ihr ihre sein seine dieser diese dieses jener " +
    "el los las una unos unas él ella ellos ellas su sus este esta estos estas ese esa eso aquel lo gli il lei loro questo questa " +
    "o os um uma ele ela eles elas seu sua esse essa isso de het een hij zij ze hem haar hun dit deze dat die"
  ).split(" "),
);

/** Whether a normalized word only points at something (a pronoun, demonstrative or article). */
export const isPointingWord = (word: string): boolean => POINTING_WORDS.has(word);

/** Articles: they point at nothing in particular, so they do not open a phrase to a bracket's clarification. */
const ARTICLES = new Set("a an the le la les l un une des du der die das den dem ein eine einen einem einer eines el los las una unos unas lo gli il o os um uma het een".split(" "));

/** Whether a normalized word points at something named elsewhere (a pronoun or demonstrative, not an article). */
export const isReferringWord = (word: string): boolean => POINTING_WORDS.has(word) && !ARTICLES.has(word);

/** Irregular English forms, each to the word it is a form of. */
const IRREGULAR: Record<string, string> = {};
for (const line of [
  "be am is are was were been being 's 're 'm",
  "have has had having 've 'd",
  "do does did done doing",
  "go goes went gone going",
  "say says said saying",
  "make makes made making",
  "take takes took taken taking",
  "give gives gave given giving",
  "get gets got gotten getting",
  "come comes came coming",
  "see sees saw seen seeing",
  "know knows knew known knowing",
  "find finds found finding",
  "think thinks thought thinking",
  "tell tells told telling",
  "become becomes became becoming",
  "show shows showed shown showing",
  "leave leaves left leaving",
  "begin begins began begun beginning",
  "rise rises rose risen rising",
  "fall falls fell fallen falling",
  "grow grows grew grown growing",
  "write writes wrote written writing",
  "run runs ran running",
  "pay pays paid paying",
  "buy buys bought buying",
  "bring brings brought bringing",
  "hold holds held holding",
  "keep keeps kept keeping",
  "lead leads led leading",
  "meet meets met meeting",
  "sell sells sold selling",
  "send sends sent sending",
  "spend spends spent spending",
  "stand stands stood standing",
  "win wins won winning",
  "lose loses lost losing",
  "will would 'll",
  "can could",
  "shall should",
  "may might",
  "child children",
  "man men",
  "woman women",
  "person people",
]) {
  const [base = "", ...forms] = line.split(" ");
  IRREGULAR[base] = base;
  for (const form of forms) IRREGULAR[form] = base;
}

/** A word without its English inflection: possessive, plural or third person, past, progressive; a final "e" or doubled consonant dropped. */
function stem(word: string): string {
  let w = word.replace(/['’]s$/, "").replace(/s['’]$/, "s");
  const irregular = IRREGULAR[w];
  if (irregular !== undefined) return irregular;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith("ied")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/** Whether two normalized words are forms of one word (equal, or one inflected from the other). */
export function sameWord(a: string, b: string): boolean {
  return a === b || stem(a) === stem(b);
}
