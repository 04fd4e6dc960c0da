import { describe, expect, it } from "vitest";
import { ExtractionCollector } from "./collector";
import { extractMarkdown, extractText, markdownInlineText } from "./markdown";
import { EXTRACT_KINDS, EXTRACTION_LIMITS } from "./model";
import { decodeEntities, looksLikeHtml, resolveHref } from "./text";

const ALL = { kinds: new Set(EXTRACT_KINDS) };

describe("decodeEntities", () => {
  it.each([
    ["a &amp; b", "a & b"],
    ["&lt;p&gt; &quot;q&quot; &#39;s&#39;", `<p> "q" 's'`],
    ["&#x1F600; &#128512;", "😀 😀"],
    ["&nbsp;x&copy;", "\u00a0x©"],
    ["&unknown; & &amp", "&unknown; & &"],
    ["&#0; &#xD800; &#x110000;", "\ufffd \ufffd \ufffd"],
    ["&amp;lt;", "&lt;"],
  ])("decodes %j", (input, expected) => {
    expect(decodeEntities(input)).toBe(expected);
  });
});

describe("resolveHref", () => {
  const base = new URL("https://example.com/a/b.html");
  it.each([
    ["c.html", base, "https://example.com/a/c.html"],
    ["../c?x=1#y", base, "https://example.com/c?x=1#y"],
    ["//cdn.example.org/x", base, "https://cdn.example.org/x"],
    ["  https://example.org  ", null, "https://example.org/"],
    ["mailto:a@example.com", null, "mailto:a@example.com"],
    ["/relative", null, "/relative"],
    ["javascript:alert(1)", base, null],
    ["JaVaScRiPt:alert(1)", null, null],
    ["java\nscript:alert(1)", null, null],
    ["data:text/html,x", base, null],
    ["vbscript:x", null, null],
    ["", base, null],
  ])("%j against %s", (href, against, expected) => {
    expect(resolveHref(href, against)).toBe(expected);
  });

  it("drops targets longer than the limit", () => {
    expect(resolveHref(`https://example.com/${"a".repeat(EXTRACTION_LIMITS.hrefChars)}`, null)).toBeNull();
  });
});

describe("looksLikeHtml", () => {
  it.each([
    ["<!DOCTYPE html><p>x", true],
    ["  <div class='a'>x</div>", true],
    ["<html>", true],
    ["# Title\n\nSome <b>bold</b> text", false],
    ["Plain text with a < sign", false],
    ["<not closed", false],
  ])("%j → %s", (text, expected) => {
    expect(looksLikeHtml(text)).toBe(expected);
  });
});

describe("markdownInlineText", () => {
  it.each([
    ["**bold** and _em_ and ~~gone~~", "bold and em and gone"],
    ["[text](https://x.y) and ![alt](i.png)", "text and alt"],
    ["[![logo](l.png) Home](/)", "logo Home"],
    ["`a * b` \\*literal\\*", "a * b *literal*"],
    ["snake_case_name stays", "snake_case_name stays"],
    ["a<br>b <span class=x>c</span> &amp; d", "a b c & d"],
  ])("%j → %j", (input, expected) => {
    expect(markdownInlineText(input).replace(/\s+/g, " ").trim()).toBe(expected);
  });
});

describe("extractMarkdown", () => {
  it("reads tables without outer pipes, pads short rows and stops at a blank line", () => {
    const out = extractMarkdown("a | b\n--- | ---\n1 | 2\n3\n\n4 | 5", ALL);
    expect(out.tables).toEqual([{ headers: ["a", "b"], rows: [["1", "2"], ["3", ""]] }]);
  });

  it("needs a delimiter row as wide as the header", () => {
    expect(extractMarkdown("| a | b |\n|---|\n| 1 | 2 |", ALL).tables).toEqual([]);
  });

  it("skips ~~~ fences and indented setext look-alikes, and reads ATX edge cases", () => {
    const out = extractMarkdown("~~~\n# no\n~~~\n#no-space\n####### seven\n#\n## Two ##\n- item\n---\n    code\n===", ALL);
    expect(out.headings).toEqual([{ level: 2, text: "Two" }]);
  });

  it("keeps URLs with balanced parentheses and drops trailing punctuation", () => {
    const out = extractMarkdown("[W](https://en.wikipedia.org/wiki/Rust_(language)) and https://example.com/x).", ALL);
    expect(out.links.map((link) => link.href)).toEqual(["https://en.wikipedia.org/wiki/Rust_(language)", "https://example.com/x"]);
  });

  it("resolves reference links case-insensitively and ignores unknown ones", () => {
    const out = extractMarkdown("[One][A] [Two][] [three][missing]\n\n[a]: https://example.com/1\n[two]: <https://example.com/2> \"Title\"", ALL);
    expect(out.links).toEqual([
      { text: "One", href: "https://example.com/1" },
      { text: "Two", href: "https://example.com/2" },
    ]);
  });

  it("ignores links in code spans and drops duplicate links", () => {
    const out = extractMarkdown("`[x](https://a.example)` [y](https://b.example) [y](https://b.example)", ALL);
    expect(out.links).toEqual([{ text: "y", href: "https://b.example/" }]);
  });

  it("honours the kinds asked for", () => {
    const out = extractMarkdown("# H\n\n| a |\n|---|\n| 1 |\n\nhttps://example.com", { kinds: new Set(["links"] as const) });
    expect(out.headings).toEqual([]);
    expect(out.tables).toEqual([]);
    expect(out.links).toHaveLength(1);
  });
});

describe("extractText", () => {
  it("finds only http(s) URLs", () => {
    const out = extractText("ftp://x.example mailto:a@b.example <https://example.com/a>, 'https://example.com/b'", ALL);
    expect(out.links.map((link) => link.href)).toEqual(["https://example.com/a", "https://example.com/b"]);
    expect(out.tables).toEqual([]);
  });
});

describe("ExtractionCollector", () => {
  it("stops at the output budget and marks the result truncated", () => {
    const out = new ExtractionCollector(new Set(EXTRACT_KINDS));
    const long = "x".repeat(EXTRACTION_LIMITS.headingChars);
    for (let i = 0; i < EXTRACTION_LIMITS.headings; i++) out.addHeading(1, long);
    for (let i = 0; i < 20; i++) out.addTable(Array.from({ length: 200 }, () => [long, long]), 0);
    expect(out.truncated).toBe(true);
    const result = out.result();
    const chars = JSON.stringify(result).length;
    expect(chars).toBeLessThan(EXTRACTION_LIMITS.outputChars * 1.2);
  });

  it("skips malformed and oversize JSON-LD without failing", () => {
    const out = new ExtractionCollector(new Set(EXTRACT_KINDS));
    out.addJsonLd("{not json");
    out.addJsonLd('"a string"');
    out.addJsonLd('<!-- {"@type":"Thing"} -->');
    out.addJsonLd(`{"pad":"${"x".repeat(EXTRACTION_LIMITS.jsonLdChars)}"}`);
    expect(out.metadata.jsonLd).toEqual([{ "@type": "Thing" }]);
    expect(out.truncated).toBe(true);
  });
});
