import { payloadTooLarge } from "../domain/errors";

/** The largest request body either face reads: the MCP SDK's own default bound. */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Reads a request body as text, refusing more than `maxBytes` before holding it
 * all in memory: a declared length over the bound is refused unread, and an
 * undeclared one is counted as it streams.
 */
export async function readBoundedText(request: Request, maxBytes = MAX_REQUEST_BODY_BYTES): Promise<string> {
  const tooLarge = () => payloadTooLarge(`The request body is larger than ${maxBytes} bytes.`);
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
