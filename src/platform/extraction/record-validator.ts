import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";
import type { ValidationIssue } from "../../domain/errors";
import { EXTRACTION_LIMITS, type InvalidRecord, type RecordValidation, type RecordValidator } from "../../domain/research/extraction/model";
import { withLinearPatterns } from "./linear-regexp";
import { META_SCHEMA_2020_12 } from "./meta-schema";

/** The meta-schema's word for a pattern the engine will not compile, and what Cairn says instead. */
const REGEX_FORMAT_ERROR = 'String does not match format "regex".';
const NOT_A_PATTERN = "Not a pattern Cairn can run: RE2 syntax, without lookaround or backreferences.";

const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const MESSAGE_CHARS = 300;

// Every error, not just the first: the caller fixes all of a record in one pass.
const metaValidator = new Validator(META_SCHEMA_2020_12 as Schema, "2020-12", false);

/** A JSON pointer fragment (`#/a/0/b`) as a dotted path (`a.0.b`), the way every Cairn issue names a field. */
function dottedPath(instanceLocation: string, root: string): string {
  const segments = instanceLocation
    .replace(/^#\/?/, "")
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => {
      let text = segment;
      try {
        text = decodeURIComponent(segment);
      } catch {
        // Not percent-encoded after all: keep it as written.
      }
      return text.replace(/~1/g, "/").replace(/~0/g, "~");
    });
  if (root === "") return segments.length === 0 ? "(record)" : segments.join(".");
  return [root, ...segments].join(".");
}

const clipMessage = (message: string) => (message.length > MESSAGE_CHARS ? `${message.slice(0, MESSAGE_CHARS - 1)}…` : message);

/**
 * The errors a caller can act on. The validator reports every failing keyword
 * with the keywords that contain it (`properties`, `$ref`, `items`…); only the
 * innermost are kept. A failed `anyOf` / `oneOf` is reported once, at its own
 * place, with what its branches said; `additionalProperties: false` by its own
 * message rather than as a failed `false` schema.
 */
function actionable(errors: readonly OutputUnit[], root: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of innermost(errors)) {
    let message = error.error;
    if (error.keyword === "anyOf" || error.keyword === "oneOf") {
      const branches = [...new Set(innermost(errors.filter((e) => e.keywordLocation.startsWith(`${error.keywordLocation}/`))).map((e) => e.error))];
      if (branches.length > 0) message = `${message.replace(/\.$/, "")}: ${branches.slice(0, 3).join(" | ")}`;
    }
    const issue = { path: dottedPath(error.instanceLocation, root), message: clipMessage(message) };
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

function innermost(errors: readonly OutputUnit[]): OutputUnit[] {
  const combinators = errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf").map((e) => `${e.keywordLocation}/`);
  let kept = errors.filter((e) => !combinators.some((prefix) => e.keywordLocation.startsWith(prefix)));
  if (kept.length > 1) kept = kept.filter((e) => e.keyword !== "false");
  return kept.filter((e) => !kept.some((other) => other !== e && other.keywordLocation.startsWith(`${e.keywordLocation}/`)));
}

const schemaProblem = (message: string, path = "schema"): RecordValidation => ({ schemaValid: false, issues: [{ path, message: clipMessage(message) }] });

/** Why a schema that passed the meta-schema still cannot be applied (an unresolvable `$ref`, say). */
const unusable = (error: unknown) =>
  schemaProblem(`The schema cannot be applied: ${String(error instanceof Error ? error.message : error).split("\n")[0] ?? ""}`);

/** Records checked against a JSON Schema (draft 2020-12) by @cfworker/json-schema, which runs on Workers without code generation. */
export const jsonSchemaRecordValidator: RecordValidator = {
  // Every caller pattern (the schema's `pattern`s checked as format "regex", then matched) runs on the linear-time engine.
  validate: (schema, records) => withLinearPatterns(() => validateRecords(schema, records)),
};

function validateRecords(schema: Record<string, unknown>, records: readonly unknown[]): RecordValidation {
  const declared = schema.$schema;
  if (declared !== undefined && (typeof declared !== "string" || !DRAFT_2020_12.test(declared))) {
    return schemaProblem("Only JSON Schema draft 2020-12 is supported: omit $schema or set it to https://json-schema.org/draft/2020-12/schema.", "schema.$schema");
  }
  const meta = metaValidator.validate(schema);
  if (!meta.valid) {
    const issues = actionable(meta.errors, "schema").map((issue) => (issue.message === REGEX_FORMAT_ERROR ? { ...issue, message: NOT_A_PATTERN } : issue));
    return { schemaValid: false, issues: issues.slice(0, EXTRACTION_LIMITS.errorsPerRecord) };
  }
  let validator: Validator;
  try {
    // The validator annotates the schema it is given; the caller's copy is stored untouched.
    validator = new Validator(structuredClone(schema) as Schema, "2020-12", false);
  } catch (error) {
    return unusable(error);
  }
  const invalid: InvalidRecord[] = [];
  for (const [index, record] of records.entries()) {
    let result: ReturnType<Validator["validate"]>;
    try {
      result = validator.validate(record);
    } catch (error) {
      return unusable(error);
    }
    if (!result.valid) invalid.push({ index, errors: actionable(result.errors, "").slice(0, EXTRACTION_LIMITS.errorsPerRecord) });
  }
  return { schemaValid: true, valid: records.length - invalid.length, invalid };
}
