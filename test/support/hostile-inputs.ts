import fc from "fast-check";
import { jsonSchemaOf } from "../../src/operations/json-schema";
import type { AnyOperation } from "../../src/operations/operation";

/** Handles of one org's records, by the parameter names operations use for them. */
export interface OrgHandles {
  planId: string;
  stepId: string;
  executionId: string;
  artifactId: string;
  outputId: string;
  sessionId: string;
}

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  items?: PropertySchema;
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

/** Objects and arrays nested `depth` levels. */
export function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let level = 0; level < depth; level++) value = level % 2 ? { next: value } : [value];
  return value;
}

/** Text no caller should be able to break anything with, and the other org's handles. */
function hostileStrings(foreign: OrgHandles): unknown[] {
  return [
    "",
    "x".repeat(120_000),
    "\u0000\u0001\u001b[31mred\u0007",
    "lone \ud800 surrogate",
    "\u202eevil.exe\u202c right-to-left",
    "__proto__",
    "NaN",
    "-0",
    "<script>alert(1)</script>",
    "' OR 1=1; DROP TABLE artifacts; --",
    "%ZZ%00",
    "plan_0000000000000000000000000",
    ...Object.values(foreign),
  ];
}

/** Shapes no caller should be able to break anything with: depth past every limit, prototype keys, extremes. */
const HOSTILE_STRUCTURES: unknown[] = [
  nested(40),
  nested(200),
  nested(1_100),
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
  Array.from({ length: 1_000 }, () => "x"),
  [],
  {},
  null,
];

const HOSTILE_NUMBERS: unknown[] = [1e308, -1e308, -1, 0, 1.5, "Infinity"];

/** The hostile values that fit where a property of this type goes (and so reach furthest), plus a few that do not. */
function hostileFor(schema: PropertySchema, foreign: OrgHandles): unknown[] {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "string") return [...hostileStrings(foreign), 1e308, nested(40)];
  if (type === "number" || type === "integer") return [...HOSTILE_NUMBERS, "NaN"];
  if (type === "boolean") return ["true", 0, null];
  if (type === "array") return [...HOSTILE_STRUCTURES, [nested(1_100)], hostileStrings(foreign)];
  // Objects and open values (metadata, results, content, records…): every shape and some text.
  return [...HOSTILE_STRUCTURES, ...hostileStrings(foreign).slice(0, 4)];
}

/** Every hostile value of every kind, for random mixes. */
export function hostileValues(foreign: OrgHandles): unknown[] {
  return [...hostileStrings(foreign), ...HOSTILE_STRUCTURES, ...HOSTILE_NUMBERS, true];
}

/** A value of the declared shape, so the handler gets past validation and the hostile fields reach deeper code. */
function plausible(name: string, schema: PropertySchema, own: OrgHandles): unknown {
  if (schema.enum?.length) return schema.enum[0];
  const handle = (own as unknown as Record<string, string>)[name];
  if (handle) return handle;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return name.toLowerCase().includes("url") ? "https://example.com/source" : `tidal energy ${name}`;
    case "number":
      return 0.5;
    case "integer":
      return 1;
    case "boolean":
      return false;
    case "array":
      return schema.items ? [plausible(name, schema.items, own)] : [];
    case "object": {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = plausible(key, schema.properties?.[key] ?? {}, own);
      return out;
    }
    default:
      return "tidal energy";
  }
}

/**
 * Inputs for one operation built from its own schema. First systematically:
 * for each property, each hostile value of its kind, with the required
 * properties plausible, so the call gets past the other checks and the
 * hostile value reaches as far as it can; open JSON fields again on an update
 * of the org's own records (their handles in the id parameters). Then `randomCount` random mixes (fast-check, deterministic for a seed),
 * the input itself nested past every limit, and one all-plausible input.
 */
export function hostileInputs(
  operation: AnyOperation,
  own: OrgHandles,
  foreign: OrgHandles,
  randomCount: number,
  seed: number,
  ordinary: Record<string, unknown> = {},
): unknown[] {
  const schema = jsonSchemaOf(operation.input, "input") as PropertySchema;
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const isHandle = (name: string) => name in own;
  // Two baselines: the required fields (and what the handler needs beyond the schema, `ordinary`), which mostly
  // creates; and those plus the org's own handles for optional id parameters (updates of existing records: a bad
  // value merged into a record every read touches).
  const minimal = {
    ...Object.fromEntries(properties.filter(([name]) => required.has(name)).map(([name, property]) => [name, plausible(name, property, own)])),
    ...ordinary,
  };
  const linked = { ...minimal, ...Object.fromEntries(properties.filter(([name]) => isHandle(name)).map(([name, property]) => [name, plausible(name, property, own)])) };
  const baseline = Object.fromEntries(properties.map(([name, property]) => [name, plausible(name, property, own)]));
  const open = (property: PropertySchema) => property.type === undefined || property.type === "object" || property.type === "array";
  const systematic = properties.flatMap(([name, property]) => [
    ...hostileFor(property, foreign).map((value) => ({ ...minimal, [name]: value })),
    ...(open(property) && !isHandle(name) && JSON.stringify(linked) !== JSON.stringify(minimal) ? HOSTILE_STRUCTURES.map((value) => ({ ...linked, [name]: value })) : []),
  ]);
  const everything = hostileValues(foreign);
  const shape = Object.fromEntries(properties.map(([name, property]) => [name, fc.oneof(fc.constantFrom(...everything), fc.constant(plausible(name, property, own)))]));
  const random = fc.sample(fc.record(shape, { requiredKeys: schema.required ?? [] }), { numRuns: randomCount, seed });
  return [...systematic, ...random, nested(1_100), baseline];
}
