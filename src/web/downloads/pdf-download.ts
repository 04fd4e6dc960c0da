/**
 * The PDF download of a deliverable: its standalone HTML file (html.ts) printed by the browser binding (pdf.ts) on the
 * org's paper (A4 or Letter by its locale), kept per version and state like the DOCX (index.ts keptFileOf): the state
 * is everything the file shows and the paper, so a re-checked source, a new version or a new paper prints anew.
 */
import type { Services } from "../../domain/ports";
import type { ResearchOutput } from "../../domain/research/outputs";
import { paperSizeFor } from "../../domain/research/paper-size";
import type { PublicDeliverable } from "../../domain/research/public-view";
import { publicViewOf } from "../../platform/public-view";
import { RENDERER_VERSION } from "../dashboard/markdown";
import { renderedMarkdownOf } from "../dashboard/rendered-deliverable";
import { standaloneHtml } from "./html";
import type { KeptRender } from "./index";
import { browserPrinter, PDF_RENDERER } from "./pdf";

/**
 * What the PDF download shows and how to print it. Without a browser binding this throws the 501 before anything is
 * read; a kept file of the same state is served without starting a browser. `pdfTimeLimitMs`: a test's shorter bound
 * (browserPrinter).
 */
export async function keptPdfRender(
  services: Services,
  home: D1Database,
  output: ResearchOutput,
  browser: Fetcher | undefined,
  pdfTimeLimitMs?: number,
): Promise<{ view: PublicDeliverable; render: KeptRender }> {
  const printer = browserPrinter(browser, pdfTimeLimitMs);
  const [view, locale] = await Promise.all([publicViewOf(services, output), services.orgSettings.locale(output.orgId)]);
  const paper = paperSizeFor(locale);
  const make = async () => {
    const rendered = output.mediaType === "markdown" ? await renderedMarkdownOf(home, output) : null;
    return printer.print(standaloneHtml(view, rendered, view.sources, Date.now()), paper, view.title);
  };
  return { view, render: { format: "pdf", renderer: PDF_RENDERER, state: JSON.stringify([RENDERER_VERSION, view, paper]), make } };
}
