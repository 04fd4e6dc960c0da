import { payloadTooLarge } from "../../domain/errors";

// The length test first counts UTF-16 units (at most 3 UTF-8 bytes each), so most lines are never re-encoded.

/**
 * The lines of a streamed body, decoded as UTF-8 as they arrive: memory holds
 * one line (at most `maxLineBytes`) and one chunk, however large the body.
 */
export async function* streamLines(body: ReadableStream<Uint8Array> | null, maxLineBytes: number): AsyncGenerator<string> {
  if (!body) return;
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const reader = body.getReader();
  let buffer = "";
  const tooLong = (text: string) => text.length * 3 > maxLineBytes && new TextEncoder().encode(text).length > maxLineBytes;
  const refuse = () => payloadTooLarge(`A line of the file is longer than ${maxLineBytes} bytes.`);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline = buffer.indexOf("\n");
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        if (tooLong(line)) throw refuse();
        yield line.replace(/\r$/, "");
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf("\n");
      }
      // A line still open must not grow past the bound either (a file with no newline at all).
      if (tooLong(buffer)) throw refuse();
      if (done) break;
    }
    if (buffer) yield buffer;
  } finally {
    reader.releaseLock();
  }
}
