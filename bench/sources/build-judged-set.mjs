/**
 * Writes bench/sources/judged-set.json from the pages and hand-written quotes of pages.mjs, plus
 * cases derived from them: typographic variants of genuine quotes, ellipses, editorial brackets,
 * truncations (at a word and inside one), a long quote of a whole page (as is and with a number
 * changed), a quote taken from another page, very short and empty quotes.
 *
 *   node bench/sources/build-judged-set.mjs          (rewrites the file; deterministic)
 *
 * Every label is checked here against the page with a reading independent of the matcher
 * (reference(): NFKC, case, whitespace, quotation marks, dashes, invisible characters, written
 * with plain string operations): a genuine quote must be in the page at word boundaries, an altered
 * one must not. A case that fails its check stops the build: labels say what the page says, never
 * what the matcher does.
 *
 * Classes: `genuine` (faithful; expected verified), `altered` (a quote of the page with something
 * changed; expected partial), `unsupported` (paraphrase, made-up or from another page; partial or
 * not_found as labelled), `unchecked` (empty or too short to mean anything).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { winAnsiEncodable } from "../../test/support/pdf-builder.ts";
import { HARD_PAGES, PAGES, UNSEEN_PAGES } from "./pages.mjs";
import { inPage, reference } from "./reference.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

const NEGATIONS = new Set(["not", "no", "never", "cannot", "without", "ne", "pas", "nicht", "kein", "keine", "no", "não", "nunca"]);
const wordsOf = (text) => text.split(/\s+/).filter(Boolean);
const hasNegation = (words) => words.some((w) => NEGATIONS.has(reference(w).replace(/[^\p{L}]/gu, "")));
const unspaced = (text) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text);

/** Typographic variants of a genuine quote: what an assistant or a copy-paste changes without changing a word. */
const VARIANTS = [
  ["curly-quotes", (q) => (/['"]/.test(q) ? q.replace(/"([^"]*)"/g, "\u201c$1\u201d").replace(/'/g, "\u2019") : `\u201c${q}\u201d`)],
  ["upper-case", (q) => q.toUpperCase()],
  ["line-break", (q) => replaceNth(q, " ", "\n", Math.floor(wordsOf(q).length / 2))],
  ["nbsp", (q) => q.replace(/ /g, "\u00a0")],
  ["soft-hyphen", (q) => q.replace(/(\p{L}{3})(\p{L}{3,})/u, "$1\u00ad$2")],
  ["zero-width", (q) => q.replace(" ", " \u200b")],
  ["dash", (q) => (q.includes(" - ") ? q.replace(" - ", " \u2014 ") : q.includes("-") ? q.replace("-", "\u2011") : q.replace(" ", " \u2013 ").replace(" \u2013 ", " "))],
  ["ligature", (q) => (/f[il]/.test(q) ? q.replace(/fi/g, "\ufb01").replace(/fl/g, "\ufb02") : q.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d))))],
  ["wrapped", (q) => `"${q.replace(/[.,;:]$/, "")}."`],
  ["decomposed", (q) => q.normalize("NFD")],
  ["lower-case", (q) => q.toLowerCase()],
  ["tabs-and-newlines", (q) => q.replace(/ /g, (_, i) => (i % 3 === 0 ? "\t" : i % 3 === 1 ? "\n " : "  "))],
];

function replaceNth(text, search, replacement, n) {
  let at = -1;
  for (let k = 0; k <= n; k++) {
    at = text.indexOf(search, at + 1);
    if (at < 0) return text;
  }
  return `${text.slice(0, at)}${replacement}${text.slice(at + search.length)}`;
}

function build() {
  const cases = [];
  const add = (page, kind, cls, expected, quote) => {
    if (cls === "genuine" && !inPage(quote, page.text)) throw new Error(`${page.id} ${kind}: genuine quote not in the page: ${quote}`);
    if (cls === "altered" && inPage(quote, page.text)) throw new Error(`${page.id} ${kind}: altered quote is in the page: ${quote}`);
    cases.push(caseOf(page, kind, cls, expected, quote));
  };
  const caseOf = (page, kind, cls, expected, quote) => ({ id: `${page.id}/${cases.filter((c) => c.page === page.id).length + 1}`, page: page.id, lang: page.lang, kind, class: cls, expected, quote });

  PAGES.forEach((page, p) => {
    const sentences = page.genuine;
    // Genuine, as an assistant types them.
    for (const quote of sentences) add(page, page.text.includes(quote) ? "exact" : "typography-in-page", "genuine", "verified", quote);
    // Typographic variants, three per page, rotating through the list.
    sentences.forEach((quote, i) => {
      for (let k = 0; k < VARIANTS.length; k++) {
        const [name, apply] = VARIANTS[(p * 3 + i + k) % VARIANTS.length];
        const variant = apply(quote);
        if (variant !== quote) {
          add(page, `variant:${name}`, "genuine", "verified", variant);
          break;
        }
      }
    });
    // Hand-written alterations and paraphrases.
    for (const [what, quote] of page.altered) add(page, `altered:${what}`, "altered", "partial", quote);
    // Omissions over a negation (an ellipsis, or a quote starting right after one), labelled by meaning: the quote's words are all in the page, in order.
    for (const [label, quote, how = "ellipsis-drops-negation"] of page.omissions ?? []) {
      if (!inPage(quote, page.text)) throw new Error(`${page.id}: omission quote not in the page in order: ${quote}`);
      if (label === "flips") cases.push(caseOf(page, `altered:${how}`, "altered", "partial", quote));
      else cases.push(caseOf(page, "ellipsis:over-negation", "genuine", "verified", quote));
    }
    for (const [expected, quote] of page.other) add(page, expected === "partial" ? "paraphrase:close" : "unsupported", "unsupported", expected, quote);

    const longest = [...sentences].sort((a, b) => b.length - a.length)[0];
    if (!unspaced(page.text)) {
      const words = wordsOf(longest);
      // An ellipsis inside a sentence, over words that hold no negation (omissions that drop one are written by hand).
      const elidable = [...sentences].sort((a, b) => b.length - a.length).find((q) => wordsOf(q).length >= 10 && !hasNegation(wordsOf(q).slice(4, -4)));
      if (elidable) add(page, "ellipsis", "genuine", "verified", `${wordsOf(elidable).slice(0, 4).join(" ")} … ${wordsOf(elidable).slice(-4).join(" ")}`);
      // An ellipsis across sentences: the start of the first quote, the end of the last, in page order.
      const [first, last] = [sentences[0], sentences[sentences.length - 1]].sort((a, b) => reference(page.text).indexOf(reference(a)) - reference(page.text).indexOf(reference(b)));
      // Skipped where the omitted text holds a negation: whether leaving it out changes the meaning is for a person to judge (see omissions).
      const from = reference(page.text).indexOf(reference(wordsOf(first).slice(0, 5).join(" ")));
      const to = reference(page.text).indexOf(reference(wordsOf(last).slice(-5).join(" ")));
      if (!hasNegation(wordsOf(reference(page.text).slice(from, to)).slice(5))) {
        add(page, "ellipsis:across-sentences", "genuine", "verified", `${wordsOf(first).slice(0, 5).join(" ")} [...] ${wordsOf(last).slice(-5).join(" ")}`);
      }
      // Editorial brackets.
      const bracketed = [
        () => `${words.slice(0, 3).join(" ")} [sic] ${words.slice(3).join(" ")}`,
        () => `${longest} [emphasis added]`,
        () => `[${longest[0] === longest[0].toUpperCase() ? longest[0].toLowerCase() : longest[0].toUpperCase()}]${longest.slice(1)}`,
      ][p % 3]();
      add(page, "bracket", "genuine", "verified", bracketed);
      // Truncated at a word: the first 60 % of a quote.
      const second = wordsOf(sentences[1]);
      add(page, "truncated", "genuine", "verified", second.slice(0, Math.max(3, Math.ceil(second.length * 0.6))).join(" "));
      // Truncated inside a word.
      const cut = sentences[0].replace(/[.,;:]$/, "");
      const lastWord = wordsOf(cut).at(-1);
      if (lastWord.length >= 5 && /^\p{L}+$/u.test(lastWord)) add(page, "altered:cut-inside-word", "altered", "partial", cut.slice(0, -2));
      // Very short.
      add(page, "short", "unchecked", "unchecked", words.slice(1, 1 + (p % 2) + 1).join(" "));
    } else {
      add(page, "truncated", "genuine", "verified", sentences[0].slice(0, Math.ceil(sentences[0].length * 0.6)));
      add(page, "short", "unchecked", "unchecked", sentences[1].slice(0, 3));
    }
    // A quote from another page, on another subject.
    add(page, "other-page", "unsupported", "not_found", PAGES[(p + 5) % PAGES.length].genuine[0]);
    // The whole page as one long quote, retyped plainly; and the same with one number changed.
    if (p % 3 === 0) {
      const plain = page.text.replace(/[\u201c\u201d\u00ab\u00bb\u201e]/g, '"').replace(/[\u2018\u2019]/g, "'").replace(/\u2014|\u2013/g, "-").replace(/\s+/g, " ").replace(/\u00ad/g, "").normalize("NFKC");
      add(page, "long", "genuine", "verified", plain);
      const changed = plain.replace(/(\d)(?=\D*$)/, (d) => String((Number(d) + 3) % 10));
      add(page, "altered:long-number", "altered", "partial", changed);
    }
  });

  // Hard and unseen cases, labelled by hand (see HARD_PAGES and UNSEEN_PAGES).
  for (const page of [...HARD_PAGES, ...UNSEEN_PAGES]) for (const [cls, expected, kind, quote] of page.cases) cases.push(caseOf(page, kind, cls, expected, quote));

  // Empty and editorial-only quotes.
  const first = PAGES[0];
  for (const quote of ["", "   ", "…", "[sic]", '""']) add(first, "empty", "unchecked", "unchecked", quote);
  // `pdf`: the page is also served as a PDF (its text laid out in lines, in a standard PDF font, which WinAnsi
  // characters only can use), and its cases are checked again on the text read from that PDF.
  return { pages: [...PAGES, ...HARD_PAGES, ...UNSEEN_PAGES].map(({ id, lang, text }) => ({ id, lang, ...(winAnsiEncodable(text) ? { pdf: true } : {}), text })), cases };
}

const set = build();
const file = path.join(here, "judged-set.json");
writeFileSync(
  file,
  `${JSON.stringify(
    {
      description:
        "Judged quotes for the quote matcher (src/domain/sources/quote-match.ts): each case is a quote, the page it cites (by id) and the status the page supports. Built by bench/sources/build-judged-set.mjs from bench/sources/pages.mjs; run with npm run bench:sources.",
      ...set,
    },
    null,
    1,
  )}\n`,
);
const count = (key) => Object.entries(Object.groupBy(set.cases, (c) => c[key])).map(([k, v]) => `${k} ${v.length}`).join(", ");
console.log(`wrote ${set.cases.length} cases on ${set.pages.length} pages to ${path.relative(process.cwd(), file)}\n  by class: ${count("class")}\n  by expected: ${count("expected")}`);
