import { decodeEntities } from "../../domain/research/extraction/text";
import { pageEncoding } from "../../domain/sources/charset";
import { pageReader } from "../html/page-reader";
import type { ReadableKind } from "../../domain/sources/verification";

export interface PageText {
  /** What a reader sees, whitespace collapsed within lines, paragraphs on their own lines. */
  text: string;
  title: string | null;
}

/**
 * Elements whose start begins a new line of text (so words of two blocks never glue together). A selector, so only
 * these elements call into JavaScript for it.
 */
const BLOCKS = "p, div, br, li, dt, dd, tr, td, th, h1, h2, h3, h4, h5, h6, section, article, header, footer, main, nav, aside, blockquote, pre, figcaption, table, ul, ol, hr";

/** Collapses spaces within lines and blank runs between them. */
export function tidyText(raw: string): string {
  return raw
    .split(/\n/)
    .map((line) => line.replace(/[\s\u00a0]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * The visible text of an HTML page, read by the one page reader (src/platform/html/page-reader.ts: what it leaves
 * out, and its bounds), the title returned apart. An element hidden without an end tag hides only what its parser
 * closes; text is decoded once whole. A page the reader stops on part-way is not read at all (`unchecked`, with the
 * reader's reason): a source check cannot mark a verdict as resting on part of the page, and "not found" on part of
 * it would claim what nobody read.
 */
export async function visibleHtmlText(html: string): Promise<PageText | { unchecked: string }> {
  let raw = "";
  let title = "";
  let titles = 0;
  const { state, read } = pageReader();
  const reading = await read(html, (rewriter) =>
    rewriter
      .on("title", {
        element(element) {
          // Counted while open, so its text is the title's and not the page's (an unclosed title runs to the end).
          if (state.onEnd(element, () => titles--)) titles++;
        },
        text(chunk) {
          title += chunk.text;
        },
      })
      .onDocument({
        text(chunk) {
          if (state.hidden === 0 && titles === 0 && chunk.text !== "") raw += chunk.text;
        },
      })
      .on(BLOCKS, {
        element() {
          if (state.hidden === 0) raw += "\n";
        },
      }),
  );
  if (reading.stopped !== null) return { unchecked: reading.stopped };
  const pageTitle = tidyText(decodeEntities(title)).replace(/\n/g, " ");
  return { text: tidyText(decodeEntities(raw)), title: pageTitle || null };
}

/** Every string of a JSON document, one a line (keys left out): the words a reader of the data sees. */
function jsonText(source: string): string {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return source; // cut short or not JSON after all: searched as written
  }
  const lines: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === "string") lines.push(node);
    else if (typeof node === "number" || typeof node === "boolean") lines.push(String(node));
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") Object.values(node).forEach(walk);
  };
  walk(value);
  return lines.join("\n");
}

/** The runtime's name for an encoding label (its WHATWG label table), or null for one it does not know. */
function knownEncoding(label: string): string | null {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}

/**
 * Decodes a body by the WHATWG rule (src/domain/sources/charset.ts): a BOM, the Content-Type charset, for HTML a
 * `<meta>` among the first 1,024 bytes, else UTF-8. Malformed bytes become U+FFFD, never an error.
 */
export function decodeBody(body: Uint8Array, contentType: string | null, html = false): string {
  const { encoding } = pageEncoding(body, contentType, html, knownEncoding);
  return new TextDecoder(encoding).decode(body);
}

/** Markdown as a reader of the rendered page sees it: no emphasis marks, heading hashes, link targets or code ticks. */
export function markdownText(source: string): string {
  return source
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s{0,3}#{1,6}\s+/gm, "")
    .replace(/^\s{0,3}>\s?/gm, "")
    .replace(/(\*\*|__|\*|_|`)(?=\S)([^\n]*?\S)\1/g, "$2");
}

/**
 * The text of a fetched body of a kind Cairn reads, or why it cannot be read (a PDF without a text layer, one
 * PDF.js cannot parse, an HTML page past the reader's bounds). Never throws on what the body holds.
 * `truncated`: only the first bytes were read.
 */
export async function readPage(kind: ReadableKind, body: Uint8Array, contentType: string | null, truncated = false): Promise<PageText | { unchecked: string }> {
  if (kind === "pdf") return (await import("./pdf-text")).pdfText(body, truncated);
  return pageText(kind, decodeBody(body, contentType, kind === "html"));
}

export async function pageText(kind: Exclude<ReadableKind, "pdf">, source: string): Promise<PageText | { unchecked: string }> {
  if (kind === "html") return visibleHtmlText(source);
  if (kind === "json") return { text: tidyText(jsonText(source)), title: null };
  // Markdown and plain text are read as written; a Markdown page's first heading is its title.
  const heading = kind === "markdown" ? /^\s{0,3}#\s+(.+)$/m.exec(source)?.[1]?.trim() : undefined;
  return { text: tidyText(kind === "markdown" ? markdownText(source) : source), title: heading ? markdownText(heading) : null };
}
