/**
 * A deliverable's Markdown as HTML, for its page in the dashboard. The text came from an assistant, so it is
 * rendered by micromark (CommonMark with GFM: tables, task lists, strikethrough, autolinks, footnotes) with
 * its safe defaults kept: raw HTML is escaped, never passed through (`allowDangerousHtml` stays off), and a
 * link or image whose protocol is not http(s), mailto, irc(s) or xmpp loses its URL (`javascript:` included).
 * The page's CSP (no inline script without its nonce, images from this origin only) holds either way.
 */
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

/**
 * Longest content rendered as Markdown: rendering is linear but costs CPU (about 3 ms a KiB measured in Node), so a
 * longer deliverable is shown as its text, with its refs linked all the same.
 */
export const MARKDOWN_RENDER_MAX_CHARS = 200_000;

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

/** The deliverable's Markdown as HTML, its cited refs linked; raw HTML in it comes out as text. */
export function renderMarkdown(markdown: string, hrefOf: RefLink): string {
  const html = micromark(markdown, {
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
  });
  return linkRefs(markExternalLinks(html), hrefOf);
}
