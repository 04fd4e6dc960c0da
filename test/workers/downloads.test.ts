/**
 * Deliverables as files (REST /outputs/{id}/download and the dashboard): Markdown with its Sources, one standalone
 * HTML file, DOCX, and PDF (printed by the Browser Rendering binding, here Miniflare's on the local Chromium), each
 * listing what Cairn found on every cited page.
 */
import { strFromU8, unzipSync } from "fflate";
import { env } from "cloudflare:workers";
import { getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { CairnError } from "../../src/domain/errors";
import type { Env } from "../../src/env";
import { problemResponse } from "../../src/rest/problem";
import { webServices } from "../../src/platform/runtime";
import { downloadFor } from "../../src/web/downloads";
import { BROWSER_BUSY_RETRY_SECONDS, browserPrinter } from "../../src/web/downloads/pdf";
import { hookedD1, latch } from "../support/d1-hooks";
import { Visitor } from "../support/dashboard";
import { createPlan, ok, sourceChecksSettled, steps } from "../support/plans";
import { waitFor } from "../support/webhooks";
import { fetchWorkerOver, ORIGIN, rest, seedApiKey, seedTenant } from "../support/worker";

const sourcePages = inject("sourcePagesOrigin");
const HOSTILE_TITLE = 'Battery "report"; filename=evil.exe\r\nX-Injected: 1 — é';
const CONTENT = [
  "# Solid-state batteries",
  "",
  "## Density",
  "",
  "- Lab cells reached **500 Wh/kg** [E1].",
  "- A second source is *gone* [E2].",
  "",
  "1. first",
  "2. second",
  "",
  "| Source | Finding |",
  "| --- | --- |",
  "| E1 | 500 Wh/kg |",
  "",
  "See [the lab](https://lab.example.org/news) and `code [E1]`.",
  "",
  "<script>alert(1)</script>",
  "",
  '<img src=x onerror="alert(2)"> [click me](javascript:alert(3))',
  "",
  "![tracking pixel](https://evil.example/track.png) and ![](https://evil.example/blank.gif)",
  "",
  "## References",
  "",
  "- Lab news, 2026",
].join("\n");

let tenant: Awaited<ReturnType<typeof seedTenant>>;
let outputId = "";

/** A PDF's first page, width and height in whole points. */
async function pageSizeOf(pdf: Uint8Array): Promise<[number, number]> {
  const [, , width, height] = (await (await getDocumentProxy(pdf)).getPage(1)).view as number[];
  return [Math.round(width ?? 0), Math.round(height ?? 0)];
}

const download = (format: string, id = outputId, key = tenant.apiKey) => rest(key, `/outputs/${id}/download?format=${format}`);

beforeAll(async () => {
  tenant = await seedTenant();
  const { apiKey } = tenant;
  const { planId } = await createPlan(apiKey, { name: "[Deep] Batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
  await ok(apiKey, "record_evidence", {
    planId,
    evidence: [
      { url: `${sourcePages}/article.html`, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg", subtopic: "Density", quote: "solid-state cells reached 500 Wh/kg in the lab" },
      { url: `${sourcePages}/gone`, title: "A page that is gone", facts: "nothing", subtopic: "Density", quote: "the page that is not there says this" },
    ],
  });
  await sourceChecksSettled(apiKey, planId);
  const stored = (await ok(apiKey, "store_research_output", {
    planId,
    title: HOSTILE_TITLE,
    mediaType: "markdown",
    content: CONTENT,
    citations: [{ title: "A book without a URL" }],
  })) as { outputId: string };
  outputId = stored.outputId;
});

describe("downloading a deliverable", () => {
  it("as Markdown: its text, then each source with URL, title, status in words (unreachable with why) and when last checked, beside its own References", async () => {
    const response = await download("md");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await response.text();
    expect(text.startsWith(CONTENT)).toBe(true);
    // The deliverable has its own References: Cairn's section is its checks of them, not a second Sources.
    expect(text.match(/^#+ (Sources|References|Source checks)$/gm)).toEqual(["## References", "## Source checks"]);
    const sources = text.slice(text.indexOf("## Source checks"));
    expect(sources).toMatch(
      new RegExp(`1\\. \\[E1\\] Solid-state batteries reach 500 Wh/kg — <${sourcePages}/article.html> — verified \\(quote found on the page\\), checked \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`),
    );
    expect(sources).toMatch(new RegExp(`2\\. \\[E2\\] A page that is gone — <${sourcePages}/gone> — unreachable \\(the page does not exist: a dead link\\), checked `));
    expect(sources).toContain("3. A book without a URL — unchecked (not a recorded source), not checked yet");
  });

  it("keeps a hostile title out of the headers: one Content-Disposition, an ASCII filename and the UTF-8 name in filename*", async () => {
    const response = await download("md");
    expect(response.headers.get("x-injected")).toBeNull();
    const disposition = response.headers.get("content-disposition") ?? "";
    expect(disposition).toBe(
      `attachment; filename="Battery report filename=evil.exe X-Injected 1 _ e.md"; filename*=UTF-8''Battery%20report%20filename%3Devil.exe%20X-Injected%201%20%E2%80%94%20%C3%A9.md`,
    );
  });

  it("as standalone HTML: inline CSS with a print stylesheet, no script or outside fetch, hostile Markdown escaped, the sources with their status", async () => {
    const response = await download("html");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="[^"]+\.html"; filename\*=UTF-8''[^"; ]+\.html$/);
    const html = await response.text();
    expect(html).toMatch(/<style>[\s\S]*@media print \{[\s\S]*<\/style>/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'`);
    expect(html).not.toMatch(/<(script|link|img|iframe|object|embed)\b|<[a-z]+[^>]*\ssrc=|@import|url\(/i);
    expect(html).not.toMatch(/href="javascript/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
    expect(html).toContain('<a href="">click me</a>');
    // Self-contained: a remote image is its alt text, never a request to another site.
    expect(html).not.toContain("evil.example");
    expect(html).toContain("[image: tracking pixel]");
    expect(html).toContain("<title>Battery &quot;report&quot;; filename=evil.exe\r\nX-Injected: 1 — é</title>");
    expect(html).toContain("<h2>Density</h2>");
    expect(html).toContain('[<a class="ref" href="#source-E1">E1</a>]');
    expect(html).toMatch(/<li id="source-E1"><strong>\[E1\]<\/strong> Solid-state batteries reach 500 Wh\/kg[\s\S]*?status-verified">verified \(quote found on the page\)</);
    expect(html).toMatch(/<li id="source-E2">[\s\S]*?status-unreachable">unreachable \(the page does not exist: a dead link\)</);
    expect(html.match(/<h2>(Sources|References|Source checks)<\/h2>/g)).toEqual(["<h2>References</h2>", "<h2>Source checks</h2>"]);
  });

  it("as DOCX: a Word document whose text holds the deliverable, its structure and its sources, each cited [E#] a link to its source", async () => {
    const response = await download("docx");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect(response.headers.get("content-disposition")).toMatch(/filename\*=UTF-8''[^"; ]+\.docx$/);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const xml = strFromU8(files["word/document.xml"] ?? new Uint8Array());
    const text = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join("");
    for (const words of ["Solid-state batteries", "Density", "Lab cells reached ", "500 Wh/kg", "the lab", "References", "Source checks", "A page that is gone", "unreachable (the page does not exist: a dead link)", "A book without a URL"]) {
      expect(text).toContain(words);
    }
    expect(text).not.toContain("Sources");
    // Each cited [E#] is an internal link to the bookmark on its source's entry; a ref in code stays text.
    for (const ref of ["E1", "E2"]) {
      expect(xml).toMatch(new RegExp(`<w:hyperlink [^>]*w:anchor="source_${ref}"[^>]*><w:r>(?:<w:rPr>[\\s\\S]*?</w:rPr>)?<w:t[^>]*>${ref}</w:t>`));
      expect(xml).toMatch(new RegExp(`<w:bookmarkStart [^>]*w:name="source_${ref}"[^>]*/><w:r>(?:<w:rPr>[\\s\\S]*?</w:rPr>)?<w:t[^>]*>\\[${ref}\\] </w:t>`));
    }
    expect(xml.match(/w:anchor="source_E1"/g)).toHaveLength(1);
    expect(xml.match(/<w:bookmarkStart /g)).toHaveLength(2);
    expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(xml).toContain('<w:pStyle w:val="Heading2"/>');
    expect(xml).toMatch(/<w:b\/>[\s\S]{0,200}500 Wh\/kg/);
    expect(xml).toContain("<w:tbl>");
    expect(xml).toContain('<w:rFonts w:ascii="Courier New"');
    const rels = strFromU8(files["word/_rels/document.xml.rels"] ?? new Uint8Array());
    expect(rels).toContain('Target="https://lab.example.org/news"');
    expect(rels).not.toMatch(/javascript:/i);
  });

  it("answers an unknown or missing format with 400, another org's deliverable and an unknown id with 404", async () => {
    for (const format of ["odt", ""]) {
      const response = await download(format);
      expect(response.status, format).toBe(400);
      const problem = (await response.json()) as { code: string; detail: string };
      expect(problem.code).toBe("validation");
      expect(problem.detail).toContain("md, html, docx or pdf");
    }
    const other = await seedTenant();
    const foreign = await download("md", outputId, other.apiKey);
    expect(foreign.status).toBe(404);
    const missing = await download("md", "out_0000000000000000000000000");
    expect(missing.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: "not_found" });
    expect((await rest(tenant.apiKey, `/outputs/${outputId}/download?format=md`, { method: "POST" })).status).toBe(405);
  });

  it("from the dashboard: the deliverable's page links each format, and the links download for a member only", async () => {
    const visitor = new Visitor();
    await visitor.signIn(tenant.admin.email, tenant.admin.password);
    const page = await (await visitor.get(`/dashboard/outputs/${outputId}`)).text();
    for (const format of ["md", "html", "docx", "pdf"]) expect(page).toContain(`href="/dashboard/outputs/${outputId}/download?format=${format}"`);
    const file = await visitor.get(`/dashboard/outputs/${outputId}/download?format=docx`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; /);
    expect(unzipSync(new Uint8Array(await file.arrayBuffer()))["word/document.xml"]).toBeDefined();

    const other = await seedTenant();
    const outsider = new Visitor();
    await outsider.signIn(other.admin.email, other.admin.password);
    expect((await outsider.get(`/dashboard/outputs/${outputId}/download?format=md`)).status).toBe(404);
    expect((await new Visitor().get(`/dashboard/outputs/${outputId}/download?format=md`)).status).toBe(303);
  });

  it("renders a DOCX once per version and source state: later downloads are the kept file, a re-checked source or a new version renders anew", async () => {
    const kept = () => env.DB.prepare("SELECT version, state_sha256 AS state FROM rendered_files WHERE org_id = ? AND output_id = ? AND format = 'docx'").bind(tenant.orgId, outputId).all<{ version: number; state: string }>();
    expect((await download("docx")).status).toBe(200);
    const [first] = (await kept()).results;
    expect(first?.version).toBe(1);
    // The next download is the kept file: altered in place, the alteration is what it serves.
    await env.DB.prepare("UPDATE rendered_files SET body = ? WHERE org_id = ? AND output_id = ?").bind(new TextEncoder().encode("KEPT FILE"), tenant.orgId, outputId).run();
    expect(await (await download("docx")).text()).toBe("KEPT FILE");
    // A source checked again shows a new date in the file: made anew, and kept in place of the old one.
    await env.DB.prepare("UPDATE ledger_evidence SET verification_checked_at = verification_checked_at + 1000 WHERE org_id = ? AND verification_checked_at IS NOT NULL").bind(tenant.orgId).run();
    const rechecked = await download("docx");
    expect(unzipSync(new Uint8Array(await rechecked.arrayBuffer()))["word/document.xml"]).toBeDefined();
    const [second] = (await kept()).results;
    expect(second?.state).not.toBe(first?.state);
    // A new version: made anew at its first download.
    await ok(tenant.apiKey, "store_research_output", { outputId, title: HOSTILE_TITLE, mediaType: "markdown", content: `${CONTENT}\n\nA second version.` });
    const text = strFromU8(unzipSync(new Uint8Array(await (await download("docx")).arrayBuffer()))["word/document.xml"] ?? new Uint8Array());
    expect(text).toContain("A second version.");
    expect((await kept()).results.map((row) => row.version)).toEqual([2]);
  });

  it("bounds the renders one org runs at once: past it a clear 429 with Retry-After, while another org's reads and renders go on", async () => {
    const b = await seedTenant();
    const outputs = await Promise.all(
      [1, 2, 3].map(async (n) => ((await ok(b.apiKey, "store_research_output", { title: `B report ${n}`, mediaType: "markdown", content: `# B ${n}\n\nText ${n}.` })) as { outputId: string }).outputId),
    );
    // Org B's renders are held inside their slots (at the Markdown render's lookup) until the test lets them go.
    const hold = latch();
    const bothInside = latch();
    let inside = 0;
    const overB = {
      ...env,
      DB: hookedD1(env.DB, {
        async before(sql) {
          if (!sql.includes("FROM rendered_outputs")) return;
          if (++inside === 2) bothInside.open();
          await hold.promise;
        },
      }),
    } as unknown as Env;
    const downloadB = (id: string) => fetchWorkerOver(overB)(new Request(`${ORIGIN}/api/v1/outputs/${id}/download?format=docx`, { headers: { authorization: `Bearer ${b.apiKey}` } }));
    const running = [downloadB(outputs[0] as string), downloadB(outputs[1] as string)];
    await bothInside.promise;

    const refused = await downloadB(outputs[2] as string);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { detail: string }).detail).toContain("already has 2 downloads being made");
    // Org A is not held: its plain read and its own render answer while B's renders wait.
    expect((await rest(tenant.apiKey, `/outputs/${outputId}`)).status).toBe(200);
    expect((await download("html")).status).toBe(200);

    hold.open();
    expect((await Promise.all(running)).map((response) => response.status)).toEqual([200, 200]);
    // Its slots given back, B's third file renders.
    expect((await downloadB(outputs[2] as string)).status).toBe(200);
  });

  it("as PDF: printed by the browser binding on the org's paper, kept per version and source state like the DOCX", async () => {
    const kept = () =>
      env.DB.prepare("SELECT version, state_sha256 AS state, body FROM rendered_files WHERE org_id = ? AND output_id = ? AND format = 'pdf'")
        .bind(tenant.orgId, outputId)
        .all<{ version: number; state: string; body: ArrayBuffer }>();
    const printed = await download("pdf");
    expect(printed.status).toBe(200);
    expect(printed.headers.get("content-type")).toBe("application/pdf");
    expect(printed.headers.get("content-disposition")).toMatch(/filename\*=UTF-8''.*\.pdf$/);
    const bytes = new Uint8Array(await printed.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    // A4 (210 × 297 mm: Chromium's 595.92 × 842.88 points) for an org with no locale.
    expect(await pageSizeOf(bytes)).toEqual([596, 843]);
    const [first] = (await kept()).results;
    const version = ((await (await rest(tenant.apiKey, `/outputs/${outputId}`)).json()) as { version: number }).version;
    expect(first?.version).toBe(version);
    // The next download is the kept file, with no browser: altered in place, the alteration is what it serves.
    await env.DB.prepare("UPDATE rendered_files SET body = ? WHERE org_id = ? AND output_id = ? AND format = 'pdf'").bind(new TextEncoder().encode("KEPT PDF"), tenant.orgId, outputId).run();
    expect(await (await fetchWorkerOver({ ...env, BROWSER: undefined } as unknown as Env)(new Request(`${ORIGIN}/api/v1/outputs/${outputId}/download?format=pdf`, { headers: { authorization: `Bearer ${tenant.apiKey}` } }))).status).toBe(501);
    expect(await (await download("pdf")).text()).toBe("KEPT PDF");
    // An admin sets the org's locale to the United States: US Letter (612 × 792), printed anew in place of the A4 file.
    const { key: adminKey } = await seedApiKey(tenant.orgId, tenant.admin.userId, ["org:admin"]);
    const set = await rest(adminKey, "/org/settings", { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ locale: "en-us" }) });
    expect(await set.json()).toMatchObject({ locale: "en-US" });
    expect(await pageSizeOf(new Uint8Array(await (await download("pdf")).arrayBuffer()))).toEqual([612, 792]);
    const [second] = (await kept()).results;
    expect(second?.state).not.toBe(first?.state);
    // A new version: printed anew at its first download, the earlier version's file replaced.
    await ok(tenant.apiKey, "store_research_output", { outputId, title: HOSTILE_TITLE, mediaType: "markdown", content: `${CONTENT}\n\nAnother version.` });
    expect((await download("pdf")).status).toBe(200);
    expect((await kept()).results.map((row) => row.version)).toEqual([version + 1]);
  });

  it("as PDF without a browser binding: 501 naming the setting; with the browser busy: 503 and Retry-After, nothing kept", async () => {
    const b = await seedTenant();
    const { outputId: id } = (await ok(b.apiKey, "store_research_output", { title: "B report", mediaType: "markdown", content: "# B\n\nText." })) as { outputId: string };
    const over = (bindings: Partial<Env>) => (key = b.apiKey, output = id) =>
      fetchWorkerOver({ ...env, ...bindings } as unknown as Env)(new Request(`${ORIGIN}/api/v1/outputs/${output}/download?format=pdf`, { headers: { authorization: `Bearer ${key}` } }));

    const unconfigured = await over({ BROWSER: undefined })();
    expect(unconfigured.status).toBe(501);
    const problem = (await unconfigured.json()) as { code: string; detail: string };
    expect(problem.code).toBe("not_configured");
    expect(problem.detail).toContain('[browser] binding = "BROWSER"');
    // The other formats need no browser.
    const html = await fetchWorkerOver({ ...env, BROWSER: undefined } as unknown as Env)(new Request(`${ORIGIN}/api/v1/outputs/${id}/download?format=html`, { headers: { authorization: `Bearer ${b.apiKey}` } }));
    expect(html.status).toBe(200);

    // Browser Rendering refusing a browser (its 429 when the account's browsers are all in use): 503, try again later.
    const refusing = { fetch: async () => new Response("Too many browsers", { status: 429 }) } as unknown as Fetcher;
    const busy = await over({ BROWSER: refusing })();
    expect(busy.status).toBe(503);
    expect(Number(busy.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await busy.json()) as { code: string; detail: string }).detail).toContain("busy");

    // Two prints under way in this isolate (held at the browser's start): a third, from another org, is told to come back.
    const hold = latch();
    const bothStarted = latch();
    let started = 0;
    const slow = {
      fetch: async () => {
        if (++started === 2) bothStarted.open();
        await hold.promise;
        return new Response("Too many browsers", { status: 429 });
      },
    } as unknown as Fetcher;
    const c = await seedTenant();
    const outputsOfC = await Promise.all(
      [1, 2].map(async (n) => ((await ok(c.apiKey, "store_research_output", { title: `C ${n}`, mediaType: "markdown", content: `# C ${n}` })) as { outputId: string }).outputId),
    );
    const running = outputsOfC.map((output) => over({ BROWSER: slow })(c.apiKey, output));
    await bothStarted.promise;
    const third = await over({ BROWSER: slow })();
    expect(third.status).toBe(503);
    expect(((await third.json()) as { detail: string }).detail).toContain("2 files are being printed");
    hold.open();
    expect((await Promise.all(running)).map((response) => response.status)).toEqual([503, 503]);
    const none = await env.DB.prepare("SELECT COUNT(*) AS n FROM rendered_files WHERE org_id IN (?, ?) AND format = 'pdf'").bind(b.orgId, c.orgId).first<{ n: number }>();
    expect(none?.n).toBe(0);
  });
  it("as PDF past its time bound: 503 with Retry-After saying why, nothing kept, and a browser arriving after the bound closed at once (the bound shortened to 50 ms)", async () => {
    const { outputId: id } = (await ok(tenant.apiKey, "store_research_output", { title: "Slow print", mediaType: "markdown", content: "# Slow\n\nText." })) as { outputId: string };
    // The real browser binding, its first request (the browser's start) held until the download has answered.
    const release = latch();
    let held = false;
    let sessionId = "";
    const browser = env.BROWSER as Fetcher;
    const slowToStart = {
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        if (!held) {
          held = true;
          await release.promise;
        }
        const response = await browser.fetch(input, init);
        // The browser's start (puppeteer's acquire) answers its session's id.
        const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
        if (init?.method === "POST" && path === "/v1/devtools/browser") sessionId = ((await response.clone().json()) as { sessionId: string }).sessionId;
        return response;
      },
    } as unknown as Fetcher;
    const { services, home, now } = await webServices(env as unknown as Env, tenant.orgId);
    const started = Date.now();
    const refused = await downloadFor(services, home, tenant.orgId, id, "pdf", now(), slowToStart, 50).then(
      () => null,
      (error: unknown) => error as CairnError,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(held).toBe(true);
    expect(refused?.code).toBe("unavailable");
    // As the REST face answers it: 503, Retry-After, and why in the problem body.
    const answer = problemResponse(refused as CairnError, "test");
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe(String(BROWSER_BUSY_RETRY_SECONDS));
    const problem = (await answer.json()) as { detail: string };
    expect(problem.detail).toContain("printing took longer than 0.05 seconds");
    expect(problem.detail).toContain(`Try again in ${BROWSER_BUSY_RETRY_SECONDS} seconds`);
    // The browser then starts: it prints nothing and its session is closed, not left open until the platform's idle timeout.
    release.open();
    await waitFor("the late browser's session", async () => sessionId !== "", 15_000);
    const sessions = async () => ((await (await browser.fetch("http://browser/v1/sessions")).json()) as { sessions: { sessionId: string }[] }).sessions;
    await waitFor("the late browser closed", async () => !(await sessions()).some((session) => session.sessionId === sessionId), 15_000);
    const none = await env.DB.prepare("SELECT COUNT(*) AS n FROM rendered_files WHERE org_id = ? AND output_id = ?").bind(tenant.orgId, id).first<{ n: number }>();
    expect(none?.n).toBe(0);
  });

  it("prints with every request the page makes refused: a page asking for a stylesheet, images, a font, a script, a frame and a fetch on a loopback server reaches it zero times", async () => {
    // A deliverable's file asks for nothing (images are their alt text, raw HTML is escaped, its CSP allows no fetch);
    // this page has no CSP and asks for everything, so only the printer's own blocking keeps it off the network.
    const token = `pdf-probe-${crypto.randomUUID()}`;
    const at = (name: string) => `${sourcePages}/${token}/${name}`;
    const hitsOfToken = async () =>
      Object.keys(((await (await fetch(`${sourcePages}/hits`)).json()) as { hits: Record<string, number> }).hits).filter((path) => path.includes(token));
    // The counter counts this token's paths: one fetched from here is listed.
    await (await fetch(at("control"))).arrayBuffer();
    expect(await hitsOfToken()).toEqual([`/${token}/control`]);
    const page = `<!doctype html><html><head><title>Probe</title>
<link rel="stylesheet" href="${at("style.css")}"><link rel="preload" as="image" href="${at("preload.png")}">
<style>@import url("${at("import.css")}"); @font-face { font-family: probe; src: url("${at("font.woff2")}"); }
body { font-family: probe; background: url("${at("background.png")}"); }</style>
<script src="${at("script.js")}"></script></head>
<body><h1>Probe</h1><p>Text.</p><img src="${at("pixel.png")}" alt=""><iframe src="${at("frame.html")}"></iframe>
<script>fetch(${JSON.stringify(at("fetch"))}); navigator.sendBeacon(${JSON.stringify(at("beacon"))}, "x");</script></body></html>`;
    const pdf = await browserPrinter(env.BROWSER).print(page, "A4", "Probe");
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
    expect(await hitsOfToken()).toEqual([`/${token}/control`]);
  });
});
