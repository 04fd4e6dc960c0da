import type { z } from "zod";
import { validationError } from "../domain/errors";
import { readBoundedText } from "../platform/request-body";

type FieldKind = "number" | "boolean" | "array" | "other";

/** The kind of a top-level field of an object schema, looking through optional/nullable/default. */
function kindOf(field: z.ZodType | undefined): FieldKind {
  let def = field?._zod.def as { type: string; innerType?: z.ZodType } | undefined;
  while (def && (def.type === "optional" || def.type === "nullable" || def.type === "default") && def.innerType) {
    def = def.innerType._zod.def as typeof def;
  }
  if (def?.type === "number" || def?.type === "int") return "number";
  if (def?.type === "boolean") return "boolean";
  if (def?.type === "array") return "array";
  return "other";
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Query strings are text; the operation's schema says which fields are numbers,
 * booleans or lists. Values that do not convert are passed as text, so the
 * schema reports them precisely.
 */
export function queryInput(schema: z.ZodType, url: URL): Record<string, unknown> {
  const shape = (schema._zod.def as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const input: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    const value = values[values.length - 1] ?? "";
    switch (kindOf(shape[key])) {
      case "number":
        input[key] = NUMBER.test(value) ? Number(value) : value;
        break;
      case "boolean":
        input[key] = value === "true" ? true : value === "false" ? false : value;
        break;
      case "array":
        input[key] = values.flatMap((v) => v.split(",")).filter(Boolean);
        break;
      default:
        input[key] = value;
    }
  }
  return input;
}

export async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = await readBoundedText(request);
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw validationError("The request body is not valid JSON.", [{ path: "(body)", message: "Malformed JSON" }]);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw validationError("The request body must be a JSON object.", [{ path: "(body)", message: "Expected an object" }]);
  }
  return body as Record<string, unknown>;
}
