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
  return rest;
}
