import { describe, expect, it } from "vitest";
import { normalizeText, normalizeWithMap, tokenize } from "./normalize";

describe("normalizeWithMap", () => {
  it("folds case, whitespace, quotation marks, dashes and invisible characters", () => {
    expect(normalizeText("  The\u00a0\u201cBIG\u201d\n\tdrop \u2014 re\u00adported\u200b here\u2019s  ")).toBe("the big drop-reported here's");
    expect(normalizeText("a \u2013 b -- c \u2212 d")).toBe("a-b-c-d");
    expect(normalizeText("Smith , 2020 ( see above )")).toBe("smith, 2020 (see above)");
    expect(normalizeText("\u00abLe pr\u00e9sident\u00bb a dit \u2018non\u2019")).toBe("le président a dit non");
  });

  it("applies NFKC (ligatures, full-width forms, the ellipsis character) but keeps diacritics", () => {
    expect(normalizeText("\ufb01nal \uff21\uff22\uff23 wait\u2026")).toBe("final abc wait...");
    expect(normalizeText("r\u00e9sum\u00e9")).not.toBe("resume");
    expect(normalizeText("re\u0301sume\u0301")).toBe(normalizeText("r\u00e9sum\u00e9"));
  });

  it("writes an exponent after digits with a caret, and a fraction after digits with a space", () => {
    expect(normalizeText("10\u00b2 and 10\u00b9\u00b2 and km\u00b2 and CO\u2082")).toBe("10^2 and 10^12 and km2 and co2");
    expect(normalizeText("1\u00bd cups")).toBe("1 1/2 cups");
  });

  it("drops page furniture: citation markers, footnote markers after punctuation, hyphens of words broken across lines", () => {
    expect(normalizeText("in 2023,[3] driven by China.[4][5] It fell.[citation needed] See [a] and [12–14].")).toBe("in 2023, driven by china. it fell. see and.");
    expect(normalizeText("by 4.2 points.¹² It recommended")).toBe("by 4.2 points. it recommended");
    expect(normalizeText("con-\ncluded, extend-\r\n  ing, 2019-\n2020, Anti-\nVax, well - \nknown")).toBe("concluded, extending, 2019-2020, anti-vax, well-known");
    expect(normalizeText("[sic] and [the minister] stay")).toBe("[sic] and [the minister] stay"); // not markers: a quote's brackets are read before normalization
  });

  it("maps every normalized unit back to the original characters it came from", () => {
    const original = "A\u00a0\u00a0\ufb01ne \u201cday\u201d\u00ad\u2014 ok";
    const { text, starts, ends } = normalizeWithMap(original);
    expect(text).toBe("a fine day-ok");
    expect(starts.length).toBe(text.length);
    const slice = (from: number, to: number) => original.slice(starts[from], ends[to - 1]);
    expect(slice(2, 6)).toBe("\ufb01ne"); // both units of "fi" point at the ligature
    expect(slice(7, 10)).toBe("day");
    expect(slice(0, text.length)).toBe(original);
  });

  it("is linear: a megabyte of text normalizes in well under a second", () => {
    const text = "Caf\u00e9 \u201cx\u201d \u2014 na\u00efve text\u00a0".repeat(40_000);
    const started = performance.now();
    normalizeWithMap(text);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe("tokenize", () => {
  it("keeps numbers with their points and commas, apostrophes inside words, and splits unspaced scripts by character", () => {
    expect(tokenize("2.4 million, 1,200 don't x-ray 東京都").map((t) => t.text)).toEqual(["2.4", "million", "1,200", "don't", "x", "ray", "東", "京", "都"]);
  });
});
