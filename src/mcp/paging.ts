import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

/**
 * Cairn's MCP lists (tools, prompts, resources, resource templates) come whole, in one page, and never hand out a
 * `nextCursor`: any cursor a client sends is one Cairn did not issue. The specification's answer to an invalid
 * cursor is -32602 (Invalid params), not the whole list again as if the cursor were the first page.
 */
export function refuseCursor(params: { cursor?: unknown } | undefined): void {
  if (params?.cursor === undefined) return;
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: Cairn issued no cursor for this list, which comes whole in one page; list again without one.");
}
