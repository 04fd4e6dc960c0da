/**
 * How many bytes a PDF's streams expand to, counted before PDF.js is given the file. A Flate stream
 * expands up to about a thousand times (1 MiB of zeros compressed is 1 KiB), and PDF.js keeps what it
 * decodes in memory: a 2 MiB "decompression bomb" would take gigabytes and end the Worker's isolate (and
 * every other check of its batch). So each stream is inflated here with the Compression Streams API,
 * 8 KiB of input at a time, counting its output and stopping at the budget; and the streams whose
 * filters cannot be inflated here are counted at their worst case.
 *
 * Streams are found as PDF.js finds them when a file's cross-reference is damaged: every `stream`
 * keyword, the data running from the line after it (see dataEnd for where it stops).
 */

/**
 * Worst-case expansion of filters not inflated here: LZW codes of 9–12 bits can stand for 4,096 bytes;
 * RunLength, 2 bytes for 128; Flate about 1,032 times (for Flate data behind an ASCII filter).
 */
const WORST_CASE_RATIO = { lzw: 3_641, runLength: 64, flate: 1_032 } as const;

/** Input fed to the inflater per write: bounds what one write can produce to about 8 MiB. */
const FEED_BYTES = 8 * 1024;

/**
 * The bytes `data` inflates to (zlib), counted up to `budget` (past it means over); null when the data is
 * not one whole zlib stream (damaged, cut, or followed by other bytes): a runtime may then drop output it
 * had not handed over yet, so what came out says nothing.
 */
async function inflatedBytes(data: Uint8Array, budget: number): Promise<number | null> {
  const inflater = new DecompressionStream("deflate");
  let offset = 0;
  const input = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (offset >= data.byteLength) {
          controller.close();
          return;
        }
        controller.enqueue(data.slice(offset, offset + FEED_BYTES));
        offset += FEED_BYTES;
      },
    },
    { highWaterMark: 1 },
  );
  const reader = input.pipeThrough(inflater).getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return total;
      total += value.byteLength;
      if (total > budget) return total;
    }
  } catch {
    return null;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * Where a stream's data ends, as PDF.js finds it: `/Length` bytes (stated directly or through an indirect
 * object) when `endstream` follows them, else up to the next `endstream` less the line break before it.
 */
function dataEnd(text: string, dictionary: string, dataStart: number): number {
  const endsAt = (at: number) => /^(\r\n|\r|\n)?endstream/.test(text.slice(at, at + 12));
  // The last /Length before the keyword is the stream's (an earlier one belongs to another object).
  const lengths = [...dictionary.matchAll(/\/Length\s+(\d+)(\s+(\d+)\s+R)?/g)];
  const last = lengths.at(-1);
  if (last) {
    let length: number | null = Number(last[1]);
    if (last[2]) {
      const object = new RegExp(`(?:^|\\D)${last[1]}\\s+${last[3]}\\s+obj\\s*(\\d+)`).exec(text);
      length = object ? Number(object[1]) : null;
    }
    if (length !== null && endsAt(dataStart + length)) return dataStart + length;
  }
  const next = text.indexOf("endstream", dataStart);
  if (next === -1) return text.length;
  return next - (text.slice(next - 2, next) === "\r\n" ? 2 : /[\r\n]/.test(text[next - 1] ?? "") ? 1 : 0);
}

/** A filter by its full name anywhere, or by its abbreviation where a /Filter names it (an abbreviation alone is too short to tell from data). */
const filter = (full: string, short: string) => new RegExp(`\\/${full}\\b|\\/Filter\\s*(\\[[^\\]]*)?\\/${short}\\b`);
const LZW = filter("LZWDecode", "LZW");
const RUN_LENGTH = filter("RunLengthDecode", "RL");
const ASCII = /\/(ASCII85Decode|ASCIIHexDecode)\b|\/Filter\s*(\[[^\]]*)?\/(A85|AHx)\b/;
const FLATE = filter("FlateDecode", "Fl");
const INDIRECT_FILTER = /\/Filter\s*(\d+\s+\d+\s+R|\[[^\]]*\bR\b)/;

/** Whether two bytes open zlib data (deflate, a valid header check): PDF.js refuses Flate data without one. */
const zlibHeader = (first: number, second: number) => (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0;

/**
 * The bytes the PDF's streams expand to, or why they are not measured (an encrypted file: its streams
 * are unreadable until decrypted). Every stream that opens as zlib data is inflated and counted, whatever
 * its dictionary says; one that does not inflate cleanly, and any stream with LZW, RunLength, an ASCII
 * filter before Flate or a filter named through an indirect object, is counted at its worst case over
 * all the bytes from its start to the end of the file (a false `endstream` or `/Length` then hides
 * nothing). Stops counting past `budget`.
 */
export async function pdfExpansion(body: Uint8Array, budget: number): Promise<{ bytes: number } | { encrypted: true }> {
  // Latin-1 keeps one character per byte, so string offsets are byte offsets.
  const text = new TextDecoder("latin1").decode(body);
  if (/\/Encrypt\b/.test(text)) return { encrypted: true };
  const keyword = /(?<!end)stream(\r\n|\r|\n)/g;
  let total = 0;
  let previousKeyword = 0;
  for (let match = keyword.exec(text); match && total <= budget; match = keyword.exec(text)) {
    const dataStart = match.index + match[0].length;
    // The dictionary is somewhere after the previous keyword: all of that text is read for filters (more is only stricter).
    const dictionary = text.slice(previousKeyword, match.index);
    const end = dataEnd(text, dictionary, dataStart);
    const raw = end - dataStart;
    const rest = text.length - dataStart;
    if (LZW.test(dictionary) || INDIRECT_FILTER.test(dictionary)) total += rest * WORST_CASE_RATIO.lzw;
    else if (RUN_LENGTH.test(dictionary)) total += rest * WORST_CASE_RATIO.runLength;
    else if (ASCII.test(dictionary) && FLATE.test(dictionary)) total += rest * WORST_CASE_RATIO.flate;
    else if (raw >= 2 && zlibHeader(body[dataStart] ?? 0, body[dataStart + 1] ?? 0)) {
      const inflated = await inflatedBytes(body.subarray(dataStart, end), budget - total);
      // Not one whole zlib stream where PDF.js would end it: PDF.js is lenient and may read further.
      total += inflated === null ? rest * WORST_CASE_RATIO.flate : Math.max(inflated, raw);
    } else total += raw;
    // The next keyword is looked for right after this one, not after this stream's data: a stream PDF.js would
    // read inside what looks like this one's data (a false length) is counted too.
    previousKeyword = match.index + 1;
  }
  return { bytes: total };
}
