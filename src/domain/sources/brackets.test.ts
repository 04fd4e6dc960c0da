import { describe, expect, it } from "vitest";
import { BRACKET_MAX_WORDS, bracketProblem, bracketReason, isAnnotation } from "./brackets";

const mid = { sentenceStart: false, usedInLowerCase: () => false };
const opening = (lowerCaseWords: string[] = []) => ({ sentenceStart: true, usedInLowerCase: (word: string) => lowerCaseWords.includes(word) });

describe("bracketProblem: a bracket clarifies, never adds", () => {
  it("lets a bracket stand for the page's words it clarifies", () => {
    expect(bracketProblem("the president", "he", mid)).toBeNull();
    expect(bracketProblem("the minister", "she", mid)).toBeNull();
    expect(bracketProblem("the ministry", "", mid)).toBeNull();
    expect(bracketProblem("The minister", "She", opening(["minister"]))).toBeNull();
    expect(bracketProblem("It", "The committee", opening())).toBeNull(); // a sentence's capital, not a name
    expect(bracketProblem("Jones", "Minister Jones", mid)).toBeNull(); // the name is the page's
    expect(bracketProblem("37 %", "37\u00a0%", mid)).toBeNull();
    expect(bracketProblem("did not", "didn't", mid)).toBeNull();
  });

  it("refuses a bracket that adds a negation", () => {
    expect(bracketProblem("not", "", mid)).toEqual({ kind: "adds", what: "negation", word: "not" });
    expect(bracketProblem("never", "always", mid)).toMatchObject({ kind: "adds", what: "negation" });
  });

  it("refuses a bracket that adds a number or a quantity, beside the page's number or in place of words", () => {
    expect(bracketProblem("to 7", "", mid)).toMatchObject({ kind: "adds", what: "number" });
    expect(bracketProblem("3.1 million, up from", "", mid)).toMatchObject({ kind: "adds", what: "number" });
    expect(bracketProblem("five", "some", mid)).toMatchObject({ kind: "adds", what: "number" });
    expect(bracketProblem("most", "the", mid)).toMatchObject({ kind: "adds", what: "number" });
    expect(bracketProblem("38 %", "37 %", mid)).toMatchObject({ kind: "adds", what: "number" });
  });

  it("refuses a bracket that adds a name the page's words do not carry", () => {
    expect(bracketProblem("Smith", "Jones", mid)).toEqual({ kind: "adds", what: "name", word: "Smith" });
    expect(bracketProblem("Smith", "Jones", opening())).toMatchObject({ kind: "adds", what: "name" }); // first word, but no common word
    expect(bracketProblem("President Obama", "he", mid)).toMatchObject({ kind: "adds", what: "name", word: "President" });
    expect(bracketProblem("the European", "the", mid)).toMatchObject({ kind: "adds", what: "name", word: "European" });
  });

  it("refuses a bracket that leaves out a negation or a number the page's words carry", () => {
    expect(bracketProblem("very", "not", mid)).toEqual({ kind: "drops", what: "negation" });
    expect(bracketProblem("half", "37 %", mid)).toMatchObject({ kind: "adds", what: "number" });
    expect(bracketProblem("a share", "37 %", mid)).toEqual({ kind: "drops", what: "number" });
  });

  it("refuses a bracket putting another word in place of a page word that does not only point", () => {
    expect(bracketProblem("first", "last", mid)).toEqual({ kind: "replaces", word: "first" });
    expect(bracketProblem("down", "up", mid)).toEqual({ kind: "replaces", word: "down" });
    expect(bracketProblem("strongly opposed", "opposed", mid)).toEqual({ kind: "replaces", word: "strongly" });
    expect(bracketProblem("rejected", "accepted", mid)).toMatchObject({ kind: "replaces" });
    expect(bracketProblem("the first month", "the last month", mid)).toMatchObject({ kind: "replaces", word: "first" });
    // At a group's edge the bracket may stand for the words nearest the quote: none of them is "down".
    expect(bracketProblem("down", "up the product", { ...mid, edge: "after" })).toMatchObject({ kind: "replaces" });
  });

  it("lets a bracket respell the page's own word or say what a pronoun, demonstrative or article points at", () => {
    for (const [inner, page] of [
      ["is", "was"],
      ["were", "are"],
      ["announces", "announced"],
      ["studies", "study"],
      ["the president's", "his"],
      ["the company", "it"],
      ["the annual report", "this report"],
      ["the reform's", "its"],
      ["had", "has"],
      ["could", "can"],
      ["it", "The committee"],
    ]) {
      expect(bracketProblem(inner as string, page as string, mid), `[${inner}] for ${page}`).toBeNull();
    }
    // At a group's edge: "[The spokesman] said" over "Yesterday he said" stands for "he", not "Yesterday he".
    expect(bracketProblem("The spokesman", "Yesterday he", { ...opening(["spokesman"]), edge: "before" })).toBeNull();
  });

  it("names the bracket in its reason, never the page's words", () => {
    const reason = bracketReason("[not]", { kind: "adds", what: "negation", word: "not" });
    expect(reason).toBe('the bracket "[not]" adds a negation the page\'s words it stands for do not carry; quote the page\'s passage instead');
    expect(bracketReason("[Smith]", { kind: "adds", what: "name", word: "Smith" })).toContain('"[Smith]" adds a name');
    expect(bracketReason("[a share]", { kind: "drops", what: "number" })).toContain("carry a number it leaves out");
    expect(bracketReason("[first]", { kind: "replaces", word: "first" })).toContain('"[first]" puts another word in place of the page\'s words');
  });

  it("bounds the page words one bracket may stand for", () => {
    expect(BRACKET_MAX_WORDS).toBe(4);
  });
});

describe("isAnnotation: brackets that stand for nothing", () => {
  it("knows the usual annotations, in any case, a point at the end allowed", () => {
    for (const note of ["sic", "Sic.", "emphasis added", "Emphasis mine", "citation omitted", "footnote omitted", "internal quotation marks omitted"]) {
      expect(isAnnotation(note), note).toBe(true);
    }
  });

  it("is not fooled by words that only start like one", () => {
    for (const words of ["not", "sic not", "the minister", "emphasis added not", "figure 9"]) expect(isAnnotation(words), words).toBe(false);
  });
});
