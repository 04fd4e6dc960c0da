import { ERROR_CODES } from "../domain/errors";
import { SCOPE_DESCRIPTIONS } from "../domain/scopes";
import { jsonSchemaOf } from "../operations/json-schema";
import { type AnyOperation, PAGING_GUIDE } from "../operations/operation";
import { READ_POSITION_HEADER } from "../domain/read-position";
import { OPERATIONS } from "../operations/registry";
import { REST_BASE } from "./app";
import { orgDataOpenApiPaths } from "./org-data";
import { notificationsOpenApiPaths } from "./notifications";
import { webhooksOpenApiPaths } from "./webhooks";
import { orgSettingsOpenApiPaths } from "./org-settings";
import { orgSsoOpenApiPaths } from "./org-sso";
import { sourceRecheckOpenApiPaths } from "./source-recheck";
import { scheduleOpenApiPaths } from "./schedules";
import { promptsOpenApiPaths } from "./prompts";
import { outputDownloadOpenApiPaths } from "./output-download";
import { sharesOpenApiPaths } from "./shares";
import { reviewAssigneeOpenApiPaths } from "./review-assignee";
import { commentsOpenApiPaths } from "./comments";

const PROBLEM = {
  type: "object",
  required: ["type", "title", "status", "detail", "code", "correlationId"],
  properties: {
    type: { type: "string" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    code: { type: "string", enum: [...ERROR_CODES] },
    correlationId: { type: "string" },
    issues: {
      type: "array",
      items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } } },
    },
    requiredScopes: {
      type: "array",
      items: { type: "string" },
      description: "insufficient_scope: the scope the credential lacks (the WWW-Authenticate challenge names it too)",
    },
  },
};

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

function pathItem(operation: AnyOperation) {
  const input = jsonSchemaOf(operation.input, "input") as { properties?: Record<string, unknown>; required?: string[] };
  const properties = input.properties ?? {};
  const required = new Set(input.required ?? []);
  const pathParams = [...operation.rest.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "");
  const inBody = operation.rest.method !== "get" && operation.rest.method !== "delete";
  const parameters = Object.entries(properties)
    .filter(([name]) => pathParams.includes(name) || !inBody)
    .map(([name, schema]) => ({
      name,
      in: pathParams.includes(name) ? "path" : "query",
      required: pathParams.includes(name) || required.has(name),
      schema,
    }));
  const bodySchema = inBody
    ? {
        ...input,
        properties: Object.fromEntries(Object.entries(properties).filter(([name]) => !pathParams.includes(name))),
        required: [...required].filter((name) => !pathParams.includes(name)),
      }
    : undefined;
  return {
    operationId: operation.name,
    summary: operation.title,
    description: operation.description,
    security: [{ oauth2: [operation.scope] }, { apiKey: [] }],
    "x-required-scope": operation.scope,
    parameters: [...parameters, { $ref: "#/components/parameters/ReadPosition" }],
    ...(bodySchema ? { requestBody: { required: true, content: { "application/json": { schema: bodySchema } } } } : {}),
    responses: {
      ...successResponses(operation),
      "400": problem("The input is not valid"),
      "401": { description: "Missing, expired or revoked credential" },
      "403": {
        ...problem("The credential lacks the operation's scope"),
        headers: { "WWW-Authenticate": { description: 'The step-up challenge: error="insufficient_scope", the scope, the resource metadata URL', schema: { type: "string" } } },
      },
      "404": problem("Not found (or not in your organization)"),
      "409": problem(
        operation.annotations.readOnlyHint
          ? "Conflict or invalid state transition; org_erasing once the organization's erasure has begun"
          : operation.name === "store_research_output"
            ? "Conflict or invalid state transition; sources_pending while a cited source of a strict plan is still being checked (retry after Retry-After); import_in_progress while an import runs into the organization (retry after Retry-After); org_erasing once its erasure has begun"
            : "Conflict or invalid state transition; import_in_progress while an import runs into the organization (retry after Retry-After); org_erasing once its erasure has begun",
      ),
      "500": problem("Unexpected error; quote the correlation id"),
    },
  };
}

/** 200; for a create 201 with `Location` (and 200 too where the same call may change an existing record instead). */
function successResponses(operation: AnyOperation) {
  const output = { "application/json": { schema: jsonSchemaOf(operation.output, "output") } };
  const readPosition = { [READ_POSITION_HEADER]: { $ref: "#/components/headers/ReadPosition" } };
  const { creates } = operation.rest;
  if (!creates) return { "200": { description: "Success", headers: readPosition, content: output } };
  const location = creates.location ? { Location: { description: "Where what the call made can be read", schema: { type: "string" } } } : {};
  return {
    "201": { description: "Created", headers: { ...readPosition, ...location }, content: output },
    ...(creates.isNew ? { "200": { description: "Updated an existing record", headers: readPosition, content: output } } : {}),
  };
}

/** The OpenAPI 3.1 document of the REST face, generated from the same registry as the MCP tools. */
export function openApiDocument(origin: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of OPERATIONS) {
    const path = `${REST_BASE}${operation.rest.path}`;
    paths[path] = { ...paths[path], [operation.rest.method]: pathItem(operation) };
  }
  Object.assign(paths, promptsOpenApiPaths(REST_BASE, problem), orgDataOpenApiPaths(REST_BASE, problem), webhooksOpenApiPaths(REST_BASE, problem), notificationsOpenApiPaths(REST_BASE, problem), orgSettingsOpenApiPaths(REST_BASE, problem), orgSsoOpenApiPaths(REST_BASE, problem), sourceRecheckOpenApiPaths(REST_BASE, problem), scheduleOpenApiPaths(REST_BASE, problem), outputDownloadOpenApiPaths(REST_BASE, problem), sharesOpenApiPaths(REST_BASE, problem), reviewAssigneeOpenApiPaths(REST_BASE, problem));
  Object.assign(paths, commentsOpenApiPaths(REST_BASE, problem));
  return {
    openapi: "3.1.0",
    info: {
      title: "Cairn REST API",
      version: "1.0.0",
      description: `Durable, org-scoped research plans. Every operation is also an MCP tool at /mcp. ${PAGING_GUIDE}`,
    },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: { Problem: PROBLEM },
      parameters: {
        ReadPosition: {
          name: READ_POSITION_HEADER,
          in: "header",
          required: false,
          description: `The ${READ_POSITION_HEADER} header of your previous response, unchanged: the database's read replicas may then answer, and you still read your own writes. Without it, the primary answers.`,
          schema: { type: "string", maxLength: 128 },
        },
      },
      headers: {
        ReadPosition: {
          description: "Your read position in the organization's database after this call: send it back with the next request.",
          schema: { type: "string" },
        },
      },
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          flows: {
            authorizationCode: {
              authorizationUrl: `${origin}/authorize`,
              tokenUrl: `${origin}/oauth/token`,
              refreshUrl: `${origin}/oauth/token`,
              scopes: SCOPE_DESCRIPTIONS,
            },
          },
        },
        apiKey: { type: "http", scheme: "bearer", description: "An API key (cairn_…) from `npm run cairn -- key create`" },
      },
    },
  };
}
