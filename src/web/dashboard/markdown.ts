/**
 * A deliverable's Markdown as HTML, for its page in the dashboard. The text came from an assistant, so it is
 * rendered by micromark (CommonMark with GFM: tables, task lists, strikethrough, autolinks, footnotes) with
 * its safe defaults kept: raw HTML is escaped, never passed through (`allowDangerousHtml` stays off), and a
 * link or image whose protocol is not http(s), mailto, irc(s) or xmpp loses its URL (`javascript:` included).
 * An image is shown as its alt text: nothing is loaded from elsewhere. The page's CSP (no inline script without
 * its nonce, images from this origin only) holds either way.
 */
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import type { RenderedMarkdown } from "../../storage/rendered-outputs";
import { markdownParts } from "./markdown-parts";

/**
 * The renderer's version, part of the key a rendered deliverable is kept under (src/storage/rendered-outputs.ts):
 * raise it whenever what a text renders to changes (micromark or its options, the limits below, the link marking),
 * so every deliverable renders anew once.
 */
export const RENDERER_VERSION = 2;

/**
 * What is rendered as Markdown; anything beyond is shown as its text, refs linked all the same. A deliverable version
 * is rendered once and kept (rendered-deliverable.ts), but that one render still runs inside a request, and the
 * Worker's clock does not move while it computes, so no deadline can stop it part-way: it is bounded beforehand, by
 * these limits on what makes micromark slow. Ordinary prose costs about 3 ms a KiB (measured in Node); some shapes
 * cost far more: micromark resolves emphasis and link brackets per paragraph in time that grows with the square of
 * their number (4,000 `*_` pairs in one paragraph: 0.4 s; 50,000: over a minute), nested containers per line, and
 * every line and block has a fixed cost (50,000 short paragraphs: tens of seconds). Just inside each limit a render
 * takes about a second of CPU (measured in Node on a busy two-core machine: 2 paragraphs of 2,000 `*_` pairs, 10,000
 * lines of short paragraphs, 200,000 characters of marked-up prose: 0.4 to 1.2 s each), once per version.
 */
export const MARKDOWN_LIMITS = {
  /** Characters of the whole text. */
  chars: 200_000,
  /** Lines of the whole text, blank ones included (a 200 KB report of ordinary paragraphs has a few thousand). */
  lines: 10_000,
  /**
   * Emphasis, strikethrough, link-bracket and code-span characters (`*`, `_`, `~`, `[`, `]`, `` ` ``) in one block
   * (text between blank lines; each row of a table is a block, its cells being parsed apart)…
   */
  inlineMarkersPerBlock: 4_000,
  /**
   * …and the sum over blocks of the square of that count: what resolving them may cost (32 million: about a second).
   * Ordinary prose stays below (a 100 KB report with refs, code, emphasis and strikethrough in every sentence, 640
   * markers a paragraph: about 25 million, itself about a second to render).
   */
  inlineMarkupCost: 32_000_000,
  /** Table pipes in the whole text (the cells of every table), and on one line (the columns of a row). */
  tablePipes: 20_000,
  pipesPerLine: 64,
  /** Characters of a line's leading indentation, block quote and list markers (nesting depth). */
  linePrefixChars: 64,
  /** Bytes of rendered HTML kept for a deliverable version; Markdown whose HTML is longer is shown as its text. */
  renderedBytes: 1_000_000,
} as const;

const CONTAINER_PREFIX = /^[ \t>]*(?:(?:[*+-]|\d{1,9}[.)])[ \t]+[ \t>]*)*/;

/** A table's delimiter row (`| --- | :-: |`), read cell by cell: no pattern over the whole line to backtrack on. */
function isDelimiterRow(line: string): boolean {
  const cells = line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|");
  return cells.every((cell) => /^:?-+:?$/.test(cell.trim()));
}

type MarkdownLimits = { readonly [K in keyof typeof MARKDOWN_LIMITS]: number };

/**
 * The limits for a short text a page renders at every view, not once (a review's presentation, a question, a note):
 * a page may show several, so each stays within a few tens of milliseconds (a twentieth of the deliverable's cost).
 * Review presentations are at most 20,000 characters; past any limit the text is shown as its text.
 */
export const NOTE_LIMITS: MarkdownLimits = {
  ...MARKDOWN_LIMITS,
  chars: 20_000,
  lines: 500,
  inlineMarkersPerBlock: 1_000,
  inlineMarkupCost: 1_500_000,
  tablePipes: 2_000,
  renderedBytes: 200_000,
};

/** Why the text is shown as text rather than rendered, or null when it is rendered. */
export function tooComplexToRender(markdown: string, limits: MarkdownLimits = MARKDOWN_LIMITS): string | null {
  if (markdown.length > limits.chars) return `it is longer than ${limits.chars.toLocaleString("en")} characters`;
  const lines = markdown.split("\n");
  if (lines.length > limits.lines) return `it has more than ${limits.lines.toLocaleString("en")} lines`;
  let cost = 0;
  let block = 0;
  let pipesInAll = 0;
  let inTable = false;
  let previousHadPipe = false;
  for (const line of lines) {
    if (line.trim() === "") {
      cost += block * block;
      block = 0;
      inTable = false;
      previousHadPipe = false;
      continue;
    }
    if ((CONTAINER_PREFIX.exec(line)?.[0].length ?? 0) > limits.linePrefixChars) return "it nests block quotes or lists too deeply";
    let markers = 0;
    let pipes = 0;
    for (let i = 0; i < line.length; i++) {
      const code = line.charCodeAt(i);
      // * _ ~ [ ] ` and |
      if (code === 42 || code === 95 || code === 126 || code === 91 || code === 93 || code === 96) markers++;
      else if (code === 124) pipes++;
    }
    if (pipes > limits.pipesPerLine) return "a table row has too many columns";
    pipesInAll += pipes;
    if (pipesInAll > limits.tablePipes) return "its tables have too many cells";
    // A table starts at a delimiter row under a row with pipes; from there each row is its own block, until a line without one.
    if (!inTable && previousHadPipe && pipes > 0 && isDelimiterRow(line)) {
      cost += block * block;
      block = 0;
      inTable = true;
    } else if (inTable && pipes === 0) {
      inTable = false;
    }
    previousHadPipe = pipes > 0;
    if (inTable) {
      cost += markers * markers;
    } else {
      block += markers;
    }
    if (markers > limits.inlineMarkersPerBlock || block > limits.inlineMarkersPerBlock) {
      return "a paragraph has too much emphasis, link or code markup to render";
    }
    if (cost + block * block > limits.inlineMarkupCost) return "it has too much emphasis, link or code markup to render";
  }
  return null;
}

/** Where a cited ref (`E3`, `C2`) leads, or null to leave it as text (a ref the ledger does not hold). */
export type RefLink = (ref: string) => string | null;

/** `[E3]`, `[C2]`, `[E1, E4]`: the forms the citation check reads (domain/research/ledger.ts `citedRefsIn`). */
const REF_GROUP = /\[((?:[EC]\d{1,5})(?:\s*[,;]\s*[EC]\d{1,5})*)\]/g;
const REF = /[EC]\d{1,5}/g;

/** Elements whose text is left as it is: a ref inside a link is already a link, and code is quoted, not cited. */
const SKIPPED = /^<(\/?)(a|code|pre)[\s>]/i;

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Turns each cited ref in the text of `html` into a link. micromark encodes `<`, `>`, `&` and `"` in text and
 * attribute values alike, so every `<` in its output opens a tag and splitting on tags is exact.
 */
export function linkRefs(html: string, hrefOf: RefLink): string {
  let skipped = 0;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith("<")) {
        const tag = SKIPPED.exec(part);
        if (tag) skipped = Math.max(0, skipped + (tag[1] ? -1 : 1));
        return part;
      }
      if (skipped > 0) return part;
      return part.replace(REF_GROUP, (group: string) =>
        group.replace(REF, (ref) => {
          const href = hrefOf(ref);
          return href ? `<a class="ref" href="${escapeAttribute(href)}">${ref}</a>` : ref;
        }),
      );
    })
    .join("");
}

/** Links to other sites open no window relation and pass no ranking: they are the assistant's, not this deployment's. */
function markExternalLinks(html: string): string {
  return html.replace(/<a href="(https?:[^"]*)"/g, '<a href="$1" rel="nofollow noopener noreferrer"');
}

/** micromark's image: `<img src="…" alt="…" />`, with ` title="…"` when given (attribute values encoded, so `"` ends one). */
const IMAGE = /<img src="[^"]*" alt="([^"]*)"(?: title="[^"]*")? \/>/g;

/**
 * An image in a deliverable is its alt text, never a request: a page or file that loads an image from elsewhere tells
 * that site who read it and when (a tracking pixel), and a download must be whole on its own. Cairn keeps no images.
 */
export function dropImages(html: string): string {
  return html.replace(IMAGE, (_, alt: string) => (alt ? `<span class="image-alt">[image: ${alt}]</span>` : ""));
}

/** The deliverable's Markdown as HTML, its cited refs not yet linked; raw HTML in it comes out as text, images as their alt text. */
function markdownHtml(markdown: string): string {
  const html = micromark(markdown, {
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
  });
  return markExternalLinks(dropImages(html));
}

/** The deliverable's Markdown as HTML, its cited refs linked; raw HTML in it comes out as text. */
export function renderMarkdown(markdown: string, hrefOf: RefLink): string {
  return linkRefs(markdownHtml(markdown), hrefOf);
}

/**
 * A short text an assistant wrote for a person (a review's presentation, a question, a note) as HTML, rendered like a
 * deliverable (raw HTML escaped, unsafe link protocols dropped) within NOTE_LIMITS; null when it is shown as its text.
 */
export function renderNote(markdown: string): string | null {
  if (tooComplexToRender(markdown, NOTE_LIMITS) !== null) return null;
  const html = markdownHtml(markdown);
  return html.length > NOTE_LIMITS.renderedBytes ? null : html;
}

/**
 * What a deliverable version's page shows of its Markdown, the part worth keeping: its HTML (refs linked at each view,
 * since the plan's ledger may gain sources later), or, past a limit, that it is shown as its text and why.
 */
export function renderForPage(markdown: string): RenderedMarkdown {
  const tooComplex = tooComplexToRender(markdown);
  if (tooComplex !== null) return { kind: "text", note: tooComplex };
  return pageOf(markdownHtml(markdown));
}

/** Markdown characters rendered between two pauses of `renderForPageInParts` (about 6 ms of a quiet machine's CPU). */
export const RENDER_PART_CHARS = 2_000;

/**
 * `renderForPage`'s result, rendered part by part (markdown-parts.ts: the same HTML) with `pause` awaited between
 * parts, so a long deliverable's first render lets other requests on the instance run while it is made.
 */
export async function renderForPageInParts(markdown: string, pause: () => Promise<void>): Promise<RenderedMarkdown> {
  const tooComplex = tooComplexToRender(markdown);
  if (tooComplex !== null) return { kind: "text", note: tooComplex };
  let html = "";
  for (const [index, part] of markdownParts(markdown, RENDER_PART_CHARS).entries()) {
    if (index > 0) await pause();
    html += markdownHtml(part);
  }
  return pageOf(html);
}

function pageOf(html: string): RenderedMarkdown {
  if (new TextEncoder().encode(html).byteLength > MARKDOWN_LIMITS.renderedBytes) {
    return { kind: "text", note: `its HTML would be longer than ${MARKDOWN_LIMITS.renderedBytes.toLocaleString("en")} bytes` };
  }
  return { kind: "html", html };
}
