import { type CallToolResult, ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { CairnError } from "../domain/errors";
import { formatReadPosition, parseReadPosition, READ_POSITION_META_KEY, type ReadPosition } from "../domain/read-position";
import { invoke } from "../operations/invoke";
import { PAGING_GUIDE } from "../operations/operation";
import { findOperation } from "../operations/registry";
import { newCorrelationId, type RequestRuntime, type RequestSession } from "../platform/runtime";
import { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION_ID } from "./app/plan-view";
import { approvalElicitation } from "./approval-elicitation";
import { registerCompletions } from "./completions";
import { inProfile, type McpProfile } from "./profiles";
import { refuseCursor } from "./paging";
import { registerPrompts } from "./prompts";
import { registerResources } from "./resources";
import { registerSkills, SKILLS_EXTENSION_ID, skillUri } from "./skills";
import { appOnlyTool, listTools } from "./tools";

/** Where a 2026-07-28 request carries its client's capabilities. */
const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities";
import { SERVED_PROTOCOL_VERSIONS } from "./versions";

export const SERVER_INFO = { name: "cairn", title: "Cairn", version: "0.1.0" } as const;

/** Per profile: the core profile names only the tools it serves and the skills it has. */
const INSTRUCTIONS: Record<McpProfile, string> = {
  full:
    "Cairn keeps durable, org-scoped research state: skill executions (log_skill_execution), and their plans, " +
    "evidence and deliverables. Handles (executionId, planId) are scoped to your organization. To run research, " +
    `follow the prompt research (or the skill ${skillUri("full", "research")}); it leads to research-scan or research-deep, then research-output. ` +
    PAGING_GUIDE,
  core:
    "Cairn keeps durable, org-scoped research plans and their deliverables. Handles (planId) are scoped to your " +
    `organization. To run research, follow the prompt research (or the skill ${skillUri("core", "research")}); ` +
    "it leads to research-scan, then research-output. " +
    PAGING_GUIDE,
};

/**
 * Whether the client may be an MCP Apps host, whose view calls the app-only tools. On 2026-07-28 each request
 * carries its client's capabilities, so a client that did not declare the extension gets no app-only tool. On the
 * 2025 revisions the declaration was made once, at `initialize`, and this stateless server has none on a later
 * request: the app-only tools stay listed (marked `visibility: ["app"]`), since a host lets its view call only the
 * tools it was listed, and a host that honours the mark keeps them from its model.
 */
function mayHostApps(server: Server, meta: Record<string, unknown> | undefined): boolean {
  const perRequest = meta?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  const capabilities = perRequest ?? server.getClientCapabilities();
  if (!capabilities) return true;
  const extensions = capabilities.extensions;
  return typeof extensions === "object" && extensions !== null && MCP_APPS_EXTENSION_ID in extensions;
}

/** A tool error as the model reads it: the code, a message written by us, and a correlation id. */
export function toolError(error: CairnError, correlationId: string): CallToolResult {
  const body = {
    error: {
      code: error.code,
      message: error.message,
      correlationId,
      ...(error.details.issues ? { issues: error.details.issues } : {}),
      ...(error.details.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.details.retryAfterSeconds } : {}),
      ...(error.details.url ? { url: error.details.url } : {}),
    },
  };
  return { content: [{ type: "text", text: JSON.stringify(body) }], isError: true };
}

/** The caller's read position after the call, in the result's `_meta` (clients keep it; it is not shown to the model). */
function withReadPosition(result: CallToolResult, position: ReadPosition | null): CallToolResult {
  return position ? { ...result, _meta: { ...result._meta, [READ_POSITION_META_KEY]: formatReadPosition(position) } } : result;
}

/**
 * A fresh low-level MCP server for one request. The tool list is precomputed
 * (see tools.ts); `tools/call` goes through the same `invoke` as REST.
 */
export function createMcpServer(runtime: RequestRuntime, profile: McpProfile = "full"): Server {
  const server = new Server(SERVER_INFO, {
    supportedProtocolVersions: [...SERVED_PROTOCOL_VERSIONS],
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false, subscribe: false },
      prompts: { listChanged: false },
      completions: {},
      // MCP Apps: the plan view (ui://cairn/plan-view.html), linked from the tools that show a plan;
      // Skills (SEP-2640): the skills as skill:// resources, no optional directory reads.
      extensions: { [MCP_APPS_EXTENSION_ID]: { mimeTypes: [MCP_APP_MIME_TYPE] }, [SKILLS_EXTENSION_ID]: {} },
    },
    instructions: INSTRUCTIONS[profile],
    cacheHints: {
      "tools/list": { ttlMs: 300_000, cacheScope: "private" },
      "prompts/list": { ttlMs: 300_000, cacheScope: "private" },
      "resources/templates/list": { ttlMs: 300_000, cacheScope: "private" },
      "resources/list": { ttlMs: 0, cacheScope: "private" },
      "resources/read": { ttlMs: 0, cacheScope: "private" },
    },
  });
  // App-only tools go only to clients that declared MCP Apps: any other client would hand them to its model.
  server.setRequestHandler("tools/list", (request) => {
    refuseCursor(request.params);
    return { tools: mayHostApps(server, request.params?._meta) ? listTools(profile) : listTools(profile).filter((tool) => !appOnlyTool(tool)) };
  });
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const operation = findOperation(name);
    if (!operation || !inProfile(profile, name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const correlationId = newCorrelationId();
    const carrier = `_meta["${READ_POSITION_META_KEY}"]`;
    let session: RequestSession;
    try {
      // Reads go through a D1 session from the caller's position (or the primary); the result hands back the new one.
      session = await runtime.sessionContextFor(correlationId, parseReadPosition(request.params._meta?.[READ_POSITION_META_KEY], carrier), carrier);
    } catch (error) {
      if (error instanceof CairnError) return toolError(error, correlationId);
      throw error;
    }
    const { context, position } = session;
    const result = await invoke(operation, args, context, "mcp", runtime.record);
    const callResult: CallToolResult = result.ok
      ? {
          content: [{ type: "text", text: JSON.stringify(result.value) }],
          structuredContent: result.value as Record<string, unknown>,
        }
      : toolError(result.error, correlationId);
    const asked = approvalElicitation(callResult, ctx);
    if (asked) return asked;
    return server.projectCallToolResult(withReadPosition(callResult, position()), undefined);
  });
  registerResources(server, runtime, profile);
  registerPrompts(server, profile);
  registerSkills(server, profile);
  registerCompletions(server, runtime);
  return server;
}
