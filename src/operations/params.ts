import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../domain/pagination";

/** Shared parameter schemas, so one field means the same thing in every operation. */
export const ParamId = (what: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, `Not a ${what} id`);

export const ParamExecutionId = ParamId("skill execution").describe("From log_skill_execution");

export const ParamSessionId = z.string().min(1).max(200);

export const ParamLimit = z.number().int().min(1).max(MAX_PAGE_SIZE).describe(`Default ${DEFAULT_PAGE_SIZE}`);

export const ParamCursor = z.string().min(1).max(200);

/**
 * Structured data the caller shapes as it likes (a step's result, an artifact's content):
 * an object, a list or text. The published schema says so instead of an empty `{}`,
 * which schema linters rightly read as "constrains nothing" (published as `anyOf`
 * branches of one type each: see jsonSchemaOf).
 */
export const ParamStructured = z
  .unknown()
  .refine((value) => typeof value === "string" || (typeof value === "object" && value !== null), "Required: an object, a list or text")
  .meta({ type: ["object", "array", "string"] });

/** A JSON object the caller shapes as it likes (an artifact's structured content). */
export const ParamJsonObject = z
  .custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), "Required: a JSON object")
  .meta({ type: "object" });

/** ISO 8601 timestamps in responses; epoch milliseconds inside. */
export const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * A read's cursor handed back as `since` (get_step_context, get_evidence_ledger): what changed after it. Checked by a
 * refinement rather than a published pattern: the model only ever copies the value it was given.
 */
export const ParamSince = z
  .string()
  .max(16)
  .refine((value) => /^\d+$/.test(value), "A cursor from an earlier answer of this tool");
