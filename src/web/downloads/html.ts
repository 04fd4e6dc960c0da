/**
 * A deliverable as one standalone HTML file: everything inline (its own CSS, no script, no font, no image or
 * stylesheet from anywhere: its CSP says so too), its Markdown rendered by the dashboard's renderer (raw HTML
 * escaped, unsafe link protocols emptied, bounded beforehand), each cited [E#] linked to its entry in the sources
 * section at the end (titled by sourcesSectionOf), and a print stylesheet so the browser's "Save as PDF" gives a clean document.
 */
import { checkedText, type DownloadSource, sourcesSectionOf, sourceStatusText } from "../../domain/research/downloads";
import type { ResearchOutput } from "../../domain/research/outputs";
import type { RenderedMarkdown } from "../../storage/rendered-outputs";
import { linkRefs } from "../dashboard/markdown";

export const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** A source's anchor in the file. */
const anchorOf = (ref: string) => `source-${ref}`;

/**
 * The rendered Markdown with each cited ref the sources list (E3 in `[E3]`, outside code and links) linked to its
 * entry, `#source-E3`: the HTML file's anchors, and the DOCX's internal links (docx.ts maps them to its bookmarks).
 */
export function linkCitedRefs(html: string, sources: readonly DownloadSource[]): string {
  const listed = new Set(sources.flatMap((s) => (s.ref ? [s.ref] : [])));
  return linkRefs(html, (ref) => (listed.has(ref) ? `#${anchorOf(ref)}` : null));
}

/** The ref a `#source-E3` link of linkCitedRefs leads to, or null for any other link. */
export const citedRefOfHref = (href: string): string | null => /^#source-([EC]\d{1,5})$/.exec(href)?.[1] ?? null;

const STYLE = `
:root { color-scheme: light; }
body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
h1, h2, h3, h4 { line-height: 1.25; }
a { color: #0b57d0; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
pre { background: #f4f5f7; padding: 0.75rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
blockquote { margin: 1rem 0; padding: 0 1rem; border-left: 3px solid #c8ccd2; color: #444b55; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #c8ccd2; padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
img { max-width: 100%; }
.meta, .note { color: #5b636e; font-size: 0.9rem; }
.sources li { margin: 0.4rem 0; overflow-wrap: anywhere; }
.status { font-weight: 600; }
.status-verified { color: #17663a; }
.status-partial, .status-pending { color: #8a5a00; }
.status-not_found, .status-unreachable { color: #b3261e; }
@page { margin: 2cm; }
@media print {
  body { font-size: 11pt; max-width: none; margin: 0; padding: 0; color: #000; }
  a { color: inherit; text-decoration: none; }
  .deliverable a[href^="http"]::after { content: " (" attr(href) ")"; font-size: 0.85em; }
  pre { background: none; border: 1px solid #999; }
  h1, h2, h3, h4 { break-after: avoid; page-break-after: avoid; }
  pre, blockquote, tr, img, .sources li { break-inside: avoid; page-break-inside: avoid; }
  thead { display: table-header-group; }
}
`;

/** The CSP of the file itself: its inline style and nothing else; not even images (a download makes no request). */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

function sourceItem(source: DownloadSource): string {
  const id = source.ref ? ` id="${anchorOf(source.ref)}"` : "";
  const ref = source.ref ? `<strong>[${escapeHtml(source.ref)}]</strong> ` : "";
  const url = source.url && /^https?:\/\//i.test(source.url) ? ` — <a href="${escapeHtml(source.url)}" rel="noopener noreferrer nofollow">${escapeHtml(source.url)}</a>` : source.url ? ` — ${escapeHtml(source.url)}` : "";
  const status = source.verification?.status ?? "unchecked";
  return `<li${id}>${ref}${escapeHtml(source.title)}${url}<br><span class="status status-${status}">${escapeHtml(sourceStatusText(source.verification))}</span>, <span class="checked">${escapeHtml(checkedText(source.verification))}</span></li>`;
}

/** The deliverable's body: rendered Markdown, or its text as it is (another media type, or Markdown past the renderer's limits). */
function bodyOf(output: Pick<ResearchOutput, "mediaType" | "content">, rendered: RenderedMarkdown | null, sources: readonly DownloadSource[]): string {
  if (output.mediaType === "markdown" && rendered?.kind === "html") return `<main class="deliverable">${linkCitedRefs(rendered.html, sources)}</main>`;
  const note = rendered?.kind === "text" ? `<p class="note">This Markdown is too complex to format, so it is given as its text: ${escapeHtml(rendered.note)}.</p>` : "";
  return `${note}<main class="deliverable"><pre>${escapeHtml(output.content)}</pre></main>`;
}

/**
 * The whole file. `rendered` is what the Markdown rendered to (markdown.ts `renderForPage`, kept per version by
 * rendered-deliverable.ts), or null for another media type; `downloadedAt` is when the file was made (its sources'
 * status is as of then).
 */
export function standaloneHtml(
  output: Pick<ResearchOutput, "title" | "mediaType" | "content" | "version" | "updatedAt">,
  rendered: RenderedMarkdown | null,
  sources: readonly DownloadSource[],
  downloadedAt: number,
): string {
  const updated = new Date(output.updatedAt).toISOString().slice(0, 10);
  const made = new Date(downloadedAt).toISOString().slice(0, 16).replace("T", " ");
  const section = sourcesSectionOf(output);
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(output.title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head><body>",
    `<header><p class="meta">${escapeHtml(output.title)} · version ${output.version}, updated ${updated} · downloaded from Cairn ${made} UTC</p></header>`,
    bodyOf(output, rendered, sources),
    `<section class="sources" id="sources"><h2>${escapeHtml(section.title)}</h2>`,
    sources.length ? `<ol>${sources.map(sourceItem).join("")}</ol>` : `<p>${escapeHtml(section.none)}</p>`,
    `<p class="note">Each status is what Cairn found when it last read the page: whether the quoted words are on it, not whether the page is right.</p>`,
    "</section></body></html>",
  ].join("\n");
}
