import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { strFromU8, unzipSync } from "fflate";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { projectRoot } from "../../scripts/lib/local.mjs";
import { findBrowser } from "../support/browser";
import { runCli } from "../support/cli";

/**
 * Downloads end to end: the operator CLI writes each format through the real Worker, the standalone HTML opens in
 * a real Chromium (test/support/browser.ts) with nothing fetched from anywhere and prints to PDF, and the dashboard's
 * DOCX link downloads a document whose text holds the deliverable, and the PDF download is printed by the server's
 * Browser Rendering binding (wrangler dev's, on the local Chromium). Screenshots and the PDFs go to node_modules/.cache.
 */

const server = inject("server");
const outDir = join(projectRoot, "node_modules", ".cache", "cairn-download-screenshots");
const CONTENT = "# Heat pumps in cold climates\n\n## Findings\n\n- Ground-source units keep a **COP above 3** at -15 °C [E1].\n\n| Type | COP |\n| --- | --- |\n| Ground | 3.2 |\n\n<script>alert('x')</script>\n";

let work = "";
let userDataDir = "";
let context: BrowserContext;
let page: Page;
let outputId = "";

// No --url: the CLI finds the suite's server running on this state (as it finds a running `npm start`) and uses it.
const cli = (...args: string[]) => runCli("--persist-to", server.persistTo, ...args);

describe("deliverable downloads: CLI, the HTML file in a browser, the dashboard link", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "cairn-e2e-downloads-"));
    mkdirSync(outDir, { recursive: true });
    const response = await fetch(`${server.url}/api/v1/outputs`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Heat pumps: a cold-climate brief", mediaType: "markdown", content: CONTENT, citations: [{ title: "Field trial report", url: "https://trials.example.org/report" }] }),
    });
    expect(response.status).toBe(201);
    outputId = ((await response.json()) as { outputId: string }).outputId;
    const browser = await findBrowser();
    userDataDir = mkdtempSync(join(tmpdir(), "cairn-chromium-"));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: browser.executablePath,
      ...(browser.env ? { env: { ...process.env, ...browser.env } } : {}),
      headless: true,
      acceptDownloads: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      viewport: { width: 1100, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    for (const dir of [userDataDir, work]) if (dir) rmSync(dir, { recursive: true, force: true });
    console.log(`download screenshots: ${outDir}`);
  });

  // A CLI call makes and removes a temporary key with wrangler (a minute on a loaded machine): one format here (the
  // file the browser opens next), Markdown through REST; test/workers/downloads.test.ts covers every format's content.
  it("the CLI writes the file; an unknown format is a usage error", { timeout: 300_000 }, async () => {
    const result = await cli("outputs", "download", outputId, "--org", server.orgSlug, "--format", "html", "--out", join(work, "brief.html"), "--json");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`Through the local server already running on this state: ${server.url}`);
    expect(JSON.parse(result.stdout)).toMatchObject({ file: join(work, "brief.html"), contentType: "text/html; charset=utf-8" });
    expect(readFileSync(join(work, "brief.html"), "utf8")).toContain("<h1>Heat pumps in cold climates</h1>");
    const md = await (await fetch(`${server.url}/api/v1/outputs/${outputId}/download?format=md`, { headers: { authorization: `Bearer ${server.apiKey}` } })).text();
    expect(md).toContain(CONTENT.trimEnd());
    expect(md).toContain("1. Field trial report — <https://trials.example.org/report> — unchecked (not a recorded source), not checked yet");

    const bad = await cli("outputs", "download", outputId, "--org", server.orgSlug, "--format", "odt");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--format must be md, html, docx or pdf");
  });

  it("the HTML file opens with nothing fetched, its hostile Markdown inert, and prints to a PDF", async () => {
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const file = pathToFileURL(join(work, "brief.html")).href;
    await page.goto(file);
    expect(await page.textContent("main h1")).toBe("Heat pumps in cold climates");
    expect(await page.textContent("main")).toContain("<script>alert('x')</script>");
    expect(await page.textContent("#sources")).toContain("Field trial report");
    expect(requests).toEqual([file]);
    expect(dialogs).toEqual([]);
    await page.screenshot({ path: join(outDir, "download-html.png"), fullPage: true });
    await page.emulateMedia({ media: "print" });
    await page.screenshot({ path: join(outDir, "download-html-print.png"), fullPage: true });
    const pdf = await page.pdf({ format: "A4", path: join(outDir, "download.pdf") });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.byteLength).toBeGreaterThan(5_000);
    await page.emulateMedia({ media: "screen" });
  });

  it("the PDF download is printed by wrangler dev's Browser Rendering: Japanese and Greek in its text layer, headings as its outline, live links, page numbers; kept for the next download", async () => {
    const JAPANESE = "東京の天気は晴れです。";
    const GREEK = "Η ενέργεια από τις παλίρροιες είναι προβλέψιμη.";
    const content = `# 潮汐エネルギー: a brief\n\n## Ελληνικά\n\n${GREEK}\n\n## 日本語\n\n${JAPANESE}\n\nשלום עולם — Привет, мир. See [the survey](https://tides.example.org/survey).\n`;
    const stored = await fetch(`${server.url}/api/v1/outputs`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Tidal power 潮汐", mediaType: "markdown", content, citations: [{ title: "Tide survey", url: "https://tides.example.org/survey" }] }),
    });
    expect(stored.status).toBe(201);
    const id = ((await stored.json()) as { outputId: string }).outputId;
    const get = () => fetch(`${server.url}/api/v1/outputs/${id}/download?format=pdf`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    let started = performance.now();
    const response = await get();
    const printedMs = performance.now() - started;
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(".pdf");
    const bytes = new Uint8Array(await response.arrayBuffer());
    writeFileSync(join(outDir, "download-printed.pdf"), bytes);
    const pdf = await getDocumentProxy(bytes.slice());
    // NFKC: a font may map a shared glyph to its Kangxi radical (日 as ⽇) in the text layer; read as a person would.
    const text = (await extractText(pdf, { mergePages: true })).text.normalize("NFKC");
    expect(text).toContain(JAPANESE);
    expect(text).toContain(GREEK);
    expect(text).toContain("Tide survey");
    expect(text).toContain("unchecked (not a recorded source)");
    expect(text).toMatch(/Page 1 of \d/);
    const outline = JSON.stringify(await pdf.getOutline());
    expect(outline).toContain("Ελληνικά");
    expect(outline).toContain("日本語");
    const links = (await (await pdf.getPage(1)).getAnnotations()).map((annotation: { url?: string }) => annotation.url);
    expect(links).toContain("https://tides.example.org/survey");
    // The next download is the kept file (same version and sources): the same bytes, without a browser.
    started = performance.now();
    const again = new Uint8Array(await (await get()).arrayBuffer());
    console.log(`pdf download: printed in ${Math.round(printedMs)} ms, kept file in ${Math.round(performance.now() - started)} ms, ${bytes.byteLength} bytes`);
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
  });

  it("the dashboard's Word link downloads a document holding the deliverable", async () => {
    await page.goto(`${server.url}/dashboard/sign-in`);
    await page.fill("#email", server.email);
    await page.fill("#password", server.password);
    await page.click("button[type=submit]");
    await page.waitForURL(`${server.url}/dashboard/plans`);
    await page.goto(`${server.url}/dashboard/outputs/${outputId}`);
    await page.screenshot({ path: join(outDir, "deliverable-download-links.png"), fullPage: true });
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#downloads a:has-text('Word')")]);
    expect(download.suggestedFilename()).toBe("Heat pumps a cold-climate brief.docx");
    const saved = join(work, "from-dashboard.docx");
    await download.saveAs(saved);
    const xml = strFromU8(unzipSync(readFileSync(saved))["word/document.xml"] ?? new Uint8Array());
    expect(xml).toContain("Heat pumps in cold climates");
    expect(xml).toContain("Field trial report");
  });
});
