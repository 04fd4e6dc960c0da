import { z } from "zod";
import { notFound, payloadTooLarge, validationError } from "../domain/errors";
import { ARTIFACT_LIMITS, UNTRUSTED } from "../domain/research/artifacts";
import { extractMarkdown, extractText } from "../domain/research/extraction/markdown";
import { emptyExtraction, EXTRACT_KINDS, type Extraction, EXTRACTION_LIMITS, type InvalidRecord } from "../domain/research/extraction/model";
import { pageExtraction } from "../domain/research/extraction/page";
import { looksLikeHtml } from "../domain/research/extraction/text";
import { ParamArtifactId, readRoom, Trust } from "./artifact-views";
import { defineOperation, type OperationContext } from "./operation";
import { ParamId } from "./params";
import { saveArtifact } from "./save-artifact";

const SOURCES = ["artifactId", "html", "markdown", "text"] as const;
type SourceField = (typeof SOURCES)[number];

/** Listed as a bare description: spelling out "any object" costs tokens and tells the model nothing. */
const JsonSchemaObject = z
  .custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), "Expected a JSON Schema object")
  .meta({ type: "object", description: "JSON Schema (2020-12) for records" });

const Issue = z.object({ path: z.string(), message: z.string() });

const ExtractOutput = z.object({
  tables: z.array(z.object({ headers: z.array(z.string()), rows: z.array(z.array(z.string())), firstRow: z.number().optional() })),
  links: z.array(z.object({ text: z.string(), href: z.string() })),
  headings: z.array(z.object({ level: z.number(), text: z.string() })),
  metadata: z.object({ title: z.string().nullable(), description: z.string().nullable(), jsonLd: z.array(z.unknown()) }),
  totals: z.object({ tables: z.number(), rows: z.number(), links: z.number(), headings: z.number(), jsonLd: z.number() }),
  offset: z.number(),
  nextOffset: z.number().nullable(),
  validation: z
    .object({ valid: z.number(), invalidCount: z.number(), invalid: z.array(z.object({ index: z.number(), errors: z.array(Issue) })) })
    .optional(),
  storedArtifactId: z.string().optional(),
  truncated: z.boolean(),
  note: z.string().optional(),
  trust: Trust,
});

/** The characters of JSON the invalid records' errors may take in one answer; the first ones are shown. */
const INVALID_CHARS = 4_000;

/** The first invalid records whose errors fit INVALID_CHARS (at least one): fixing them and validating again shows the next. */
function firstInvalid(invalid: readonly InvalidRecord[]): InvalidRecord[] {
  const shown: InvalidRecord[] = [];
  let used = 0;
  for (const record of invalid) {
    used += JSON.stringify(record).length + 1;
    if (used > INVALID_CHARS && shown.length > 0) break;
    shown.push(record);
  }
  return shown;
}

export const extractData = defineOperation({
  name: "extract_data",
  title: "Extract data",
  description:
    "Extract tables, links, headings and metadata (title, description, JSON-LD) from one source, paged by offset. " +
    "Validate records against schema; storeAs stores them, all valid, as a dataset artifact.",
  scope: "research:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    artifactId: ParamArtifactId.optional(),
    html: z.string().optional(),
    markdown: z.string().optional(),
    text: z.string().optional(),
    baseUrl: z.url({ protocol: /^https?$/ }).max(2000).optional(),
    extract: z.array(z.enum(EXTRACT_KINDS)).min(1).optional(),
    offset: z.number().int().min(0).optional(),
    records: z.array(z.unknown()).max(EXTRACTION_LIMITS.records).optional(),
    schema: JsonSchemaObject.optional(),
    storeAs: z
      .strictObject({
        title: z.string().min(1).max(ARTIFACT_LIMITS.titleChars),
        tags: z.array(z.string().min(1).max(ARTIFACT_LIMITS.tagChars)).max(ARTIFACT_LIMITS.tags).optional(),
        planId: ParamId("plan").optional(),
        stepId: ParamId("step").optional(),
      })
      .optional(),
  }),
  output: ExtractOutput,
  rest: { method: "post", path: "/extract" },
  async handler(input, ctx) {
    const given = SOURCES.filter((field) => input[field] !== undefined);
    if (given.length > 1) {
      throw validationError(
        `Give exactly one source; got ${given.join(", ")}.`,
        given.map((path) => ({ path, message: "Only one of artifactId, html, markdown, text" })),
      );
    }
    if (given.length === 0 && input.records === undefined) {
      throw validationError("Give exactly one source (artifactId, html, markdown or text), or records to validate.", [
        { path: "(input)", message: "No source" },
      ]);
    }
    if (input.records !== undefined && input.schema === undefined) {
      throw validationError("records are validated against a schema: give schema too.", [{ path: "schema", message: "Required with records" }]);
    }
    if (input.records === undefined && (input.schema !== undefined || input.storeAs !== undefined)) {
      const path = input.schema !== undefined ? "schema" : "storeAs";
      throw validationError(`${path} applies to records: give records too.`, [{ path: "records", message: `Required with ${path}` }]);
    }
    if (input.storeAs && input.records?.length === 0) {
      throw validationError("There are no records to store.", [{ path: "records", message: "Empty" }]);
    }

    // The schema first: a schema that cannot be applied fails the call before any work.
    const checked = input.records && input.schema ? ctx.services.extraction.records.validate(input.schema, input.records) : null;
    if (checked && !checked.schemaValid) {
      const first = checked.issues[0];
      throw validationError(
        `schema is not a usable JSON Schema (draft 2020-12).${first ? ` ${first.path}: ${first.message}` : ""}`,
        checked.issues.length > 0 ? checked.issues : [{ path: "schema", message: "Not a valid JSON Schema" }],
      );
    }

    const source = given[0];
    const extraction = source ? await extract(source, input, ctx) : emptyExtraction();
    const notes: string[] = [];
    const result: z.input<typeof ExtractOutput> = {
      tables: [],
      links: [],
      headings: [],
      metadata: { ...extraction.metadata, jsonLd: [] },
      totals: { tables: 0, rows: 0, links: 0, headings: 0, jsonLd: 0 },
      offset: input.offset ?? 0,
      nextOffset: null,
      truncated: extraction.truncated,
      trust: UNTRUSTED,
    };

    if (checked?.schemaValid && input.records) {
      const invalid = firstInvalid(checked.invalid);
      result.validation = { valid: checked.valid, invalidCount: checked.invalid.length, invalid };
      if (invalid.length < checked.invalid.length) notes.push(`Errors of the first ${invalid.length} of ${checked.invalid.length} invalid records: fix them and validate again.`);
      // Nothing is stored unless every record is valid.
      if (input.storeAs && checked.invalid.length === 0) {
        const { title, tags, planId, stepId } = input.storeAs;
        const saved = await saveArtifact(ctx, {
          artifactType: "dataset",
          title,
          content: { records: input.records, schema: input.schema },
          contentText: datasetText(title, input.records),
          ...(tags ? { tags } : {}),
          ...(planId ? { planId } : {}),
          ...(stepId ? { stepId } : {}),
        });
        result.storedArtifactId = saved.artifactId;
      }
    }

    // One answer is one page of the extraction, sized by what the rest of the answer leaves (issue 4),
    // with room kept for the note that says how to read on.
    const page = pageExtraction(extraction, result.offset, readRoom({ ...result, note: " ".repeat(300) }));
    Object.assign(result, {
      tables: page.tables,
      links: page.links,
      headings: page.headings,
      metadata: { ...extraction.metadata, jsonLd: page.jsonLd },
      totals: page.totals,
      nextOffset: page.nextOffset,
      truncated: extraction.truncated || page.clipped,
    });
    if (page.nextOffset !== null) {
      notes.unshift(
        `Shows items ${result.offset}–${page.nextOffset - 1} of ${page.items} (JSON-LD, headings, links, table rows, in that order): ` +
          `call again with the same source, without records, and offset ${page.nextOffset} for more, or narrow it with extract.`,
      );
    }
    if (notes.length > 0) result.note = notes.join(" ");
    return result;
  },
});

type ExtractInput = { [K in SourceField]?: string } & { baseUrl?: string; extract?: (typeof EXTRACT_KINDS)[number][] };

async function extract(source: SourceField, input: ExtractInput, ctx: OperationContext): Promise<Extraction> {
  let body = input[source] ?? "";
  let baseUrl = input.baseUrl;
  let format: "html" | "markdown" | "text" = source === "artifactId" ? "markdown" : source;
  if (source === "artifactId") {
    const artifact = await ctx.services.artifacts.get(ctx.principal.orgId, body);
    if (!artifact) throw notFound("artifact", body);
    body = artifact.contentText;
    baseUrl ??= artifact.sourceUrl ?? undefined;
    // Stored text is HTML when it looks like it; otherwise markdown, which finds a plain text's URLs as well.
    if (looksLikeHtml(body)) format = "html";
  }
  const limit = EXTRACTION_LIMITS.inputBytes;
  // A character is one to three UTF-8 bytes: count exactly only when the length alone does not decide.
  if (body.length > limit || (body.length * 3 > limit && new TextEncoder().encode(body).byteLength > limit)) {
    throw payloadTooLarge(`${source} is larger than ${limit} bytes. Pass a smaller part of the document.`);
  }
  const options = { kinds: new Set(input.extract ?? EXTRACT_KINDS), ...(baseUrl ? { baseUrl } : {}) };
  if (format === "html") return ctx.services.extraction.html.extract(body, options);
  return format === "markdown" ? extractMarkdown(body, options) : extractText(body, options);
}

/** The dataset's searchable text: a header line, then one JSON line a record, as many as fit. */
function datasetText(title: string, records: readonly unknown[]): string {
  const lines = [`${title} (dataset, ${records.length} records)`];
  let length = lines[0]?.length ?? 0;
  const room = ARTIFACT_LIMITS.contentTextChars - 100;
  for (const [index, record] of records.entries()) {
    const line = JSON.stringify(record) ?? "null";
    if (length + line.length + 1 > room) {
      lines.push(`… ${records.length - index} more records in the structured content`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n");
}
