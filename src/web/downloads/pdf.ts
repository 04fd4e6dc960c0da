/**
 * The PDF download: the standalone HTML file (html.ts) printed by a real Chromium through Cloudflare's Browser
 * Rendering binding (`BROWSER`; locally `wrangler dev` runs one, see docs/downloads.md). The browser gets the file as
 * its document and nothing else: every request the page would make is refused (the file is self-contained, its CSP
 * allows no fetch, and it holds no script), so printing reaches no network. Chromium lays out every script the fonts
 * of the browser cover, writes the headings as the PDF's outline and the links as live links, tags the PDF, and puts
 * the page numbers in the footer.
 *
 *   const printer = browserPrinter(env.BROWSER);       // null: the deployment has no browser (501 naming BROWSER)
 *   const pdf = await printer.print(html, "A4", title); // 503 + Retry-After when the browser is busy or too slow
 */
import puppeteer, { type Browser } from "@cloudflare/puppeteer";
import { notConfigured, unavailable } from "../../domain/errors";
import type { PaperSize } from "../../domain/research/paper-size";
import { log } from "../../platform/log";
import { printOptions } from "./pdf-options";

/** Bumped when the printed file changes for the same deliverable: a kept PDF of another renderer is printed anew. */
export const PDF_RENDERER = 1;

/** The longest one print may take, browser start included; past it the download answers 503. */
export const PDF_TIME_LIMIT_MS = 30_000;

/** Browsers this isolate drives at once; a download past them is told to come back (the platform limits sessions per account too). */
export const BROWSERS_PER_ISOLATE = 2;

/** When a refused print (browser busy) can be tried again. */
export const BROWSER_BUSY_RETRY_SECONDS = 10;

/** The setting that turns PDF downloads on, named in the 501. */
export const BROWSER_SETTING = 'the Browser Rendering binding BROWSER ([browser] binding = "BROWSER" in wrangler.toml)';

export interface PdfPrinter {
  /** The HTML file printed on `paper`; `title` heads every page. */
  print(html: string, paper: PaperSize, title: string): Promise<Uint8Array>;
}

/**
 * The printer of this deployment's browser binding, or a 501 naming the setting when it has none. `timeLimitMs` is
 * for tests (a print past a short bound): it may only shorten PDF_TIME_LIMIT_MS, never lengthen it.
 */
export function browserPrinter(binding: Fetcher | undefined, timeLimitMs: number = PDF_TIME_LIMIT_MS): PdfPrinter {
  if (!binding) {
    throw notConfigured(`PDF downloads are not set up on this server: they need ${BROWSER_SETTING}. The md, html and docx formats work without it.`);
  }
  const limitMs = Math.min(timeLimitMs, PDF_TIME_LIMIT_MS);
  return { print: (html, paper, title) => printWithBrowser(binding, html, paper, title, limitMs) };
}

let browsersInUse = 0;

const busy = (why: string) => unavailable(`The PDF printer is busy (${why}). Try again in ${BROWSER_BUSY_RETRY_SECONDS} seconds; the html download prints the same file from your own browser.`, BROWSER_BUSY_RETRY_SECONDS);

/** A failure that means "no browser to be had now" (Browser Rendering's 429 on acquiring one, or its session limit), as opposed to a fault. */
const isNoBrowserNow = (error: unknown) => /\b429\b|rate limit|too many|limit exceeded/i.test(String(error));

async function printWithBrowser(binding: Fetcher, html: string, paper: PaperSize, title: string, limitMs: number): Promise<Uint8Array> {
  if (browsersInUse >= BROWSERS_PER_ISOLATE) throw busy(`${BROWSERS_PER_ISOLATE} files are being printed`);
  browsersInUse++;
  let browser: Browser | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let late = false;
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        late = true;
        reject(busy(`printing took longer than ${limitMs / 1000} seconds`));
      }, limitMs);
    });
    const launched = puppeteer.launch(binding as unknown as Parameters<typeof puppeteer.launch>[0]).then((b) => {
      // A browser starting after the bound passed is closed at once: the download has answered, and an open session
      // would count against the account's browsers until the platform's idle timeout.
      if (late) void closeWithin(b, BROWSER_CLOSE_MS);
      else browser = b;
      return b;
    });
    const started = await Promise.race([launched, deadline]).catch((error: unknown) => {
      throw isNoBrowserNow(error) ? busy("no browser is free") : error;
    });
    return await Promise.race([printPage(started, html, paper, title, limitMs), deadline]);
  } finally {
    clearTimeout(timer);
    const open = browser as Browser | null;
    if (open) await closeWithin(open, BROWSER_CLOSE_MS);
    browsersInUse--;
  }
}

/** How long the response waits for the browser to close; past it the session ends on the platform's own idle timeout. */
const BROWSER_CLOSE_MS = 3_000;

async function closeWithin(browser: Browser, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([browser.close(), late]);
  } catch (error) {
    log("warn", "browser not closed", { error: String(error) });
  } finally {
    clearTimeout(timer);
  }
}

async function printPage(browser: Browser, html: string, paper: PaperSize, title: string, limitMs: number): Promise<Uint8Array> {
  const page = await browser.newPage();
  page.setDefaultTimeout(limitMs);
  // Nothing the page asks for is fetched: the file is self-contained, so a request is a fault (or a hostile text).
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    if (request.url().startsWith("data:") || request.url() === "about:blank") void request.continue();
    else void request.abort("blockedbyclient");
  });
  await page.setContent(html, { waitUntil: "load" });
  const pdf = await page.pdf({ ...printOptions(paper, title), timeout: limitMs });
  await page.setRequestInterception(false);
  await page.close();
  return new Uint8Array(pdf);
}
