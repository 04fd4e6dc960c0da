import type { ValidationIssue } from "../errors";
import { clipText } from "../clip";

/**
 * Structured extraction without a model (seed 000 step type `extract`): tables,
 * links, headings and metadata out of HTML, markdown or text, and records
 * checked against a JSON Schema before they are stored as a dataset. The
 * types, bounds and ports live here; markdown and text are parsed here too
 * (pure string work). HTML is parsed by the platform (the runtime's
 * HTMLRewriter) and schemas are applied by a maintained validator, both behind
 * the ports below.
 */

export const EXTRACT_KINDS = ["tables", "links", "headings", "metadata"] as const;
export type ExtractKind = (typeof EXTRACT_KINDS)[number];

export const EXTRACTION_LIMITS = {
  /** The largest html / markdown / text accepted, in UTF-8 bytes. */
  inputBytes: 1024 * 1024,
  tables: 20,
  /** Rows of one table, its header row included. */
  rowsPerTable: 200,
  cellsPerRow: 50,
  cellChars: 500,
  links: 500,
  linkTextChars: 300,
  hrefChars: 2048,
  headings: 200,
  headingChars: 300,
  titleChars: 300,
  descriptionChars: 1000,
  jsonLdBlocks: 10,
  /** A JSON-LD block longer than this is skipped (and the result marked truncated): one block fits one page. */
  jsonLdChars: 12_000,
  /** All extracted strings together: what one answer may cost the caller's context. */
  outputChars: 300_000,
  records: 1000,
  /** Errors reported for one invalid record; every invalid record is reported. */
  errorsPerRecord: 10,
} as const;

export interface ExtractedTable {
  headers: string[];
  rows: string[][];
}

export interface ExtractedLink {
  text: string;
  href: string;
}

export interface ExtractedHeading {
  level: number;
  text: string;
}

export interface ExtractedMetadata {
  title: string | null;
  description: string | null;
  jsonLd: unknown[];
}

export interface Extraction {
  tables: ExtractedTable[];
  links: ExtractedLink[];
  headings: ExtractedHeading[];
  metadata: ExtractedMetadata;
  /** True when anything was left out or shortened to stay within EXTRACTION_LIMITS. */
  truncated: boolean;
}

export interface ExtractOptions {
  kinds: ReadonlySet<ExtractKind>;
  /** Absolute http(s) URL relative links are resolved against. */
  baseUrl?: string;
}

/** Port: HTML extraction (the platform implements it with HTMLRewriter). */
export interface HtmlExtractor {
  extract(html: string, options: ExtractOptions): Promise<Extraction>;
}

export interface InvalidRecord {
  index: number;
  errors: ValidationIssue[];
}

export type RecordValidation =
  | { schemaValid: false; issues: ValidationIssue[] }
  | { schemaValid: true; valid: number; invalid: InvalidRecord[] };

/** Port: JSON Schema (draft 2020-12) validation by a maintained validator. */
export interface RecordValidator {
  validate(schema: Record<string, unknown>, records: readonly unknown[]): RecordValidation;
}

export interface ExtractionServices {
  html: HtmlExtractor;
  records: RecordValidator;
}

export const emptyExtraction = (): Extraction => ({
  tables: [],
  links: [],
  headings: [],
  metadata: { title: null, description: null, jsonLd: [] },
  truncated: false,
});

// ---------------------------------------------------------------------------
// Pages: one answer shows a page of the extraction (issue 4: bounded responses); the rest by offset.

export interface ExtractionTotals {
  tables: number;
  rows: number;
  links: number;
  headings: number;
  jsonLd: number;
}

export interface ExtractionPage {
  /** A table continued from the previous page says from which row (`firstRow`). */
  tables: (ExtractedTable & { firstRow?: number })[];
  links: ExtractedLink[];
  headings: ExtractedHeading[];
  jsonLd: unknown[];
  totals: ExtractionTotals;
  /** Items of the whole extraction, the unit of offsets: JSON-LD blocks, headings, links, table rows. */
  items: number;
  nextOffset: number | null;
  /** True when one item was larger than a whole page and had to be shortened or left out. */
  clipped: boolean;
}

type PageItem =
  | { kind: "jsonLd"; value: unknown }
  | { kind: "heading"; value: ExtractedHeading }
  | { kind: "link"; value: ExtractedLink }
  /** A table row; a table without rows is one item (row -1), so its headers are reachable too. */
  | { kind: "row"; table: number; row: number };

const jsonChars = (value: unknown): number => (JSON.stringify(value) ?? "").length + 1;

/**
 * The items of `extraction` from `offset` on whose JSON fits `room` characters, in a fixed order (JSON-LD,
 * headings, links, table rows), so the same extraction always pages the same way. A table's headers come
 * with each page that shows rows of it.
 */
export function pageExtraction(extraction: Extraction, offset: number, room: number): ExtractionPage {
  const items: PageItem[] = [
    ...extraction.metadata.jsonLd.map((value) => ({ kind: "jsonLd" as const, value })),
    ...extraction.headings.map((value) => ({ kind: "heading" as const, value })),
    ...extraction.links.map((value) => ({ kind: "link" as const, value })),
    ...extraction.tables.flatMap((table, t) =>
      table.rows.length === 0 ? [{ kind: "row" as const, table: t, row: -1 }] : table.rows.map((_, r) => ({ kind: "row" as const, table: t, row: r })),
    ),
  ];
  const page: Pick<ExtractionPage, "tables" | "links" | "headings" | "jsonLd"> = { tables: [], links: [], headings: [], jsonLd: [] };
  let used = 0;
  let clipped = false;
  let open: { table: number; view: ExtractedTable } | null = null;
  let index = Math.min(offset, items.length);
  for (; index < items.length; index++) {
    const item = items[index];
    if (!item) break;
    if (item.kind !== "row") {
      const cost = jsonChars(item.value);
      if (used + cost > room) {
        if (used > 0) break;
        // Only a JSON-LD block can be larger than a page (EXTRACTION_LIMITS keeps it under one); skip it.
        clipped = true;
        continue;
      }
      used += cost;
      if (item.kind === "jsonLd") page.jsonLd.push(item.value);
      else if (item.kind === "heading") page.headings.push(item.value);
      else page.links.push(item.value);
      continue;
    }
    const table = extraction.tables[item.table];
    if (!table) continue;
    let headers = table.headers;
    let row = item.row >= 0 ? table.rows[item.row] : undefined;
    const opens = open?.table !== item.table;
    const frame = 40;
    let cost = (row ? jsonChars(row) : 0) + (opens ? jsonChars(headers) + frame : 0);
    if (used + cost > room) {
      if (used > 0) break;
      // One row with its headers larger than a whole page: its cells are shortened to fit (and it says so).
      clipped = true;
      const cells = headers.length + (row?.length ?? 0);
      const max = Math.max(8, Math.floor((room - frame) / Math.max(1, cells)) - 8);
      headers = headers.map((cell) => clipText(cell, max));
      row = row?.map((cell) => clipText(cell, max));
      cost = room;
    }
    if (opens || !open) {
      open = { table: item.table, view: { headers, rows: [], ...(item.row > 0 ? { firstRow: item.row } : {}) } };
      page.tables.push(open.view);
    }
    if (row) open.view.rows.push(row);
    used += cost;
  }
  return {
    ...page,
    totals: {
      tables: extraction.tables.length,
      rows: extraction.tables.reduce((n, table) => n + table.rows.length, 0),
      links: extraction.links.length,
      headings: extraction.headings.length,
      jsonLd: extraction.metadata.jsonLd.length,
    },
    items: items.length,
    nextOffset: index < items.length ? index : null,
    clipped,
  };
}

// ---------------------------------------------------------------------------
// Text helpers

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  ensp: "\u2002",
  emsp: "\u2003",
  thinsp: "\u2009",
  shy: "\u00ad",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  minus: "−",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  laquo: "«",
  raquo: "»",
  lsaquo: "‹",
  rsaquo: "›",
  bull: "•",
  middot: "·",
  deg: "°",
  plusmn: "±",
  times: "×",
  divide: "÷",
  frac12: "½",
  frac14: "¼",
  frac34: "¾",
  sup2: "²",
  sup3: "³",
  micro: "µ",
  para: "¶",
  sect: "§",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  curren: "¤",
  permil: "‰",
  prime: "′",
  Prime: "″",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  harr: "↔",
  le: "≤",
  ge: "≥",
  ne: "≠",
  asymp: "≈",
  infin: "∞",
  check: "✓",
  dagger: "†",
  Dagger: "‡",
  iexcl: "¡",
  iquest: "¿",
  auml: "ä",
  ouml: "ö",
  uuml: "ü",
  Auml: "Ä",
  Ouml: "Ö",
  Uuml: "Ü",
  szlig: "ß",
  eacute: "é",
  egrave: "è",
  ecirc: "ê",
  Eacute: "É",
  aacute: "á",
  agrave: "à",
  acirc: "â",
  iacute: "í",
  oacute: "ó",
  uacute: "ú",
  ntilde: "ñ",
  ccedil: "ç",
  aring: "å",
  oslash: "ø",
  aelig: "æ",
  zwj: "\u200d",
  zwnj: "\u200c",
};

const codePoint = (value: number): string =>
  value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff) ? "\ufffd" : String.fromCodePoint(value);

/** Decodes HTML character references (numeric ones and the common named ones; unknown names stay as written). */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));?/g, (whole, dec, hex, name) => {
    if (dec !== undefined) return codePoint(Number.parseInt(dec, 10));
    if (hex !== undefined) return codePoint(Number.parseInt(hex, 16));
    return NAMED_ENTITIES[name as string] ?? whole;
  });
}

/** Whitespace runs (newlines and no-break spaces included) become one space; ends trimmed. */
export const collapseWhitespace = (text: string): string => text.replace(/[\s\u00ad\u200b]+/g, " ").trim();

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/**
 * A link target as the caller should see it: resolved against `base` when
 * relative, and only http, https or mailto (javascript:, data: and the like are
 * dropped). Relative targets stay as written when there is no base.
 */
export function resolveHref(raw: string, base: URL | null): string | null {
  const href = raw.trim().replace(/[\t\n\r]/g, "");
  if (href === "" || href.length > EXTRACTION_LIMITS.hrefChars) return null;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(href);
  if (scheme) {
    try {
      const url = new URL(href);
      return LINK_PROTOCOLS.has(url.protocol) ? url.href : null;
    } catch {
      return null;
    }
  }
  if (!base) return href;
  try {
    const url = new URL(href, base);
    return LINK_PROTOCOLS.has(url.protocol) && url.href.length <= EXTRACTION_LIMITS.hrefChars ? url.href : null;
  } catch {
    return null;
  }
}

/** The base for relative links: an absolute http(s) URL, or none. */
export function parseBaseUrl(baseUrl: string | undefined | null): URL | null {
  if (!baseUrl) return null;
  try {
    const url = new URL(baseUrl);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** Whether stored text is HTML (extracted with the HTML extractor) rather than markdown or plain text. */
export function looksLikeHtml(text: string): boolean {
  const head = text.slice(0, 2000);
  if (/<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]/i.test(head)) return true;
  const trimmed = head.trimStart();
  return trimmed.startsWith("<") && /^<[a-zA-Z][a-zA-Z0-9-]*(\s[^>]*)?>/.test(trimmed) && /<\/[a-zA-Z][a-zA-Z0-9-]*\s*>/.test(text);
}

// ---------------------------------------------------------------------------
// The collector: every extractor hands its findings here, and the bounds are applied in one place.

export class ExtractionCollector {
  readonly tables: ExtractedTable[] = [];
  readonly links: ExtractedLink[] = [];
  readonly headings: ExtractedHeading[] = [];
  readonly metadata: ExtractedMetadata = { title: null, description: null, jsonLd: [] };
  truncated = false;
  private spent = 0;
  private readonly seenLinks = new Set<string>();
  /** What relative links resolve against; an HTML document's `<base href>` may set it. */
  base: URL | null;

  constructor(
    readonly kinds: ReadonlySet<ExtractKind>,
    baseUrl?: string | null,
  ) {
    this.base = parseBaseUrl(baseUrl);
  }

  wants(kind: ExtractKind): boolean {
    return this.kinds.has(kind);
  }

  /**
   * Whether one more item of `kind` can still be taken: false when the kind was
   * not asked for, or (marking the result truncated) when its limit or the
   * output budget is reached, so extractors skip the work of building it.
   */
  accepts(kind: "tables" | "links" | "headings"): boolean {
    if (!this.wants(kind)) return false;
    const limit = kind === "tables" ? EXTRACTION_LIMITS.tables : kind === "links" ? EXTRACTION_LIMITS.links : EXTRACTION_LIMITS.headings;
    if (this[kind].length < limit && this.spent < EXTRACTION_LIMITS.outputChars) return true;
    this.truncated = true;
    return false;
  }

  /** Counts `chars` against the output budget; false (and truncated) when they do not fit. */
  private spend(chars: number): boolean {
    if (this.spent + chars > EXTRACTION_LIMITS.outputChars) {
      this.truncated = true;
      return false;
    }
    this.spent += chars;
    return true;
  }

  /** Normalized text, clipped to `max` (marking the result truncated when it was longer). */
  text(raw: string, max: number, decode = true): string {
    const text = collapseWhitespace(decode ? decodeEntities(raw) : raw);
    if (text.length > max) this.truncated = true;
    return clip(text, max);
  }

  /**
   * A table from its rows of normalized cell text. Headers are the header rows
   * the source marked (thead), else the first row.
   */
  addTable(rows: readonly (readonly string[])[], headerRowCount: number): void {
    if (!this.wants("tables")) return;
    const kept: (readonly string[])[] = [];
    let headerRows = 0;
    rows.forEach((row, index) => {
      if (!row.some((cell) => cell !== "")) return;
      kept.push(row);
      if (index < headerRowCount) headerRows++;
    });
    if (kept.length === 0) return;
    if (this.tables.length >= EXTRACTION_LIMITS.tables) {
      this.truncated = true;
      return;
    }
    if (kept.length > EXTRACTION_LIMITS.rowsPerTable) this.truncated = true;
    const bounded = kept.slice(0, EXTRACTION_LIMITS.rowsPerTable).map((row) => {
      if (row.length > EXTRACTION_LIMITS.cellsPerRow) this.truncated = true;
      return row.slice(0, EXTRACTION_LIMITS.cellsPerRow);
    });
    // The last of the marked header rows (the one right above the data), else the first row.
    const headerIndex = Math.max(0, Math.min(headerRows, bounded.length) - 1);
    const headers = bounded[headerIndex] ?? [];
    const body = bounded.slice(headerIndex + 1);
    const table: ExtractedTable = { headers: [], rows: [] };
    if (!this.spend(headers.reduce((n, cell) => n + cell.length + 1, 0))) return;
    table.headers = headers.slice();
    for (const row of body) {
      if (!this.spend(row.reduce((n, cell) => n + cell.length + 1, 0))) break;
      table.rows.push(row.slice());
    }
    this.tables.push(table);
  }

  /** A link; duplicates (same text and target) and unsafe targets are dropped. */
  addLink(rawHref: string, text: string): void {
    if (!this.wants("links")) return;
    const href = resolveHref(rawHref, this.base);
    if (href === null) return;
    const key = `${text}\u0000${href}`;
    if (this.seenLinks.has(key)) return;
    if (this.links.length >= EXTRACTION_LIMITS.links) {
      this.truncated = true;
      return;
    }
    if (!this.spend(href.length + text.length)) return;
    this.seenLinks.add(key);
    this.links.push({ text, href });
  }

  addHeading(level: number, text: string): void {
    if (!this.wants("headings") || text === "") return;
    if (this.headings.length >= EXTRACTION_LIMITS.headings) {
      this.truncated = true;
      return;
    }
    if (this.spend(text.length)) this.headings.push({ level, text });
  }

  setTitle(text: string): void {
    if (this.wants("metadata") && this.metadata.title === null && text !== "" && this.spend(text.length)) this.metadata.title = text;
  }

  setDescription(text: string): void {
    if (this.wants("metadata") && this.metadata.description === null && text !== "" && this.spend(text.length)) this.metadata.description = text;
  }

  /** One JSON-LD block's raw text: parsed, or skipped silently when malformed. */
  addJsonLd(raw: string): void {
    if (!this.wants("metadata")) return;
    if (raw.length > EXTRACTION_LIMITS.jsonLdChars || this.metadata.jsonLd.length >= EXTRACTION_LIMITS.jsonLdBlocks) {
      this.truncated = true;
      return;
    }
    let value: unknown;
    try {
      // Some pages wrap the block in an HTML comment or CDATA marker.
      value = JSON.parse(raw.trim().replace(/^(<!--|<!\[CDATA\[)/, "").replace(/(-->|\]\]>)$/, ""));
    } catch {
      return;
    }
    if (value !== null && typeof value === "object" && this.spend(raw.length)) this.metadata.jsonLd.push(value);
  }

  result(): Extraction {
    return { tables: this.tables, links: this.links, headings: this.headings, metadata: this.metadata, truncated: this.truncated };
  }
}

// ---------------------------------------------------------------------------
// Markdown and plain text

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
