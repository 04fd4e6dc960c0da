/**
 * The JSON Schema draft 2020-12 meta-schema, in one document: the official
 * vocabularies (core, applicator, unevaluated, validation, meta-data,
 * format-annotation, content, plus the deprecated `definitions` and
 * `dependencies`) with `$dynamicRef: "#meta"` written as `$ref: "#"`, which
 * means the same for a schema that does not extend the dialect and which
 * @cfworker/json-schema resolves (it does not implement `$dynamicRef`).
 * A schema the caller supplies is checked against it before any record is.
 */
const META = { $ref: "#" } as const;

export const META_SCHEMA_2020_12 = {
  type: ["object", "boolean"],
  properties: {
    // core
    $id: { $ref: "#/$defs/uriReferenceString", pattern: "^[^#]*#?$" },
    $schema: { $ref: "#/$defs/uriString" },
    $ref: { $ref: "#/$defs/uriReferenceString" },
    $anchor: { $ref: "#/$defs/anchorString" },
    $dynamicRef: { $ref: "#/$defs/uriReferenceString" },
    $dynamicAnchor: { $ref: "#/$defs/anchorString" },
    $vocabulary: { type: "object", propertyNames: { $ref: "#/$defs/uriString" }, additionalProperties: { type: "boolean" } },
    $comment: { type: "string" },
    $defs: { type: "object", additionalProperties: META },
    // applicator
    prefixItems: { $ref: "#/$defs/schemaArray" },
    items: META,
    contains: META,
    additionalProperties: META,
    properties: { type: "object", additionalProperties: META },
    patternProperties: { type: "object", additionalProperties: META, propertyNames: { format: "regex" } },
    dependentSchemas: { type: "object", additionalProperties: META },
    propertyNames: META,
    if: META,
    // biome-ignore lint/suspicious/noThenProperty: "then" is a JSON Schema keyword; this object is never awaited.
    then: META,
    else: META,
    allOf: { $ref: "#/$defs/schemaArray" },
    anyOf: { $ref: "#/$defs/schemaArray" },
    oneOf: { $ref: "#/$defs/schemaArray" },
    not: META,
    // unevaluated
    unevaluatedItems: META,
    unevaluatedProperties: META,
    // validation
    type: {
      anyOf: [{ $ref: "#/$defs/simpleTypes" }, { type: "array", items: { $ref: "#/$defs/simpleTypes" }, minItems: 1, uniqueItems: true }],
    },
    const: true,
    enum: { type: "array", items: true },
    multipleOf: { type: "number", exclusiveMinimum: 0 },
    maximum: { type: "number" },
    exclusiveMaximum: { type: "number" },
    minimum: { type: "number" },
    exclusiveMinimum: { type: "number" },
    maxLength: { $ref: "#/$defs/nonNegativeInteger" },
    minLength: { $ref: "#/$defs/nonNegativeInteger" },
    pattern: { type: "string", format: "regex" },
    maxItems: { $ref: "#/$defs/nonNegativeInteger" },
    minItems: { $ref: "#/$defs/nonNegativeInteger" },
    uniqueItems: { type: "boolean" },
    maxContains: { $ref: "#/$defs/nonNegativeInteger" },
    minContains: { $ref: "#/$defs/nonNegativeInteger" },
    maxProperties: { $ref: "#/$defs/nonNegativeInteger" },
    minProperties: { $ref: "#/$defs/nonNegativeInteger" },
    required: { $ref: "#/$defs/stringArray" },
    dependentRequired: { type: "object", additionalProperties: { $ref: "#/$defs/stringArray" } },
    // meta-data
    title: { type: "string" },
    description: { type: "string" },
    default: true,
    deprecated: { type: "boolean" },
    readOnly: { type: "boolean" },
    writeOnly: { type: "boolean" },
    examples: { type: "array", items: true },
    // format-annotation
    format: { type: "string" },
    // content
    contentEncoding: { type: "string" },
    contentMediaType: { type: "string" },
    contentSchema: META,
    // deprecated keywords the official meta-schema still describes
    definitions: { type: "object", additionalProperties: META },
    dependencies: { type: "object", additionalProperties: { anyOf: [META, { $ref: "#/$defs/stringArray" }] } },
  },
  $defs: {
    anchorString: { type: "string", pattern: "^[A-Za-z_][-A-Za-z0-9._]*$" },
    uriString: { type: "string", format: "uri" },
    uriReferenceString: { type: "string", format: "uri-reference" },
    schemaArray: { type: "array", minItems: 1, items: META },
    nonNegativeInteger: { type: "integer", minimum: 0 },
    simpleTypes: { enum: ["array", "boolean", "integer", "null", "number", "object", "string"] },
    stringArray: { type: "array", items: { type: "string" }, uniqueItems: true },
  },
};
