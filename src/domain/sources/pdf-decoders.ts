/**
 * The PDF stream filters that expand data (Flate in pdf-inflate.ts; LZW, RunLength, ASCII85, ASCIIHex), decoded as PDF.js
 * decodes them, to count what a stream's filter chain expands to without ever holding it: every layer is a
 * synchronous generator that pulls its input from the layer before, a chunk at a time, and hands on its output
 * in chunks of at most CHUNK_BYTES. A chain of layers therefore holds a few chunks and each decoder's state
 * (Flate's 32 KiB window, LZW's 4,096-entry table), whatever the data expands to; and counting stops at the
 * budget. Written here rather than with the Compression Streams API because one write into an inflater may
 * produce a thousand times its size at once, and its output is lost when the data turns out damaged.
 *
 * Decoding stops where PDF.js's would: at the end-of-data mark, at the end of the input, or at the first damage
 * (what was decoded before it counts, as PDF.js keeps it).
 */

/** Output handed on at a time by one layer. */
export const CHUNK_BYTES = 64 * 1024;

/** Thrown through the chain once the budget is spent: nothing more is decoded. */
export class BudgetSpent extends Error {}

/** Bytes counted across every layer of every stream of one document, against one budget. */
export class Budget {
  used = 0;
  /** Input bytes read by the first layers: bounds the work on a file of many overlapping streams. */
  read = 0;
  constructor(
    readonly bytes: number,
    readonly readLimit: number,
  ) {}
  get spent(): boolean {
    return this.used > this.bytes || this.read > this.readLimit;
  }
}

/** A layer's input, byte by byte, pulled from a byte array or from the layer before. */
export class ByteSource {
  private chunk: Uint8Array;
  private at = 0;
  constructor(
    first: Uint8Array,
    private readonly upstream: Iterator<Uint8Array> | null = null,
  ) {
    this.chunk = first;
  }
  /** Bytes taken so far from the first chunk (all of a source with no layer before). */
  get consumed(): number {
    return this.upstream ? 0 : this.at;
  }
  /** The next byte, or -1 at the end. */
  next(): number {
    while (this.at >= this.chunk.byteLength) {
      const pulled = this.upstream?.next();
      if (!pulled || pulled.done) return -1;
      this.chunk = pulled.value;
      this.at = 0;
    }
    return this.chunk[this.at++] as number;
  }
}

/** A layer's output: filled byte by byte, taken a chunk at a time. */
export class Output {
  /** Room for a chunk and for Flate's first hand-over (its history and a chunk). */
  private buffer = new Uint8Array(2 * CHUNK_BYTES);
  length = 0;
  get full(): boolean {
    return this.length >= CHUNK_BYTES;
  }
  put(byte: number): void {
    this.buffer[this.length++] = byte;
  }
  /** Adds `bytes` (at most what is free) in one copy. */
  append(bytes: Uint8Array): void {
    this.buffer.set(bytes, this.length);
    this.length += bytes.byteLength;
  }
  /** The bytes put since the last take: a view, valid until the layer is asked for more (its reader is done with it then). */
  take(): Uint8Array {
    const chunk = this.buffer.subarray(0, this.length);
    this.length = 0;
    return chunk;
  }
}

/** A decoder: writes into `out`, yielding whenever `out` is full; throws on damaged data. */
export type Decoder = (input: ByteSource, out: Output) => Generator<void, void, undefined>;

/** Thrown by a decoder at damaged data: decoding stops there. */
export class Damaged extends Error {}

/** One layer of a chain: runs `decoder`, counts its output against `budget`, hands the output on. */
export function* layer(decoder: Decoder, input: ByteSource, budget: Budget): Generator<Uint8Array, void, undefined> {
  const out = new Output();
  const run = decoder(input, out);
  for (;;) {
    let done: boolean;
    try {
      done = run.next().done === true;
    } catch (error) {
      if (error instanceof BudgetSpent) throw error;
      done = true; // damaged data (or a layer before ended early): what was decoded stands, as in PDF.js
    }
    budget.used += out.length;
    if (out.length > 0) yield out.take();
    if (budget.spent) throw new BudgetSpent();
    if (done) return;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// LZW, as PDF.js's LZWStream: 9- to 12-bit codes, 256 clears the table, 257 ends the data, at most 4,096 entries.

export function lzw(earlyChange: number): Decoder {
  return function* (input, out) {
    const prefix = new Int32Array(4096);
    const suffix = new Uint8Array(4096);
    const length = new Int32Array(4096);
    for (let i = 0; i < 256; i++) {
      suffix[i] = i;
      length[i] = 1;
    }
    const sequence = new Uint8Array(4097);
    let bitBuffer = 0;
    let bitCount = 0;
    let codeLength = 9;
    let nextCode = 258;
    let previous = -1;
    for (;;) {
      while (bitCount < codeLength) {
        const byte = input.next();
        if (byte < 0) return;
        bitBuffer = ((bitBuffer << 8) | byte) & 0xffffff;
        bitCount += 8;
      }
      bitCount -= codeLength;
      const code = (bitBuffer >>> bitCount) & ((1 << codeLength) - 1);
      if (code === 256) {
        codeLength = 9;
        nextCode = 258;
        previous = -1;
        continue;
      }
      if (code === 257) return;
      let first: number;
      let size: number;
      if (code < 256 || (code >= 258 && code < nextCode)) {
        size = length[code] as number;
        for (let c = code, i = size - 1; i >= 0; i--, c = prefix[c] as number) sequence[i] = suffix[c] as number;
        first = sequence[0] as number;
      } else if (code === nextCode && previous >= 0) {
        size = (length[previous] as number) + 1;
        for (let c = previous, i = size - 2; i >= 0; i--, c = prefix[c] as number) sequence[i] = suffix[c] as number;
        first = sequence[0] as number;
        sequence[size - 1] = first;
      } else return; // a code out of order: PDF.js stops there
      if (previous >= 0 && nextCode < 4096) {
        prefix[nextCode] = previous;
        suffix[nextCode] = first;
        length[nextCode] = (length[previous] as number) + 1;
        nextCode++;
      }
      const limit = nextCode + earlyChange;
      codeLength = limit < 512 ? 9 : limit < 1024 ? 10 : limit < 2048 ? 11 : 12;
      previous = code;
      out.append(sequence.subarray(0, size)); // at most 4,097 bytes: there is room past a chunk
      if (out.full) yield;
    }
  };
}

// ---------------------------------------------------------------------------------------------------------------
// RunLength, ASCII85, ASCIIHex, as PDF.js reads them.

export const runLength: Decoder = function* (input, out) {
  for (;;) {
    const count = input.next();
    if (count < 0 || count === 128) return;
    if (count < 128) {
      for (let i = 0; i <= count; i++) {
        const byte = input.next();
        if (byte < 0) return;
        out.put(byte);
        if (out.full) yield;
      }
    } else {
      const byte = input.next();
      if (byte < 0) return;
      for (let i = 0; i < 257 - count; i++) {
        out.put(byte);
        if (out.full) yield;
      }
    }
  }
};

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;

export const ascii85: Decoder = function* (input, out) {
  let group = 0;
  let count = 0;
  for (;;) {
    const byte = input.next();
    if (byte < 0 || byte === 0x7e) break; // "~>" ends the data
    if (isSpace(byte)) continue;
    if (byte === 0x7a && count === 0) {
      for (let i = 0; i < 4; i++) out.put(0);
    } else {
      group = group * 85 + (byte - 33);
      if (++count < 5) continue;
      for (let shift = 24; shift >= 0; shift -= 8) out.put(Math.floor(group / 2 ** shift) & 0xff);
      group = 0;
      count = 0;
    }
    if (out.length >= 64 * 1024 - 4) yield;
  }
  // A last partial group decodes to one byte fewer than its characters.
  for (let i = count; i < 5; i++) group = group * 85 + 84;
  for (let i = 0, shift = 24; i < count - 1; i++, shift -= 8) out.put(Math.floor(group / 2 ** shift) & 0xff);
};

const hexValue = (byte: number) => (byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : byte >= 0x41 && byte <= 0x46 ? byte - 0x37 : byte >= 0x61 && byte <= 0x66 ? byte - 0x57 : -1);

export const asciiHex: Decoder = function* (input, out) {
  let high = -1;
  for (;;) {
    const byte = input.next();
    if (byte < 0 || byte === 0x3e) break; // ">" ends the data
    const value = hexValue(byte);
    if (value < 0) continue;
    if (high < 0) high = value;
    else {
      out.put((high << 4) | value);
      high = -1;
      if (out.full) yield;
    }
  }
  if (high >= 0) out.put(high << 4);
};
