/** The stateless revision served through `createMcpHandler`. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/**
 * Every protocol version this endpoint serves, newest first: the modern revision and the 2025-era ones the legacy
 * lane negotiates through `initialize`. Only revisions served whole: 2025-03-26 is not among them, since its
 * JSON-RPC batches are refused (one HTTP request is one call, handler.ts), and neither is the HTTP+SSE era
 * (2024-11-05). An `initialize` asking for another revision is answered with 2025-11-25, as the specification says
 * (the server answers with a version it supports; the client decides whether to go on).
 */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, "2025-11-25", "2025-06-18"];

/** What a client that named a version Cairn does not serve is told: how to speak to Cairn instead. */
export const HOW_TO_SPEAK =
  "Cairn speaks 2026-07-28 (each request names it in _meta io.modelcontextprotocol/protocolVersion and the MCP-Protocol-Version header) " +
  "and 2025-11-25 or 2025-06-18 after an initialize handshake (requests without that _meta).";

/**
 * The version a request's `MCP-Protocol-Version` header names when this endpoint serves none such, else
 * undefined. Every request but `initialize` (which negotiates, whatever its header says) is answered by its
 * header's version: on 2026-07-28 an unsupported one is refused with -32022 UnsupportedProtocolVersion
 * listing the supported versions, whatever the body holds, and the 2025 lane refuses one with 400 too.
 * Notifications are left to the lanes (they have no id to answer).
 */
export function unsupportedHeaderVersion(header: string | null, body: unknown): string | undefined {
  if (header === null) return undefined;
  const version = header.trim();
  if (SERVED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  if (typeof body !== "object" || body === null) return undefined;
  const { method, id } = body as { method?: unknown; id?: unknown };
  if (typeof method !== "string" || method === "initialize" || id === undefined) return undefined;
  return version;
}
