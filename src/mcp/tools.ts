import type { Tool } from "@modelcontextprotocol/server";
import { jsonSchemaOf } from "../operations/json-schema";
import type { AnyOperation } from "../operations/operation";
import { OPERATIONS } from "../operations/registry";

interface ToolEntry {
  tool: Tool;
  outputSchema: Record<string, unknown>;
}

let cache: { list: Tool[]; byName: Map<string, ToolEntry> } | undefined;

function toTool(operation: AnyOperation): ToolEntry {
  const outputSchema = jsonSchemaOf(operation.output, "output");
  const tool = {
    name: operation.name,
    title: operation.title,
    description: operation.description,
    inputSchema: jsonSchemaOf(operation.input, "input"),
    outputSchema,
    annotations: { title: operation.title, ...operation.annotations },
  } as Tool;
  return { tool, outputSchema };
}

/**
 * The tool list is the same for every caller and never changes while the isolate
 * lives, so it is converted from zod once, not on every request.
 */
function tools() {
  if (!cache) {
    const entries = OPERATIONS.map(toTool);
    cache = { list: entries.map((entry) => entry.tool), byName: new Map(entries.map((entry) => [entry.tool.name, entry])) };
  }
  return cache;
}

export const listTools = (): Tool[] => tools().list;

export const outputSchemaOf = (name: string): Record<string, unknown> | undefined => tools().byName.get(name)?.outputSchema;
