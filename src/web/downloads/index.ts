/**
 * A deliverable as a file to download, one function for every face (REST, the dashboard, the CLI through REST, the
 * public share page): Markdown with its Sources, one standalone HTML file, or DOCX, built from the deliverable's public
 * view (src/domain/research/public-view.ts). The sources are the ones the deliverable cites, each with what Cairn found
 * on the page and when it last read it.
 *
 *   const output = await services.outputs.get(orgId, outputId);        // the face's own access check
 *   const download = await downloadOf(services, home, output, format);  // format from parseDownloadFormat
 *   return downloadResponse(download);                                  // attachment, type, no-store
 */
import { contentDisposition, DOWNLOAD_CONTENT_TYPES, type DownloadFormat, downloadFilename, markdownDownload } from "../../domain/research/downloads";
import type { PublicDeliverable } from "../../domain/research/public-view";
import type { Services } from "../../domain/ports";
import type { ResearchOutput } from "../../domain/research/outputs";
import type { RenderedMarkdown } from "../../storage/rendered-outputs";
import { renderedMarkdownOf } from "../dashboard/rendered-deliverable";
import { publicViewOf } from "../../platform/public-view";
import { docxOf } from "./docx";
import { standaloneHtml } from "./html";

export interface Download {
  body: Uint8Array | string;
  contentType: string;
  /** The file's name (UTF-8); `contentDisposition` carries it safely, with an ASCII fallback. */
  filename: string;
  contentDisposition: string;
}

/**
 * The file, from the deliverable's public view (what may leave the org: its text, version and date, citations and
 * the sources it cites with their checks) and what its Markdown rendered to (null otherwise).
 */
export async function deliverableDownload(view: PublicDeliverable, rendered: RenderedMarkdown | null, format: DownloadFormat, now: number = Date.now()): Promise<Download> {
  const body =
    format === "md" ? markdownDownload(view, view.sources) : format === "html" ? standaloneHtml(view, rendered, view.sources, now) : await docxOf(view, rendered, view.sources);
  return { body, contentType: DOWNLOAD_CONTENT_TYPES[format], filename: downloadFilename(view.title, format).utf8, contentDisposition: contentDisposition(view.title, format) };
}

/**
 * The download of a deliverable the caller may read (the face checked that: this reads the output's own org). The
 * Markdown's render is the one kept per version (rendered-deliverable.ts), so a costly text costs its render once.
 */
export async function downloadOf(services: Services, home: D1Database, output: ResearchOutput, format: DownloadFormat, now: number = Date.now()): Promise<Download> {
  const [rendered, view] = await Promise.all([output.mediaType === "markdown" && format !== "md" ? renderedMarkdownOf(home, output) : null, publicViewOf(services, output)]);
  return deliverableDownload(view, rendered, format, now);
}

/** The response: an attachment of the right type, never cached by anything between (its sources' status moves). */
export function downloadResponse(download: Download): Response {
  return new Response(download.body, {
    headers: {
      "content-type": download.contentType,
      "content-disposition": download.contentDisposition,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
