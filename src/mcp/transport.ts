import {
  type AuthInfo,
  createMcpHandler,
  hostHeaderValidationResponse,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  type JSONRPCMessage,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type McpServerFactory,
  originValidationResponse,
  ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { SERVED_PROTOCOL_VERSIONS, HOW_TO_SPEAK, unsupportedHeaderVersion } from "./versions";

const jsonRpcError = (code: number, message: string, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

/**
 * Resource not found is `-32002` in every 2025-era revision (and 2024-11-05); 2026-07-28 made it
 * `-32602`. The SDK answers `-32602` on both eras, marking the miss by `data` that is exactly
 * `{ uri }`; on the 2025 lane that answer gets the code its clients expect.
 */
function asLegacyResourceNotFound(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCErrorResponse(message) || message.error.code !== ProtocolErrorCode.InvalidParams) return message;
  const data = message.error.data as Record<string, unknown> | undefined;
  const onlyUri = typeof data === "object" && data !== null && typeof data.uri === "string" && Object.keys(data).length === 1;
  return onlyUri ? { ...message, error: { ...message.error, code: ProtocolErrorCode.ResourceNotFound } } : message;
}

export interface McpTransport {
  /**
   * `hostname`: this server's public hostname, the one non-local Host and Origin accepted;
   * `localHosts`: localhost is accepted too (development only).
   */
  fetch(request: Request, options: { authInfo: AuthInfo; parsedBody: unknown; hostname: string; localHosts: boolean }): Promise<Response>;
}

/**
 * Streamable HTTP for both protocol eras, stateless, on SDK v2:
 * - 2026-07-28 requests go to the SDK's `createMcpHandler` (one fresh server per request);
 * - 2025-era requests get a fresh server on a sessionless transport that answers with
 *   plain JSON rather than a one-event SSE stream: none of our tools stream, and JSON
 *   framing is what makes a call cheap;
 * both after the DNS-rebinding checks the transport spec requires: a present `Origin`
 * must be this server or a local app (403 otherwise), and `Host` must be this server.
 * CORS headers are added by the OAuth provider in front.
 */
export function createMcpTransport(factory: McpServerFactory): McpTransport {
  const modern = createMcpHandler(factory, { legacy: "reject", responseMode: "auto" });

  async function serveLegacy(request: Request, authInfo: AuthInfo, parsedBody: unknown): Promise<Response> {
    // Stateless: no session to open a stream on (GET) or to end (DELETE). The modern lane answers the same.
    if (request.method !== "POST") return jsonRpcError(-32000, "Method not allowed: /mcp takes POST only.", 405, { allow: "POST" });
    const server = await factory({ era: "legacy", authInfo, requestInfo: request });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // No session means no channel back to the client: a server-to-client request fails at once
    // instead of waiting for an answer that cannot come.
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      if (isJSONRPCRequest(message)) {
        transport.onmessage?.({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: "Server-to-client requests need the 2026-07-28 protocol." } });
        return;
      }
      await send(asLegacyResourceNotFound(message), options);
    };
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { authInfo, parsedBody });
    } finally {
      await Promise.allSettled([transport.close(), server.close()]);
    }
  }

  return {
    async fetch(request, { authInfo, parsedBody, hostname, localHosts }) {
      const rejectedHost = hostHeaderValidationResponse(request, localHosts ? [...localhostAllowedHostnames(), hostname] : [hostname]);
      if (rejectedHost) return rejectedHost;
      const rejectedOrigin = originValidationResponse(request, localHosts ? [...localhostAllowedOrigins(), hostname] : [hostname]);
      if (rejectedOrigin) return rejectedOrigin;
      const unsupported = request.method === "POST" ? unsupportedHeaderVersion(request.headers.get("mcp-protocol-version"), parsedBody) : undefined;
      if (unsupported !== undefined) return unsupportedVersion(unsupported, (parsedBody as { id?: unknown }).id);
      if (await isLegacyRequest(request, parsedBody)) return serveLegacy(request, authInfo, parsedBody);
      return listServedVersions(await modern.fetch(request, { authInfo, parsedBody }), parsedBody);
    },
  };
}

/** 400 -32022 UnsupportedProtocolVersion: the versions served and how to speak to Cairn, as the SDK's own refusals read after `listServedVersions`. */
const unsupportedVersion = (requested: string, id: unknown) =>
  new Response(
    JSON.stringify({
      jsonrpc: "2.0",
      id: typeof id === "string" || typeof id === "number" ? id : null,
      error: {
        code: ProtocolErrorCode.UnsupportedProtocolVersion,
        message: `Unsupported protocol version for this request: ${requested}. ${HOW_TO_SPEAK}`,
        data: { supported: [...SERVED_PROTOCOL_VERSIONS], requested },
      },
    }),
    { status: 400, headers: { "content-type": "application/json" } },
  );

/**
 * The SDK's modern handler names only modern revisions in `server/discover` and in
 * `-32022` UnsupportedProtocolVersion errors, though this endpoint also serves the
 * 2025 era through `initialize` (and its -32022 message then names a version the list holds). The specification's own example lists both
 * (`"supported": ["2026-07-28", "2025-11-25"]`): a client that speaks only a 2025
 * revision learns from either answer that it can fall back. Only those two answers
 * are read and rewritten; every other response passes through untouched.
 */
async function listServedVersions(response: Response, parsedBody: unknown): Promise<Response> {
  const discover = typeof parsedBody === "object" && parsedBody !== null && (parsedBody as { method?: unknown }).method === "server/discover";
  if (!(discover || response.status === 400) || !response.headers.get("content-type")?.includes("application/json")) return response;
  const text = await response.text();
  let message: { result?: { supportedVersions?: unknown }; error?: { code?: unknown; message?: unknown; data?: { supported?: unknown; requested?: unknown } } };
  try {
    message = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  let changed = false;
  if (discover && Array.isArray(message.result?.supportedVersions)) {
    message.result.supportedVersions = [...SERVED_PROTOCOL_VERSIONS];
    changed = true;
  }
  if (message.error?.code === -32022 && message.error.data && Array.isArray(message.error.data.supported)) {
    message.error.data.supported = [...SERVED_PROTOCOL_VERSIONS];
    // The SDK's own words ("Unsupported protocol version: 2025-11-25") would contradict the list for a 2025 revision
    // sent the 2026 way: the message says how to reach Cairn instead.
    const requested = typeof message.error.data.requested === "string" ? message.error.data.requested : "none";
    message.error.message = `Unsupported protocol version for this request: ${requested}. ${HOW_TO_SPEAK}`;
    changed = true;
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(changed ? JSON.stringify(message) : text, { status: response.status, statusText: response.statusText, headers });
}
