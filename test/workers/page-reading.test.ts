import { describe, expect, inject, it } from "vitest";
import type { ExtractKind } from "../../src/domain/research/extraction/model";
import { extractHtml } from "../../src/platform/extraction/html-extractor";
import { PAGE_READING_LIMITS } from "../../src/platform/html/page-reader";
import { readPage } from "../../src/platform/sources/visible-text";
import { createPlan, ok, steps } from "../support/plans";
import { seedTenant } from "../support/worker";
import { waitFor } from "../support/webhooks";

/**
 * Reading a fetched page on workerd, as the source check does: what a reader sees (inline-hidden elements are
 * not), in the encoding the page declares, and within bounds whatever the page. The end-to-end cases go through
 * the real queue consumer against loopback pages a test serves (`/changing/NAME`, test/support/source-pages.global.ts).
 */
const origin = inject("sourcePagesOrigin");
const utf8 = (text: string) => new TextEncoder().encode(text);

/** Bytes of text in a single-byte encoding: ASCII as is, the rest by the table given. */
const singleByte = (text: string, table: Record<string, number>) =>
  Uint8Array.from([...text].map((char) => table[char] ?? (char.charCodeAt(0) < 0x80 ? char.charCodeAt(0) : Number.NaN)));
/** windows-1252 bytes of the characters these tests use outside ASCII. */
const CP1252: Record<string, number> = { "é": 0xe9, "è": 0xe8, "û": 0xfb, "à": 0xe0, "€": 0x80, "“": 0x93, "”": 0x94, "–": 0x96 };

async function textOf(html: string | Uint8Array, contentType: string | null = "text/html"): Promise<string> {
  const read = await readPage("html", typeof html === "string" ? utf8(html) : html, contentType);
  if ("unchecked" in read) throw new Error(`unchecked: ${read.unchecked}`);
  return read.text;
}

async function serve(name: string, page: { type?: string; body?: string; base64?: string }): Promise<string> {
  const response = await fetch(`${origin}/control/changing/${name}`, { method: "PUT", body: JSON.stringify(page) });
  expect(response.status).toBe(204);
  return `${origin}/changing/${name}`;
}

interface Verdict {
  status: string;
  reason?: string;
}

/** Records one source per (url, quote) and waits for every verdict. */
async function verdicts(sources: { url: string; quote: string }[], timeoutMs = 25_000): Promise<Verdict[]> {
  const { apiKey } = await seedTenant();
  const { planId } = await createPlan(apiKey, { name: "[Deep] Reading pages", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
  await ok(apiKey, "record_evidence", {
    planId,
    evidence: sources.map(({ url, quote }, i) => ({ url, title: "Reading pages", facts: `variant ${i}`, subtopic: "Reading", quote })),
  });
  return waitFor(
    "the source checks",
    async () => {
      const { evidence } = (await ok(apiKey, "get_evidence_ledger", { planId, limit: 50, detail: "full" })) as { evidence: { verification: Verdict }[] };
      return evidence.every((e) => e.verification.status !== "pending") ? evidence.map((e) => e.verification) : null;
    },
    timeoutMs,
  );
}

const HIDDEN_BY_STYLE = [
  ["login dialog", '<div style="display:none" class="modal">Sign in to read how cells reached nine thousand Wh/kg today</div>'],
  ["cookie banner", '<section style="DISPLAY: None !important; color: red">Cookie banner says cells reached eight thousand Wh/kg</section>'],
  ["upgrade notice", '<p style="color: grey;visibility:hidden">Upgrade your browser to see cells reach seven thousand Wh/kg</p>'],
  ["breaking news", '<aside style="content-visibility: hidden">Breaking news slot says cells reached six thousand Wh/kg</aside>'],
  ["hidden attribute", "<div HIDDEN=hidden>The hidden attribute says cells reached five thousand Wh/kg</div>"],
] as const;

describe("what a reader sees", () => {
  it("leaves out elements an inline style or the hidden attribute hides, with what they contain", async () => {
    const text = await textOf(
      `<html><head><title>T</title></head><body><p>Seen before.</p>${HIDDEN_BY_STYLE.map(([, html]) => html).join("\n")}
      <div style="display:none"><p>Nested <b>deep inside a hidden block</b> too</p></div>
      <div style="display: block">Shown block.</div><p style="visibility: visible">Shown paragraph.</p>
      <div hidden="until-found">Found by find-in-page.</div><p>Seen after.</p></body></html>`,
    );
    expect(text).toBe(["Seen before.", "Shown block.", "Shown paragraph.", "Found by find-in-page.", "Seen after."].join("\n"));
  });

  it("keeps text after a hidden void element, and leaves out what the never-shown elements hold", async () => {
    const text = await textOf(
      `<p>One<br style="display:none">two<img hidden src="x.png"> three</p><script>var s = "script";</script><style>p{}</style>` +
        `<noscript>noscript</noscript><template>template</template><textarea>textarea</textarea><div aria-hidden="true">decor</div><p>end</p>`,
    );
    // aria-hidden takes text out of what a screen reader announces; it is still shown on screen.
    expect(text).toBe("One\ntwo three\ndecor\nend");
  });

  it("applies the page's own <style> rules that hide, weighed against the inline style and rules that show again", async () => {
    const text = await textOf(
      `<html><head><style>
        .promo { display: none } #ad > p { visibility: hidden } [data-slot] { content-visibility: hidden }
        article .teaser:not(.open), aside.note, .a, .b { display: none !important }
        .modal { display: none } .modal.show { display: block } .menu:hover .x { display: none } @media print { .printed { display: none } }
      </style><style media="print">.paper { display: none }</style></head><body>
      <p class="promo">Promoted text.</p><p class="promo" style="display: block">Inline shows it.</p>
      <div id="ad"><p>Ad paragraph.</p><span>Ad span.</span></div><div data-slot="1">Slot text.</div>
      <article><p class="teaser">Teaser.</p><p class="teaser open">Open teaser.</p></article><aside class="note">Note.</aside>
      <div class="modal">Closed modal.</div><div class="modal show">Open modal.</div>
      <p class="x">Hover only.</p><p class="printed">Printed.</p><p class="paper">Paper.</p>
      <div style="visibility: hidden">Hidden parent <span style="visibility: visible">shown child</span></div>
      <p>End.</p></body></html>`,
    );
    expect(text).toBe(
      ["Inline shows it.", "Ad span.", "Open teaser.", "Open modal.", "Hover only.", "Printed.", "Paper.", "shown child", "End."].join("\n"),
    );
  });

  it("verifies no quote from an inline-hidden element, and still the visible one (through the queue)", async () => {
    const page = `<!doctype html><html><head><title>Reading pages</title></head><body>
      <p>The team reported that solid-state cells reached 500 Wh/kg in the lab this spring.</p>
      ${HIDDEN_BY_STYLE.map(([, html]) => html).join("\n")}</body></html>`;
    const url = await serve("inline-hidden", { type: "text/html; charset=utf-8", body: page });
    const quotes = HIDDEN_BY_STYLE.map(([, html]) => html.replace(/<[^>]+>/g, ""));
    const got = await verdicts([...quotes.map((quote) => ({ url, quote })), { url, quote: "solid-state cells reached 500 Wh/kg in the lab this spring" }]);
    expect(got.map((v) => v.status)).toEqual([...quotes.map(() => "not_found"), "verified"]);
  });
});

describe("extract_data reads the same page", () => {
  const kinds = new Set<ExtractKind>(["tables", "links", "headings", "metadata"]);

  it("leaves out what a reader does not see, by the same rule, and keeps JSON-LD and the title", async () => {
    const out = await extractHtml(
      `<html><head><title>Shown title</title><script type="application/ld+json">{"@type":"Thing"}</script></head><body>
      <h1>Seen heading</h1><h2 style="display:none">Hidden heading</h2>
      <div style="visibility:hidden"><table><tr><th>Hidden</th></tr><tr><td>1</td></tr></table><a href="/hidden">hidden link</a></div>
      <table hidden><tr><th>Also hidden</th></tr></table>
      <table><tr><th>Seen</th></tr><tr><td>2</td></tr></table><a href="/seen">seen link</a></body></html>`,
      { kinds },
    );
    expect(out.headings).toEqual([{ level: 1, text: "Seen heading" }]);
    expect(out.tables.map((table) => table.headers)).toEqual([["Seen"]]);
    expect(out.links.map((link) => link.href)).toEqual(["/seen"]);
    expect(out.metadata.title).toBe("Shown title");
    expect(out.metadata.jsonLd).toEqual([{ "@type": "Thing" }]);
    expect(out.truncated).toBe(false);
  });

  it("returns what it found before a bound, marked truncated, never thrown", async () => {
    const out = await extractHtml(`<h1>Before</h1>${"<b>".repeat(500_000)}`, { kinds });
    expect(out.headings).toEqual([{ level: 1, text: "Before" }]);
    expect(out.truncated).toBe(true);
  });
});

describe("a page's encoding", () => {
  const FRENCH = "Le café crème coûte désormais 5 € à Paris – “un record” selon l’étude";
  const frenchPage = (head: string) =>
    singleByte(`<!doctype html><html><head>${head}<title>Prix</title></head><body><p>${FRENCH.replace("’", "'")}.</p></body></html>`, CP1252);

  it("decodes by <meta charset> when the header names none: windows-1252, and iso-8859-1 / latin1 read as windows-1252", async () => {
    for (const head of ['<meta charset="windows-1252">', "<meta charset=iso-8859-1>", '<meta http-equiv="Content-Type" content="text/html; charset=latin1">']) {
      expect(await textOf(frenchPage(head), "text/html"), head).toBe(`${FRENCH.replace("’", "'")}.`);
    }
  });

  it("decodes Shift_JIS and GBK pages by their meta, a header's charset wins over the meta, and a BOM over both", async () => {
    const japanese = Uint8Array.from([...utf8('<meta charset="shift_jis"><p>'), 0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, ...utf8("</p>")]);
    expect(await textOf(japanese, "text/html")).toBe("日本語");
    const chinese = Uint8Array.from([...utf8("<meta http-equiv=content-type content='text/html;charset=gbk'><p>"), 0xd6, 0xd0, 0xce, 0xc4, ...utf8("</p>")]);
    expect(await textOf(chinese, null)).toBe("中文");
    // The header names GBK: the meta's shift_jis is not used.
    const declared = Uint8Array.from([...utf8('<meta charset="shift_jis"><p>'), 0xd6, 0xd0, 0xce, 0xc4, ...utf8("</p>")]);
    expect(await textOf(declared, "text/html; charset=GBK")).toBe("中文");
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('<meta charset="windows-1252"><p>café</p>')]);
    expect(await textOf(bom, "text/html; charset=iso-8859-1")).toBe("café");
  });

  it("verifies a quote on a windows-1252 page that declares its charset only in <meta> (through the queue)", async () => {
    const url = await serve("windows-1252", { type: "text/html", base64: btoa(String.fromCharCode(...frenchPage('<meta charset="windows-1252">'))) });
    const [verdict] = await verdicts([{ url, quote: "Le café crème coûte désormais 5 € à Paris" }]);
    expect(verdict?.status).toBe("verified");
  });
});

/** Hostile pages, each under the 2 MiB a source check reads. */
const HOSTILE: [string, () => string, RegExp][] = [
  ["100,000 <div><p>x</p></div>", () => `<p>The quote is here on the hostile page.</p>${"<div><p>x</p></div>".repeat(100_000)}`, /more than [\d,]+ elements/],
  ["500,000 unclosed <b>", () => `<p>The quote is here on the hostile page.</p>${"<b>".repeat(500_000)}`, /nested more than [\d,]+ elements deep|more than [\d,]+ elements/],
  ["tables nested 10,000 deep", () => `<p>The quote is here on the hostile page.</p>${"<table><tr><td>".repeat(10_000)}x`, /nested more than [\d,]+ elements deep/],
  ["an element with a million attributes", () => `<p>The quote is here on the hostile page.</p><p${" a".repeat(1_000_000)}>x</p>`, /too complex to read/],
  ["SVG nested 100,000 deep", () => `<p>The quote is here on the hostile page.</p><svg>${"<g>".repeat(100_000)}</svg>`, /nested more than [\d,]+ elements deep/],
];

describe("a page too complex to read", () => {
  for (const [what, make, reason] of HOSTILE) {
    it(`is unchecked, never thrown: ${what}`, async () => {
      const body = utf8(make());
      expect(body.byteLength).toBeLessThanOrEqual(2 * 1024 * 1024);
      const started = Date.now();
      const read = await readPage("html", body, "text/html");
      // Bounded: well under a second on an idle machine; generous here, where tests share the CPU.
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(read).toEqual({ unchecked: expect.stringMatching(/^the page is too complex to read: /) });
      expect((read as { unchecked: string }).unchecked).toMatch(reason);
    }, 60_000);
  }

  it("names the limits it reads within", () => {
    expect(PAGE_READING_LIMITS.maxElements).toBe(50_000);
    expect(PAGE_READING_LIMITS.maxDepth).toBe(1_024);
  });

  it("ends with an unchecked verdict, not pending, through the queue (each hostile page)", async () => {
    const urls = await Promise.all(HOSTILE.map(([, make], i) => serve(`hostile-${i}`, { type: "text/html; charset=utf-8", body: make() })));
    const got = await verdicts(urls.map((url) => ({ url, quote: "The quote is here on the hostile page." })), 50_000);
    expect(got.map((v) => v.status)).toEqual(HOSTILE.map(() => "unchecked"));
    for (const verdict of got) expect(verdict.reason).toMatch(/^the page is too complex to read: /);
  }, 90_000);
});
