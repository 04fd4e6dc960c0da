import { describe, expect, it } from "vitest";
import { linkRefs, MARKDOWN_LIMITS, renderForPage, renderMarkdown, tooComplexToRender } from "../../src/web/dashboard/markdown";
import { SNAPSHOT_VIEW, snapshotExcerpt } from "../../src/web/dashboard/snapshot-window";
import { SourceCountsLine } from "../../src/web/dashboard/source-status";

const known = (ref: string) => (ref === "E1" || ref === "C2" ? `/s/${ref}` : null);

describe("cited refs in rendered Markdown", () => {
  it("links refs in text only: not inside a link, code, a code block or an attribute", () => {
    const html = renderMarkdown(
      ["Text [E1] and [C2], list [E1; E7].", "", "[label [E1]](https://x.example/)", "", "`[E1]`", "", "```", "[E1]", "```", "", '![alt [E1]](/img.png "t [E1]")'].join("\n"),
      known,
    );
    expect(html).toContain('Text [<a class="ref" href="/s/E1">E1</a>] and [<a class="ref" href="/s/C2">C2</a>], list [<a class="ref" href="/s/E1">E1</a>; E7].');
    expect(html).toContain('<a href="https://x.example/" rel="nofollow noopener noreferrer">label [E1]</a>');
    expect(html).toContain("<code>[E1]</code>");
    expect(html).toContain("<pre><code>[E1]\n</code></pre>");
    // An image is its alt text (its refs then linked as text), never an <img>.
    expect(html).toContain('<span class="image-alt">[image: alt [<a class="ref" href="/s/E1">E1</a>]]</span>');
    expect(html).not.toContain("<img");
  });

  it("drops every image, keeping its alt text: a deliverable's page or file loads nothing from elsewhere", () => {
    const rendered = renderForPage(['![tracking pixel](https://evil.example/track.png)', "", '![](https://evil.example/blank.gif "t")', "", '![a "quoted" <alt>](//evil.example/x.png)', "", "[![badge](https://evil.example/b.svg)](https://ok.example/)"].join("\n"));
    expect(rendered.kind).toBe("html");
    const html = rendered.kind === "html" ? rendered.html : "";
    expect(html).not.toMatch(/<img|evil\.example|\ssrc=/);
    expect(html).toContain('<span class="image-alt">[image: tracking pixel]</span>');
    expect(html).toContain('<span class="image-alt">[image: a &quot;quoted&quot; &lt;alt&gt;]</span>');
    expect(html).toContain('<a href="https://ok.example/" rel="nofollow noopener noreferrer"><span class="image-alt">[image: badge]</span></a>');
  });

  it("escapes an href it writes", () => {
    expect(linkRefs("<p>[E1]</p>", () => '/x?a="b"&c<d>')).toBe('<p>[<a class="ref" href="/x?a=&quot;b&quot;&amp;c&lt;d&gt;">E1</a>]</p>');
  });
});

describe("what Markdown is rendered", () => {
  const prose = (sentences: number) => Array.from({ length: sentences }, () => "Words [E1] [E2], `code`, *it* and **bold** ~~x~~.").join(" ");

  it("renders an ordinary long report, its tables row by row", () => {
    const report = Array.from({ length: 60 }, () => prose(40)).join("\n\n");
    expect(report.length).toBeGreaterThan(100_000);
    expect(tooComplexToRender(report)).toBeNull();
    const table = ["| a | b |", "|---|---|", ...Array.from({ length: 3000 }, () => "| [E1] **x** | *y* [E2] |")].join("\n");
    expect(tooComplexToRender(table)).toBeNull();
  });

  it("shows as text what would cost too much: too long, one paragraph dense with markup, deep nesting, wide or many tables", () => {
    expect(tooComplexToRender("a".repeat(MARKDOWN_LIMITS.chars + 1))).toMatch(/longer than 200,000 characters/);
    expect(tooComplexToRender("*_".repeat(2_001))).toMatch(/a paragraph has too much/);
    // Rows that only look like a table (no delimiter row) are one paragraph.
    expect(tooComplexToRender(Array.from({ length: 1_000 }, () => "|*_*_*").join("\n"))).toMatch(/a paragraph has too much/);
    expect(tooComplexToRender(Array.from({ length: 10 }, () => "*_".repeat(1_500)).join("\n\n"))).toMatch(/too much emphasis, link or code markup to render/);
    expect(tooComplexToRender("> ".repeat(40))).toMatch(/nests/);
    expect(tooComplexToRender(`${"  ".repeat(40)}- deep`)).toMatch(/nests/);
    expect(tooComplexToRender("|a".repeat(70))).toMatch(/too many columns/);
    expect(tooComplexToRender(Array.from({ length: 700 }, () => "|a".repeat(30)).join("\n"))).toMatch(/too many cells/);
  });

  it("shows as text what once rendered on every view for seconds: many short lines, emphasis spread over a few paragraphs", () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? "a" : "")).join("\n");
    expect(tooComplexToRender(lines(MARKDOWN_LIMITS.lines))).toBeNull();
    expect(tooComplexToRender(lines(MARKDOWN_LIMITS.lines + 1))).toMatch(/more than 10,000 lines/);
    // Four paragraphs of 2,000 `*_` pairs each: within the limit per paragraph, past it in all.
    expect(tooComplexToRender(Array.from({ length: 2 }, () => "*_".repeat(2_000)).join("\n\n"))).toBeNull();
    expect(tooComplexToRender(Array.from({ length: 4 }, () => "*_".repeat(2_000)).join("\n\n"))).toMatch(/too much emphasis, link or code markup to render/);
  });

  it("keeps for the page the HTML, its refs not yet linked, or why it is shown as text", () => {
    expect(renderForPage("A **b** [E1] <i>x</i>")).toEqual({ kind: "html", html: "<p>A <strong>b</strong> [E1] &lt;i&gt;x&lt;/i&gt;</p>" });
    expect(renderForPage("*_".repeat(2_001))).toEqual({ kind: "text", note: "a paragraph has too much emphasis, link or code markup to render" });
    // Within every limit of the text, but six bytes of HTML for each quote mark: past the HTML kept.
    expect(renderForPage('"'.repeat(190_000))).toEqual({ kind: "text", note: "its HTML would be longer than 1,000,000 bytes" });
  });

  it("decides in linear time, whatever the lines look like", () => {
    const started = performance.now();
    for (const text of [`| a |\n|-${" ".repeat(150_000)}x`, `| a |\n${" ".repeat(150_000)}|x`, `${"- ".repeat(31)}${" ".repeat(150_000)}x`, `${"1. ".repeat(20)}${"9".repeat(150_000)}`]) {
      tooComplexToRender(text);
    }
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("the window of a snapshot shown", () => {
  const filler = (n: number) => "word ".repeat(n);
  const text = `${filler(2000)}THE PASSAGE${filler(2000)}`;
  const passage = { start: 10_000, end: 10_011 };

  it("shows the passage with context either side, cut at spaces, and counts what it leaves out", () => {
    const excerpt = snapshotExcerpt(text, passage, "window");
    expect(excerpt.passage).toBe("THE PASSAGE");
    expect(excerpt.start).toBeGreaterThanOrEqual(passage.start - SNAPSHOT_VIEW.contextChars);
    expect(excerpt.start).toBeLessThanOrEqual(passage.start - SNAPSHOT_VIEW.contextChars + 40);
    expect(excerpt.end - passage.end).toBeLessThanOrEqual(SNAPSHOT_VIEW.contextChars);
    expect(text[excerpt.start - 1]).toBe(" ");
    expect(text[excerpt.end]).toBe(" ");
    expect(excerpt.before + excerpt.passage + excerpt.after).toBe(text.slice(excerpt.start, excerpt.end));
    expect(excerpt.length).toBe(text.length);
  });

  it("shows the opening without a passage, and the whole text up to its bound", () => {
    expect(snapshotExcerpt(text, null, "window")).toMatchObject({ start: 0, end: SNAPSHOT_VIEW.openingChars, passage: "" });
    expect(snapshotExcerpt(text, passage, "whole")).toMatchObject({ start: 0, end: text.length, passage: "THE PASSAGE" });
    const long = "x".repeat(SNAPSHOT_VIEW.wholeChars + 10);
    expect(snapshotExcerpt(long, { start: SNAPSHOT_VIEW.wholeChars + 2, end: SNAPSHOT_VIEW.wholeChars + 5 }, "whole")).toMatchObject({ end: SNAPSHOT_VIEW.wholeChars, passage: "" });
  });

  it("highlights nothing for offsets that do not fit the text, and never cuts a character in two", () => {
    expect(snapshotExcerpt("short text", { start: 5, end: 99 }, "window").passage).toBe("");
    expect(snapshotExcerpt("short text", { start: 6, end: 2 }, "window").passage).toBe("");
    const emoji = `a${"😀".repeat(SNAPSHOT_VIEW.openingChars)}`;
    const opening = snapshotExcerpt(emoji, null, "window");
    expect(opening.before.endsWith("\ud83d")).toBe(false);
  });
});

describe("a deliverable's stored source summary", () => {
  it("is shown as a line that warns on changed or gone sources", () => {
    const counts = { total: 4, verified: 2, changed: 1, gone: 0, unverified: 1 };
    const line = String(SourceCountsLine({ counts }));
    expect(line).toContain('class="warn"');
    expect(line).toContain("4 sources: 2 verified, 1 changed since delivery, 0 gone, 1 unverified");
    expect(String(SourceCountsLine({ counts: { ...counts, changed: 0 } }))).toContain('class="muted"');
  });
});
