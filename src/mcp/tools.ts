import type { Tool } from "@modelcontextprotocol/server";
import { jsonSchemaOf } from "../operations/json-schema";
import { LIST_AS_DESCRIPTION } from "../operations/listing";
import type { AnyOperation, CoreListing } from "../operations/operation";
import { OPERATIONS } from "../operations/registry";
import { PLAN_VIEW_URI } from "./app/plan-view";
import { appOnly, inProfile, type McpProfile } from "./profiles";

/**
 * Keywords the server enforces but the model does not need to read: every
 * tool's schema is paid for in the assistant's context on every turn. Input
 * that breaks one of them gets a validation error naming the field and the
 * limit, so dropping them from the listing loses no guidance that matters.
 * The REST face's OpenAPI document keeps them all.
 */
const ENFORCED_ONLY = new Set(["minLength", "maxLength", "minItems", "maxItems", "pattern", "$schema"]);

/**
 * Also left out, for the same reason: an integer's bounds (a count, a step
 * number, a page size: the validation error names the limit; a number's bounds,
 * such as confidence 0–1, stay, since they say what the scale is), `items: {}`
 * (any item is what an array without `items` means), and `type: "string"` beside
 * an enum of strings (the values say it).
 */
function enforcedOnly(key: string, value: unknown, node: Record<string, unknown>, nested: boolean): boolean {
  if (ENFORCED_ONLY.has(key)) return true;
  // A closed top-level object tells the model not to invent arguments; nested ones are enforced quietly.
  if (nested && key === "additionalProperties" && value === false) return true;
  if ((key === "minimum" || key === "maximum") && node.type === "integer") return true;
  if (key === "items" && typeof value === "object" && value !== null && Object.keys(value).length === 0) return true;
  return key === "type" && value === "string" && Array.isArray(node.enum) && node.enum.every((item) => typeof item === "string");
}

export function compactSchema(schema: unknown, nested = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => compactSchema(item, true));
  if (typeof schema !== "object" || schema === null) return schema;
  const node = schema as Record<string, unknown>;
  if (node[LIST_AS_DESCRIPTION]) return { type: node.type, description: node.description };
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !enforcedOnly(key, value, node, nested))
      .map(([key, value]) => [key, key === "properties" || key === "$defs" ? mapValues(value, (v) => compactSchema(v, true)) : compactSchema(value, true)]),
  );
}

const mapValues = (record: unknown, fn: (value: unknown) => unknown) =>
  Object.fromEntries(Object.entries(record as Record<string, unknown>).map(([key, value]) => [key, fn(value)]));

/**
 * A tool as `tools/list` shows it. No `outputSchema`: results still carry
 * `structuredContent` (and its JSON as text), but advertising every result
 * shape would more than double the listing's token cost; the shapes are
 * documented in the OpenAPI document and checked by the tests.
 */
function toTool(operation: AnyOperation, profile: McpProfile): Tool {
  const schema = compactSchema(jsonSchemaOf(operation.input, "input")) as Tool["inputSchema"];
  const core = profile === "core" ? operation.core : undefined;
  return {
    name: operation.name,
    title: operation.title,
    description: core?.description ?? operation.description,
    inputSchema: core ? withoutHidden(schema, core, operation.name) : schema,
    annotations: listedAnnotations(operation.annotations),
    ...appMeta(operation, profile),
  };
}

/** ext-apps' RESOURCE_URI_META_KEY (deprecated in the specification, still read by older hosts). */
const LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";

/**
 * MCP Apps metadata (`io.modelcontextprotocol/ui`); clients without MCP Apps ignore `_meta`.
 * A tool that shows a plan links the plan view, under `ui.resourceUri` and under the older flat
 * `ui/resourceUri` key that ext-apps' own registerAppTool also sets for hosts from before the
 * nested form. A tool the view needs and the model does not is declared for the app only.
 */
function appMeta(operation: AnyOperation, profile: McpProfile): Pick<Tool, "_meta"> {
  if (appOnly(profile, operation.name)) return { _meta: { ui: { visibility: ["app"] } } };
  if (operation.appView === "plan") return { _meta: { ui: { resourceUri: PLAN_VIEW_URI }, [LEGACY_RESOURCE_URI_KEY]: PLAN_VIEW_URI } };
  return {};
}


/** Whether a tool is for the app alone (`_meta.ui.visibility` without "model"). */
export const appOnlyTool = (tool: Tool): boolean => !modelVisible(tool);

/** Whether a host that knows MCP Apps visibility gives this tool to the model (the default is model and app). */
export const modelVisible = (tool: Tool): boolean => {
  const visibility = (tool._meta?.ui as { visibility?: string[] } | undefined)?.visibility;
  return visibility === undefined || visibility.includes("model");
};

/**
 * The hints as listed. idempotentHint only means something for a tool that
 * changes things (MCP's tool annotations), so a read-only tool leaves it out;
 * readOnlyHint and destructiveHint stay on every tool, as connector directories require.
 */
function listedAnnotations({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint }: AnyOperation["annotations"]): NonNullable<Tool["annotations"]> {
  return readOnlyHint ? { readOnlyHint, destructiveHint, openWorldHint } : { readOnlyHint, destructiveHint, idempotentHint, openWorldHint };
}

type JsonObject = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

/** The schema without the inputs the core listing leaves out; hiding a required input is a mistake in the operation's file. */
function withoutHidden(schema: Tool["inputSchema"], core: CoreListing, name: string): Tool["inputSchema"] {
  const copy = structuredClone(schema) as JsonObject & { $defs?: Record<string, JsonObject> };
  for (const path of core.hide ?? []) {
    const [first, second] = path.split(".");
    const node = second === undefined ? copy : copy.$defs?.[first ?? ""];
    const property = second ?? first ?? "";
    if (!node?.properties || !(property in node.properties)) throw new Error(`${name}: the core listing hides ${path}, which the schema does not have`);
    if (node.required?.includes(property)) throw new Error(`${name}: the core listing cannot hide the required input ${path}`);
    delete node.properties[property];
  }
  for (const property of core.require ?? []) {
    if (!copy.properties || !(property in copy.properties)) throw new Error(`${name}: the core listing requires ${property}, which the schema does not have`);
    copy.required = [...new Set([...(copy.required ?? []), property])];
  }
  return copy as Tool["inputSchema"];
}

const listed = new Map<McpProfile, Tool[]>();

/** The same for every caller and fixed for the isolate's life, so converted from zod once per profile. */
export const listTools = (profile: McpProfile = "full"): Tool[] => {
  let tools = listed.get(profile);
  if (!tools) {
    tools = OPERATIONS.filter((operation) => inProfile(profile, operation.name)).map((operation) => toTool(operation, profile));
    listed.set(profile, tools);
  }
  return tools;
};
