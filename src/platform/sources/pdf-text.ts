/**
 * The text layer of a PDF, with unpdf (PDF.js built for serverless runtimes). Loaded only when a PDF is
 * read (a dynamic import: PDF.js is most of the Worker's code, and no other request needs it).
 * Measured on workerd: see bench/README.md ("PDF sources").
 */
import { pdfExpansion } from "../../domain/sources/pdf-expansion";
import { SNAPSHOT_MAX_CHARS } from "../../domain/sources/snapshot";
import { type PageText, tidyText } from "./visible-text";

export const PDF_LIMITS = {
  /** Pages read; a longer document is read over its first this many (the check runs on what was). */
  maxPages: 150,
  /** Characters kept, as many as the quote check searches. */
  maxChars: SNAPSHOT_MAX_CHARS,
  /**
   * Bytes the file's streams may expand to (PDF.js keeps what it decodes in memory; a Worker has 128 MB):
   * a larger expansion, usually a decompression bomb, is not given to PDF.js.
   */
  maxExpandedBytes: 32 * 1024 * 1024,
} as const;

/** Why a PDF's text could not be read: Cairn's words, not PDF.js's. */
const NO_TEXT_LAYER = "PDF has no text layer (scanned or image-only pages): its text cannot be read without OCR";

/** What PDF.js said, in a bounded, stable form (no stack, no internal details beyond its error class). */
function failure(error: unknown, truncated: boolean): string {
  const name = error instanceof Error ? error.name : "";
  const why = name === "PasswordException" ? "it needs a password" : name === "InvalidPDFException" ? "it is not a valid PDF" : "it is damaged or uses features PDF.js cannot parse";
  return `PDF could not be read: ${why}${truncated ? " (only the first 2 MiB of the file were read)" : ""}`;
}

/**
 * The text of each page (up to PDF_LIMITS.maxPages), one line per line of the page, and the document's
 * title from its metadata; or, as `unchecked`, why the PDF's text cannot be read.
 */
export async function pdfText(body: Uint8Array, truncated = false): Promise<PageText | { unchecked: string }> {
  const expansion = await pdfExpansion(body, PDF_LIMITS.maxExpandedBytes);
  if ("encrypted" in expansion) return { unchecked: "PDF is encrypted: Cairn does not read encrypted PDFs" };
  if ("unmeasured" in expansion) return { unchecked: `PDF not read: ${expansion.unmeasured}, so how far it expands when decompressed is not known` };
  if (expansion.bytes > PDF_LIMITS.maxExpandedBytes) return { unchecked: `PDF expands beyond ${PDF_LIMITS.maxExpandedBytes / 1024 / 1024} MiB when decompressed: not read` };
  const { getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: PDF.js takes ownership of (detaches) the buffer it is given. Verbosity 0: its warnings (fonts it does
    // not load, which text extraction does not need) are not Cairn's log.
    pdf = await getDocumentProxy(body.slice(), { stopAtErrors: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  } catch (error) {
    return { unchecked: failure(error, truncated) };
  }
  try {
    const pages = Math.min(pdf.numPages, PDF_LIMITS.maxPages);
    let raw = "";
    for (let n = 1; n <= pages && raw.length < PDF_LIMITS.maxChars; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items) {
        if ("str" in item) raw += item.str + (item.hasEOL ? "\n" : "");
      }
      raw += "\n";
      page.cleanup();
    }
    const text = tidyText(raw.slice(0, PDF_LIMITS.maxChars));
    if (!text) return { unchecked: NO_TEXT_LAYER };
    const info = ((await pdf.getMetadata().catch(() => null))?.info ?? {}) as { Title?: unknown };
    const title = typeof info.Title === "string" ? tidyText(info.Title).replace(/\n/g, " ").slice(0, 500) : "";
    return { text, title: title || null };
  } catch (error) {
    return { unchecked: failure(error, truncated) };
  } finally {
    await pdf.loadingTask.destroy().catch(() => undefined);
  }
}
