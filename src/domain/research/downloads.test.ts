import { describe, expect, it } from "vitest";
import { CairnError } from "../errors";
import { PENDING, type SourceVerification } from "../sources/verification";
import { contentDisposition, downloadFilename, hasOwnSourcesHeading, markdownDownload, parseDownloadFormat, sourcesMarkdown, sourceStatusText } from "./downloads";
import { publicDeliverable } from "./public-view";

const verdict = (status: SourceVerification["status"], reason: string | null = null, checkedAt: number | null = Date.UTC(2026, 10, 2, 9, 30)): SourceVerification => ({
  ...PENDING,
  status,
  reason,
  checkedAt,
});

describe("downloads: formats", () => {
  it("takes md, html, docx and pdf and names them when given anything else", () => {
    expect(parseDownloadFormat("docx")).toBe("docx");
    expect(parseDownloadFormat("pdf")).toBe("pdf");
    for (const bad of ["PDF", "odt", "", null, undefined, "MD", "toString"]) {
      expect(() => parseDownloadFormat(bad)).toThrow(CairnError);
      expect(() => parseDownloadFormat(bad)).toThrow(/md, html, docx or pdf/);
    }
  });
});

describe("downloads: sources", () => {
  it("says each status in words, an unreachable one with why, and a citation never recorded as unchecked", () => {
    expect(sourceStatusText(verdict("verified"))).toBe("verified (quote found on the page)");
    expect(sourceStatusText(verdict("not_found"))).toBe("not verified (quote not found on the page)");
    expect(sourceStatusText(verdict("unreachable", "dead: HTTP 404 (Not Found)"))).toBe("unreachable (the page does not exist: a dead link)");
    expect(sourceStatusText(verdict("unreachable", "walled: HTTP 403"))).toMatch(/^unreachable \(the site refused Cairn/);
    expect(sourceStatusText(null)).toBe("unchecked (not a recorded source)");
  });

  it("lists the ledger's cited sources first cited first, then citations the ledger does not hold (the public view's sources)", () => {
    const ledger = [
      { ref: "E1", title: "One", url: "https://one.example", quote: "one", verification: verdict("verified") },
      { ref: "E2", title: "Two", url: "https://two.example", quote: null, verification: verdict("partial") },
      { ref: "E3", title: "Three, not cited", url: "https://three.example", quote: "three", verification: verdict("verified") },
    ];
    const citations = [{ ref: "E1", title: "One" }, { ref: "E9", title: "A ref the ledger lacks", url: "https://nine.example" }, { title: "A book" }];
    const { sources } = publicDeliverable({ title: "T", mediaType: "markdown", content: "Two [E2] and one [E1].", version: 1, updatedAt: 0, citations }, ledger);
    expect(sources.map((s) => s.ref ?? s.title)).toEqual(["E2", "E1", "A ref the ledger lacks", "A book"]);
    expect(sources[2]).toEqual({ ref: null, title: "A ref the ledger lacks", url: "https://nine.example", quote: null, verification: null });
  });

  it("writes the Sources list with URL, title, status and when checked; a title cannot add Markdown or break the link", () => {
    const md = sourcesMarkdown([
      { ref: "E1", title: "Solar *boom* [x](javascript:1)", url: "https://a.example/p q>", verification: verdict("verified") },
      { ref: null, title: "A book", url: null, verification: null },
    ]);
    expect(md).toContain("1. [E1] Solar \\*boom\\* \\[x\\](javascript:1) — <https://a.example/p%20q%3E> — verified (quote found on the page), checked 2026-11-02 09:30 UTC");
    expect(md).toContain("2. A book — unchecked (not a recorded source), not checked yet");
  });

  it("appends the Sources to the Markdown; another media type is fenced so its text cannot end the fence", () => {
    const sources = [{ ref: "E1", title: "One", url: "https://one.example", verification: verdict("verified") }];
    expect(markdownDownload({ title: "T", mediaType: "markdown", content: "# Report\n\nText [E1].\n\n" }, sources)).toMatch(/^# Report\n\nText \[E1\]\.\n\n## Sources\n\n1\. \[E1\] One/);
    const fenced = markdownDownload({ title: "Data", mediaType: "json", content: '{"a":"```"}' }, []);
    expect(fenced).toContain('````json\n{"a":"```"}\n````');
  });

  it("titles its section Source checks when the deliverable has a Sources or References heading of its own: never two Sources", () => {
    const sources = [{ ref: "E1", title: "One", url: "https://one.example", verification: verdict("not_found") }];
    const own = markdownDownload({ title: "T", mediaType: "markdown", content: "# Report\n\nText [E1].\n\n## Sources\n\n1. One, https://one.example\n" }, sources);
    expect(own.match(/^#+ Sources$/gm)).toEqual(["## Sources"]);
    expect(own).toMatch(/\n## Source checks\n\n1\. \[E1\] One — <https:\/\/one\.example> — not verified \(quote not found on the page\)/);
    expect(markdownDownload({ title: "T", mediaType: "markdown", content: "## References\n" }, [])).toContain("## Source checks\n\nNone of the sources this deliverable cites is a recorded source");
    expect(markdownDownload({ title: "T", mediaType: "markdown", content: "# Report\n\nText [E1].\n" }, sources)).toContain("\n## Sources\n\n1. [E1]");
  });

  it("knows a deliverable's own sources heading in its forms, not in code, prose or another media type", () => {
    const has = (content: string, mediaType: "markdown" | "text" = "markdown") => hasOwnSourcesHeading({ mediaType, content });
    for (const heading of ["## Sources", "# References", "### 5. Works cited", "## **Bibliography:**", "## Sources ##", "References\n----------", "Sources\n=======", "  ## source list"]) {
      expect(has(`# Report\n\nText.\n\n${heading}\n\n- One\n`), heading).toBe(true);
    }
    for (const content of ["# Report\n\nSources: one and two.", "```\n## Sources\n```", "~~~~md\n## References\n~~~\n~~~~", "## Sources of energy", "- Sources\n---", "#Sources"]) {
      expect(has(content), content).toBe(false);
    }
    expect(has("## Sources", "text")).toBe(false);
  });
});

describe("downloads: file names", () => {
  it("keeps a hostile title out of the header: no quotes, line breaks, separators or semicolons; UTF-8 in filename*", () => {
    const header = contentDisposition('Bad"; filename=evil.exe\r\nSet-Cookie: x=1 /../é', "md");
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith('attachment; filename="Bad filename=evil.exe Set-Cookie x=1 .. e.md"; filename*=UTF-8\'\'')).toBe(true);
    expect(header.split('"').length).toBe(3);
    expect(header).toContain("filename*=UTF-8''Bad%20filename%3Devil.exe%20Set-Cookie%20x%3D1%20..%20%C3%A9.md");
    expect(header.split(";").length).toBe(3);
  });

  it("never gives an empty or overlong name", () => {
    expect(downloadFilename("...", "docx")).toEqual({ utf8: "deliverable.docx", ascii: "deliverable.docx" });
    expect(downloadFilename("日本", "html")).toEqual({ utf8: "日本.html", ascii: "_.html" });
    expect([...downloadFilename("x".repeat(500), "md").utf8].length).toBe(83);
  });
});
