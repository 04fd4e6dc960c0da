import { describe, expect, it } from "vitest";
import { type CitedSource, claimSourceFacts, corroboration, numbersNotInQuotes } from "./claim-sources";

const source = (ref: string, quote: string | null, status = "verified", passage: string | null = quote): CitedSource => ({
  ref,
  quote,
  verification: { status: status as CitedSource["verification"]["status"], passage: status === "verified" || status === "partial" ? passage : null },
});
const byRef = (...sources: CitedSource[]) => new Map(sources.map((s) => [s.ref, s]));

describe("numbers a claim states that its quotes do not", () => {
  it("names each number of the claim found in none of its quotes, as the claim writes it", () => {
    const cited = [source("E1", "Turnout rose to 37 % in 1998."), source("E2", "About 2.4 million people voted.")];
    expect(numbersNotInQuotes("Turnout rose to 37 % in 1998, about 2.4 million voters.", cited)).toEqual([]);
    expect(numbersNotInQuotes("Turnout rose to 39 % in 1998, about 2.5 million voters.", cited)).toEqual(["39 %", "2.5 million"]);
    // A percentage is not the same number as a plain one, and a year not quoted is named.
    expect(numbersNotInQuotes("37 voters in 1999", cited)).toEqual(["37", "1999"]);
    expect(numbersNotInQuotes("Turnout rose sharply.", cited)).toEqual([]);
  });

  it("reads a quote's numbers written as words: forty percent states 40 percent", () => {
    const words = [source("E1", "Forty percent of the households had no heating.")];
    expect(numbersNotInQuotes("40 percent of households had no heating", words)).toEqual([]);
    expect(numbersNotInQuotes("45 percent of households had no heating", words)).toEqual(["45 percent"]);
  });

  it("backs no number with a source recorded without a quote, and names a repeated number once", () => {
    expect(numbersNotInQuotes("Turnout was 37 % then 37 % again.", [source("E1", null, "unchecked")])).toEqual(["37 %"]);
    expect(numbersNotInQuotes("Turnout was 37 %.", [])).toEqual(["37 %"]);
    // A claim stating hundreds of numbers names the first few.
    const many = Array.from({ length: 300 }, (_, i) => `${i + 10} cases`).join(", ");
    expect(numbersNotInQuotes(many, [])).toEqual(["10", "11", "12", "13", "14", "15", "16", "17", "18", "19"]);
  });
});

describe("corroboration of a claim", () => {
  it("counts sources whose located passages are the same text once (syndicated copies)", () => {
    const wire = "The central bank raised rates by half a point on Tuesday.";
    const sources = byRef(
      source("E1", wire),
      // The same story republished: typographic differences and a clipped passage's ellipsis do not make it another text.
      source("E2", wire, "verified", "The  central bank raised rates by half a point on Tuesday."),
      source("E3", wire, "verified", "THE CENTRAL BANK RAISED RATES BY HALF A POINT ON TUESDAY.…"),
      source("E4", "Analysts had expected a quarter point.", "verified"),
    );
    expect(corroboration(["E1", "E2", "E3", "E4"], sources)).toEqual({ independentSources: 2, sameText: [["E1", "E2", "E3"]] });
    expect(corroboration(["E1", "E4"], sources)).toEqual({ independentSources: 2, sameText: [] });
  });

  it("counts a source with no located passage on its own, and ignores refs the ledger lacks or repeats", () => {
    const sources = byRef(
      source("E1", "Same words on both pages here.", "not_found"),
      source("E2", "Same words on both pages here.", "not_found"),
      source("E3", "Same words on both pages here.", "unreachable"),
      source("E4", "Same words on both pages here.", "partial", "Same words on both pages, here"),
      source("E5", "Same words on both pages here.", "partial", "Same words on both pages, here"),
    );
    expect(corroboration(["E1", "E2", "E3", "E9", "E1"], sources)).toEqual({ independentSources: 3, sameText: [] });
    expect(corroboration(["E4", "E5"], sources)).toEqual({ independentSources: 1, sameText: [["E4", "E5"]] });
    expect(corroboration([], sources)).toEqual({ independentSources: 0, sameText: [] });
  });

  it("gives both facts for a claim from the ledger's sources", () => {
    const sources = byRef(source("E1", "Sales grew 12 % in 2024."), source("E2", "Sales grew 12 % in 2024."));
    expect(claimSourceFacts({ text: "Sales grew 15 % in 2024.", evidenceRefs: ["E1", "E2"] }, sources)).toEqual({
      numbersNotInQuotes: ["15 %"],
      independentSources: 1,
      sameText: [["E1", "E2"]],
    });
  });
});
