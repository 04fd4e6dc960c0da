import { describe, expect, it } from "vitest";
import { labelOf } from "../../src/web/dashboard/labelled";
import { NOTE_LIMITS, renderNote } from "../../src/web/dashboard/markdown";
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
