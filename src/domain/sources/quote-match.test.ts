import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isNegation } from "./negation";
import { normalizeText } from "./normalize";
import { matchQuote, QUOTE_MATCH_LIMITS } from "./quote-match";
import { prepareSnapshot, SNAPSHOT_MAX_CHARS } from "./snapshot";

const PAGE =
  "The committee said on Tuesday that costs had fallen by 37\u00a0% since 2019 \u2014 the \u201cbiggest drop\u201d on record.\n" +
  "The drug was not effective in children, according to the trial\u2019s authors. Re\u00adsearchers found no ef\ufb01cacy " +
  "in the older group either. Revenue reached 2.4\u00a0million euros, up from 1,200 orders in 1998.";

describe("matchQuote: verified", () => {
  it("finds a quote as it stands, with offsets into the page", () => {
    const result = matchQuote("costs had fallen by", PAGE);
    expect(result).toMatchObject({ status: "verified", method: "exact", score: 1 });
    expect(PAGE.slice(result.passage?.start, result.passage?.end)).toBe("costs had fallen by");
  });

  it("finds it after normalization, and maps the passage back to the original characters", () => {
    const result = matchQuote('costs had fallen by 37 % since 2019 - the "biggest drop" on record', PAGE);
    expect(result).toMatchObject({ status: "verified", method: "normalized", score: 1 });
    const passage = result.passage;
    expect(passage?.text).toBe("costs had fallen by 37\u00a0% since 2019 \u2014 the \u201cbiggest drop\u201d on record");
    expect(PAGE.slice(passage?.start, passage?.end)).toBe(passage?.text);
  });

  it("ignores case, line breaks, soft hyphens, ligatures, zero-width characters and curly apostrophes", () => {
    expect(matchQuote("RESEARCHERS FOUND NO EFFICACY in the older group", PAGE).status).toBe("verified");
    expect(matchQuote("on record. The drug was not effective", PAGE).status).toBe("verified"); // a line break in the page
    expect(matchQuote("according to the trial's authors", PAGE).status).toBe("verified");
    expect(matchQuote("according to the\u200b trial\u2019s   authors", PAGE).status).toBe("verified");
    const ligature = matchQuote("found no efficacy in the older", PAGE);
    expect(ligature.passage?.text).toBe("found no ef\ufb01cacy in the older");
  });

  it("reads a bracket the page itself holds at that spot as the page's text (a citation marker), whatever the case; one it does not hold stays an edit", () => {
    const page = "Sources: [2] Joint Commission National Patient Safety Goal: alarm management, reviewed yearly.";
    const copied = matchQuote("[2] joint commission national patient safety goal: alarm management", page);
    expect(copied).toMatchObject({ status: "verified", method: "normalized", edits: [] });
    expect(copied.passage?.text).toBe("[2] Joint Commission National Patient Safety Goal: alarm management");
    // The same words with a number the page does not hold there are an insertion, judged as one.
    expect(matchQuote("[12] joint commission national patient safety goal: alarm management", page).status).toBe("partial");
    expect(matchQuote("The minister said exports had [not] grown", "the minister said exports had grown").status).toBe("partial");
  });

  it("accepts an ellipsis (any of its spellings) between parts that appear in order", () => {
    for (const ellipsis of ["…", "...", ". . .", "[…]", "(...)"]) {
      expect(matchQuote(`The committee said on Tuesday ${ellipsis} the biggest drop on record`, PAGE).status, ellipsis).toBe("verified");
    }
    const result = matchQuote("The committee said … on record", PAGE);
    expect(result.passage?.text.startsWith("The committee said")).toBe(true);
    expect(result.passage?.text.endsWith("on record")).toBe(true);
    expect(matchQuote("the biggest drop on record … The committee said on Tuesday", PAGE).status).not.toBe("verified"); // out of order
  });

  it("accepts an omission over a negation that a clause boundary closes, since it governs nothing kept", () => {
    const page = "The bird flew 13,560 kilometres to Tasmania without stopping, a journey of 11 days. Firms did not report higher productivity, the authors noted, but they did report higher turnover.";
    expect(matchQuote("The bird flew 13,560 kilometres to Tasmania … a journey of 11 days.", page).status).toBe("verified");
    expect(matchQuote("Firms … did report higher turnover", page).status).toBe("verified");
    expect(matchQuote("Firms did … report higher productivity", page).status).toBe("partial");
  });

  it("ignores bracketed editorial insertions, and keeps a bracketed change of case", () => {
    expect(matchQuote("The [budget] committee said on Tuesday", PAGE).status).toBe("verified");
    expect(matchQuote("[It] said on Tuesday that costs had fallen", PAGE).status).toBe("verified");
    expect(matchQuote("[T]he drug was not effective in children [emphasis added]", PAGE).status).toBe("verified");
    expect(matchQuote("researchers found no efficacy [sic] in the older group", PAGE).status).toBe("verified");
  });

  it("strips quotation marks around the whole quote and a final full stop where the page's sentence goes on", () => {
    expect(matchQuote("\u201cThe drug was not effective in children.\u201d", PAGE).status).toBe("verified");
  });

  it("matches non-Latin scripts and composes accents written as combining marks", () => {
    const page = "東京都は2024年に新しい条例を施行した。Le comité a approuvé le budget à l\u2019unanimité.";
    expect(matchQuote("新しい条例を施行した", page).status).toBe("verified");
    expect(matchQuote("le comite\u0301 a approuve\u0301 le budget a\u0300 l'unanimite\u0301", page).status).toBe("verified");
  });
});

describe("matchQuote: brackets clarify, never add", () => {
  const minister = "The minister said exports had grown by 5 percent in 2024.";

  it("refuses a bracket that adds a negation, with the page's passage and a reason naming the bracket", () => {
    const result = matchQuote("the minister said exports had [not] grown", minister);
    expect(result.status).toBe("partial");
    expect(result.passage?.text).toBe("The minister said exports had grown");
    expect(result.reason).toContain('the bracket "[not]" adds a negation');
    expect(result.edits).toEqual([{ bracket: "[not]", replaces: "" }]);
  });

  it("refuses a bracketed name in place of the page's name", () => {
    const page = "Jones said exports had grown. The minister, Jones, said costs had fallen.";
    expect(matchQuote("[Smith] said exports had grown", page)).toMatchObject({ status: "partial", reason: expect.stringContaining('"[Smith]" adds a name') });
    expect(matchQuote("the minister, [Smith], said costs had fallen", page).status).toBe("partial");
    expect(matchQuote("the minister, [Jones], said costs had fallen", page).status).toBe("verified");
  });

  it("refuses a bracketed number beside the page's number", () => {
    const result = matchQuote("exports had grown by 5 [to 7] percent in 2024", minister);
    expect(result).toMatchObject({ status: "partial", reason: expect.stringContaining('"[to 7]" adds a number or quantity') });
    expect(matchQuote("exports had grown by [3.1 million, up from] 5 percent", minister).status).toBe("partial");
  });

  it("refuses a bracket putting another word in place of the page's (an antonym, another adjective or verb), with the page's passage", () => {
    const page = "As npm already announced it last month, critics were hyping up the product. He said it was fine.";
    const first = matchQuote("as npm already announced it [first] month", page);
    expect(first).toMatchObject({ status: "partial", passage: { text: "As npm already announced it last month" }, edits: [{ bracket: "[first]", replaces: "last" }] });
    expect(first.reason).toContain('the bracket "[first]" puts another word in place of the page\'s words it stands for');
    expect(matchQuote("critics were hyping [down]", page)).toMatchObject({ status: "partial", reason: expect.stringContaining('"[down]"') });
    expect(matchQuote("He [denied] it was fine", page).status).toBe("partial");
    // Respelling the page's own word, or naming what a pronoun points at, still clarifies.
    expect(matchQuote("He said it [is] fine", page).status).toBe("verified");
    expect(matchQuote("He [says] it was fine", page).status).toBe("verified");
    expect(matchQuote("[The spokesman] said it was fine", page).status).toBe("verified");
    expect(matchQuote("critics were hyping [up]", page).status).toBe("verified");
  });

  it("reads no negation across a line from an answer standing alone above the quote; a line broken mid-sentence still negates", () => {
    const quote = "Keywords provided by Wake Forest University Health Sciences:";
    expect(matchQuote(quote, "Plan to Share IPD: No\nKeywords provided by Wake Forest University Health Sciences:\nCancer").status).toBe("verified");
    expect(matchQuote(quote.slice(0, -1), "No\nKeywords provided by Wake Forest University Health Sciences:\nCancer").status).toBe("verified");
    expect(matchQuote("effective in children under five", "The drug was not\neffective in children under five.").status).toBe("partial");
  });

  it("verifies a bracket that stands for the page's words, and shows them", () => {
    const page = "Asked about trade, she said exports had grown. He said the plan would work.";
    const she = matchQuote("[the minister] said exports had grown", page);
    expect(she).toMatchObject({ status: "verified", edits: [{ bracket: "[the minister]", replaces: "she" }] });
    expect(she.passage?.text).toBe("she said exports had grown");
    expect(matchQuote("[the president] said the plan would work", page).edits).toEqual([{ bracket: "[the president]", replaces: "He" }]);
    expect(matchQuote("[T]he minister said exports had grown", minister).edits).toEqual([{ bracket: "[T]he", replaces: "The" }]);
    expect(matchQuote("the minister said [sic] exports had grown [emphasis added]", minister)).toMatchObject({
      status: "verified",
      edits: [
        { bracket: "[sic]", replaces: "" },
        { bracket: "[emphasis added]", replaces: "" },
      ],
    });
    expect(matchQuote("the minister said exports had grown", minister).edits).toEqual([]);
  });

  it("judges a bracket standing alone between ellipses or at the end, and one opening a part after an ellipsis", () => {
    const page = "The minister said exports had grown, and she said imports had fallen by 3 percent.";
    expect(matchQuote("The minister said … [not] … grown, and she said imports had fallen", page).status).toBe("partial");
    expect(matchQuote("The minister said exports had grown … [by 9 percent]", page).status).toBe("partial");
    const opened = matchQuote("The minister said exports had grown … [the minister] said imports had fallen", page);
    expect(opened).toMatchObject({ status: "verified", edits: [{ bracket: "[the minister]", replaces: "and she" }] });
  });

  it("lets a bracket stand for at most a few page words", () => {
    const page = "The minister, speaking at length to reporters on Monday, said exports had grown.";
    expect(matchQuote("The minister [on Monday] said exports had grown", page).status).not.toBe("verified");
    expect(matchQuote("reporters [on that Monday] said exports had grown", page.replace("on Monday, ", "on Monday ")).status).toBe("verified");
  });

  it("judges a quote that is one bracket whole on its words", () => {
    const page = "Figure 9: Exports grew by 5 percent in 2024, the ministry's figures show.";
    expect(matchQuote("[Figure 9: exports grew by 5 percent in 2024]", page).status).toBe("verified");
    expect(matchQuote("[Figure 9: exports grew by 7 percent in 2024]", page).status).toBe("partial");
    expect(matchQuote("[sic]", page).reason).toBe("empty quote");
  });
});

describe("matchQuote: an ellipsis stays within one passage", () => {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
  const gap = QUOTE_MATCH_LIMITS.ellipsisGapWords;

  it("joins parts of one paragraph however far apart", () => {
    const page = `The council approved the budget on Monday ${filler(3 * gap)} and the mayor signed it the same day.`;
    expect(matchQuote("The council approved the budget … the mayor signed it the same day", page).status).toBe("verified");
  });

  it("joins parts of two paragraphs only when they are close", () => {
    const near = `The council approved the budget on Monday ${filler(gap - 10)}.\nThe mayor signed it the same day.`;
    expect(matchQuote("The council approved the budget … The mayor signed it the same day", near).status).toBe("verified");
    const far = `The council approved the budget on Monday ${filler(gap)}.\n${filler(gap)} The mayor signed it the same day.`;
    const result = matchQuote("The council approved the budget … The mayor signed it the same day", far);
    expect(result.status).toBe("partial");
    expect(result.reason).toContain("the quote's parts are too far apart");
    expect(result.reason).toContain(`at most ${gap} words apart`);
    expect(far).toContain(result.passage?.text ?? "");
  });
});

describe("matchQuote: never verifies an altered quote", () => {
  const altered = [
    ["a number changed", "costs had fallen by 38 % since 2019"],
    ["a year changed", "up from 1,200 orders in 1999"],
    ["a negation dropped", "The drug was effective in children"],
    ["a negation added", "Revenue never reached 2.4 million euros"],
    ["a word swapped", "The committee said on Wednesday that costs had fallen"],
    ["two words swapped in order", "costs had fallen by 37 % since 2019 - the drop biggest on record"],
    ["an omission that drops the negation", "The drug was … effective in children"],
    ["a bracket standing in for the negation", "The drug was [very] effective in children"],
    ["a bracket standing in for a number", "costs had fallen by [half] since 2019"],
  ];
  it.each(altered)("%s: at most partial, with the page's own passage", (_, quote) => {
    const result = matchQuote(quote, PAGE);
    expect(result.status).toBe("partial");
    expect(result.method).toBe("fuzzy");
    expect(result.score).toBeLessThan(1);
    expect(PAGE.slice(result.passage?.start, result.passage?.end)).toBe(result.passage?.text);
  });

  it("says what differs, echoing the quote's words but never the page's (page text is untrusted)", () => {
    expect(matchQuote("costs had fallen by 38 % since 2019", PAGE).reason).toBe('the closest passage differs from the quote; the quote\'s "38" not in it; 1 word of the passage not in the quote');
    expect(matchQuote("The drug was effective in children", PAGE).reason).toBe("the closest passage differs from the quote; 1 word of the passage not in the quote");
    expect(matchQuote("The drug was … effective in children", PAGE).reason).toContain("an omission in the quote skips a negation");
  });

  it("matches whole words and whole numbers only", () => {
    const page = "Prices rose 150 percent in 2.45 years, and the ineffective scheme ended at -3 degrees with 37% support.";
    for (const quote of ["rose 50 percent in", "in 2.4", "45 years, and the", "effective scheme ended", "ended at 3 degrees", "degrees with 37"]) {
      expect(matchQuote(quote, page).status, quote).not.toBe("verified");
    }
    expect(matchQuote("ended at -3 degrees", page).status).toBe("verified");
    expect(matchQuote("ended at \u22123 degrees", page).status).toBe("verified");
  });

  it("keeps an exponent apart from the digits before it", () => {
    const page = "The area is 10\u00b2 km across, a CO\u2082 budget.";
    expect(matchQuote("area is 102 km across", page).status).not.toBe("verified");
    expect(matchQuote("area is 10^2 km across", page).status).toBe("verified");
    expect(matchQuote("area is 10² km across", page).status).toBe("verified");
    expect(matchQuote("km across, a CO2 budget", page).status).toBe("verified");
  });

  it("property: changing one digit of a quoted number never verifies it", () => {
    const page = "In 2021 the agency counted 4,817 inspections, 312 of them unannounced, and fined 27 firms a total of 9.6 million dollars.";
    const digits = [...page].flatMap((char, i) => (char >= "0" && char <= "9" ? [i] : []));
    fc.assert(
      fc.property(fc.constantFrom(...digits), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 10, max: 60 }), (at, shift, before, after) => {
        const changed = String((Number(page[at]) + shift) % 10);
        const start = Math.max(0, at - before);
        const quote = `${page.slice(start, at)}${changed}${page.slice(at + 1, Math.min(page.length, at + after))}`;
        expect(matchQuote(quote, page).status).not.toBe("verified");
      }),
      { numRuns: 300 },
    );
  });
});

describe("matchQuote: partial, not found, unchecked", () => {
  it("reports a light paraphrase as partial and a quote from elsewhere as not found", () => {
    expect(matchQuote("the committee stated on Tuesday that costs fell by 37 % since 2019", PAGE).status).toBe("partial");
    const elsewhere = matchQuote("The central bank raised interest rates by a quarter point to curb inflation.", PAGE);
    expect(elsewhere).toMatchObject({ status: "not_found", method: "fuzzy" });
    expect(elsewhere.passage).toBeUndefined();
    expect(elsewhere.score).toBeLessThan(QUOTE_MATCH_LIMITS.partialScore);
  });

  it("does not check an empty, trivially short or oversized quote, and says why", () => {
    expect(matchQuote("", PAGE)).toEqual({ status: "unchecked", method: null, score: 0, reason: "empty quote" });
    expect(matchQuote("  … [sic] ", PAGE).reason).toBe("empty quote");
    expect(matchQuote("the drug", PAGE)).toMatchObject({ status: "unchecked", reason: expect.stringContaining("too short") });
    expect(matchQuote("bar-tailed godwit", "A bar-tailed godwit flew far.").status).toBe("unchecked"); // two words as a reader counts them
    expect(matchQuote("x".repeat(QUOTE_MATCH_LIMITS.quoteChars + 1), PAGE)).toMatchObject({ status: "unchecked", reason: "quote longer than 4000 characters" });
    expect(matchQuote("a b c d e f g h i j k l", "   ")).toMatchObject({ status: "unchecked", reason: "the page has no text" });
    const omissions = Array.from({ length: 12 }, (_, i) => `part number ${i}`).join(" … ");
    expect(matchQuote(omissions, PAGE)).toMatchObject({ status: "unchecked", reason: expect.stringContaining("omissions") });
  });

  it("searches a page over its first SNAPSHOT_MAX_CHARS characters and says so", () => {
    const filler = "lorem ipsum dolor sit amet ".repeat(Math.ceil(SNAPSHOT_MAX_CHARS / 27));
    const page = `${filler} the hidden sentence about tariffs`;
    const snapshot = prepareSnapshot(page);
    expect(snapshot.truncated).toBe(true);
    expect(snapshot.original.length).toBe(SNAPSHOT_MAX_CHARS);
    const result = matchQuote("the hidden sentence about tariffs", snapshot);
    expect(result.status).toBe("not_found");
    expect(result.reason).toContain(`first ${SNAPSHOT_MAX_CHARS} characters`);
  }, 30_000);

  it("reuses one prepared page for several quotes", () => {
    const snapshot = prepareSnapshot(PAGE);
    expect(matchQuote("The committee said on Tuesday", snapshot).status).toBe("verified");
    expect(matchQuote("The committee said on Monday", snapshot).status).toBe("partial");
  });
});

describe("matchQuote: offsets and bounds", () => {
  it("property: any run of whole words of the page, retyped plainly, is verified at offsets that hold it (unless it starts after a negation)", () => {
    const page = `${PAGE} \u00abLe pr\u00e9sident n\u2019a pas sign\u00e9\u00bb, said the ﬁrst\u00a0official. \u5927\u962a\u5e9c\u306e\u4eba\u53e3\u306f\u6e1b\u5c11\u3057\u305f\u3002`;
    const boundaries = [0, ...[...page].flatMap((char, i) => (/\s/.test(char) ? [i + 1] : [])), page.length];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: boundaries.length - 2 }), fc.integer({ min: 3, max: 25 }), (from, words) => {
        const start = boundaries[from] ?? 0;
        const end = boundaries[Math.min(boundaries.length - 1, from + words)] ?? page.length;
        const quote = page.slice(start, end).normalize("NFKC").replace(/\s+/g, " ").replace(/[\u2018\u2019]/g, "'").trim();
        const result = matchQuote(quote, page);
        if (result.status === "unchecked") return;
        const wordBefore = normalizeText(page.slice(0, start)).split(/[^\p{L}\p{N}']+/u).filter(Boolean).at(-1) ?? "";
        if (isNegation(wordBefore) && !/[.,;:!?]\s*$/.test(page.slice(0, start))) {
          expect(result.status).toBe("partial"); // starts right after "not": says the opposite of the page
          return;
        }
        expect(result.status).toBe("verified");
        const passage = result.passage;
        expect(page.slice(passage?.start, passage?.end)).toBe(passage?.text);
        expect(normalizeText(passage?.text ?? "")).toContain(normalizeText(quote).replace(/[.,;:!?]+$/, ""));
      }),
      { numRuns: 300 },
    );
  });

  it("bounds the placement of omissions and brackets on a large page (no scan of the page per attempt)", () => {
    const page = prepareSnapshot("a b c ".repeat(160_000));
    const hostile = ["a b [x] c … a b … a [y] b … c a … missing words here", "a … b … c … a … b … c … a … b … c … zzz qqq", "a b [it] c [is] a [so] b c … nowhere at all"];
    for (const quote of hostile) {
      const started = performance.now();
      const result = matchQuote(quote, page);
      expect(result.status).not.toBe("verified");
      expect(performance.now() - started, quote).toBeLessThan(5_000); // ≈ 0.1–0.5 s on a loaded 2-core machine
    }
  }, 30_000);

  it("stays fast on a large page with a long quote that is not in it", () => {
    const words = ["market", "policy", "growth", "the", "of", "rate", "bank", "energy", "price", "and", "in", "data"];
    const page = Array.from({ length: 150_000 }, (_, i) => words[(i * 7 + (i >> 3)) % words.length]).join(" ");
    const quote = Array.from({ length: 400 }, (_, i) => words[(i * 5 + 3) % words.length]).join(" ");
    const started = performance.now();
    const result = matchQuote(quote.slice(0, QUOTE_MATCH_LIMITS.quoteChars), page);
    expect(["partial", "not_found"]).toContain(result.status);
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 30_000);
});

describe("matchQuote: text as extraction leaves it", () => {
  const page = "Coal use hit 8.7 billion tonnes in 2023,[3] driven by India.[4] The report con-\ncluded that unemploy-\nment fell by 4.2 points.\u00b9\u00b2 It ended.";
  it("reads through citation markers, footnote markers and words broken across lines, with offsets into the page", () => {
    const cited = matchQuote("8.7 billion tonnes in 2023, driven by India. The report", page);
    expect(cited.status).toBe("verified");
    expect(cited.passage?.text).toBe("8.7 billion tonnes in 2023,[3] driven by India.[4] The report");
    const broken = matchQuote("concluded that unemployment fell by 4.2 points. It ended", page);
    expect(broken.status).toBe("verified");
    expect(broken.passage?.text).toBe("con-\ncluded that unemploy-\nment fell by 4.2 points.\u00b9\u00b2 It ended");
  });

  it("still refuses altered numbers around the markers", () => {
    expect(matchQuote("8.7 billion tonnes in 2023 3, driven by India", page).status).not.toBe("verified");
    expect(matchQuote("unemployment fell by 4.2 points.12 It ended", page).status).not.toBe("verified");
    expect(matchQuote("unemployment fell by 4.21 points", page).status).not.toBe("verified");
  });
});

describe("matchQuote: a quote that starts after a negation", () => {
  it("is not verified when the word before it negates it, and is when punctuation stands between", () => {
    const page = "No descartamos traer agua en barco. The drug was not effective in children. Results: effective in adults.";
    expect(matchQuote("descartamos traer agua en barco", page)).toMatchObject({ status: "partial", reason: expect.stringContaining("negates") });
    expect(matchQuote("effective in children", page).status).toBe("partial");
    expect(matchQuote("effective in adults", page).status).toBe("verified");
    expect(matchQuote("not effective in children", page).status).toBe("verified");
  });
});
