import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type Server } from "@modelcontextprotocol/server";
import { invoke } from "../operations/invoke";
import { findOperation } from "../operations/registry";
import { newCorrelationId, type RequestRuntime } from "../platform/runtime";
import { MCP_APP_MIME_TYPE, PLAN_VIEW_HTML, PLAN_VIEW_META, PLAN_VIEW_URI, planViewResource } from "./app/plan-view";
import { refuseCursor } from "./paging";
import type { McpProfile } from "./profiles";
import { isSkillUri, readSkillFile, skillResources } from "./skills";

/**
 * Plans, artifacts and deliverables as MCP resources, for clients that attach
 * context by browsing resources. Every read runs the matching read operation
 * through `invoke`, so scope, org isolation and the tool-call log apply as for tools.
 */
const KINDS = [
  { kind: "plans", operation: "get_plan_status", param: "planId", title: "Research plan", list: "list_active_plans", listKey: "plans", idKey: "planId", nameKey: "name" },
  { kind: "artifacts", operation: "get_artifact", param: "artifactId", title: "Research artifact", list: "list_artifacts", listKey: "artifacts", idKey: "artifactId", nameKey: "title" },
  { kind: "outputs", operation: "get_research_output", param: "outputId", title: "Research output", list: "list_research_outputs", listKey: "outputs", idKey: "outputId", nameKey: "title" },
] as const;

/** The resource templates and the variable each one takes (also what completion/complete completes). */
export const RESOURCE_TEMPLATES = KINDS.map(({ kind, param }) => ({ kind, variable: param, uriTemplate: `cairn://${kind}/{${param}}` }));

const URI = /^cairn:\/\/(plans|artifacts|outputs)\/([A-Za-z0-9_-]{1,64})$/;

/** Runs a read operation; `uri` is the resource it serves (a not-found names it), absent for the lists. */
async function run(runtime: RequestRuntime, name: string, args: Record<string, unknown>, uri?: string): Promise<Record<string, unknown>> {
  const operation = findOperation(name);
  if (!operation) throw new ProtocolError(ProtocolErrorCode.InternalError, `No operation ${name}`);
  const result = await invoke(operation, args, await runtime.contextFor(newCorrelationId()), "mcp", runtime.record);
  if (result.ok) return result.value as Record<string, unknown>;
  if (result.error.code === "not_found" && uri !== undefined) throw new ResourceNotFoundError(uri, result.error.message);
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${result.error.code}: ${result.error.message}`);
}

export function registerResources(server: Server, runtime: RequestRuntime, profile: McpProfile = "full"): void {
  server.setRequestHandler("resources/templates/list", (request) => {
    refuseCursor(request.params);
    return {
      resourceTemplates: KINDS.map(({ kind, param, title }) => ({
        uriTemplate: `cairn://${kind}/{${param}}`,
        name: kind,
        title,
        mimeType: "application/json",
      })),
    };
  });

  server.setRequestHandler("resources/list", async (request) => {
    refuseCursor(request.params);
    const lists = await Promise.all(KINDS.map(async (spec) => ({ spec, body: await run(runtime, spec.list, { limit: 20 }) })));
    return {
      resources: [planViewResource, ...(await skillResources(profile)), ...lists.flatMap(({ spec, body }) =>
        ((body[spec.listKey] ?? []) as Record<string, string>[]).map((item) => ({
          uri: `cairn://${spec.kind}/${item[spec.idKey]}`,
          name: String(item[spec.nameKey] ?? item[spec.idKey]),
          title: spec.title,
          mimeType: "application/json",
        })),
      )],
    };
  });

  server.setRequestHandler("resources/read", async (request) => {
    const { uri } = request.params;
    if (uri === PLAN_VIEW_URI) return { contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text: PLAN_VIEW_HTML, _meta: PLAN_VIEW_META }] };
    if (isSkillUri(uri)) {
      const file = await readSkillFile(profile, uri);
      if (!file) throw new ResourceNotFoundError(uri, `No skill file at ${uri.slice(0, 200)}: skills/list names every file this endpoint serves`);
      return { contents: [file] };
    }
    const match = URI.exec(uri);
    const spec = match && KINDS.find((candidate) => candidate.kind === match[1]);
    if (!match || !spec) throw new ResourceNotFoundError(uri, `Not a Cairn resource URI: use cairn://plans|artifacts|outputs/<id>`);
    const body = await run(runtime, spec.operation, { [spec.param]: match[2] }, uri);
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(body) }] };
  });
}
