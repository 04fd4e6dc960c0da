import { describe, expect, it } from "vitest";
import { toFtsQuery } from "./search-query";

describe("toFtsQuery", () => {
  it("quotes every word and keeps phrases and trailing prefixes", () => {
    expect(toFtsQuery('vector "on device" datab*')).toEqual({ all: '"on device" "vector" "datab"*', any: '"on device" OR "vector" OR "datab"*', terms: 3 });
  });

  it.each([
    ['"unbalanced quote', '"unbalanced" "quote"'],
    ["(a OR b) AND NOT c", '"a" "b" "c"'],
    ["title:secret -minus +plus", '"title" "secret" "minus" "plus"'],
    ["NEAR(x y, 3)", '"x" "y" "3"'],
    ["it's o'brien's", `"it's" "o'brien's"`],
    ["café naïve 東京", '"café" "naïve" "東京"'],
    ['say ""hello""', '"say" "hello"'],
  ])("makes %j safe", (input, all) => {
    expect(toFtsQuery(input)?.all).toBe(all);
  });

  it.each(["", "   ", "***", "()", '""', "-- ;", "AND OR NOT"])("has no query for %j", (input) => {
    expect(toFtsQuery(input)).toBeNull();
  });

  it("keeps at most 24 terms", () => {
    expect(toFtsQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "))?.terms).toBe(24);
  });
});
