import { EXTRACTION_LIMITS, type ExtractedHeading, type ExtractedLink, type ExtractedMetadata, type ExtractedTable, type ExtractKind, type Extraction } from "./model";
import { clip, collapseWhitespace, decodeEntities, parseBaseUrl, resolveHref } from "./text";

/** The collector: every extractor hands its findings here, and the bounds are applied in one place. */

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
