import { describe, expect, it } from "vitest";
import { indexLists, prefixesAsWordsOf, toFtsQuery, withinOrg } from "./search-query";

describe("toFtsQuery", () => {
  it("quotes every word and keeps phrases and trailing prefixes", () => {
    expect(toFtsQuery('vector "on device" datab*')).toEqual({
      all: '"on device" "vector" "datab"*',
      any: '"on device" OR "vector" OR "datab"*',
      heads: '"on device" "vector"* "datab"*',
      terms: 3,
    });
  });

  it.each([
    ['"unbalanced quote', '"unbalanced" "quote"', '"unbalanced"* "quote"*'],
    ["(x OR y) AND NOT z", '"x" "y" "z"', null],
    ["title:secret -minus +plus", '"title" "secret" "minus" "plus"', '"title"* "secret"* "minus"* "plus"'],
    ["NEAR(x y, 3)", '"x" "y" "3"', null],
    ["it's o'brien's", `"it's" "o'brien's"`, null],
    ["café naïve 東京", '"café" "naïve" "東 京"', '"café" "naïve"* "東 京"'],
    ['say ""hello""', '"say" "hello"', '"say" "hello"*'],
  ])("makes %j safe", (input, all, heads) => {
    expect(toFtsQuery(input)?.all).toBe(all);
    expect(toFtsQuery(input)?.heads).toBe(heads);
  });

  it("matches long words as written first, and as heads of longer words only in the second try", () => {
    // The head form is the one with prefixes of long words; a typed prefix is a prefix in both.
    expect(toFtsQuery("Batterie Zellen")).toMatchObject({ all: '"Batterie" "Zellen"', heads: '"Batterie"* "Zellen"*' });
    expect(toFtsQuery("пшеница")).toMatchObject({ all: '"пшеница"', heads: '"пшениц"*' });
    expect(toFtsQuery("heat pump*")).toMatchObject({ all: '"heat" "pump"*', heads: null });
    // A pasted passage is matched as written: five words or more have no second try.
    expect(toFtsQuery("battery storage costs falling quickly")?.heads).toBeNull();
    expect(toFtsQuery("battery storage costs falling")?.heads).toBe('"battery"* "storage"* "costs"* "falling"*');
  });

  it.each(["", "   ", "***", "()", '""', "-- ;", "AND OR NOT"])("has no query for %j", (input) => {
    expect(toFtsQuery(input)).toBeNull();
  });

  it("drops words that carry no topic when the query has others, and keeps them when it has nothing else", () => {
    expect(toFtsQuery("what is the cost of a heat pump")).toEqual({ all: '"cost" "heat" "pump"', any: '"cost" OR "heat" OR "pump"', heads: null, terms: 3 });
    expect(toFtsQuery("The Who")?.all).toBe('"The" "Who"');
    expect(toFtsQuery('"the cost of" heat')?.all).toBe('"the cost of" "heat"');
    expect(toFtsQuery("the*  pump")?.all).toBe('"the"* "pump"');
    expect(toFtsQuery("a* heat")?.all).toBe('"heat"');
  });

  it("keeps at most 8 terms, the first ones", () => {
    const query = toFtsQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "));
    expect(query?.terms).toBe(8);
    expect(query?.all).toBe('"w0" "w1" "w2" "w3" "w4" "w5" "w6" "w7"');
  });

  it("searches a prefix shorter than three characters as the word itself", () => {
    expect(toFtsQuery("th* pump")?.all).toBe('"th" "pump"');
    expect(toFtsQuery("lit*")?.all).toBe('"lit"*');
  });
});

describe("indexLists", () => {
  it("names each word of a query once, a phrase's words one by one, and prefixes as prefixes", () => {
    const query = toFtsQuery('"the cost of" heat pump* cost');
    expect(query?.all).toBe('"the cost of" "heat" "pump"* "cost"');
    expect(indexLists(query?.all ?? "")).toEqual(['"the"', '"cost"', '"of"', '"heat"', '"pump"*']);
    expect(indexLists(query?.any ?? "")).toEqual(indexLists(query?.all ?? ""));
  });

  it("reads back a quote inside a word as FTS5 does", () => {
    expect(indexLists('"o""brien" "x"*')).toEqual(['"o""brien"', '"x"*']);
  });
});

describe("withinOrg", () => {
  it("matches the org's key as one quoted word and the query's words in the text columns only", () => {
    const query = toFtsQuery('heat "seasonal COP" pump*');
    expect(withinOrg(query?.all ?? "", "org_ab-c1")).toBe('org_key : "orgabc1" AND {title content_text tag_index} : ("seasonal COP" "heat" "pump"*)');
    expect(withinOrg(query?.any ?? "", "org_x")).toBe('org_key : "orgx" AND {title content_text tag_index} : ("seasonal COP" OR "heat" OR "pump"*)');
  });
});

describe("prefixesAsWordsOf", () => {
  it("replaces each prefix by the record's own words that begin with it, most frequent first, folded as the index folds", () => {
    const text = "Lithium prices; lithography and LITHIUM again. Café crème, caféine.";
    expect(prefixesAsWordsOf('"lith"* "prices"', text)).toBe('("lithium" OR "lithography") AND "prices"');
    expect(prefixesAsWordsOf('"prices" OR "lith"*', text)).toBe('"prices" OR ("lithium" OR "lithography")');
    expect(prefixesAsWordsOf('"cafe"*', text)).toBe('("cafe" OR "cafeine")');
  });

  it("keeps a prefix the record holds no word for, and a query without prefixes as it is", () => {
    expect(prefixesAsWordsOf('"happi"* "x"', "happy days")).toBe('"happi"* AND "x"');
    expect(prefixesAsWordsOf('"on device" "heat"', "anything")).toBe('"on device" "heat"');
    expect(prefixesAsWordsOf('"say ""hi"""*', 'say "hi" there')).toBe('"say ""hi"""*');
  });
});
