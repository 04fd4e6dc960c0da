import { describe, expect, it } from "vitest";
import { labelOf } from "../../src/web/dashboard/labelled";
import { NOTE_LIMITS, renderForPage, renderForPageInParts, renderNote } from "../../src/web/dashboard/markdown";
import { markdownParts } from "../../src/web/dashboard/markdown-parts";
import { readingOrigin } from "../../src/web/dashboard/snapshot-window";

describe("a note an assistant wrote, rendered for a person", () => {
  it("is Markdown with its raw HTML as text and javascript: links without a target", () => {
    const html = renderNote("## Findings\n\n- **24 %** mono\n\n<script>alert(1)</script> [x](javascript:alert(2))") ?? "";
    expect(html).toContain("<h2>Findings</h2>");
    expect(html).toContain("<li><strong>24 %</strong> mono</li>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toMatch(/href="javascript:/i);
  });

  it("is shown as its text past its limits: longer than a presentation may be, or dense with markup", () => {
    expect(renderNote("a".repeat(NOTE_LIMITS.chars + 1))).toBeNull();
    expect(renderNote("*_".repeat(NOTE_LIMITS.inlineMarkersPerBlock))).toBeNull();
    expect(renderNote("*a*")).toBe("<p><em>a</em></p>");
  });
});

describe("labels of an assistant's keys", () => {
  it("reads keys as words with a capital", () => {
    expect(labelOf("key findings")).toBe("Key findings");
    expect(labelOf("depthSignals")).toBe("Depth signals");
    expect(labelOf("output_media-type")).toBe("Output media type");
  });
});

describe("the origin of a reading on the source page", () => {
  const snapshot = { url: "https://a.example/p", finalUrl: "https://a.example/p?final", fetchedAt: 5 };
  it("is the snapshot's final URL and time when the snapshot is this source's", () => {
    expect(readingOrigin(snapshot, "https://a.example/p", 9)).toEqual({ url: "https://a.example/p?final", readAt: 5 });
  });
  it("is this source's URL, with the fallback time, when another page with the same text stored the snapshot", () => {
    expect(readingOrigin(snapshot, "https://b.example/q", 9)).toEqual({ url: "https://b.example/q", readAt: 9 });
    expect(readingOrigin(snapshot, "https://b.example/q", null)).toEqual({ url: "https://b.example/q", readAt: null });
  });
});

describe("a long deliverable rendered in parts", () => {
  const section = (n: number) =>
    `## Section ${n}\n\n${Array.from({ length: 20 }, (_, i) => `- Step ${n}.${i}: see [guide](https://docs.example.org/${n}/${i}) and \`tool ${i}\` [E${(i % 8) + 1}]`).join("\n")}\n  - nested ${n}\n\n| a | b |\n| - | - |\n| ${n} | x |\n\n> a quote\n> [E1]\n\n\`\`\`sh\nrun ${n}\n\n# a comment, not a heading\n\`\`\`\n\n1. one\n2. two\n\n   loose\n`;
  const long = `# Runbook\n\n${Array.from({ length: 12 }, (_, n) => section(n)).join("\n")}`;
  const samples = [
    long,
    // Not split (rendered whole): a reference definition, a footnote, a comment across blank lines, a fence inside a list item.
    `${long}\n[guide]: https://elsewhere.example.org\n`,
    `${long}\nSee it[^1].\n\n[^1]: A note.\n`,
    `<!-- open\n\n${long}\n-->`,
    `- item\n\n  \`\`\`\n\n# inside the item's fence, which the heading ends\n  \`\`\`\n\n${long}`,
  ];

  it("renders to exactly what the whole renders to, pausing between parts of a long text", async () => {
    for (const markdown of samples) {
      let pauses = 0;
      const parts = await renderForPageInParts(markdown, async () => {
        pauses++;
      });
      expect(parts).toEqual(renderForPage(markdown));
      expect(parts.kind).toBe("html");
      if (markdown === long) expect(pauses).toBeGreaterThan(3);
    }
  }, 30_000);

  it("splits only before a heading that follows a blank line outside code, and not a text whose meaning is document-wide", () => {
    expect(markdownParts(long, 2_000).join("")).toBe(long);
    for (const part of markdownParts(long, 2_000).slice(1)) expect(part).toMatch(/^## Section/);
    for (const markdown of samples.slice(1)) expect(markdownParts(markdown, 2_000)).toEqual([markdown]);
  });
});
