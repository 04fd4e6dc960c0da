import { type CallToolResult, ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { CairnError } from "../domain/errors";
import { formatReadPosition, parseReadPosition, READ_POSITION_META_KEY, type ReadPosition } from "../domain/read-position";
import { invoke } from "../operations/invoke";
import { PAGING_GUIDE } from "../operations/operation";
import { findOperation } from "../operations/registry";
import { newCorrelationId, type RequestRuntime, type RequestSession } from "../platform/runtime";
import { MCP_APP_MIME_TYPE } from "./app/plan-view";
import { approvalElicitation } from "./approval-elicitation";
import { registerCompletions } from "./completions";
import { inProfile, type McpProfile } from "./profiles";
import { refuseCursor } from "./paging";
import { registerPrompts } from "./prompts";
import { registerResources } from "./resources";
import { listTools } from "./tools";
import { SERVED_PROTOCOL_VERSIONS } from "./versions";

export const SERVER_INFO = { name: "cairn", title: "Cairn", version: "0.1.0" } as const;

const INSTRUCTIONS =
  "Cairn keeps durable, org-scoped research state: skill executions (log_skill_execution), and their plans, " +
  "evidence and deliverables. Handles (executionId, planId) are scoped to your organization. To run research, " +
  "follow the prompt research; it leads to research-scan or research-deep, then research-output. " +
  PAGING_GUIDE;

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
      // MCP Apps: the plan view (ui://cairn/plan-view.html), linked from the tools that show a plan.
      extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MCP_APP_MIME_TYPE] } },
    },
    instructions: INSTRUCTIONS,
    cacheHints: {
      "tools/list": { ttlMs: 300_000, cacheScope: "private" },
      "prompts/list": { ttlMs: 300_000, cacheScope: "private" },
      "resources/templates/list": { ttlMs: 300_000, cacheScope: "private" },
      "resources/list": { ttlMs: 0, cacheScope: "private" },
      "resources/read": { ttlMs: 0, cacheScope: "private" },
    },
  });
  server.setRequestHandler("tools/list", (request) => {
    refuseCursor(request.params);
    return { tools: listTools(profile) };
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
  registerResources(server, runtime);
  registerPrompts(server);
  registerCompletions(server, runtime);
  return server;
}
