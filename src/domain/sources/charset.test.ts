import { describe, expect, it } from "vitest";
import { bomEncoding, CHARSET_PRESCAN_BYTES, charsetInMetaContent, contentTypeCharset, pageEncoding, prescanCharset } from "./charset";

/** The runtime's WHATWG label table (Node's TextDecoder, as the Workers runtime's). */
const known = (label: string) => {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
};
const bytes = (text: string) => new TextEncoder().encode(text);

describe("prescanCharset", () => {
  it("finds <meta charset> in any quoting and case", () => {
    expect(prescanCharset(bytes('<!doctype html><html><head><meta charset="windows-1252">'), known)).toBe("windows-1252");
    expect(prescanCharset(bytes("<META CHARSET=Shift_JIS>"), known)).toBe("shift_jis");
    expect(prescanCharset(bytes("<meta charset='gbk'/>"), known)).toBe("gbk");
    expect(prescanCharset(bytes("<meta\ncharset = euc-kr >"), known)).toBe("euc-kr");
  });

  it("maps labels by the WHATWG table: latin1 and iso-8859-1 are windows-1252", () => {
    expect(prescanCharset(bytes('<meta charset="latin1">'), known)).toBe("windows-1252");
    expect(prescanCharset(bytes('<meta charset="ISO-8859-1">'), known)).toBe("windows-1252");
  });

  it("finds the http-equiv Content-Type form, whatever the attribute order, but not a content without the pragma", () => {
    expect(prescanCharset(bytes('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">'), known)).toBe("iso-8859-2");
    expect(prescanCharset(bytes('<meta content="text/html;charset=\'koi8-r\'" http-equiv=content-type>'), known)).toBe("koi8-r");
    expect(prescanCharset(bytes('<meta name="x" content="text/html; charset=koi8-r">'), known)).toBeNull();
  });

  it("skips comments, other tags' quoted values, and unknown labels; a declared UTF-16 reads as UTF-8", () => {
    expect(prescanCharset(bytes('<!-- <meta charset="gbk"> --><meta charset="big5">'), known)).toBe("big5");
    expect(prescanCharset(bytes('<div title="<meta charset=gbk>"></div><meta charset="euc-jp">'), known)).toBe("euc-jp");
    expect(prescanCharset(bytes('<meta charset="no-such-thing"><meta charset="gbk">'), known)).toBe("gbk");
    expect(prescanCharset(bytes('<meta charset="utf-16le">'), known)).toBe("utf-8");
    expect(prescanCharset(bytes('<meta charset="x-user-defined">'), known)).toBe("windows-1252");
    expect(prescanCharset(bytes("<metadata charset=gbk><p>no meta here</p>"), known)).toBeNull();
  });

  it("reads only the first 1,024 bytes", () => {
    const filler = "x".repeat(CHARSET_PRESCAN_BYTES);
    expect(prescanCharset(bytes(`<p>${filler}</p><meta charset="gbk">`), known)).toBeNull();
    expect(prescanCharset(bytes(`<p>${"x".repeat(900)}</p><meta charset="gbk">`), known)).toBe("gbk");
  });
});

describe("pageEncoding", () => {
  it("takes a BOM first, then the Content-Type charset, then the meta prescan (HTML only), else UTF-8", () => {
    const page = bytes('<meta charset="shift_jis"><p>x</p>');
    expect(pageEncoding(new Uint8Array([0xef, 0xbb, 0xbf, ...page]), "text/html; charset=gbk", true, known)).toEqual({ encoding: "utf-8", from: "bom" });
    expect(pageEncoding(page, 'text/html; charset="GBK"', true, known)).toEqual({ encoding: "gbk", from: "content-type" });
    expect(pageEncoding(page, "text/html; charset=bogus", true, known)).toEqual({ encoding: "shift_jis", from: "meta" });
    expect(pageEncoding(page, "text/html", true, known)).toEqual({ encoding: "shift_jis", from: "meta" });
    expect(pageEncoding(page, "text/plain", false, known)).toEqual({ encoding: "utf-8", from: "default" });
    expect(pageEncoding(bytes("<p>plain</p>"), null, true, known)).toEqual({ encoding: "utf-8", from: "default" });
  });

  it("knows the byte order marks and the charset parameter's spellings", () => {
    expect(bomEncoding(new Uint8Array([0xfe, 0xff, 0, 0x41]))).toBe("utf-16be");
    expect(bomEncoding(new Uint8Array([0xff, 0xfe, 0x41, 0]))).toBe("utf-16le");
    expect(bomEncoding(bytes("<p>"))).toBeNull();
    expect(contentTypeCharset("text/html;charset=ISO-8859-1")).toBe("ISO-8859-1");
    expect(contentTypeCharset('text/html; Charset="utf-8"; foo=bar')).toBe("utf-8");
    expect(contentTypeCharset("text/html")).toBeNull();
    expect(charsetInMetaContent("text/html; charset =  'gbk'")).toBe("gbk");
    expect(charsetInMetaContent("text/html; charsetx=1; charset=big5;")).toBe("big5");
    expect(charsetInMetaContent('text/html; charset="unterminated')).toBeNull();
  });
});
