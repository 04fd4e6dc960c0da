import { describe, expect, it } from "vitest";
import { ok } from "../../test/support/plans";
import { callTool, rest, seedTenant } from "../../test/support/worker";

interface Extracted {
  tables: { headers: string[]; rows: string[][]; firstRow?: number }[];
  links: { text: string; href: string }[];
  headings: { level: number; text: string }[];
  metadata: { title: string | null; description: string | null; jsonLd: unknown[] };
  totals: { tables: number; rows: number; links: number; headings: number; jsonLd: number };
  offset: number;
  nextOffset: number | null;
  validation?: { valid: number; invalidCount: number; invalid: { index: number; errors: { path: string; message: string }[] }[] };
  storedArtifactId?: string;
  truncated: boolean;
  note?: string;
  trust: string;
}

const extract = async (key: string, args: Record<string, unknown>) => (await ok(key, "extract_data", args)) as unknown as Extracted;

async function refused(key: string, args: unknown) {
  const result = await callTool(key, "extract_data", args);
  expect(result.isError, JSON.stringify(result.body)).toBe(true);
  return (result.body as { error: { code: string; message: string; issues?: { path: string; message: string }[] } }).error;
}

const datasets = async (key: string) => ((await ok(key, "list_artifacts", { artifactType: "dataset" })).artifacts as { artifactId: string }[]).length;

const PAGE = `<!doctype html>
<html><head>
  <title>Vector DBs &amp; friends</title>
  <meta name="description" content="A comparison of &quot;on-device&quot; vector databases">
  <meta property="og:title" content="Ignored: the title element wins">
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Vector DBs"}</script>
  <script type="application/ld+json">{"@type": "Broken", </script>
  <script>document.write("<p>never text</p>")</script>
  <style>.x { content: "never style" }</style>
</head><body>
  <h1>Vector databases</h1>
  <h2>Comparison <small>(2026)</small></h2>
  <h3>Notes</h3>
  <table>
    <thead><tr><th>Name</th><th>License</th><th>Stars</th></tr></thead>
    <tbody>
      <tr><td><a href="/db/sqlite-vec"><b>sqlite</b>-vec</a></td><td><i>MIT</i> &amp; Apache</td><td>6,100</td></tr>
      <tr><td>LanceDB</td><td><span><em>Apache</em>-2.0</span></td><td>7&nbsp;400</td></tr>
    </tbody>
  </table>
  <p>See <a href="../docs/intro.html?a=1&amp;b=2">the intro</a>, <a href="https://example.org/x">an absolute link</a>,
     <a href="javascript:alert(1)">a script link</a> and <a href="#top"><img src="t.png" alt="Top"></a>.</p>
</body></html>`;

describe("extract_data from HTML", () => {
  it("pulls tables with headers, links resolved against baseUrl, headings and metadata", async () => {
    const { apiKey } = await seedTenant();
    const out = await extract(apiKey, { html: PAGE, baseUrl: "https://example.com/guides/vectors/page.html" });

    expect(out.tables).toEqual([
      {
        headers: ["Name", "License", "Stars"],
        rows: [
          ["sqlite-vec", "MIT & Apache", "6,100"],
          ["LanceDB", "Apache-2.0", "7 400"],
        ],
      },
    ]);
    expect(out.headings).toEqual([
      { level: 1, text: "Vector databases" },
      { level: 2, text: "Comparison (2026)" },
      { level: 3, text: "Notes" },
    ]);
    expect(out.links).toEqual([
      { text: "sqlite-vec", href: "https://example.com/db/sqlite-vec" },
      { text: "the intro", href: "https://example.com/guides/docs/intro.html?a=1&b=2" },
      { text: "an absolute link", href: "https://example.org/x" },
      { text: "Top", href: "https://example.com/guides/vectors/page.html#top" },
    ]);
    expect(out.metadata).toEqual({
      title: "Vector DBs & friends",
      description: 'A comparison of "on-device" vector databases',
      // The malformed block is skipped, not an error.
      jsonLd: [{ "@context": "https://schema.org", "@type": "Article", headline: "Vector DBs" }],
    });
    expect(out.truncated).toBe(false);
    expect(out.trust).toBe("untrusted-external-content");
    expect(out.validation).toBeUndefined();
    expect(out.storedArtifactId).toBeUndefined();
    expect(JSON.stringify(out)).not.toMatch(/never text|never style|document\.write/);
  });

  it("takes the first row as headers when nothing marks them, and keeps relative links as written without a base", async () => {
    const { apiKey } = await seedTenant();
    const html = `<table><tr><td>City</td><td>Population</td></tr><tr><td>Oslo</td><td>709,000</td></tr><tr><td>Bergen</td><td colspan="2">291,000</td></tr></table>
      <table><tr><th>Only</th><th>Headers</th></tr></table><a href="/relative">rel</a>`;
    const out = await extract(apiKey, { html });
    expect(out.tables).toEqual([
      {
        headers: ["City", "Population"],
        rows: [
          ["Oslo", "709,000"],
          ["Bergen", "291,000", ""],
        ],
      },
      { headers: ["Only", "Headers"], rows: [] },
    ]);
    expect(out.links).toEqual([{ text: "rel", href: "/relative" }]);
    expect(out.metadata).toEqual({ title: null, description: null, jsonLd: [] });
  });

  it("extracts only the kinds asked for", async () => {
    const { apiKey } = await seedTenant();
    const out = await extract(apiKey, { html: PAGE, extract: ["headings"] });
    expect(out.headings).toHaveLength(3);
    expect(out.tables).toEqual([]);
    expect(out.links).toEqual([]);
    expect(out.metadata).toEqual({ title: null, description: null, jsonLd: [] });
  });

  it("survives hostile HTML: unclosed tags, scripts in cells, a huge attribute, a charset switch, nested tables", async () => {
    const { apiKey } = await seedTenant();
    const huge = "x".repeat(600_000);
    const html = `<meta charset="windows-1252"><title>Café <b>menu</title>
      <div data-blob="${huge}"><h2>Unclosed heading<p>text after
      <table><tr><th>Dish<th>Price<tr><td>Crêpe<script>alert("pwned")</script><td>4 €
      <tr><td>Outer <table><tr><td>inner</td></tr></table> cell</td><td>9</td></tr>
      <a href="https://example.com/a">first <a href="https://example.com/b">second</a>
      <noscript><a href="https://example.com/hidden">hidden</a></noscript>
      <a href="data:text/html,boom">data</a><a href="  https://example.com/c  ">c</a>
      <h1>Last`;
    const out = await extract(apiKey, { html });
    const text = JSON.stringify(out);
    expect(text).not.toContain("pwned");
    expect(text).not.toContain(huge.slice(0, 100));
    expect(out.metadata.title).toBe("Café <b>menu");
    expect(out.tables[0]).toEqual({
      headers: ["Dish", "Price"],
      rows: [
        ["Crêpe", "4 €"],
        ["Outer cell", "9"],
      ],
    });
    expect(out.tables[1]).toEqual({ headers: ["inner"], rows: [] });
    expect(out.links.map((link) => link.href)).toEqual(["https://example.com/a", "https://example.com/b", "https://example.com/c"]);
    expect(out.links[0]?.text).toBe("first");
    expect(out.headings[0]?.level).toBe(2);
    expect(out.headings[0]?.text).toMatch(/^Unclosed heading/);
    expect(out.headings.at(-1)).toEqual({ level: 1, text: "Last" });
  });

  it("bounds what it extracts and says so, and answers in pages that together hold all of it", async () => {
    const { apiKey } = await seedTenant();
    const links = Array.from({ length: 700 }, (_, i) => `<a href="https://example.com/${i}">link ${i}</a>`).join("");
    const rows = Array.from({ length: 300 }, (_, i) => `<tr><td>${i}</td><td>${"y".repeat(800)}</td></tr>`).join("");
    const html = `<h1>Top</h1>${links}<table><tr><th>n</th><th>text</th></tr>${rows}</table>`;
    const pages: Extracted[] = [];
    let offset: number | null = 0;
    while (offset !== null && pages.length < 50) {
      const call = await callTool(apiKey, "extract_data", offset === 0 ? { html } : { html, offset });
      // Every answer stays within one read's budget (issue 4), pointer included.
      expect(JSON.stringify(call.body).length).toBeLessThanOrEqual(20_500);
      const page = call.body as unknown as Extracted;
      pages.push(page);
      expect(page.offset).toBe(offset);
      offset = page.nextOffset;
    }
    expect(offset).toBeNull();
    const [first, second] = pages;
    expect(pages.length).toBeGreaterThan(2);
    expect(first?.truncated).toBe(true); // the extraction itself: 500 links, 199 rows, cells of 500 characters
    expect(first?.totals).toEqual({ tables: 1, rows: 199, links: 500, headings: 1, jsonLd: 0 });
    expect(first?.note).toContain(`offset ${first?.nextOffset}`);
    expect(first?.headings).toEqual([{ level: 1, text: "Top" }]);
    expect(second?.headings).toEqual([]);
    // Items in a fixed order (headings, links, table rows), each exactly once across the pages.
    const allLinks = pages.flatMap((page) => page.links);
    expect(allLinks.map((link) => link.text)).toEqual(Array.from({ length: 500 }, (_, i) => `link ${i}`));
    const fragments = pages.flatMap((page) => page.tables);
    expect(fragments.length).toBeGreaterThan(1);
    expect(fragments.every((table) => table.headers.join() === "n,text")).toBe(true);
    expect(fragments[0]?.firstRow).toBeUndefined();
    const allRows = fragments.flatMap((table) => table.rows);
    expect(allRows.map((row) => row[0])).toEqual(Array.from({ length: 199 }, (_, i) => String(i)));
    expect(allRows[0]?.[1]).toHaveLength(500);
    // A continued table says from which row.
    expect(fragments[1]?.firstRow).toBe(fragments[0]?.rows.length);
    expect(pages.at(-1)?.note).toBeUndefined();
  });

  it("shortens only a single row larger than a whole page, and says so", async () => {
    const { apiKey } = await seedTenant();
    const cells = (tag: string) => Array.from({ length: 50 }, (_, i) => `<${tag}>${String(i).padEnd(500, "z")}</${tag}>`).join("");
    const out = await callTool(apiKey, "extract_data", { html: `<table><tr>${cells("th")}</tr><tr>${cells("td")}</tr></table>` });
    expect(JSON.stringify(out.body).length).toBeLessThanOrEqual(20_500);
    const page = out.body as unknown as Extracted;
    expect(page.truncated).toBe(true);
    expect(page.nextOffset).toBeNull();
    expect(page.tables[0]?.rows[0]).toHaveLength(50);
    expect(page.tables[0]?.rows[0]?.[49]).toMatch(/^49z*…$/);
  });

  it("returns what it found before nesting too deep for the parser, marked truncated", async () => {
    const { apiKey } = await seedTenant();
    const out = await extract(apiKey, { html: `<h1>Before</h1>${"<div>".repeat(150_000)}<h2>Inside</h2>` });
    expect(out.headings[0]).toEqual({ level: 1, text: "Before" });
    expect(out.truncated).toBe(true);
  });

  it("refuses HTML over 1 MB with payload_too_large", async () => {
    const { apiKey } = await seedTenant();
    const error = await refused(apiKey, { html: `<p>${"é".repeat(600_000)}</p>` });
    expect(error.code).toBe("payload_too_large");
    expect(error.message).toContain("html");
  });
});

describe("extract_data from markdown and text", () => {
  it("pulls pipe tables, headings and links from markdown, skipping code", async () => {
    const { apiKey } = await seedTenant();
    const markdown = [
      "# Vector databases",
      "",
      "Intro with [the docs](/docs \"Docs\"), <https://example.org/auto>, a [reference][ref] and https://example.net/bare.",
      "",
      "Setext title",
      "------------",
      "",
      "| Name | License | Notes |",
      "|:-----|:-------:|------:|",
      "| **sqlite**-vec | MIT | uses `a \\| b` |",
      "| [LanceDB](https://lancedb.com) | Apache-2.0 |",
      "",
      "```",
      "# not a heading",
      "| not | a table |",
      "|---|---|",
      "[not a link](https://example.com/code)",
      "```",
      "",
      "### Notes ###",
      "![an image](https://example.com/img.png)",
      "",
      "[ref]: https://example.com/ref",
    ].join("\n");
    const out = await extract(apiKey, { markdown, baseUrl: "https://example.com/guide/" });
    expect(out.headings).toEqual([
      { level: 1, text: "Vector databases" },
      { level: 2, text: "Setext title" },
      { level: 3, text: "Notes" },
    ]);
    expect(out.tables).toEqual([
      {
        headers: ["Name", "License", "Notes"],
        rows: [
          ["sqlite-vec", "MIT", "uses a | b"],
          ["LanceDB", "Apache-2.0", ""],
        ],
      },
    ]);
    expect(out.links).toEqual([
      { text: "the docs", href: "https://example.com/docs" },
      { text: "https://example.org/auto", href: "https://example.org/auto" },
      { text: "reference", href: "https://example.com/ref" },
      { text: "https://example.net/bare", href: "https://example.net/bare" },
      { text: "LanceDB", href: "https://lancedb.com/" },
    ]);
    expect(out.metadata).toEqual({ title: null, description: null, jsonLd: [] });
  });

  it("finds only URLs in plain text", async () => {
    const { apiKey } = await seedTenant();
    const out = await extract(apiKey, {
      text: "# Not a heading\n| a | b |\n|---|---|\nSee https://example.com/a, (https://example.com/b) and https://en.wikipedia.org/wiki/Rust_(language).",
    });
    expect(out.headings).toEqual([]);
    expect(out.tables).toEqual([]);
    expect(out.links.map((link) => link.href)).toEqual([
      "https://example.com/a",
      "https://example.com/b",
      "https://en.wikipedia.org/wiki/Rust_(language)",
    ]);
  });
});

describe("extract_data from a stored artifact", () => {
  it("treats HTML-looking contentText as HTML and resolves against the artifact's sourceUrl", async () => {
    const { apiKey } = await seedTenant();
    const stored = await ok(apiKey, "store_research", {
      artifactType: "source",
      title: "Fetched page",
      content: { fetched: true },
      contentText: "<html><body><h1>Stored page</h1><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table><a href='/x'>x</a></body></html>",
      sourceUrl: "https://example.com/dir/page",
    });
    const out = await extract(apiKey, { artifactId: stored.artifactId });
    expect(out.headings).toEqual([{ level: 1, text: "Stored page" }]);
    expect(out.tables).toEqual([{ headers: ["k", "v"], rows: [["a", "1"]] }]);
    expect(out.links).toEqual([{ text: "x", href: "https://example.com/x" }]);
  });

  it("treats other contentText as markdown", async () => {
    const { apiKey } = await seedTenant();
    const stored = await ok(apiKey, "store_research", {
      artifactType: "note",
      title: "Notes",
      content: {},
      contentText: "## Findings\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nSource: https://example.com/s",
    });
    const out = await extract(apiKey, { artifactId: stored.artifactId });
    expect(out.headings).toEqual([{ level: 2, text: "Findings" }]);
    expect(out.tables).toEqual([{ headers: ["a", "b"], rows: [["1", "2"]] }]);
    expect(out.links).toEqual([{ text: "https://example.com/s", href: "https://example.com/s" }]);
  });

  it("answers not_found for an artifact of another org", async () => {
    const mine = await seedTenant();
    const theirs = await seedTenant();
    const stored = await ok(theirs.apiKey, "store_research", { artifactType: "note", title: "T", content: {}, contentText: "# secret" });
    expect((await refused(mine.apiKey, { artifactId: stored.artifactId })).code).toBe("not_found");
  });
});

const SCHEMA = {
  type: "object",
  required: ["name", "stars"],
  properties: {
    name: { type: "string", minLength: 1 },
    stars: { type: "integer", minimum: 0 },
    tags: { type: "array", items: { type: "string" } },
    license: { enum: ["MIT", "Apache-2.0"] },
  },
  additionalProperties: false,
};

describe("extract_data validating records", () => {
  it("reports every invalid record precisely and stores nothing", async () => {
    const { apiKey } = await seedTenant();
    const records = [
      { name: "sqlite-vec", stars: 6100, tags: ["sqlite"] },
      { name: "LanceDB", stars: -1, tags: ["rust", 7] },
      { name: "Qdrant", stars: 22000 },
      { stars: "many", license: "GPL", extra: true },
    ];
    const out = await extract(apiKey, { records, schema: SCHEMA, storeAs: { title: "Vector DBs" } });
    expect(out.validation?.valid).toBe(2);
    expect(out.validation?.invalidCount).toBe(2);
    expect(out.validation?.invalid).toEqual([
      {
        index: 1,
        errors: expect.arrayContaining([
          { path: "stars", message: "-1 is less than 0." },
          { path: "tags.1", message: 'Instance type "number" is invalid. Expected "string".' },
        ]),
      },
      {
        index: 3,
        errors: expect.arrayContaining([
          { path: "(record)", message: 'Instance does not have required property "name".' },
          { path: "stars", message: 'Instance type "string" is invalid. Expected "integer".' },
          { path: "license", message: 'Instance does not match any of ["MIT","Apache-2.0"].' },
          { path: "(record)", message: 'Property "extra" does not match additional properties schema.' },
        ]),
      },
    ]);
    expect(out.validation?.invalid[0]?.errors).toHaveLength(2);
    expect(out.validation?.invalid[1]?.errors).toHaveLength(4);
    expect(out.storedArtifactId).toBeUndefined();
    expect(await datasets(apiKey)).toBe(0);
  });

  it("stores all-valid records as a dataset artifact readable with get_artifact", async () => {
    const { apiKey } = await seedTenant();
    const records = [
      { name: "sqlite-vec", stars: 6100, license: "MIT" },
      { name: "LanceDB", stars: 7400, tags: ["rust"] },
    ];
    const out = await extract(apiKey, { records, schema: SCHEMA, storeAs: { title: "Vector DBs", tags: ["Vectors"] } });
    expect(out.validation).toEqual({ valid: 2, invalidCount: 0, invalid: [] });
    expect(out.storedArtifactId).toMatch(/^art_/);
    const artifact = await ok(apiKey, "get_artifact", { artifactId: out.storedArtifactId });
    expect(artifact).toMatchObject({ artifactType: "dataset", title: "Vector DBs", tags: ["vectors"], content: { records, schema: SCHEMA }, version: 1 });
    expect(String(artifact.contentText).split("\n")).toEqual(["Vector DBs (dataset, 2 records)", ...records.map((r) => JSON.stringify(r))]);
    expect(await datasets(apiKey)).toBe(1);
  });

  it("validates without storing when storeAs is absent, alongside an extraction", async () => {
    const { apiKey } = await seedTenant();
    const out = await extract(apiKey, { html: "<h1>T</h1>", records: [{ name: "a", stars: 1 }], schema: SCHEMA });
    expect(out.headings).toEqual([{ level: 1, text: "T" }]);
    expect(out.validation).toEqual({ valid: 1, invalidCount: 0, invalid: [] });
    expect(out.storedArtifactId).toBeUndefined();
    expect(await datasets(apiKey)).toBe(0);
  });

  it("shows the errors of the first invalid records that fit, with the count of all", async () => {
    const { apiKey } = await seedTenant();
    const records = Array.from({ length: 1000 }, (_, n) => ({ name: `db ${n}`, stars: -1, license: "GPL", extra: "x".repeat(50) }));
    const out = await callTool(apiKey, "extract_data", { records, schema: SCHEMA, storeAs: { title: "Too many" } });
    expect(JSON.stringify(out.body).length).toBeLessThanOrEqual(20_500);
    const validation = (out.body as unknown as Extracted).validation;
    expect(validation?.invalidCount).toBe(1000);
    expect(validation?.invalid.length).toBeGreaterThan(5);
    expect(validation?.invalid.length).toBeLessThan(1000);
    expect(validation?.invalid.map((record) => record.index)).toEqual(Array.from({ length: validation?.invalid.length ?? 0 }, (_, i) => i));
    expect((out.body as unknown as Extracted).note).toContain(`first ${validation?.invalid.length} of 1000 invalid records`);
    expect(await datasets(apiKey)).toBe(0);
  });

  it("refuses an invalid schema as a validation error naming schema", async () => {
    const { apiKey } = await seedTenant();
    const records = [{ name: "a", stars: 1 }];
    const bad = await refused(apiKey, { records, schema: { type: "object", properties: { name: { type: "strin" } }, required: "name" } });
    expect(bad.code).toBe("validation");
    expect(bad.message).toMatch(/^schema is not a usable JSON Schema/);
    expect(bad.issues?.map((issue) => issue.path).sort()).toEqual(["schema.properties.name.type", "schema.required"]);

    const regex = await refused(apiKey, { records, schema: { type: "string", pattern: "(" } });
    expect(regex.issues).toEqual([{ path: "schema.pattern", message: "Not a pattern Cairn can run: RE2 syntax, without lookaround or backreferences." }]);

    const dangling = await refused(apiKey, { records, schema: { $ref: "#/$defs/missing" } });
    expect(dangling.issues?.[0]?.path).toBe("schema");
    expect(dangling.issues?.[0]?.message).toContain("Unresolved $ref");

    const draft7 = await refused(apiKey, { records, schema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object" } });
    expect(draft7.issues?.[0]?.path).toBe("schema.$schema");

    expect((await refused(apiKey, { records, schema: ["not", "an", "object"] })).issues?.[0]?.path).toBe("schema");
    expect(await datasets(apiKey)).toBe(0);
  });

  it("matches caller patterns in linear time: a catastrophic-backtracking pattern over 10,000 characters answers at once", async () => {
    const { apiKey } = await seedTenant();
    const evil = `${"a".repeat(10_000)}!`;
    const started = performance.now();
    const out = await extract(apiKey, { records: [evil, "aaaa"], schema: { type: "string", pattern: "^(a+)+$" } });
    const elapsed = performance.now() - started;
    expect(out.validation).toMatchObject({ valid: 1 });
    expect(out.validation?.invalid.map((record) => record.index)).toEqual([0]);
    // The same pattern on the JavaScript engine takes about a second at 27 characters and doubles per character,
    // so a backtracking matcher would not finish 10,001 characters at all; the bound is loose on purpose (a loaded
    // 2-core machine must not fail it), and still tells linear from exponential by many orders of magnitude.
    expect(elapsed).toBeLessThan(2_000);
    // Keys are at most 200 characters, which is already astronomically slow for a backtracking matcher.
    const keyed = await extract(apiKey, { records: [{ [`${"a".repeat(198)}!`]: 1, aaaa: 2 }], schema: { type: "object", patternProperties: { "^(a+)+$": { type: "string" } } } });
    expect(keyed.validation).toMatchObject({ valid: 0 });
  });

  it("refuses patterns the linear-time engine cannot run, naming where they are", async () => {
    const { apiKey } = await seedTenant();
    const records = [{ name: "a" }];
    const lookahead = await refused(apiKey, { records, schema: { type: "object", properties: { name: { type: "string", pattern: "^(?=a)a$" } } } });
    expect(lookahead.issues).toEqual([{ path: "schema.properties.name.pattern", message: expect.stringContaining("RE2 syntax") }]);
    const backreference = await refused(apiKey, { records, schema: { type: "object", patternProperties: { "(a)\\1": {} } } });
    expect(backreference.issues?.[0]?.path).toMatch(/^schema\.patternProperties/);
  });

  it("accepts $defs references and an explicit 2020-12 $schema", async () => {
    const { apiKey } = await seedTenant();
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { price: { $ref: "#/$defs/money" } },
      $defs: { money: { type: "object", required: ["amount"], properties: { amount: { type: "number" } } } },
    };
    const out = await extract(apiKey, { records: [{ price: { amount: 3 } }, { price: {} }], schema });
    expect(out.validation).toEqual({
      valid: 1,
      invalidCount: 1,
      invalid: [{ index: 1, errors: [{ path: "price", message: 'Instance does not have required property "amount".' }] }],
    });
  });
});

describe("extract_data input rules", () => {
  it("takes exactly one source", async () => {
    const { apiKey } = await seedTenant();
    const two = await refused(apiKey, { html: "<p>a</p>", markdown: "# a" });
    expect(two.code).toBe("validation");
    expect(two.issues?.map((issue) => issue.path)).toEqual(["html", "markdown"]);
    const none = await refused(apiKey, {});
    expect(none.code).toBe("validation");
    expect((await refused(apiKey, { text: "a", records: [{}] })).issues?.[0]?.path).toBe("schema");
    expect((await refused(apiKey, { text: "a", storeAs: { title: "t" } })).issues?.[0]?.path).toBe("records");
    expect((await refused(apiKey, { records: [], schema: {}, storeAs: { title: "t" } })).issues?.[0]?.path).toBe("records");
    expect((await refused(apiKey, { html: "<p>a</p>", extract: ["everything"] })).code).toBe("validation");
  });

  it("is served over REST as POST /extract", async () => {
    const { apiKey } = await seedTenant();
    const response = await rest(apiKey, "/extract", { method: "POST", body: JSON.stringify({ markdown: "# Hello\n\nhttps://example.com" }) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Extracted;
    expect(body.headings).toEqual([{ level: 1, text: "Hello" }]);
    expect(body.links).toEqual([{ text: "https://example.com", href: "https://example.com/" }]);
  });
});
