import { decodeEntities } from "../../domain/research/extraction/text";
import type { ReadableKind } from "../../domain/sources/verification";

export interface PageText {
  /** What a reader sees, whitespace collapsed within lines, paragraphs on their own lines. */
  text: string;
  title: string | null;
}

/** Elements whose content a reader does not see. */
const HIDDEN = 'head, script, style, noscript, template, textarea, [hidden], [aria-hidden="true"]';
/** Elements whose start begins a new line of text (so words of two blocks never glue together). */
const BLOCKS = "p, div, br, li, dt, dd, tr, td, th, h1, h2, h3, h4, h5, h6, section, article, header, footer, main, nav, aside, blockquote, pre, figcaption, table, ul, ol, hr";
/** Handler calls one document may cause: bounds the time a page of a million tiny elements takes. */
const MAX_HANDLER_CALLS = 200_000;

class BudgetSpent extends Error {}

/** Collapses spaces within lines and blank runs between them. */
export function tidyText(raw: string): string {
  return raw
    .split(/\n/)
    .map((line) => line.replace(/[\s\u00a0]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * The visible text of an HTML page with the runtime's HTMLRewriter: not scripts, styles, comments,
 * templates, noscript, hidden or aria-hidden elements, nor the head (its title is returned apart).
 * An element hidden without an end tag hides only what its parser closes; text is decoded once whole.
 */
export async function visibleHtmlText(html: string): Promise<PageText> {
  let raw = "";
  let title = "";
  let hidden = 0;
  let inTitle = false;
  let calls = 0;
  const tick = () => {
    if (++calls > MAX_HANDLER_CALLS) throw new BudgetSpent();
  };
  const rewriter = new HTMLRewriter()
    .on(HIDDEN, {
      element(element) {
        tick();
        try {
          element.onEndTag(() => {
            hidden--;
          });
          hidden++;
        } catch {
          // A void element hides nothing but itself.
        }
      },
    })
    .on("title", {
      element(element) {
        tick();
        inTitle = true;
        try {
          element.onEndTag(() => {
            inTitle = false;
          });
        } catch {
          inTitle = false;
        }
      },
      text(chunk) {
        tick();
        if (inTitle) title += chunk.text;
      },
    })
    .on(BLOCKS, {
      element() {
        tick();
        if (hidden === 0) raw += "\n";
      },
    })
    .onDocument({
      text(chunk) {
        tick();
        if (hidden === 0 && chunk.text !== "") raw += chunk.text;
      },
    });
  try {
    await rewriter.transform(new Response(html)).arrayBuffer();
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
  }
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

/** Decodes a body in its declared charset (UTF-8 when none, or one the runtime does not know). */
export function decodeBody(body: Uint8Array, contentType: string | null): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
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
 * The text of a fetched body of a kind Cairn reads, or why it cannot be read (a PDF without a text layer,
 * or one PDF.js cannot parse). `truncated`: only the first bytes were read.
 */
export async function readPage(kind: ReadableKind, body: Uint8Array, contentType: string | null, truncated = false): Promise<PageText | { unchecked: string }> {
  if (kind === "pdf") return (await import("./pdf-text")).pdfText(body, truncated);
  return pageText(kind, decodeBody(body, contentType));
}

export async function pageText(kind: Exclude<ReadableKind, "pdf">, source: string): Promise<PageText> {
  if (kind === "html") return visibleHtmlText(source);
  if (kind === "json") return { text: tidyText(jsonText(source)), title: null };
  // Markdown and plain text are read as written; a Markdown page's first heading is its title.
  const heading = kind === "markdown" ? /^\s{0,3}#\s+(.+)$/m.exec(source)?.[1]?.trim() : undefined;
  return { text: tidyText(kind === "markdown" ? markdownText(source) : source), title: heading ? markdownText(heading) : null };
}
