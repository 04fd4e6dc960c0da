/**
 * Writes bench/sources/article-set.json: judged quotes on real pages nobody here wrote (the subset of
 * Zyte's article extraction benchmark in bench/sources/articles/), for `npm run bench:sources`.
 *
 *   node bench/sources/build-article-set.mjs          (rewrites the file; deterministic, seeded)
 *
 * Labels come from the dataset's ground truth (the article's text as people marked it) and from how
 * each case is built, never from Cairn: a genuine quote is a ground-truth sentence that an independent
 * reading of the served bytes (article-reading.mjs, reference.mjs) finds visible on the page; an altered
 * quote is one with a thing changed that the same reading does not find; a hidden quote is a sentence of
 * another page put into this page inside an element hidden by its own attributes, which the reading does
 * not see. A case that fails its check is dropped, so the labels say what the page shows.
 *
 * Classes and expected statuses: `genuine` → verified (as in the page, or changed only as quoting
 * allows: quotation marks, case, whitespace, an ellipsis inside one paragraph, a bracketed capital or a
 * bracket naming what a pronoun stands for); `altered` → partial (a number, a negation, a name or a word
 * changed, sentences of distant paragraphs spliced, a bracket adding a negation, a number or a name);
 * `unsupported` → not_found (made up, from another page, or hidden on the page).
 *
 * Split: each page belongs to the development part or the held-out part by a hash of its id (≈ 70/30);
 * its cases and variants follow it. The held-out part is for measuring only: nobody tunes on it.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { decodeReferences, visibleText } from "./article-reading.mjs";
import { servedVariant } from "./page-variants.mjs";
import { inPage, reference } from "./reference.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const articles = path.join(here, "articles");
const SEED = "cairn-article-set-1";
const HELD_OUT_SHARE = 0.3;

const hash = (text) => createHash("sha256").update(`${SEED}:${text}`).digest();
/** Seeded generator (mulberry32) for one page's choices. */
function rng(key) {
  let a = hash(key).readUInt32BE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (random, list) => list[Math.floor(random() * list.length)];
const shuffled = (random, list) => {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
};
export const partOf = (id) => (hash(`split:${id}`).readUInt32BE(0) / 2 ** 32 < HELD_OUT_SHARE ? "held-out" : "development");

function languageOf(text) {
  if (/[\u3040-\u30ff]/.test(text)) return "ja";
  if (/[\uac00-\ud7af]/.test(text)) return "ko";
  if (/[\u4e00-\u9fff]/.test(text)) return "zh";
  if (/[\u0400-\u04ff]/.test(text)) return "ru";
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const share = (list) => words.filter((w) => list.includes(w)).length / Math.max(1, words.length);
  const scores = {
    en: share(["the", "and", "of", "to", "is", "that", "with", "for"]),
    de: share(["der", "die", "das", "und", "nicht", "ist", "mit", "ein", "eine"]),
    fr: share(["le", "la", "les", "des", "est", "et", "une", "du", "pour"]),
    pt: share(["o", "os", "que", "não", "uma", "do", "da", "para", "com", "é"]),
    es: share(["el", "los", "las", "que", "una", "del", "por", "es", "con"]),
    it: share(["il", "che", "di", "della", "una", "non", "per", "sono", "gli"]),
  };
  return Object.entries(scores).sort((a, b) => b[1] - a[1])[0][0];
}

const unspaced = (lang) => lang === "ja" || lang === "zh";
const wordsOf = (text) => text.split(/\s+/).filter(Boolean);
const NEGATION_WORDS = /\b(not|no|never|none|nobody|nothing|neither|nor|cannot|can't|won't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|hasn't|haven't|hadn't|shouldn't|wouldn't|couldn't|without|nicht|kein|keine|keinen|nie|ne|pas|jamais|não|nunca|nem|non|нет|не|ни)\b|n't\b/iu;
/** Whether `text` holds a negation (curly apostrophes read as straight ones). */
const NEGATIONS = { test: (text) => NEGATION_WORDS.test(text.replace(/[\u2018\u2019]/g, "'")) };
/** Words and their opposites, for brackets that swap one in ("[first]" for "last"). */
const OPPOSITES = Object.fromEntries(
  "last first|first last|up down|down up|higher lower|lower higher|before after|after before|early late|late early|new old|old new|large small|small large|long short|short long|best worst|worst best|increase decrease|increased decreased|rose fell|fell rose|open closed|closed open|won lost|lost won|strong weak|weak strong|major minor|good bad|bad good|high low|low high|start end|begin end|easy hard|hard easy|cheap expensive|expensive cheap|rich poor|poor rich"
    .split("|")
    .map((pair) => pair.split(" ")),
);
const AUXILIARY = /\b(is|are|was|were|will|would|can|could|should|has|have|had|did|does|do|may|might|must)\b(?! not\b)(?!n't)/;
const PRONOUN = /(?<=\s)(it|he|she|they|him|her|them)(?=[\s,.;:])/;
const NOT_NAMES = new Set(
  "I The A An In On At For And But Or If As It He She They We You This That These Those Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December Mr Mrs Ms Dr St".split(" "),
);
const STOP = new Set("that this with from they their there which would could should about after before other these those because while where when what have been were will into more most than them then also only over such some very".split(" "));

/** A name: a capitalized word (letters only) not first in its sentence. */
const namesIn = (sentence) => wordsOf(sentence).slice(1).map((w) => w.replace(/[^\p{L}]/gu, "")).filter((w) => /^\p{Lu}\p{Ll}{2,}$/u.test(w) && !NOT_NAMES.has(w));

function sentencesOf(paragraph, lang) {
  const segmenter = new Intl.Segmenter(lang, { granularity: "sentence" });
  return [...segmenter.segment(paragraph)].map((s) => s.segment.trim()).filter(Boolean);
}

/** One page of the dataset read for labelling: its ground truth cut into paragraphs and sentences, and what a reader sees. */
function readPage(id, truth) {
  const html = gunzipSync(readFileSync(path.join(articles, `${id}.html.gz`))).toString("utf8");
  const lang = languageOf(truth.articleBody);
  const paragraphs = truth.articleBody.split(/\n+/).map((p) => p.trim()).filter(Boolean);
  let offset = 0;
  const sentences = paragraphs.flatMap((paragraph, p) =>
    sentencesOf(paragraph, lang).map((text) => {
      const at = truth.articleBody.indexOf(text, offset);
      if (at >= 0) offset = at;
      return { text, paragraph: p, at };
    }),
  );
  const visible = visibleText(html);
  const source = reference(decodeReferences(html));
  const min = unspaced(lang) ? 15 : 40;
  const usable = sentences.filter((s) => s.text.length >= min && s.text.length <= 400 && (unspaced(lang) || wordsOf(s.text).length >= 6) && inPage(s.text, visible));
  // Crossing markup: not found in the page's source read as text with its tags left in.
  for (const s of usable) s.crossesMarkup = !source.includes(reference(s.text));
  return { id, url: truth.url, site: new URL(truth.url).hostname.replace(/^www\./, ""), lang, html, visible, paragraphs, sentences, usable, part: partOf(id) };
}

/** Up to `count` sentences of varied length: drawn in turn from the short, middle and long thirds. */
function varied(random, sentences, count) {
  const sorted = [...sentences].sort((a, b) => a.text.length - b.text.length);
  const thirds = [0, 1, 2].map((k) => shuffled(random, sorted.slice(Math.floor((k * sorted.length) / 3), Math.floor(((k + 1) * sorted.length) / 3))));
  const out = [];
  for (let k = 0; out.length < count && thirds.some((t) => t.length); k++) {
    const third = thirds[k % 3];
    if (third.length) out.push(third.pop());
  }
  return out;
}

function build() {
  const truth = JSON.parse(readFileSync(path.join(articles, "ground-truth.json"), "utf8"));
  const pages = Object.entries(truth.pages).map(([id, t]) => readPage(id, t));
  const cases = [];
  const pageVariants = new Map(pages.map((p) => [p.id, [{ kind: "original" }]]));
  const dropped = new Map();
  const drop = (why) => dropped.set(why, (dropped.get(why) ?? 0) + 1);

  for (const [index, page] of pages.entries()) {
    const random = rng(page.id);
    const others = pages.filter((o) => o.site !== page.site && o.usable.length);
    const add = (variant, kind, cls, quote, check = "in-page") => {
      const expected = cls === "genuine" ? "verified" : cls === "altered" ? "partial" : "not_found";
      const visible = variant === "original" ? page.visible : page.variantText.get(variant);
      // The label's check on the independent reading of the served bytes.
      const found = check === "skip" ? null : inPage(check === "in-page" ? quote : check, visible);
      if ((cls === "genuine" && found === false) || (cls !== "genuine" && found === true)) return drop(`${kind}: check failed`);
      if (cases.some((c) => c.page === page.id && c.variant === variant && c.quote === quote)) return drop(`${kind}: duplicate`);
      cases.push({ id: `${page.id.slice(0, 12)}/${variant}/${cases.filter((c) => c.page === page.id).length + 1}`, page: page.id, part: page.part, lang: page.lang, variant, kind, class: cls, expected, quote });
    };
    page.variantText = new Map();
    const spaced = !unspaced(page.lang);
    const english = page.lang === "en";

    // Genuine: up to 3 sentences crossing inline markup and the rest plain, 6 in all, of varied length.
    const crossing = varied(random, page.usable.filter((s) => s.crossesMarkup), 3);
    const genuine = [...crossing, ...varied(random, page.usable.filter((s) => !s.crossesMarkup), 6 - crossing.length)];
    for (const s of genuine) add("original", s.crossesMarkup ? "genuine:across-markup" : "genuine:plain", "genuine", s.text);

    // Normalized, as quoting allows.
    const one = (list) => (list.length ? pick(random, list) : null);
    const g = genuine.map((s) => s.text);
    const q = one(g);
    if (q) {
      const quoted = /["\u201c\u201d]/.test(q);
      add("original", "normalized:quotation-marks", "genuine", quoted ? q.replace(/["\u201c\u201d]/g, (m) => (m === '"' ? "\u201c" : '"')).replace(/[\u2019']/g, (m) => (m === "'" ? "\u2019" : "'")) : `\u201c${q}\u201d`);
    }
    if (spaced && g.length >= 2) {
      add("original", "normalized:case", "genuine", index % 2 ? g[1].toUpperCase() : g[1].toLowerCase());
      add("original", "normalized:whitespace", "genuine", wordsOf(g.at(-1)).map((w, i) => (i % 4 === 1 ? `${w}\n` : i % 4 === 3 ? `${w}\t ` : `${w}  `)).join("").trim());
    }
    if (spaced) {
      // An ellipsis inside one sentence, or from one sentence to a later one of the same paragraph; never over a negation.
      const within = shuffled(random, page.usable).find((s) => wordsOf(s.text).length >= 12 && !NEGATIONS.test(wordsOf(s.text).slice(4, -4).join(" ")));
      if (within) add("original", "normalized:ellipsis-in-sentence", "genuine", `${wordsOf(within.text).slice(0, 4).join(" ")} … ${wordsOf(within.text).slice(-4).join(" ")}`);
      const pairs = page.usable.flatMap((a, i) => page.usable.slice(i + 1).filter((b) => b.paragraph === a.paragraph && b.at > a.at).map((b) => [a, b]));
      const omitted = ([a, b]) => {
        const paragraph = page.paragraphs[a.paragraph];
        const from = paragraph.indexOf(a.text);
        const to = paragraph.indexOf(b.text, from + a.text.length);
        return from < 0 || to < 0 ? null : wordsOf(paragraph.slice(from, to + b.text.length)).slice(5, -5).join(" ");
      };
      const pair = shuffled(random, pairs).find((p) => omitted(p) !== null && !NEGATIONS.test(omitted(p)));
      if (pair) add("original", "normalized:ellipsis-in-paragraph", "genuine", `${wordsOf(pair[0].text).slice(0, 5).join(" ")} [...] ${wordsOf(pair[1].text).slice(-5).join(" ")}`);
      // A bracketed capital: the quote starts inside the sentence.
      const capital = shuffled(random, page.usable).find((s) => wordsOf(s.text).length >= 10 && /^\p{Ll}\p{L}+$/u.test(wordsOf(s.text)[3]));
      if (capital) {
        const [first, ...rest] = wordsOf(capital.text).slice(3);
        add("original", "normalized:bracket-capital", "genuine", `[${first[0].toLocaleUpperCase(page.lang)}]${first.slice(1)} ${rest.join(" ")}`);
      }
    }
    if (english) {
      // A bracket naming what a pronoun stands for, taken from the page ("the company"): clarifies, adds nothing.
      const phrases = Object.entries(Object.groupBy(page.paragraphs.join(" ").match(/\bthe [a-z]{4,}\b/g) ?? [], (x) => x)).filter(([p]) => !STOP.has(p.slice(4))).sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
      const withPronoun = shuffled(random, page.usable).find((s) => PRONOUN.test(s.text));
      if (phrases.length && withPronoun) {
        const quote = withPronoun.text.replace(PRONOUN, `[${phrases[0][0]}]`);
        add("original", "normalized:bracket-for-pronoun", "genuine", quote, withPronoun.text);
      }
    }

    // Altered.
    const withNumber = shuffled(random, page.usable).find((s) => /\d/.test(s.text));
    if (withNumber) {
      const changed = withNumber.text.replace(/\d(?=\D*$)/, (d) => String((Number(d) + 3) % 10));
      add("original", "altered:number", "altered", changed);
      const number = /\d+(?:[.,]\d+)*/.exec(withNumber.text);
      const other = String(Number(number[0].replace(/\D/g, "").slice(0, 6)) + 7);
      add("original", "altered:bracket-number", "altered", `${withNumber.text.slice(0, number.index + number[0].length)} [${other}]${withNumber.text.slice(number.index + number[0].length)}`, "skip");
    }
    if (english) {
      const affirmative = shuffled(random, page.usable).find((s) => AUXILIARY.test(s.text) && !NEGATIONS.test(s.text));
      if (affirmative) {
        add("original", "altered:negation-added", "altered", affirmative.text.replace(AUXILIARY, "$1 not"));
        add("original", "altered:bracket-negation", "altered", affirmative.text.replace(AUXILIARY, "$1 [not]"), "skip");
      }
      const negative = shuffled(random, page.usable).find((s) => /\b(not|never)\b/.test(s.text));
      if (negative) add("original", "altered:negation-removed", "altered", negative.text.replace(/\s(not|never)\b/, ""));
    }
    const foreignNames = [...new Set(others.flatMap((o) => o.usable.flatMap((s) => namesIn(s.text))))].filter((n) => !new RegExp(`\\b${n}\\b`, "i").test(page.visible)).sort();
    const named = shuffled(random, page.usable).find((s) => namesIn(s.text).length);
    if (named && foreignNames.length) {
      const name = pick(random, namesIn(named.text));
      const swap = pick(random, foreignNames);
      // `\b` knows only ASCII word characters: a name in another script may not be found, and a quote the swap
      // did not change is the page's own sentence, never an altered one.
      const swapped = named.text.replace(new RegExp(`\\b${name}\\b`, "u"), swap);
      const bracketed = named.text.replace(new RegExp(`\\b${name}\\b`, "u"), `[${swap}]`);
      if (swapped !== named.text) add("original", "altered:name-swapped", "altered", swapped);
      if (bracketed !== named.text) add("original", "altered:bracket-name", "altered", bracketed, "skip");
    }
    if (english) {
      // A bracket putting a page word's opposite in its place ("announced it [first] month" over "last month"). Its own
      // random stream, so the cases drawn before it stay as they were.
      const antonymRandom = rng(`antonym:${page.id}`);
      const withOpposite = shuffled(antonymRandom, page.usable).find((s) => wordsOf(s.text).slice(1).some((w) => OPPOSITES[w] !== undefined));
      if (withOpposite) {
        const word = wordsOf(withOpposite.text).slice(1).find((w) => OPPOSITES[w] !== undefined);
        const swapped = withOpposite.text.replace(new RegExp(`(?<=\\s)${word}\\b`), `[${OPPOSITES[word]}]`);
        if (swapped !== withOpposite.text) add("original", "altered:bracket-antonym", "altered", swapped, "skip");
      }
    }
    if (spaced) {
      const vocabulary = new Set(reference(page.visible).match(/\p{L}+/gu));
      const foreignWords = [...new Set(others.flatMap((o) => (o.lang === page.lang ? o.usable : []).flatMap((s) => wordsOf(s.text))))].filter((w) => /^\p{Ll}{5,}$/u.test(w) && !vocabulary.has(w)).sort();
      const target = shuffled(random, page.usable).find((s) => wordsOf(s.text).slice(2).some((w) => /^\p{Ll}{5,}$/u.test(w)));
      if (target && foreignWords.length) {
        const words = wordsOf(target.text);
        const at = words.findIndex((w, i) => i >= 2 && /^\p{Ll}{5,}$/u.test(w));
        words[at] = pick(random, foreignWords);
        add("original", "altered:word-changed", "altered", words.join(" "));
      }
      // Two sentences of different paragraphs spliced into one, and an ellipsis joining distant paragraphs.
      const long = page.usable.filter((s) => wordsOf(s.text).length >= 10);
      const splice = shuffled(random, long.flatMap((a) => long.filter((b) => Math.abs(b.paragraph - a.paragraph) >= 2).map((b) => [a, b])))[0];
      if (splice) {
        const [a, b] = splice;
        add("original", "altered:spliced", "altered", `${wordsOf(a.text).slice(0, Math.ceil(wordsOf(a.text).length / 2)).join(" ")} ${wordsOf(b.text).slice(Math.ceil(wordsOf(b.text).length / 2)).join(" ")}`);
      }
      // Each part must stand once in the page: a part that recurs (a recipe's "2 tsp.") may also stand close to the
      // other, and then the quote is the page's after all.
      const seen = reference(page.visible);
      const once = (part) => {
        const at = seen.indexOf(reference(part));
        return at >= 0 && seen.indexOf(reference(part), at + 1) < 0;
      };
      const farParts = ([a, b]) => [wordsOf(a.text).slice(0, 6).join(" "), wordsOf(b.text).slice(-6).join(" ")];
      const far = shuffled(random, long.flatMap((a) => long.filter((b) => b.paragraph - a.paragraph >= 3 && b.at - a.at >= 2000).map((b) => [a, b]))).find((pair) => farParts(pair).every(once));
      if (far) add("original", "altered:ellipsis-far-apart", "altered", farParts(far).join(" … "), "skip");
    }

    // Unsupported: made up, and from another page.
    const names = namesIn(page.usable.map((s) => s.text).join(" "));
    if (english && names.length) add("original", "made-up", "unsupported", `${pick(random, names)} said on Tuesday that the figures would be revised by ${Math.floor(random() * 40) + 11} percent before the end of next year.`);
    if (spaced) {
      const vocabulary = [...new Set(page.usable.flatMap((s) => wordsOf(s.text)).filter((w) => /^\p{L}{4,}$/u.test(w)))].sort();
      if (vocabulary.length >= 12) add("original", "made-up:page-words-shuffled", "unsupported", shuffled(random, vocabulary).slice(0, 12).join(" "));
    }
    const foreign = () => pick(random, pick(random, others).usable).text;
    add("original", "other-page", "unsupported", foreign());

    // Hidden: sentences of other pages put into this page inside elements hidden by their own attributes.
    const spots = hiddenSpots(page);
    const injections = [];
    const hiddenQuotes = [];
    const templates = [
      ["hidden:display-none", (s) => `<span style="display:none">${s}</span>`, "inside"],
      ["hidden:visibility-hidden", (s) => `<div style="visibility: hidden">${s}</div>`, "after"],
      ["hidden:hidden-attribute", (s) => `<p hidden>${s}</p>`, "after"],
      ["hidden:content-visibility", (s) => `<div style="content-visibility: hidden">${s}</div>`, "after"],
      ["hidden:display-none-important", (s) => `<span style="font-weight: bold; display: none !important">${s}</span>`, "inside"],
      // Hidden by a rule of the page's own stylesheet, not by the element's attributes: the independent reader
      // here reads no stylesheet, so the label rests on the sentence being another page's (checked above).
      ["hidden:stylesheet", (s) => `<div><style>.bench-promo-box > p { display: none }</style><div class="bench-promo-box"><p>${s}</p></div></div>`, "after"],
    ];
    for (const [k, [kind, wrap, where]] of templates.entries()) {
      const spot = spots[k % spots.length];
      const sentence = foreign();
      if (inPage(sentence, page.visible) || hiddenQuotes.some(([, s]) => s === sentence)) {
        drop(`${kind}: sentence already on the page`);
        continue;
      }
      injections.push({ offset: where === "inside" ? spot.inside : spot.after, html: wrap(asciiReferences(sentence)) });
      hiddenQuotes.push([kind, sentence]);
    }
    const hidden = { kind: "hidden", injections };
    page.variantText.set("hidden", visibleText(new TextDecoder().decode(servedVariant(page.html, hidden).body)));
    pageVariants.get(page.id).push(hidden);
    for (const [kind, sentence] of hiddenQuotes) add("hidden", kind, "unsupported", sentence, kind === "hidden:stylesheet" ? "skip" : "in-page");
    for (const s of genuine.slice(0, 2)) add("hidden", "hidden-page:genuine", "genuine", s.text);
  }

  // Charset: one page per language (two for English and Russian) re-encoded in a legacy charset declared only by its own <meta>.
  const CHARSETS = { ru: ["windows-1251", "koi8-r"], ja: ["shift_jis"], ko: ["euc-kr"], zh: ["gbk"], de: ["windows-1252"], fr: ["windows-1252"], pt: ["windows-1252"], es: ["windows-1252"], it: ["windows-1252"], en: ["windows-1252", "windows-1252"] };
  for (const [lang, encodings] of Object.entries(CHARSETS)) {
    const candidates = pages.filter((p) => p.lang === lang && p.usable.some((s) => /[^\p{ASCII}]/u.test(s.text))).sort((a, b) => hash(`charset:${a.id}`).compare(hash(`charset:${b.id}`)));
    encodings.forEach((encoding, k) => {
      const page = candidates[k];
      if (!page) return;
      const variant = { kind: "charset", encoding, form: k % 2 ? "http-equiv" : "meta-charset" };
      const name = `charset-${encoding}`;
      const served = servedVariant(page.html, variant);
      page.variantText.set(name, visibleText(new TextDecoder(encoding).decode(served.body)));
      pageVariants.get(page.id).push({ ...variant, name });
      const random = rng(`${name}:${page.id}`);
      const nonAscii = page.usable.filter((s) => /[^\p{ASCII}]/u.test(s.text));
      for (const s of shuffled(random, nonAscii).slice(0, 4)) {
        const visible = page.variantText.get(name);
        if (!inPage(s.text, visible)) {
          drop("charset: check failed");
          continue;
        }
        cases.push({ id: `${page.id.slice(0, 12)}/${name}/${cases.filter((c) => c.page === page.id).length + 1}`, page: page.id, part: page.part, lang: page.lang, variant: name, kind: `charset:${encoding}`, class: "genuine", expected: "verified", quote: s.text });
      }
    });
  }

  return {
    dataset: { source: truth.source, commit: truth.commit, licence: "MIT (see bench/sources/articles/README.md)" },
    seed: SEED,
    split: { rule: `sha256("${SEED}:split:" + page id), first 4 bytes as a fraction: below ${HELD_OUT_SHARE} held-out, else development`, development: pages.filter((p) => p.part === "development").map((p) => p.id), heldOut: pages.filter((p) => p.part === "held-out").map((p) => p.id) },
    pages: pages.map((p) => ({ id: p.id, url: p.url, site: p.site, lang: p.lang, part: p.part, fixture: `articles/${p.id}.html.gz`, variants: pageVariants.get(p.id).map((v) => ({ name: v.name ?? v.kind, ...v })) })),
    cases,
    dropped: Object.fromEntries([...dropped].sort()),
  };
}

/** Non-ASCII characters as numeric references, so an injection reads the same in any charset. */
const asciiReferences = (text) => text.replace(/[^\p{ASCII}]/gu, (c) => `&#${c.codePointAt(0)};`).replace(/</g, "&lt;");

/**
 * Places for hidden elements: after the paragraph holding a genuine sentence (found as written in the
 * source), inside it just before its end tag, or before </body> when no sentence is found as written.
 */
function hiddenSpots(page) {
  const spots = [];
  for (const s of page.usable) {
    const at = page.html.indexOf(s.text.slice(-30));
    if (at < 0) continue;
    const end = page.html.indexOf("</p>", at);
    if (end < 0 || end - at > 2000) continue;
    spots.push({ inside: end, after: end + 4 });
  }
  if (spots.length === 0) {
    const body = page.html.lastIndexOf("</body>");
    const at = body >= 0 ? body : page.html.length;
    spots.push({ inside: at, after: at });
  }
  return [0, 1, 2, 3, 4].map((k) => spots[Math.floor((k * spots.length) / 5)]);
}

// Built when run, not when imported (test/unit/article-set.test.ts reads partOf).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const set = build();
  const file = path.join(here, "article-set.json");
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        description:
          "Judged quotes on real pages (a subset of Zyte's article extraction benchmark, bench/sources/articles/): each case is a quote, the page and page variant it cites, and the status the page supports, labelled from the dataset's ground truth. Built by bench/sources/build-article-set.mjs; run with npm run bench:sources.",
        ...set,
      },
      null,
      1,
    )}\n`,
  );
  const count = (list, key) => Object.entries(Object.groupBy(list, (c) => c[key])).map(([k, v]) => `${k} ${v.length}`).join(", ");
  console.log(
    `wrote ${set.cases.length} cases on ${set.pages.length} pages to ${path.relative(process.cwd(), file)}\n  by class: ${count(set.cases, "class")}\n  by part: ${count(set.cases, "part")} (pages: development ${set.split.development.length}, held-out ${set.split.heldOut.length})\n  by kind: ${count(set.cases, "kind")}\n  dropped: ${JSON.stringify(set.dropped)}`,
  );
}
