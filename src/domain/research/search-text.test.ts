import { describe, expect, it } from "vitest";
import { toFtsQuery } from "./search-query";
import { indexForm, queryPieces, readSnippet, SEPARATOR, storedIndexForm } from "./search-text";

const shown = (text: string) => text.split(SEPARATOR).join("|");

describe("indexForm", () => {
  it("leaves text of space-separated scripts as it is", () => {
    for (const text of ["Batteriezellen halten länger.", "Энергия приливов", "café naïve", "Ελληνικά"]) expect(indexForm(text)).toBe(text);
    expect(storedIndexForm("Tidal power in Europe")).toBeNull();
  });

  it("makes each Han, kana and Hangul character a piece of its own, and nothing else changes", () => {
    expect(shown(indexForm("東京の天気は晴れです。"))).toBe("東|京|の|天|気|は|晴|れ|で|す。");
    expect(shown(indexForm("潮汐能发电"))).toBe("潮|汐|能|发|电");
    expect(shown(indexForm("조력 발전의 전망"))).toBe("조|력 발|전|의 전|망");
    expect(shown(indexForm("データ2024年"))).toBe("デ|ー|タ2024年");
    expect(indexForm("東京の天気").split(SEPARATOR).join("")).toBe("東京の天気");
  });

  it("cuts Thai at its dictionary word boundaries", () => {
    expect(shown(indexForm("ภาษาไทยง่ายมาก"))).toBe("ภาษา|ไทย|ง่าย|มาก");
  });

  it("makes the Arabic article and the Hebrew article pieces of their own", () => {
    expect(shown(indexForm("الطاقة والشمس"))).toBe("ال|طاقة و|ال|شمس");
    expect(shown(indexForm("האנרגיה והשמש"))).toBe("ה|אנרגיה ו|ה|שמש");
    expect(indexForm("طاقة")).toBe("طاقة");
  });

  it("stores a form only when it differs", () => {
    expect(storedIndexForm("天気")).toBe(`天${SEPARATOR}気`);
  });
});

describe("queryPieces", () => {
  it("reads a query word as the index holds it", () => {
    expect(queryPieces("天気")).toEqual(["天", "気"]);
    expect(queryPieces("Batterie")).toEqual(["Batterie"]);
    expect(queryPieces("الطاقة")).toEqual(["ال", "طاقة"]);
  });
});

describe("readSnippet", () => {
  it("drops the separators and joins highlights of pieces side by side", () => {
    expect(readSnippet(`東${SEPARATOR}京${SEPARATOR}の${SEPARATOR}«天»${SEPARATOR}«気»${SEPARATOR}は`)).toBe("東京の«天気»は");
    expect(readSnippet(`«天${SEPARATOR}気»${SEPARATOR}予`)).toBe("«天気»予");
    expect(readSnippet("plain «text» here")).toBe("plain «text» here");
  });
});

describe("toFtsQuery in every script", () => {
  it.each([
    ["天気", '"天 気"'],
    ["東京の天気", '"東 京" "天 気"'],
    ["潮汐能发电", '"潮 汐" "能" "发 电"'],
    ["潮汐发电的前景", '"潮 汐" "发 电" "前 景"'],
    ["気象庁", '"気 象" "庁"'],
    ["발전", '"발 전"'],
    ["ภาษาไทย", '"ภาษา" "ไทย"'],
    ["Batterie", '"Batterie"*'],
    ["Zelle pump", '"Zelle"* "pump"'],
    ["2024 Wärme", '"2024" "Wärme"*'],
    ["الطاقة", '"طاقة"'],
    ["השמש", '"שמש"'],
    ["пшеница", '"пшениц"*'],
    ["метро", '"метр"*'],
    ["газ", '"газ"'],
    ['"東京の天気"', '"東 京 の 天 気"'],
  ])("reads %j, at its widest, as %j", (input, widest) => {
    const query = toFtsQuery(input);
    // Words as written first (no head), long ones as heads only in the second try.
    expect(query?.heads ?? query?.all).toBe(widest);
    expect(query?.all).not.toContain("*");
  });
});
