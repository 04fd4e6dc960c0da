import type { ValidationIssue } from "../../errors";

/**
 * Structured extraction without a model (seed 000 step type `extract`): tables,
 * links, headings and metadata out of HTML, markdown or text, and records
 * checked against a JSON Schema before they are stored as a dataset. The
 * types, bounds and ports live here; markdown and text are parsed beside them
 * (markdown.ts, pure string work). HTML is parsed by the platform (the runtime's
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
