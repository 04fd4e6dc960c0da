import { z } from "zod";

/**
 * JSON Schema 2020-12 of an operation's input or output, as both faces publish it.
 * The `$schema` key is dropped: 2020-12 is the MCP default, and every byte of
 * `tools/list` is paid for in the assistant's context.
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return singleTyped(rest) as Record<string, unknown>;
}

/**
 * zod writes a union of plain types as a `type` array (`["object", "array", "string"]`):
 * legal JSON Schema, but clients that map tool schemas onto a single-`type` dialect
 * (Gemini's function declarations among them) reject the tool or drop the constraint.
 * Each such node becomes `anyOf` branches of one type each, which every dialect reads.
 */
function singleTyped(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(singleTyped);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === "enum" || key === "const" || key === "default" || key === "examples" ? value : singleTyped(value);
  if (Array.isArray(out.type) && out.type.length > 1 && out.anyOf === undefined) {
    const { type, ...others } = out;
    return { anyOf: (type as string[]).map((t) => ({ type: t })), ...others };
  }
  return out;
}
