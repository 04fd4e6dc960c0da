import { describe, expect, it } from "vitest";
import { matchTitle } from "./title-match";

describe("matchTitle", () => {
  it("matches a title whatever its site suffix, case or typography", () => {
    expect(matchTitle("Global Lithium Demand Outlook 2030 | Reuters", "global lithium demand outlook 2030")).toEqual({ score: 1, level: "high" });
    expect(matchTitle("The \u201cGreat Moderation\u201d \u2014 Revisited - Wikipedia", 'The "Great Moderation" - revisited').level).toBe("high");
  });

  it("matches a claimed title that drops the subtitle", () => {
    expect(matchTitle("Heat pumps in cold climates: a field study of 40 homes", "Heat pumps in cold climates").level).toBe("high");
  });

  it("rates a partly overlapping title medium and an unrelated one low", () => {
    expect(matchTitle("Heat pump sales in Europe fell in 2024", "Heat pump adoption in European homes").level).toBe("medium");
    const unrelated = matchTitle("Quarterly results of a shipping company", "Vaccine efficacy in older adults");
    expect(unrelated.level).toBe("low");
    expect(unrelated.score).toBeLessThan(0.2);
    expect(matchTitle("", "anything")).toEqual({ score: 0, level: "low" });
  });
});
