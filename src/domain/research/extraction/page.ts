import { clipText } from "../../clip";
import type { ExtractedHeading, ExtractedLink, ExtractedTable, Extraction } from "./model";

/** Pages of an extraction: one answer shows a page within its bounded size; the rest by offset. */

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
