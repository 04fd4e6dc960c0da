import { describe, expect, it } from "vitest";
import { extractNumbers, numbersMissingFromQuotes, spelledNumbers } from "./numbers";

const values = (text: string) => extractNumbers(text).map((n) => [n.value, n.percent]);

describe("extractNumbers", () => {
  it("reads percentages, scales, years and thousands separators", () => {
    expect(values("37 % of 2.4 million people since 1998, 1,200 cases and 3,5 % in 1.200.000 homes")).toEqual([
      [37, true],
      [2_400_000, false],
      [1998, false],
      [1200, false],
      [3.5, true],
      [1_200_000, false],
    ]);
    expect(extractNumbers("in 1998").at(0)).toMatchObject({ text: "1998", year: true, start: 3, end: 7 });
    expect(extractNumbers("1,998 people").at(0)?.year).toBe(false);
  });

  it("reads signs, per cent words, percentage points and thousands groups split by a non-breaking space", () => {
    expect(values("fell \u22123 degrees, up 12 per cent, 4 percentage points, 12\u00a0300 units, $1.5bn")).toEqual([
      [-3, false],
      [12, true],
      [4, true],
      [12_300, false],
      [1.5e9, false],
    ]);
    expect(values("a $1.5 bn deal")).toEqual([[1.5e9, false]]);
  });

  it("leaves out numbers that are parts of names", () => {
    expect(values("COVID-19 and H1N1, see [E3], CO2, 5G, 3rd")).toEqual([]);
  });
});

describe("numbersMissingFromQuotes", () => {
  it("flags the claim's numbers no quote states, comparing values", () => {
    const claim = "Sales rose 37% to 2.4 million units in 2023, from 1,750,000.";
    const missing = numbersMissingFromQuotes(claim, ["sales rose by 37 per cent", "2,400,000 units were sold"]);
    expect(missing.map((n) => n.text)).toEqual(["2023", "1,750,000"]);
    expect(numbersMissingFromQuotes("a 37 % rise", ["37 people"]).map((n) => n.text)).toEqual(["37 %"]);
    expect(numbersMissingFromQuotes("no numbers here", [])).toEqual([]);
  });
});

describe("spelledNumbers: numbers a quote writes as words", () => {
  it("reads English number words, compounds and scales, a percentage when percent follows", () => {
    expect(spelledNumbers("forty percent of the households")).toEqual([{ value: 40, percent: true }]);
    expect(spelledNumbers("Forty-two per cent, two hundred and fifty people, three million")).toEqual([
      { value: 42, percent: true },
      { value: 250, percent: false },
      { value: 3_000_000, percent: false },
    ]);
    expect(spelledNumbers("no number here, and a hundred without a count")).toEqual([]);
  });

  it("lets a quote in words state the number a claim writes in digits", () => {
    expect(numbersMissingFromQuotes("40 percent of households", ["forty percent of the households"])).toEqual([]);
    expect(numbersMissingFromQuotes("40 percent of households", ["forty of the households"]).map((n) => n.text)).toEqual(["40 percent"]);
  });
});
