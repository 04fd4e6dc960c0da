/**
 * The PDF part of `npm run bench:downloads` (bench/README.md, "Downloads"): the 20-page deliverable's standalone HTML
 * printed with the download's own print options (src/web/downloads/pdf-options.ts) by the Chromium the local server's
 * Browser Rendering runs (scripts/lib/local-browser.mjs: the same executable, fonts and flags), driven from Node over
 * CDP. What it measures is the browser's work per download, which the Worker waits for: a browser started (each
 * download starts one) and the page set and printed. Not measured here: Browser Rendering's own queueing in production.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { localBrowserCache, localBrowserEnv, miniflareChromeVersion } from "../scripts/lib/local-browser.mjs";

const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];
const stats = (samples) => ({ p50: pct(samples, 50), p95: pct(samples, 95) });

/** `reps` browser starts and prints of `html`: their wall-clock ms, the file's bytes and pages; or why none ran. */
export async function pdfPrintTimes({ html, title, options, reps }) {
  const prepared = await localBrowserEnv();
  const executablePath = path.join(localBrowserCache, ".wrangler", "chrome", `linux-${miniflareChromeVersion()}`, "chrome-linux64", "chrome");
  if (!prepared.source || !existsSync(executablePath)) return { skipped: prepared.reason ?? "no local Chromium" };
  const launches = [];
  const prints = [];
  let size = 0;
  let pages = 0;
  for (let i = 0; i <= reps; i++) {
    const userDataDir = mkdtempSync(path.join(os.tmpdir(), "cairn-bench-pdf-"));
    try {
      const started = performance.now();
      const context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: ["--headless=new", "--export-tagged-pdf", "--generate-pdf-document-outline"] });
      const launched = performance.now();
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        await page.route("**/*", (route) => route.abort("blockedbyclient"));
        const printStart = performance.now();
        await page.setContent(html, { waitUntil: "load" });
        const pdf = await page.pdf(options("A4", title));
        const printed = performance.now();
        // The first round warms the disk cache: not counted.
        if (i > 0) {
          launches.push(launched - started);
          prints.push(printed - printStart);
        }
        size = pdf.byteLength;
        pages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
      } finally {
        await context.close();
      }
    } finally {
      rmSync(userDataDir, { recursive: true, force: true });
    }
  }
  return { browser: `${prepared.source} Chromium`, launch: stats(launches), print: stats(prints), size, pages };
}
