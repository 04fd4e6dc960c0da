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
