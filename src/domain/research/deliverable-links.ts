/**
 * The web addresses a Markdown deliverable links, and those among them that are not sources in the plan's ledger:
 * a report that links a page nobody recorded (and Cairn never read) cites a source no check stands behind.
 *
 * Linked means what a reader of the rendered deliverable sees as a link to a web page: inline links and images
 * `[text](url)`, reference definitions `[id]: url`, autolinks `<https://…>`, and bare addresses `https://…` and
 * `www.…` (trailing punctuation trimmed as GFM's autolinks trim it). Text in code (fenced or indented blocks, code
 * spans) is not a link. Only http and https count: `mailto:`, other schemes and relative links are not sources.
 *
 * Pure, and linear in the content: every character is looked at a bounded number of times (no backtracking
 * pattern, no parser whose link resolution can go quadratic on a hostile text).
 */

/** Unlisted links named in a report; the problem's text names fewer (an error stays readable). */
export const LINK_LIMITS = { reported: 20, named: 10, shownChars: 300 } as const;

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})/;
const BLOCKQUOTE = /^(?: {0,3}> ?)+/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const BLANK = /^[ \t]*$/;
const INDENTED = /^(?: {4}|\t)/;

/**
 * The content's text outside code, as paragraphs (code spans, links and bare addresses never cross a blank line).
 * Fenced blocks (any indentation, inside block quotes too; an unclosed fence runs to the end, as CommonMark reads
 * it) and indented code outside lists are left out.
 */
function paragraphsOutsideCode(content: string): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  let fence: { char: string; length: number } | null = null;
  let previousBlank = true;
  let inList = false;
  const close = () => {
    if (current.length) paragraphs.push(current.join("\n"));
    current = [];
  };
  for (const raw of content.split(/\r?\n|\r/)) {
    const line = raw.replace(BLOCKQUOTE, "");
    if (fence) {
      const trimmed = line.trim();
      if (trimmed.length >= fence.length && trimmed === fence.char.repeat(trimmed.length)) fence = null;
      continue;
    }
    const opening = FENCE_OPEN.exec(line);
    // A backtick fence's info string has no backtick (else the line is text with code spans).
    if (opening && !(opening[1]?.startsWith("`") && line.includes("`", opening[0].length))) {
      close();
      const run = opening[1] as string;
      fence = { char: run[0] as string, length: run.length };
      previousBlank = true;
      continue;
    }
    if (BLANK.test(line)) {
      close();
      previousBlank = true;
      continue;
    }
    if (LIST_ITEM.test(line)) inList = true;
    else if (previousBlank && !INDENTED.test(line) && !/^[ \t]/.test(line)) inList = false;
    // An indented line after a blank line, outside a list, is code (as is the rest of its block).
    if (INDENTED.test(line) && previousBlank && !inList && current.length === 0) continue;
    previousBlank = false;
    current.push(line);
  }
  close();
  return paragraphs;
}

/**
 * The paragraph with its code spans blanked. A run of n backticks opens a span closed by the next run of exactly n;
 * with none, the run is literal. Each length's runs are visited once through a cursor that only moves forward.
 */
function withoutCodeSpans(paragraph: string): string {
  if (!paragraph.includes("`")) return paragraph;
  const runs: { start: number; end: number }[] = [];
  for (const match of paragraph.matchAll(/`+/g)) {
    let start = match.index;
    const end = start + match[0].length;
    if (start > 0 && paragraph[start - 1] === "\\") start += 1; // an escaped backtick is literal
    if (end > start) runs.push({ start, end });
  }
  const byLength = new Map<number, number[]>();
  runs.forEach((run, i) => {
    const length = run.end - run.start;
    const list = byLength.get(length);
    if (list) list.push(i);
    else byLength.set(length, [i]);
  });
  const cursor = new Map<number, number>();
  const pieces: string[] = [];
  let written = 0;
  let i = 0;
  while (i < runs.length) {
    const run = runs[i] as { start: number; end: number };
    const length = run.end - run.start;
    const list = byLength.get(length) as number[];
    let at = cursor.get(length) ?? 0;
    while (at < list.length && (list[at] as number) <= i) at++;
    cursor.set(length, at);
    const closing = at < list.length ? (list[at] as number) : -1;
    if (closing < 0) {
      i++;
      continue;
    }
    pieces.push(paragraph.slice(written, run.start), " ");
    written = (runs[closing] as { end: number }).end;
    i = closing + 1;
  }
  pieces.push(paragraph.slice(written));
  return pieces.join("");
}

const START = /https?:\/\/|www\./gi;
const WHITESPACE = /\s/;
/** GFM's trailing punctuation: not part of a bare address when it ends one. */
const TRAILING = new Set(["?", "!", ".", ",", ":", "*", "_", "~", '"', "'", "]"]);
const ESCAPABLE = /\\([!-/:-@[-`{-~])/g;

const readDestination = (destination: string) => destination.replace(ESCAPABLE, "$1").replaceAll("&amp;", "&");

/** What precedes an address: `](` (an inline link or image), `]:` (a definition), `<` (an autolink), or text. */
function contextAt(text: string, at: number): "destination" | "definition" | "autolink" | "text" {
  if (text[at - 1] === "<") return "autolink";
  let back = at - 1;
  while (back >= 0 && (text[back] === " " || text[back] === "\t")) back--;
  if (text[back] === "\n") back--;
  while (back >= 0 && (text[back] === " " || text[back] === "\t")) back--;
  if (text[back] === "(" && text[back - 1] === "]") return "destination";
  if (text[back] === ":" && text[back - 1] === "]") return "definition";
  return "text";
}

/** The first position from `at` whose character `stop` matches (or the end). */
function wordEnd(text: string, at: number, stop: RegExp): number {
  let end = at;
  while (end < text.length && !stop.test(text[end] as string)) end++;
  return end;
}

/** An inline link's destination from `at`: to whitespace or the `)` that closes the link (parentheses balance). */
function destinationEnd(text: string, at: number): number {
  let depth = 0;
  let i = at;
  for (; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\\") {
      i++;
      continue;
    }
    if (WHITESPACE.test(c) || c === "<") break;
    if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) break;
      depth--;
    }
  }
  return Math.min(i, text.length);
}

/** Where a bare address in Markdown ends: whitespace, `<` or `>` (and a `](`/`][`, tested apart). */
const MARKDOWN_STOP = /[\s<>]/;

/**
 * A bare address from `at`: to a `stop` character (in Markdown also a `](`/`][`), then GFM's trailing punctuation
 * trimmed.
 */
function bareEnd(text: string, at: number, stop: RegExp = MARKDOWN_STOP): number {
  let end = at;
  let open = 0;
  let closed = 0;
  for (; end < text.length; end++) {
    const c = text[end] as string;
    if (stop.test(c)) break;
    if (stop === MARKDOWN_STOP && c === "]" && (text[end + 1] === "(" || text[end + 1] === "[")) break;
    if (c === "(") open++;
    else if (c === ")") closed++;
  }
  while (end > at) {
    const c = text[end - 1] as string;
    if (TRAILING.has(c)) end--;
    else if (c === ")" && closed > open) {
      end--;
      closed--;
    } else if (c === ";") {
      // `&amp;` and the like at the end are a character reference, not part of the address.
      const entity = /&[a-zA-Z]+;$/.exec(text.slice(Math.max(at, end - 34), end));
      if (!entity) break;
      end -= entity[0].length;
    } else break;
  }
  return end;
}

/** The named references an address can be spelled with in HTML (the ASCII punctuation of URLs), and the quotes and brackets that end one. */
const NAMED_REFERENCES: Record<string, string> = {
  amp: "&", colon: ":", sol: "/", period: ".", quest: "?", equals: "=", num: "#", percnt: "%", lpar: "(", rpar: ")",
  commat: "@", plus: "+", comma: ",", semi: ";", excl: "!", dollar: "$", lowbar: "_", hyphen: "-", tilde: "~",
  quot: '"', apos: "'", lt: "<", gt: ">",
};

/** HTML text with its numeric references and the named ones above read as the characters they stand for, in one pass. */
function withCharacterReferencesRead(html: string): string {
  return html.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,6}));/g, (reference, decimal?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED_REFERENCES[name] ?? reference;
    const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex as string, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : reference;
  });
}

/**
 * Where an address ends in a deliverable that is not Markdown: whitespace and the characters an address never holds
 * unescaped (RFC 3986), so an HTML attribute's or a JSON string's closing quote ends it; in CSV also the comma.
 */
const TEXT_STOP = /[\s"<>{}|\\^`]/;
const CSV_STOP = /[\s"<>{}|\\^`,]/;

/**
 * Every http and https address anywhere in a deliverable that is not Markdown (text, HTML, JSON, CSV, …): these
 * formats have no code a reader would not see as an address, so nothing is left out. In HTML, character references
 * are read (`&amp;` is `&`); in JSON, `\/` is `/`.
 */
function addressesInText(written: string, mediaType: string): string[] {
  // JSON may escape a slash (`https:\/\/…`), HTML any character (`https&#58;//…`): the address is the one read.
  const content = mediaType === "json" ? written.replaceAll("\\/", "/") : mediaType === "html" ? withCharacterReferencesRead(written) : written;
  const found = new Set<string>();
  const stop = mediaType === "csv" ? CSV_STOP : TEXT_STOP;
  START.lastIndex = 0;
  for (let match = START.exec(content); match; match = START.exec(content)) {
    const at = match.index;
    const www = match[0].toLowerCase() === "www.";
    if (www && /[\p{L}\p{N}/.@-]/u.test(content[at - 1] ?? "")) continue; // `awww.` is a word, `//www.` part of an address
    const end = bareEnd(content, at, stop);
    START.lastIndex = Math.max(end, at + match[0].length);
    if (end <= at + match[0].length) continue;
    const url = www ? `http://${content.slice(at, end)}` : content.slice(at, end);
    if (!found.has(url) && sourceUrlKey(url) !== null) found.add(url);
  }
  return [...found];
}

/**
 * The http and https addresses the deliverable links, each once, in order of first appearance, as written. Markdown
 * is read as a reader of the rendered page sees it (above); any other media type as text, every address counting.
 */
export function linkedUrls(content: string, mediaType = "markdown"): string[] {
  if (mediaType !== "markdown") return addressesInText(content, mediaType);
  const found = new Set<string>();
  for (const paragraph of paragraphsOutsideCode(content)) {
    const text = withoutCodeSpans(paragraph);
    START.lastIndex = 0;
    for (let match = START.exec(text); match; match = START.exec(text)) {
      const at = match.index;
      const www = match[0].toLowerCase() === "www.";
      const context = contextAt(text, at);
      let end: number;
      let url: string;
      if (www && (context === "destination" || context === "definition" || /[\p{L}\p{N}/.@-]/u.test(text[at - 1] ?? ""))) {
        // `[x](www.a.org)` is a relative link, and `awww.` is a word: neither is an address.
        START.lastIndex = at + match[0].length;
        continue;
      }
      if (context === "autolink" && !www) {
        // `<https://…>` up to its `>`; with whitespace or `<` before one, it is no autolink but a bare address.
        end = wordEnd(text, at, /[\s<>]/);
        if (text[end] !== ">") end = bareEnd(text, at);
        url = text.slice(at, end);
      } else if (context === "destination" || context === "definition") {
        end = context === "destination" ? destinationEnd(text, at) : wordEnd(text, at, WHITESPACE);
        url = readDestination(text.slice(at, end));
      } else {
        end = bareEnd(text, at);
        url = www ? `http://${text.slice(at, end)}` : text.slice(at, end);
      }
      START.lastIndex = Math.max(end, at + match[0].length);
      if (end > at + match[0].length && !found.has(url) && sourceUrlKey(url) !== null) found.add(url);
    }
  }
  return [...found];
}

/** Percent-escapes of characters that mean the same written plainly (RFC 3986's unreserved, and `!'()*`). */
const PLAIN = /^[A-Za-z0-9\-._~!'()*]$/;

function normalizeEscapes(part: string): string {
  return part.replace(/%([0-9a-fA-F]{2})/g, (sequence, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return PLAIN.test(char) ? char : sequence.toUpperCase();
  });
}

/**
 * The key two addresses of the same source share: http and https alike, host in any case (and without a final dot),
 * default ports dropped, a final slash of the path and the fragment ignored, percent-escapes of plain characters read
 * as those characters. The path and the query otherwise stay exactly as written: another path or query is another
 * page. Null for what is not an http or https address.
 */
export function sourceUrlKey(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || !parsed.hostname) return null;
  const host = parsed.hostname.replace(/\.$/, "");
  const port = parsed.port && !(parsed.protocol === "https:" && parsed.port === "443") ? `:${parsed.port}` : "";
  const path = normalizeEscapes(parsed.pathname).replace(/\/$/, "");
  return `//${host}${port}${path}${normalizeEscapes(parsed.search)}`;
}

/** The addresses the deliverable links that are not the URL of any source in the ledger, as written. */
export function unlistedLinks(content: string, ledgerUrls: readonly string[], mediaType = "markdown"): string[] {
  const listed = new Set(ledgerUrls.flatMap((url) => sourceUrlKey(url) ?? []));
  return linkedUrls(content, mediaType).filter((url) => !listed.has(sourceUrlKey(url) as string));
}

/** An address as a report shows it: clipped. */
export const shown = (url: string) => (url.length > LINK_LIMITS.shownChars ? `${url.slice(0, LINK_LIMITS.shownChars)}…` : url);

/** The addresses a report lists: the first ones, each clipped. */
export const reportedLinks = (unlisted: readonly string[]): string[] => unlisted.slice(0, LINK_LIMITS.reported).map(shown);

/** The problem a strict check reports for links to pages that are not sources in the ledger, or null. */
export function unlistedLinksProblem(unlisted: readonly string[]): string | null {
  if (unlisted.length === 0) return null;
  const named = unlisted.slice(0, LINK_LIMITS.named).map(shown);
  const more = unlisted.length > LINK_LIMITS.named ? `; and ${unlisted.length - LINK_LIMITS.named} more` : "";
  return (
    `Links pages that are not sources in the plan's evidence ledger: ${named.join(", ")}${more}. ` +
    "Record each as evidence (record_evidence, with the quote it supports) and cite it as [E#], or remove the link."
  );
}
