/**
 * Flate (RFC 1950 zlib header, RFC 1951 deflate) as PDF.js's FlateStream decodes it: the header is checked, the
 * Adler-32 checksum is not, and decoding ends at the final block (bytes after it are ignored). A decoder of
 * pdf-decoders.ts: it stops whenever a chunk of output is ready, holding only its 32 KiB history.
 */
import { type ByteSource, CHUNK_BYTES, Damaged, type Decoder, type Output } from "./pdf-decoders";

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A canonical Huffman code as a lookup table over `maxBits` bits: entry = length << 16 | symbol (0: no code). */
interface Huffman {
  table: Int32Array;
  maxBits: number;
}

function huffman(lengths: ArrayLike<number>): Huffman {
  let maxBits = 0;
  for (let i = 0; i < lengths.length; i++) maxBits = Math.max(maxBits, lengths[i] as number);
  const table = new Int32Array(1 << maxBits);
  for (let bits = 1, code = 0, skip = 2; bits <= maxBits; bits++, code <<= 1, skip <<= 1) {
    for (let symbol = 0; symbol < lengths.length; symbol++) {
      if (lengths[symbol] !== bits) continue;
      let reversed = 0;
      for (let i = 0, c = code; i < bits; i++, c >>= 1) reversed = (reversed << 1) | (c & 1);
      for (let i = reversed; i < table.length; i += skip) table[i] = (bits << 16) | symbol;
      code++;
    }
  }
  return { table, maxBits };
}

const FIXED_LITERALS = huffman(Array.from({ length: 288 }, (_, i) => (i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8)));
const FIXED_DISTANCES = huffman(new Array(30).fill(5));

/** Flate's history (32 KiB) and the output decoded since the last hand-over, in one buffer. */
const WINDOW = 32 * 1024;

/**
 * Writes `length` bytes at `at` repeating those from `distance` back (a deflate match): native copies of a
 * growing period-long run, not a byte at a time (a bomb is almost only long matches).
 */
function copyBack(buffer: Uint8Array, at: number, distance: number, length: number): void {
  if (length <= 16) {
    for (let i = at; i < at + length; i++) buffer[i] = buffer[i - distance] as number;
    return;
  }
  if (distance === 1) {
    buffer.fill(buffer[at - 1] as number, at, at + length);
    return;
  }
  // What is written repeats with period `distance`, so each copy may take all that is written before it.
  for (let done = 0; done < length; ) {
    const count = Math.min(done + distance, length - done);
    buffer.copyWithin(at + done, at - distance, at - distance + count);
    done += count;
  }
}

/** An inflater that stops whenever its buffer is full and resumes where it stopped (a plain class: fast to run). */
class Inflater {
  private bitBuffer = 0;
  private bitCount = 0;
  private readonly buffer = new Uint8Array(WINDOW + CHUNK_BYTES);
  private position = 0;
  private handed = 0;
  private final = false;
  private block: "header" | "stored" | "coded" = "header";
  private storedLeft = 0;
  private literals = FIXED_LITERALS;
  private distances = FIXED_DISTANCES;
  private copyLeft = 0;
  private distance = 0;

  constructor(private readonly input: ByteSource) {}

  /** Whether the data opens with a zlib header PDF.js accepts (deflate, valid check, no preset dictionary). */
  header(): boolean {
    const first = this.input.next();
    const second = this.input.next();
    return second >= 0 && (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0 && (second & 0x20) === 0;
  }

  private bits(n: number): number {
    while (this.bitCount < n) {
      const byte = this.input.next();
      if (byte < 0) throw new Damaged();
      this.bitBuffer |= byte << this.bitCount;
      this.bitCount += 8;
    }
    const value = this.bitBuffer & ((1 << n) - 1);
    this.bitBuffer >>>= n;
    this.bitCount -= n;
    return value;
  }

  private symbol(code: Huffman): number {
    while (this.bitCount < code.maxBits) {
      const byte = this.input.next();
      if (byte < 0) break;
      this.bitBuffer |= byte << this.bitCount;
      this.bitCount += 8;
    }
    const entry = code.table[this.bitBuffer & ((1 << code.maxBits) - 1)] as number;
    const length = entry >> 16;
    if (length < 1 || length > this.bitCount) throw new Damaged();
    this.bitBuffer >>>= length;
    this.bitCount -= length;
    return entry & 0xffff;
  }

  private dynamicCodes(): void {
    const literalCount = this.bits(5) + 257;
    const distanceCount = this.bits(5) + 1;
    const codeCount = this.bits(4) + 4;
    const codeLengths = new Uint8Array(19);
    for (let i = 0; i < codeCount; i++) codeLengths[CODE_LENGTH_ORDER[i] as number] = this.bits(3);
    const lengthCode = huffman(codeLengths);
    const lengths = new Uint8Array(literalCount + distanceCount);
    for (let i = 0; i < lengths.length; ) {
      const code = this.symbol(lengthCode);
      if (code < 16) lengths[i++] = code;
      else {
        const [repeat, value] = code === 16 ? [3 + this.bits(2), i > 0 ? (lengths[i - 1] as number) : -1] : code === 17 ? [3 + this.bits(3), 0] : [11 + this.bits(7), 0];
        if (value < 0 || i + repeat > lengths.length) throw new Damaged();
        lengths.fill(value, i, i + repeat);
        i += repeat;
      }
    }
    this.literals = huffman(lengths.subarray(0, literalCount));
    this.distances = huffman(lengths.subarray(literalCount));
  }

  /** Decodes until the buffer is full (true) or the data ends (false); throws Damaged on damaged data. */
  run(): boolean {
    const buffer = this.buffer;
    const end = buffer.length;
    for (;;) {
      if (this.copyLeft > 0) {
        const run = Math.min(this.copyLeft, end - this.position);
        copyBack(buffer, this.position, this.distance, run);
        this.position += run;
        this.copyLeft -= run;
      }
      if (this.position === end) return true;
      if (this.block === "header") {
        if (this.final) return false;
        this.final = this.bits(1) === 1;
        const type = this.bits(2);
        if (type === 0) {
          // A stored block starts at the next whole byte; whole bytes already read stay in the bit buffer.
          this.bitBuffer >>>= this.bitCount & 7;
          this.bitCount -= this.bitCount & 7;
          this.storedLeft = this.bits(16);
          this.bits(16); // its complement: PDF.js does not check it
          this.block = "stored";
        } else if (type === 3) throw new Damaged();
        else {
          if (type === 2) this.dynamicCodes();
          else {
            this.literals = FIXED_LITERALS;
            this.distances = FIXED_DISTANCES;
          }
          this.block = "coded";
        }
      } else if (this.block === "stored") {
        while (this.storedLeft > 0 && this.position < end) {
          const byte = this.bitCount >= 8 ? this.bits(8) : this.input.next();
          if (byte < 0) throw new Damaged();
          buffer[this.position++] = byte;
          this.storedLeft--;
        }
        if (this.storedLeft === 0) this.block = "header";
      } else {
        while (this.position < end) {
          const code = this.symbol(this.literals);
          if (code < 256) buffer[this.position++] = code;
          else if (code === 256) {
            this.block = "header";
            break;
          } else {
            const index = code - 257;
            if (index >= LENGTH_BASE.length) throw new Damaged();
            this.copyLeft = (LENGTH_BASE[index] as number) + this.bits(LENGTH_EXTRA[index] as number);
            const distanceCode = this.symbol(this.distances);
            if (distanceCode >= DISTANCE_BASE.length) throw new Damaged();
            this.distance = (DISTANCE_BASE[distanceCode] as number) + this.bits(DISTANCE_EXTRA[distanceCode] as number);
            if (this.distance > this.position) throw new Damaged(); // before the start of the data
            break;
          }
        }
      }
    }
  }

  /** Hands the output since the last hand-over to `out`, keeping the last 32 KiB as history. */
  handOver(out: Output): void {
    out.append(this.buffer.subarray(this.handed, this.position));
    if (this.position === this.buffer.length) {
      this.buffer.copyWithin(0, this.position - WINDOW, this.position);
      this.position = WINDOW;
    }
    this.handed = this.position;
  }
}

export const flate: Decoder = function* (input, out) {
  const inflater = new Inflater(input);
  if (!inflater.header()) return; // PDF.js refuses such data, decoding nothing
  try {
    while (inflater.run()) {
      inflater.handOver(out);
      yield;
    }
  } catch (error) {
    if (!(error instanceof Damaged)) throw error;
  }
  inflater.handOver(out); // what was decoded before the end or the damage
};

