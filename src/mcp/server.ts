import { type CallToolResult, ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import type { CairnError } from "../domain/errors";
import { invoke } from "../operations/invoke";
import { findOperation } from "../operations/registry";
import { newCorrelationId, type RequestRuntime } from "../platform/runtime";
import { MCP_APP_MIME_TYPE } from "./app/plan-view";
import { registerCompletions } from "./completions";
import { inProfile, type McpProfile } from "./profiles";
import { registerPrompts } from "./prompts";
import { registerResources } from "./resources";
import { listTools } from "./tools";

export const SERVER_INFO = { name: "cairn", title: "Cairn", version: "0.1.0" } as const;

const INSTRUCTIONS =
  "Cairn keeps durable, org-scoped research state: skill executions (log_skill_execution), and their plans, " +
  "evidence and deliverables. Handles (executionId, planId) are scoped to your organization. To run research, " +
  "follow the prompt research; it leads to research-scan or research-deep, then research-output. Lists are paged: " +
  "pass nextCursor back as cursor. Clipped text reads on with offset = nextOffset.";

/** A tool error as the model reads it: the code, a message written by us, and a correlation id. */
export function toolError(error: CairnError, correlationId: string): CallToolResult {
  const body = {
    error: {
      code: error.code,
      message: error.message,
      correlationId,
      ...(error.details.issues ? { issues: error.details.issues } : {}),
      ...(error.details.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.details.retryAfterSeconds } : {}),
    },
  };
  return { content: [{ type: "text", text: JSON.stringify(body) }], isError: true };
}

/**
 * A fresh low-level MCP server for one request. The tool list is precomputed
 * (see tools.ts); `tools/call` goes through the same `invoke` as REST.
 */
export function createMcpServer(runtime: RequestRuntime, profile: McpProfile = "full"): Server {
  const server = new Server(SERVER_INFO, {
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
  server.setRequestHandler("tools/list", () => ({ tools: listTools(profile) }));
  server.setRequestHandler("tools/call", async (request) => {
    const { name, arguments: args } = request.params;
    const operation = findOperation(name);
    if (!operation || !inProfile(profile, name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const correlationId = newCorrelationId();
    const result = await invoke(operation, args, await runtime.contextFor(correlationId), "mcp", runtime.record);
    const callResult: CallToolResult = result.ok
      ? {
          content: [{ type: "text", text: JSON.stringify(result.value) }],
          structuredContent: result.value as Record<string, unknown>,
        }
      : toolError(result.error, correlationId);
    return server.projectCallToolResult(callResult, undefined);
  });
  registerResources(server, runtime);
  registerPrompts(server);
  registerCompletions(server, runtime);
  return server;
}
