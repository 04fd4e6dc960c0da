import { ExtractionCollector } from "./collector";
import { EXTRACTION_LIMITS, type ExtractOptions, type Extraction } from "./model";
import { clip, collapseWhitespace, decodeEntities } from "./text";

/** Extraction from markdown and plain text (pure string work; HTML is the platform's, behind the port). */

const BARE_URL = /\bhttps?:\/\/[^\s<>"'`\\]+/g;

/** A bare URL without the punctuation that usually follows it in prose. */
function trimUrl(url: string): string {
  let end = url.length;
  for (;;) {
    const last = url[end - 1];
    if (last === undefined) break;
    if (".,;:!?*_~'\"".includes(last)) end--;
    else if (last === ")" || last === "]") {
      const open = last === ")" ? "(" : "[";
      const body = url.slice(0, end);
      if (body.split(open).length < body.split(last).length) end--;
      else break;
    } else break;
  }
  return url.slice(0, end);
}

/** Bare http(s) URLs in plain text, as links whose text is the URL as written. */
export function extractText(text: string, options: ExtractOptions): Extraction {
  const out = new ExtractionCollector(options.kinds, options.baseUrl);
  if (!out.wants("links")) return out.result();
  for (const match of text.matchAll(BARE_URL)) {
    const url = trimUrl(match[0]);
    out.addLink(url, out.text(url, EXTRACTION_LIMITS.linkTextChars, false));
  }
  return out.result();
}

/** Link text in brackets: nested brackets one level deep (an image inside a link) and escapes allowed. */
const LINK_TEXT = String.raw`((?:[^\[\]\\\n]|\\.|\[(?:[^\[\]\\\n]|\\.)*\])*)`;
/** A destination: <…>, or without spaces and with balanced parentheses one level deep; an optional title. */
const LINK_DEST = String.raw`\(\s*(?:<([^<>\n]*)>|((?:[^\s()<>\\]|\\.|\((?:[^\s()\\]|\\.)*\))+))(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*\)`;
const INLINE_LINK = new RegExp(String.raw`(!?)\[${LINK_TEXT}\]${LINK_DEST}`, "g");
const ANY_LINK = new RegExp(String.raw`!?\[${LINK_TEXT}\](?:${LINK_DEST}|\[[^\[\]\n]*\])`, "g");
const REFERENCE_LINK = new RegExp(String.raw`(!?)\[${LINK_TEXT}\]\[([^\[\]\n]*)\]`, "g");
const AUTOLINK = /<((?:https?|mailto):[^\s<>]+)>/gi;
const REFERENCE_DEFINITION = /^ {0,3}\[([^\]\n]+)\]:\s*<?([^\s>]+)>?(?:\s+.*)?$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/**
 * Inline markdown as plain text, clipped to `max`. The source is cut first (with
 * room for markup), so the inline patterns never run over an unbounded string.
 */
function inlineText(out: ExtractionCollector, raw: string, max: number): string {
  const room = max * 4 + 64;
  if (raw.length > room) out.truncated = true;
  return out.text(markdownInlineText(clip(raw, room)), max, false);
}

const normalizeLabel = (label: string) => collapseWhitespace(label).toLowerCase();

/** Inline markdown reduced to its text: images to their alt text, links to their text, emphasis and code marks dropped. */
export function markdownInlineText(source: string): string {
  return decodeEntities(
    source
      .replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_whole, _ticks, code: string) => code.replace(/[\\*_~[\]()<>!#]/g, (c) => `\\${c}`))
      .replace(ANY_LINK, (_whole, text: string) => text)
      .replace(/!?\[((?:[^[\]\\\n]|\\.)*)\](?:\([^)\n]*\)|\[[^\]\n]*\])/g, "$1")
      .replace(/<br\s*\/?>/gi, " ")
      .replace(/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g, "")
      .replace(/(?<!\\)(\*\*|__)(?=\S)([\s\S]*?[^\s\\])\1/g, "$2")
      .replace(/(?<!\\)(\*|_)(?=\S)([\s\S]*?[^\s\\])\1(?![A-Za-z0-9])/g, "$2")
      .replace(/(?<!\\)~~(?=\S)([\s\S]*?[^\s\\])~~/g, "$1")
      .replace(/\\([!-/:-@[-`{-~])/g, "$1"),
  );
}

/** Cells of one pipe-table row: outer pipes dropped, `\|` kept as a literal pipe. */
function splitRow(line: string): string[] {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  const cells: string[] = [];
  let current = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char === "\\" && body[i + 1] === "|") {
      current += "|";
      i++;
    } else if (char === "|") {
      cells.push(current);
      current = "";
    } else current += char;
  }
  cells.push(current);
  return cells;
}

const hasPipe = (line: string) => /(^|[^\\])\|/.test(line);

/**
 * Pipe tables, ATX and setext headings and links (inline, reference, autolinks
 * and bare URLs) of markdown. Fenced code is skipped; metadata stays empty.
 */
export function extractMarkdown(markdown: string, options: ExtractOptions): Extraction {
  const out = new ExtractionCollector(options.kinds, options.baseUrl);
  const lines = markdown.split(/\r\n|\r|\n/);
  const prose: string[] = [];
  const definitions = new Map<string, string>();
  let fence: string | null = null;
  // Lines of prose, with code blocks and reference definitions taken out.
  for (const line of lines) {
    const opening = FENCE.exec(line);
    if (fence !== null) {
      // A closing fence: the same character, at least as long, and nothing after it.
      const marker = opening?.[1];
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      prose.push("");
      continue;
    }
    if (opening?.[1]) {
      fence = opening[1];
      prose.push("");
      continue;
    }
    const definition = REFERENCE_DEFINITION.exec(line);
    if (definition?.[1] && definition[2]) {
      const label = normalizeLabel(definition[1]);
      if (!definitions.has(label)) definitions.set(label, definition[2]);
      prose.push("");
      continue;
    }
    prose.push(line);
  }

  let previousParagraph: string | null = null;
  for (let i = 0; i < prose.length; i++) {
    const line = prose[i] ?? "";
    const next = prose[i + 1];
    if (hasPipe(line) && next !== undefined && TABLE_DELIMITER.test(next) && next.includes("-")) {
      const header = splitRow(line);
      const width = splitRow(next).length;
      if (width === header.length) {
        const wanted = out.accepts("tables");
        const columns = Math.min(width, EXTRACTION_LIMITS.cellsPerRow);
        if (width > columns && wanted) out.truncated = true;
        const rows: string[][] = [header.slice(0, columns)];
        scanLinks(line, out, definitions);
        let j = i + 2;
        for (; j < prose.length; j++) {
          const row = prose[j] ?? "";
          // As in GFM, a row needs no pipe: the table ends at a blank line or where another block starts.
          if (row.trim() === "" || /^ {0,3}(#{1,6}(\s|$)|>)/.test(row)) break;
          scanLinks(row, out, definitions);
          if (!wanted) continue;
          if (rows.length >= EXTRACTION_LIMITS.rowsPerTable) {
            out.truncated = true;
            continue;
          }
          const cells = splitRow(row);
          rows.push(Array.from({ length: columns }, (_, k) => cells[k] ?? ""));
        }
        if (wanted) out.addTable(rows.map((row) => row.map((cell) => inlineText(out, cell, EXTRACTION_LIMITS.cellChars))), 1);
        i = j - 1;
        previousParagraph = null;
        continue;
      }
    }
    const atx = ATX_HEADING.exec(line);
    if (atx?.[1]) {
      const text = (atx[2] ?? "").replace(/(^|[ \t]+)#+$/, "");
      scanLinks(text, out, definitions);
      if (out.accepts("headings")) out.addHeading(atx[1].length, inlineText(out, text, EXTRACTION_LIMITS.headingChars));
      previousParagraph = null;
      continue;
    }
    const underline = SETEXT_UNDERLINE.exec(line);
    if (underline?.[1] && previousParagraph !== null) {
      if (out.accepts("headings")) out.addHeading(underline[1].startsWith("=") ? 1 : 2, inlineText(out, previousParagraph, EXTRACTION_LIMITS.headingChars));
      previousParagraph = null;
      continue;
    }
    scanLinks(line, out, definitions);
    // A setext underline turns only a plain paragraph line into a heading (not a list item, quote or indented code).
    previousParagraph = line.trim() !== "" && !/^ {0,3}([-*+>]|\d+[.)])(\s|$)|^( {4}|\t)/.test(line) ? line : null;
  }
  return out.result();
}

/** Every link of one line of markdown, in order of appearance. */
function scanLinks(line: string, out: ExtractionCollector, definitions: ReadonlyMap<string, string>): void {
  if (!out.wants("links") || line === "" || !/\]|https?:\/\/|mailto:/i.test(line)) return;
  if (!out.accepts("links")) return;
  // Code spans are not links: blank them (same length, so offsets stay).
  let rest = line.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (code) => " ".repeat(code.length));
  const found: { at: number; href: string; text: string }[] = [];
  const take = (pattern: RegExp, toLink: (match: RegExpExecArray) => { href: string; text: string } | null) => {
    for (const match of rest.matchAll(pattern)) {
      const link = toLink(match as RegExpExecArray);
      if (link) found.push({ at: match.index ?? 0, ...link });
    }
    rest = rest.replace(pattern, (whole) => " ".repeat(whole.length));
  };
  const linkText = (raw: string) => inlineText(out, raw, EXTRACTION_LIMITS.linkTextChars);
  take(INLINE_LINK, (m) => (m[1] ? null : { href: (m[3] ?? m[4] ?? "").replace(/\\(.)/g, "$1"), text: linkText(m[2] ?? "") }));
  take(REFERENCE_LINK, (m) => {
    if (m[1]) return null;
    const href = definitions.get(normalizeLabel(m[3] || m[2] || ""));
    return href ? { href, text: linkText(m[2] ?? "") } : null;
  });
  take(AUTOLINK, (m) => ({ href: m[1] ?? "", text: linkText(m[1] ?? "") }));
  take(BARE_URL, (m) => {
    const url = trimUrl(m[0]);
    return { href: url, text: linkText(url) };
  });
  found.sort((a, b) => a.at - b.at);
  for (const link of found) out.addLink(link.href, link.text);
}
