/**
 * A deliverable as a file to download, one function for every face (REST, the dashboard, the CLI through REST, the
 * public share page): Markdown with its Sources, one standalone HTML file, or DOCX. The sources are the ones the
 * deliverable cites, each with what Cairn found on the page and when it last read it.
 *
 *   const output = await services.outputs.get(orgId, outputId);        // the face's own access check
 *   const download = await downloadOf(services, home, output, format);  // format from parseDownloadFormat
 *   return downloadResponse(download);                                  // attachment, type, no-store
 */
import { contentDisposition, DOWNLOAD_CONTENT_TYPES, type DownloadFormat, type DownloadSource, downloadFilename, markdownDownload } from "../../domain/research/downloads";
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

/** The file, from what the face loaded: the deliverable, what its Markdown rendered to (null otherwise), its sources. */
export async function deliverableDownload(
  output: ResearchOutput,
  rendered: RenderedMarkdown | null,
  sources: readonly DownloadSource[],
  format: DownloadFormat,
  now: number = Date.now(),
): Promise<Download> {
  const body =
    format === "md" ? markdownDownload(output, sources) : format === "html" ? standaloneHtml(output, rendered, sources, now) : await docxOf(output, rendered, sources);
  return { body, contentType: DOWNLOAD_CONTENT_TYPES[format], filename: downloadFilename(output.title, format).utf8, contentDisposition: contentDisposition(output.title, format) };
}

/** The sources a deliverable cites, as its public view has them (its plan's ledger now; its citations alone without a plan). */
export async function downloadSourcesOf(services: Services, output: ResearchOutput): Promise<DownloadSource[]> {
  return (await publicViewOf(services, output)).sources;
}

/**
 * The download of a deliverable the caller may read (the face checked that: this reads the output's own org). The
 * Markdown's render is the one kept per version (rendered-deliverable.ts), so a costly text costs its render once.
 */
export async function downloadOf(services: Services, home: D1Database, output: ResearchOutput, format: DownloadFormat, now: number = Date.now()): Promise<Download> {
  const [rendered, sources] = await Promise.all([
    output.mediaType === "markdown" && format !== "md" ? renderedMarkdownOf(home, output) : null,
    downloadSourcesOf(services, output),
  ]);
  return deliverableDownload(output, rendered, sources, format, now);
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
