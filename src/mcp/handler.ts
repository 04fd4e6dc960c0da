import { insufficientScope } from "@cloudflare/workers-oauth-provider";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { admitCaller } from "../auth/admission";
import { protectedContext } from "../auth/credentials";
import { REQUEST_LIMIT_RETRY_AFTER_SECONDS } from "../domain/auth/request-limits";
import { CairnError } from "../domain/errors";
import { hasScope } from "../domain/scopes";
import { readBoundedText } from "../platform/request-body";
import type { Env } from "../env";
import { findOperation } from "../operations/registry";
import { type RequestRuntime, requestRuntime } from "../platform/runtime";
import { inProfile, type McpProfile, profileOf } from "./profiles";
import { createMcpServer } from "./server";
import { createMcpTransport } from "./transport";
import { MODERN_PROTOCOL_VERSION } from "./versions";

const RUNTIME_KEY = "cairn.runtime";
const PROFILE_KEY = "cairn.profile";

const transport = createMcpTransport(({ authInfo }) => {
  const runtime = authInfo?.extra?.[RUNTIME_KEY] as RequestRuntime | undefined;
  // The API handler below always sets it; a request without it never got past authentication.
  if (!runtime) throw new Error("MCP request without a verified caller");
  return createMcpServer(runtime, (authInfo?.extra?.[PROFILE_KEY] as McpProfile | undefined) ?? "full");
});

const jsonRpcError = (code: number, message: string, status: number, retryAfterSeconds?: number) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }), {
    status,
    headers: { "content-type": "application/json", ...(retryAfterSeconds ? { "retry-after": String(retryAfterSeconds) } : {}) },
  });

const RESPONSE_REFUSED =
  "Invalid Request: on 2026-07-28 clients send no JSON-RPC responses; the server sends no requests, and the answers to an input request go in the retried request's inputResponses.";

/** A JSON-RPC response (a result or an error for an id), as opposed to a request or a notification. */
const isJsonRpcResponse = (body: unknown): boolean =>
  typeof body === "object" && body !== null && !("method" in body) && "id" in body && ("result" in body || "error" in body);

const BATCH_REFUSED = "Invalid Request: JSON-RPC batches are not supported on any protocol version; send one message per HTTP request.";

/** The name of the tool a JSON-RPC body calls, if it is a `tools/call`. */
function calledTool(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  return method === "tools/call" && typeof params?.name === "string" ? params.name : undefined;
}

/**
 * `/mcp`, behind the OAuth provider. Scope is checked here, before the MCP layer,
 * so a token that lacks it gets the HTTP 403 step-up challenge MCP clients act on.
 */
export const mcpApiHandler = {
  async fetch(request: Request, env: Env, executionContext: ExecutionContext): Promise<Response> {
    const profile = profileOf(new URL(request.url).pathname);
    if (!profile) return jsonRpcError(-32601, "No MCP endpoint here: use /mcp (every tool) or /mcp/core (the core profile).", 404);
    const ctx = protectedContext(executionContext);
    const admission = await admitCaller(env, ctx, { requestOrigin: new URL(request.url).origin });
    if (!admission.ok) {
      if (admission.reason === "org_erasing") return jsonRpcError(-32000, admission.error.message, 409);
      return admission.reason === "rate_limited"
        ? jsonRpcError(-32000, "Too many requests for this credential; retry after the Retry-After delay.", 429, REQUEST_LIMIT_RETRY_AFTER_SECONDS)
        : new Response("Unauthorized", { status: 401 });
    }
    const { principal } = admission;
    let parsedBody: unknown;
    if (request.method === "POST") {
      // Read once, bounded; the MCP layer gets the parsed body and never reads the stream again.
      let text: string;
      try {
        text = await readBoundedText(request);
      } catch (error) {
        if (error instanceof CairnError) return jsonRpcError(-32600, error.message, 413);
        throw error;
      }
      try {
        parsedBody = JSON.parse(text);
      } catch {
        return jsonRpcError(-32700, "Parse error: the request body is not valid JSON.", 400);
      }
      // One HTTP request is one MCP message, on every protocol version. 2025-06-18 removed JSON-RPC
      // batches; 2025-03-26 defined them, but a stateless request's version is only its header, and a
      // request without one counts as 2025-03-26, so honouring them there would let any caller batch.
      // A batch would run many calls for one unit of the per-credential limit, and could not answer
      // the HTTP 403 step-up for one call among others. The SDK clients send one message per POST.
      if (Array.isArray(parsedBody)) return jsonRpcError(-32600, BATCH_REFUSED, 400);
      // On 2026-07-28 a client never sends a JSON-RPC response (the server sends no requests to answer): 400, -32600.
      // The 2025 lane accepts one with 202 as its transport says.
      if (isJsonRpcResponse(parsedBody) && request.headers.get("mcp-protocol-version") === MODERN_PROTOCOL_VERSION) {
        return jsonRpcError(-32600, RESPONSE_REFUSED, 400);
      }
      const operation = findOperation(calledTool(parsedBody) ?? "");
      if (operation && inProfile(profile, operation.name) && !hasScope(principal.scopes, operation.scope)) {
        return insufficientScope(ctx.auth, [operation.scope], `${operation.name} needs the ${operation.scope} scope`);
      }
    }
    const runtime = requestRuntime(env, ctx, principal);
    const authInfo: AuthInfo = {
      token: ctx.auth.token,
      clientId: principal.clientId ?? principal.apiKeyId ?? "",
      scopes: [...principal.scopes],
      expiresAt: ctx.auth.expiresAt,
      extra: { [RUNTIME_KEY]: runtime, [PROFILE_KEY]: profile },
    };
    return transport.fetch(request, { authInfo, parsedBody, hostname: runtime.hostname, localHosts: runtime.localHosts });
  },
};
