import { describe, expect, it } from "vitest";
import { locatePassage, PASSAGE_CONTEXT, passageInContext, passageWindow } from "./passage-context";

const words = (n: number, word = "lorem") => Array.from({ length: n }, (_, i) => `${word}${i}`).join(" ");
const QUOTE = "Battery prices fell by 14 percent in 2023";
const verified = { status: "verified" as const, passage: QUOTE };

describe("passageInContext", () => {
  it("gives the passage with at most contextChars either side, cut at word boundaries, as one stretch of the page", () => {
    const text = `${words(200, "before")} ${QUOTE}. ${words(200, "after")}`;
    const found = passageInContext(text, verified, QUOTE);
    expect(found?.passage).toBe(QUOTE);
    const { before, after } = found?.context ?? { before: "", after: "" };
    expect(before.length).toBeGreaterThan(PASSAGE_CONTEXT.contextChars - 20);
    expect(before.length).toBeLessThanOrEqual(PASSAGE_CONTEXT.contextChars);
    expect(after.length).toBeGreaterThan(PASSAGE_CONTEXT.contextChars - 20);
    expect(after.length).toBeLessThanOrEqual(PASSAGE_CONTEXT.contextChars);
    // Whole words: the window starts on a word and ends before a space.
    expect(before).toMatch(/^before\d+ /);
    expect(after).toMatch(/ after\d+$/);
    expect(text).toContain(`${before}${found?.passage}${after}`);
  });

  it("gives all the text before a passage at the start of the page and all after one at its end", () => {
    const atStart = passageInContext(`${QUOTE}, said the report.`, verified, QUOTE);
    expect(atStart).toEqual({ passage: QUOTE, context: { before: "", after: ", said the report." } });
    const atEnd = passageInContext(`The report says: ${QUOTE}`, verified, QUOTE);
    expect(atEnd).toEqual({ passage: QUOTE, context: { before: "The report says: ", after: "" } });
  });

  it("finds a passage no longer at its exact words by the quote check, and nothing where neither finds it", () => {
    // The stored passage differs from the text (e.g. curly quotes in the page): the quote check places the quote.
    const text = `Intro. Battery prices fell by 14\u00a0percent in 2023, the agency said.`;
    const found = passageInContext(text, { status: "verified", passage: "something else" }, QUOTE);
    expect(found?.passage).toBe("Battery prices fell by 14\u00a0percent in 2023");
    expect(found?.context).toEqual({ before: "Intro. ", after: ", the agency said." });
    expect(passageInContext("Nothing about batteries here at all, only weather.", verified, QUOTE)).toBeNull();
    expect(passageInContext("Nothing here.", { status: "verified", passage: null }, null)).toBeNull();
  });

  it("gives nothing for a verdict with no located passage (not_found, unreachable, unchecked, pending)", () => {
    const text = `${QUOTE}.`;
    for (const status of ["not_found", "unreachable", "unchecked", "pending"] as const) {
      expect(passageInContext(text, { status, passage: QUOTE }, QUOTE)).toBeNull();
    }
    expect(locatePassage(text, { status: "partial", passage: QUOTE }, null)).toEqual({ start: 0, end: QUOTE.length });
  });

  it("never cuts a character in two and keeps multi-byte text whole", () => {
    // Astral characters (two UTF-16 units each) with no spaces: the cut falls mid-pair unless moved.
    const emoji = "\u{1F600}".repeat(400);
    const passage = "l\u00e9gende du caf\u00e9 \u00e0 Z\u00fcrich \u2014 \u65e5\u672c\u8a9e";
    // One ASCII letter either side puts both cuts (300 units away) on the second half of a pair.
    const text = `${emoji}a${passage}b${emoji}`;
    const found = passageInContext(text, { status: "verified", passage }, null);
    expect(found?.passage).toBe(passage);
    const { before, after } = found?.context ?? { before: "", after: "" };
    expect(before.length).toBeLessThanOrEqual(PASSAGE_CONTEXT.contextChars);
    expect(after.length).toBeLessThanOrEqual(PASSAGE_CONTEXT.contextChars);
    expect(before.endsWith("a") && after.startsWith("b")).toBe(true);
    for (const part of [before.slice(0, -1), after.slice(1)]) {
      expect(part.length).toBeGreaterThan(0);
      expect([...part].every((char) => char === "\u{1F600}")).toBe(true);
    }
  });

  it("bounds a long passage, and finds a clipped stored passage by its words, the text after continuing from it", () => {
    const long = words(150, "quoted");
    expect(long.length).toBeGreaterThan(PASSAGE_CONTEXT.passageChars);
    const text = `Opening words. ${long} closing words.`;
    // The ledger keeps a long passage clipped to passageChars and marked with an ellipsis.
    const stored = `${long.slice(0, PASSAGE_CONTEXT.passageChars)}\u2026`;
    const found = passageInContext(text, { status: "partial", passage: stored }, null);
    expect(found?.passage).toBe(long.slice(0, PASSAGE_CONTEXT.passageChars));
    expect(found?.context.before).toBe("Opening words. ");
    expect(found?.context.after.length).toBeLessThanOrEqual(PASSAGE_CONTEXT.contextChars);
    expect(text).toContain(`${found?.passage}${found?.context.after}`);
    // A span the quote check gives, longer than the bound, is shown up to it.
    const window = passageWindow(text, { start: 15, end: 15 + long.length });
    expect(window?.passage.length).toBe(PASSAGE_CONTEXT.passageChars);
  });

  it("refuses a span that does not fit the text", () => {
    expect(passageWindow("short", { start: 2, end: 40 })).toBeNull();
    expect(passageWindow("short", { start: 3, end: 3 })).toBeNull();
    expect(passageWindow("short", { start: -1, end: 2 })).toBeNull();
  });
});
