/**
 * A deliverable as a file to download, one function for every face (REST, the dashboard, the CLI through REST, the
 * public share page): Markdown with its Sources, one standalone HTML file, DOCX, or that HTML file printed to PDF by
 * the Browser Rendering binding (pdf.ts), built from the deliverable's public
 * view (src/domain/research/public-view.ts). The sources are the ones the deliverable cites, each with what Cairn found
 * on the page and when it last read it.
 *
 *   const download = await downloadFor(services, home, orgId, outputId, format, now, env.BROWSER);  // format from parseDownloadFormat
 *   if (!download) throw notFound(...);                                            // none in the caller's org
 *   return downloadResponse(download);                                             // attachment, type, no-store
 */
import { contentDisposition, DOWNLOAD_CONTENT_TYPES, type DownloadFormat, downloadFilename, markdownDownload } from "../../domain/research/downloads";
import type { PublicDeliverable } from "../../domain/research/public-view";
import type { Services } from "../../domain/ports";
import type { ResearchOutput } from "../../domain/research/outputs";
import { rateLimited } from "../../domain/errors";
import { RENDER_RETRY_SECONDS, RenderSlots } from "../../domain/research/render-slots";
import { d1RenderedFiles, type RenderedFileKey, type RenderedMarkdown } from "../../storage/rendered-outputs";
import { RENDERER_VERSION } from "../dashboard/markdown";
import { pauseForOthers, renderedMarkdownOf } from "../dashboard/rendered-deliverable";
import { log } from "../../platform/log";
import { publicViewOf } from "../../platform/public-view";
import { sha256Hex } from "../dashboard/session";
import { DOCX_RENDERER, docxOf } from "./docx";
import { standaloneHtml } from "./html";
import { keptPdfRender } from "./pdf-download";

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
  return fileOf(view, format, body);
}

const fileOf = (view: PublicDeliverable, format: DownloadFormat, body: Uint8Array | string): Download => ({
  body,
  contentType: DOWNLOAD_CONTENT_TYPES[format],
  filename: downloadFilename(view.title, format).utf8,
  contentDisposition: contentDisposition(view.title, format),
});

/** Files being made in this isolate, per org: one org's downloads cannot hold the isolate's thread from another's requests. */
const renderSlots = new RenderSlots();

/** A render slot for the org, as the function that frees it; refused (429, try again) past the org's bound. */
function admitRender(orgId: string): () => void {
  const release = renderSlots.admit(orgId);
  if (!release) {
    throw rateLimited(
      `The organization already has ${renderSlots.perOrg} downloads being made. Try again in a few seconds: a rendered file is kept, so the retry is quick.`,
      RENDER_RETRY_SECONDS,
    );
  }
  return release;
}

/**
 * The download of the org's deliverable `outputId`, or null when the org holds none by that id. An HTML or DOCX
 * download takes one of the org's slots first, before the deliverable is even read (a refused download costs next to
 * nothing), and holds it until the file is made, kept or rendered, so one org's files cannot fill the isolate.
 * `pdfTimeLimitMs`: a test's shorter bound on a print (pdf.ts browserPrinter); the faces pass none.
 */
export async function downloadFor(
  services: Services,
  home: D1Database,
  orgId: string,
  outputId: string,
  format: DownloadFormat,
  now: number = Date.now(),
  browser?: Fetcher,
  pdfTimeLimitMs?: number,
): Promise<Download | null> {
  const release = format === "md" ? null : admitRender(orgId);
  try {
    const output = await services.outputs.get(orgId, outputId);
    return output ? await downloadOf(services, home, output, format, now, browser, pdfTimeLimitMs) : null;
  } finally {
    release?.();
  }
}

/**
 * The download of a deliverable the caller may read (the face checked that: this reads the output's own org). The
 * Markdown's render is the one kept per version (rendered-deliverable.ts), and a DOCX is kept per version and source
 * state, so a costly text costs its render once.
 */
async function downloadOf(
  services: Services,
  home: D1Database,
  output: ResearchOutput,
  format: DownloadFormat,
  now: number,
  browser?: Fetcher,
  pdfTimeLimitMs?: number,
): Promise<Download> {
  if (format === "docx") {
    const view = await publicViewOf(services, output);
    return fileOf(view, "docx", await keptDocxOf(home, output, view));
  }
  if (format === "pdf") {
    const { view, render } = await keptPdfRender(services, home, output, browser, pdfTimeLimitMs);
    return fileOf(view, "pdf", await keptFileOf(home, output, render));
  }
  const [rendered, view] = await Promise.all([output.mediaType === "markdown" && format === "html" ? renderedMarkdownOf(home, output) : null, publicViewOf(services, output)]);
  return deliverableDownload(view, rendered, format, now);
}

/** A costly file of one deliverable: its format and renderer, everything it shows (`state`), and how to make it. */
export interface KeptRender {
  format: "docx" | "pdf";
  renderer: number;
  state: string;
  make(): Promise<Uint8Array>;
}

/** Files being made in this isolate, per state: downloads of one file arriving together wait for one render. */
const filesUnderWay = new Map<string, Promise<Uint8Array>>();

/** The DOCX of this version and source state: kept from an earlier download, or made now (in a render slot) and kept. */
function keptDocxOf(home: D1Database, output: ResearchOutput, view: PublicDeliverable): Promise<Uint8Array> {
  // Everything the file shows (the public view): a re-checked source, a new version or a new renderer makes another file.
  // Made in parts with pauses between, as the Markdown's render is: the instance's other requests run meanwhile.
  const make = async () => docxOf(view, output.mediaType === "markdown" ? await renderedMarkdownOf(home, output) : null, view.sources, pauseForOthers);
  return keptFileOf(home, output, { format: "docx", renderer: DOCX_RENDERER, state: JSON.stringify([RENDERER_VERSION, view]), make });
}

/** The file of `render`'s format for this version and state: kept from an earlier download, or made now and kept. */
async function keptFileOf(home: D1Database, output: ResearchOutput, render: KeptRender): Promise<Uint8Array> {
  const key: RenderedFileKey = { orgId: output.orgId, outputId: output.outputId, format: render.format, version: output.version, renderer: render.renderer, stateSha256: await sha256Hex(render.state) };
  const id = `${key.orgId}:${key.outputId}:${key.format}:${key.stateSha256}`;
  let pending = filesUnderWay.get(id);
  if (!pending) {
    pending = renderAndKeep(home, key, render).finally(() => filesUnderWay.delete(id));
    filesUnderWay.set(id, pending);
  }
  // Each response its own copy: a body handed to one response is not shared with another.
  return (await pending).slice();
}

async function renderAndKeep(home: D1Database, key: RenderedFileKey, render: KeptRender): Promise<Uint8Array> {
  const files = d1RenderedFiles(home);
  const kept = await files.get(key);
  if (kept) return kept;
  const body = await render.make();
  try {
    await files.put(key, body, Date.now());
  } catch (error) {
    // Refused while the org is being erased (the write gate), or the database failing: the file is served all the same.
    log("warn", "rendered file not kept", { orgId: key.orgId, outputId: key.outputId, error: String(error) });
  }
  return body;
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
