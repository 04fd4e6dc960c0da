import { describe, expect, it } from "vitest";
import { LINK_LIMITS, linkedUrls, reportedLinks, sourceUrlKey, unlistedLinks, unlistedLinksProblem } from "./deliverable-links";

describe("linkedUrls", () => {
  it("finds inline links, images, reference definitions, autolinks and bare addresses", () => {
    const content = [
      "Growth was 3 % [E1] ([the report](https://a.example/report)).",
      "![chart](https://img.example/chart.png)",
      "See [the survey][s] and <https://auto.example/page>.",
      "",
      "[s]: https://survey.example/2024 \"The survey\"",
      "",
      "Also https://bare.example/x and www.plain.example/path.",
    ].join("\n");
    expect(linkedUrls(content)).toEqual([
      "https://a.example/report",
      "https://img.example/chart.png",
      "https://auto.example/page",
      "https://survey.example/2024",
      "https://bare.example/x",
      "http://www.plain.example/path",
    ]);
  });

  it("ignores addresses in fenced code, indented code and code spans", () => {
    const content = [
      "Intro [E1].",
      "",
      "```bash",
      "curl https://fenced.example/x",
      "```",
      "",
      "~~~~",
      "https://tilde.example/x",
      "~~~~",
      "",
      "    https://indented.example/x",
      "",
      "Run `curl https://span.example/x` or ``a ` https://double.example/x``, then https://kept.example/x.",
      "> ```",
      "> https://quoted-fence.example/x",
      "> ```",
    ].join("\n");
    expect(linkedUrls(content)).toEqual(["https://kept.example/x"]);
  });

  it("treats an unclosed code span's backticks as text, and an unclosed fence as code to the end", () => {
    expect(linkedUrls("A ` lone backtick then https://after.example/x")).toEqual(["https://after.example/x"]);
    expect(linkedUrls("Text\n\n```\nhttps://never.example/x")).toEqual([]);
  });

  it("keeps balanced parentheses in an address (Wikipedia) and trims what closes around it", () => {
    expect(linkedUrls("[Foo](https://en.wikipedia.org/wiki/Foo_(bar))")).toEqual(["https://en.wikipedia.org/wiki/Foo_(bar)"]);
    expect(linkedUrls("(see https://en.wikipedia.org/wiki/Foo_(bar))")).toEqual(["https://en.wikipedia.org/wiki/Foo_(bar)"]);
    expect(linkedUrls("(see https://a.example/x)")).toEqual(["https://a.example/x"]);
  });

  it("trims GFM's trailing punctuation from bare addresses, not from link destinations or autolinks", () => {
    expect(linkedUrls("It is at https://a.example/x.")).toEqual(["https://a.example/x"]);
    expect(linkedUrls('Quoted "https://a.example/q?x=1", then **https://b.example/y**!')).toEqual(["https://a.example/q?x=1", "https://b.example/y"]);
    expect(linkedUrls("At https://a.example/x&amp; then")).toEqual(["https://a.example/x"]);
    expect(linkedUrls("<https://a.example/x.>")).toEqual(["https://a.example/x."]);
    expect(linkedUrls("[x](https://a.example/x.)")).toEqual(["https://a.example/x."]);
  });

  it("separates an address in a link's text from the link's destination", () => {
    expect(linkedUrls("[https://text.example](https://dest.example/x)")).toEqual(["https://text.example", "https://dest.example/x"]);
  });

  it("reads backslash escapes in a destination and a title after it", () => {
    expect(linkedUrls('[x](https://a.example/a\\_b "Title") and [y]( https://b.example/c )')).toEqual(["https://a.example/a_b", "https://b.example/c"]);
  });

  it("ignores mailto, other schemes, relative links and words that contain www.", () => {
    const content = "[mail](mailto:a@b.example) [ftp](ftp://files.example/x) [rel](/docs/page) [www](www.rel.example) awww.example.com name@www.example.com";
    expect(linkedUrls(content)).toEqual([]);
  });

  it("lists each address once", () => {
    expect(linkedUrls("https://a.example/x and again https://a.example/x")).toEqual(["https://a.example/x"]);
  });

  it("stays linear on hostile text", () => {
    const hostile = ["[a](".repeat(200_000), "`".repeat(50_000) + "``a".repeat(50_000), "<https://".repeat(100_000), "](https://x".repeat(80_000), "[".repeat(500_000)];
    for (const content of hostile) {
      const started = performance.now();
      linkedUrls(content);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });
});

describe("linkedUrls in a deliverable that is not Markdown", () => {
  it("reads every address in text, indented or fenced lines too", () => {
    const text = "Sources:\n\n    https://indented.example/x\n```\nhttps://fenced.example/y\n```\nSee www.plain.example/z.";
    expect(linkedUrls(text, "text")).toEqual(["https://indented.example/x", "https://fenced.example/y", "http://www.plain.example/z"]);
    expect(linkedUrls(text)).toEqual(["http://www.plain.example/z"]);
  });

  it("ends an address at an HTML attribute's quote or a tag, and reads &amp; as &", () => {
    const html = `<a href="https://a.example/p?x=1&amp;y=2">A</a> <a href='https://b.example/q'>B</a><p>https://c.example/r</p>`;
    expect(linkedUrls(html, "html")).toEqual(["https://a.example/p?x=1&y=2", "https://b.example/q", "https://c.example/r"]);
  });

  it("reads an address spelled with HTML character references as the address a browser follows", () => {
    const html = `<a href="https&#58;&sol;&#x2F;hidden.example&sol;x">A</a> &lt;https://d.example/y&gt; &#1114112; &bogus; https://e.example/z&quot;`;
    expect(linkedUrls(html, "html")).toEqual(["https://hidden.example/x", "https://d.example/y", "https://e.example/z"]);
  });

  it("ends an address at a JSON string's quote and reads an escaped slash, and at a CSV comma", () => {
    expect(linkedUrls('{"sources":["https://a.example/x","https:\\/\\/b.example\\/y"]}', "json")).toEqual(["https://a.example/x", "https://b.example/y"]);
    expect(linkedUrls("ref,url,year\nE1,https://a.example/x,2024", "csv")).toEqual(["https://a.example/x"]);
  });

  it("stays linear on hostile text", () => {
    const hostile = "https://a.example/".concat("(".repeat(50_000), "&amp;".repeat(20_000), " www.".repeat(20_000));
    const started = performance.now();
    expect(linkedUrls(hostile, "html")).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("sourceUrlKey", () => {
  it("reads scheme, host case, default ports, a final slash and the fragment as the same source", () => {
    const key = sourceUrlKey("https://example.org/a/b");
    for (const same of ["HTTPS://Example.ORG/a/b", "http://example.org/a/b", "https://example.org:443/a/b/", "https://example.org/a/b#part", "https://example.org./a/b", "https://example.org/a/%62"]) {
      expect(sourceUrlKey(same), same).toBe(key);
    }
    expect(sourceUrlKey("https://en.wikipedia.org/wiki/Foo_%28bar%29")).toBe(sourceUrlKey("https://en.wikipedia.org/wiki/Foo_(bar)"));
    expect(sourceUrlKey("https://example.org/")).toBe(sourceUrlKey("https://example.org"));
  });

  it("reads another path, query, port or host as another source", () => {
    const key = sourceUrlKey("https://example.org/a/b");
    for (const other of ["https://example.org/a/B", "https://example.org/a/b?x=1", "https://example.org:8443/a/b", "https://www.example.org/a/b", "https://example.org/a/b%2Fc"]) {
      expect(sourceUrlKey(other), other).not.toBe(key);
    }
    expect(sourceUrlKey("https://example.org/?a=1&b=2")).not.toBe(sourceUrlKey("https://example.org/?b=2&a=1"));
  });

  it("is null for what is not an http or https address", () => {
    expect(sourceUrlKey("mailto:a@b.example")).toBeNull();
    expect(sourceUrlKey("https://")).toBeNull();
    expect(sourceUrlKey("/relative")).toBeNull();
  });
});

describe("unlistedLinks", () => {
  it("names the linked addresses no ledger source has, as written", () => {
    const content = "Found [E1] at [the study](https://Journal.example/study/). Also https://made-up.example/source-1.";
    expect(unlistedLinks(content, ["https://journal.example/study"])).toEqual(["https://made-up.example/source-1"]);
    expect(unlistedLinks(content, ["https://journal.example/study", "https://made-up.example/source-1"])).toEqual([]);
  });

  it("bounds what a report and a problem name", () => {
    const many = Array.from({ length: 25 }, (_, i) => `https://x.example/${i}`);
    expect(reportedLinks(many)).toHaveLength(LINK_LIMITS.reported);
    const problem = unlistedLinksProblem(many) ?? "";
    expect(problem).toContain("https://x.example/9;");
    expect(problem).not.toContain("https://x.example/10,");
    expect(problem).toContain("and 15 more");
    expect(unlistedLinksProblem([])).toBeNull();
    expect(reportedLinks([`https://x.example/${"a".repeat(1000)}`])[0]).toHaveLength(LINK_LIMITS.shownChars + 1);
  });
});
