/**
 * How many bytes a PDF's streams expand to, counted before PDF.js is given the file. A Flate layer expands
 * up to about a thousand times, and layers multiply: a 1.5 KiB stream under `/Filter [/FlateDecode
 * /FlateDecode]` is 400 MiB decoded. PDF.js keeps what each layer decodes in memory, and a Worker has 128 MB:
 * a decompression bomb would end the isolate (and every other check of its batch). So every stream's whole
 * filter chain is decoded here, layer by layer, in bounded chunks (pdf-decoders.ts), every byte of every
 * layer counted against one budget for the whole document, and counting stops past it.
 *
 * Streams are found as PDF.js finds them when a file's cross-reference is damaged: every `stream` keyword,
 * the data starting on the line after it. Each is decoded from there to the end of the file whatever its
 * /Length says (a decoder stops at its own end-of-data mark; PDF.js can only read a part of that), with the
 * filters its dictionary names under /Filter or /F (directly or through an indirect object), and again as
 * nested Flate data when it opens as zlib data whatever the dictionary says. Image filters (DCT, JPX, JBIG2,
 * CCITT) are not decoded to read text: their input is what counts. Filters named in an object stream,
 * Brotli, over-long chains and unreadable dictionaries naming filters are not measured: such a file is
 * not read.
 */
import { ascii85, asciiHex, Budget, BudgetSpent, ByteSource, type Decoder, layer, lzw, runLength } from "./pdf-decoders";
import { flate } from "./pdf-inflate";
import { indexObjects, type ObjectIndex, type PdfValue, PdfObjectReader, resolve } from "./pdf-objects";

export type PdfExpansion = { bytes: number } | { encrypted: true } | { unmeasured: string };

/** Filters in one stream's chain: PDF files use one or two; a longer chain is refused, not decoded. */
const MAX_CHAIN = 8;
/** How far before a `stream` keyword its object's `N G obj` is looked for. */
const DICTIONARY_WINDOW = 64 * 1024;

/** Copies its input: a predictor (PNG or TIFF) keeps a second buffer of its layer's size. */
const copy: Decoder = function* (input, out) {
  for (let byte = input.next(); byte >= 0; byte = input.next()) {
    out.put(byte);
    if (out.full) yield;
  }
};

const IMAGE_FILTERS = new Set(["DCT", "DCTDecode", "JPX", "JPXDecode", "CCF", "CCITTFaxDecode", "JBIG2Decode"]);

/** A named chain as decoders; or why it is not measured. */
function decoders(names: string[], parameters: Map<string, PdfValue>[]): Decoder[] | { unmeasured: string } {
  if (names.length > MAX_CHAIN) return { unmeasured: `a stream has ${names.length} filters (more than ${MAX_CHAIN})` };
  const chain: Decoder[] = [];
  for (const [i, name] of names.entries()) {
    const parms = parameters[i];
    const predictor = typeof parms?.get("Predictor") === "number" && (parms.get("Predictor") as number) > 1;
    if (name === "Fl" || name === "FlateDecode") chain.push(flate);
    else if (name === "LZW" || name === "LZWDecode") chain.push(lzw(parms?.get("EarlyChange") === 0 ? 0 : 1));
    else if (name === "RL" || name === "RunLengthDecode") chain.push(runLength);
    else if (name === "A85" || name === "ASCII85Decode") chain.push(ascii85);
    else if (name === "AHx" || name === "ASCIIHexDecode") chain.push(asciiHex);
    else if (name === "BrotliDecode") return { unmeasured: "a stream uses the Brotli filter, which Cairn does not measure" };
    else if (IMAGE_FILTERS.has(name)) break; // an image: not decoded to read text
    // Any other name (Crypt, or unknown) passes the data on unchanged, as in PDF.js.
    if (predictor && (name === "Fl" || name === "FlateDecode" || name === "LZW" || name === "LZWDecode")) chain.push(copy);
  }
  return chain;
}

/** The filter names of a /Filter (or /F) value, resolving indirect objects; undefined when one cannot be found. */
function filterNames(read: Resolver, value: PdfValue | undefined): string[] | undefined {
  const resolved = value === undefined ? null : read(value);
  if (resolved === undefined) return undefined;
  if (resolved && typeof resolved === "object" && "name" in resolved) return [resolved.name];
  if (!Array.isArray(resolved)) return []; // none, or a file specification (/F): no filter
  const names: string[] = [];
  for (const item of resolved) {
    const name = read(item);
    if (name === undefined) return undefined;
    if (name && typeof name === "object" && "name" in name) names.push(name.name);
  }
  return names;
}

/** Each layer's decode parameters, as dictionaries (resolved), by position in the chain. */
function parameterList(read: Resolver, value: PdfValue | undefined, count: number): Map<string, PdfValue>[] {
  const resolved = value === undefined ? null : read(value);
  const items = Array.isArray(resolved) ? resolved.map((item) => read(item)) : new Array(count).fill(resolved);
  return items.map((item) => (item instanceof Map ? item : new Map()));
}

type Resolver = (value: PdfValue) => PdfValue | undefined;

const REGULAR_AFTER = "(?![^\\s\\0()<>[\\]{}/%])";
/** A name that may be a filter's key (/F, /Filter) or hide one (a #xx escape). */
const FILTER_KEY = new RegExp(`/(F|Filter)${REGULAR_AFTER}|/[^\\s\\0()<>[\\]{}/%]*#`, "g");

/** What is read once per document to find each stream's dictionary. */
interface DocumentIndex {
  text: string;
  objects: ObjectIndex;
  /** Where a name that may be a filter key appears, in order. */
  filterKeys: number[];
  /** Each object header's dictionary and where it ends, read once. */
  dictionaries: Map<number, { dictionary: Map<string, PdfValue>; end: number } | null>;
  read: Resolver;
}

function indexDocument(text: string): DocumentIndex {
  const objects = indexObjects(text);
  return {
    text,
    objects,
    filterKeys: [...text.matchAll(FILTER_KEY)].map((match) => match.index),
    dictionaries: new Map(),
    read: (value) => resolve(text, objects, value),
  };
}

/** The last position in the sorted `positions` before `end`, or -1. */
function lastBefore(positions: number[], end: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((positions[middle] as number) < end) low = middle + 1;
    else high = middle;
  }
  return low > 0 ? (positions[low - 1] as number) : -1;
}

/** The dictionary of the object whose `stream` keyword is at `keyword`, when it reads as one; else null. */
function streamDictionary(index: DocumentIndex, keyword: number): Map<string, PdfValue> | null {
  const header = lastBefore(index.objects.headers, keyword);
  if (header < 0 || keyword - header > DICTIONARY_WINDOW) return null;
  if (!index.dictionaries.has(header)) {
    const reader = new PdfObjectReader(index.text, header, Math.min(index.text.length, header + DICTIONARY_WINDOW));
    const dictionary = reader.value();
    reader.skipSpace();
    index.dictionaries.set(header, dictionary instanceof Map ? { dictionary, end: reader.at } : null);
  }
  const read = index.dictionaries.get(header);
  return read && read.end === keyword ? read.dictionary : null;
}

/**
 * The filter chains a stream's dictionary names (its /F and its /Filter: PDF.js takes the first present), or
 * why they are not measured. A dictionary that cannot be read is no matter unless filters may be named in it.
 */
function namedChains(index: DocumentIndex, keyword: number): Decoder[][] | { unmeasured: string } {
  const dictionary = streamDictionary(index, keyword);
  if (!dictionary) {
    const key = lastBefore(index.filterKeys, keyword);
    return key >= 0 && keyword - key <= DICTIONARY_WINDOW ? { unmeasured: "a stream's dictionary names filters Cairn cannot read" } : [];
  }
  const chains: Decoder[][] = [];
  const parameters = dictionary.get("DP") ?? dictionary.get("DecodeParms");
  for (const key of ["F", "Filter"]) {
    if (!dictionary.has(key)) continue;
    const names = filterNames(index.read, dictionary.get(key));
    if (names === undefined) return { unmeasured: "a stream's filters are named in an object Cairn cannot find (an object stream)" };
    const chain = decoders(names, parameterList(index.read, parameters, names.length));
    if (!Array.isArray(chain)) return chain;
    // A chain of Flate layers only is counted by the nested-Flate pass, which goes at least as deep.
    if (chain.some((decoder) => decoder !== flate)) chains.push(chain);
  }
  return chains;
}

/** Decodes `data` through `chain`, every layer counted against `budget`, each to its end. */
function decodeChain(data: Uint8Array, chain: Decoder[], budget: Budget): void {
  const first = new ByteSource(data);
  let source = first;
  const layers: Generator<Uint8Array>[] = [];
  for (const decoder of chain) {
    const next = layer(decoder, source, budget);
    layers.push(next);
    source = new ByteSource(new Uint8Array(0), next);
  }
  try {
    // The last layer first; then what each layer before would decode past where the next one stopped (PDF.js may read it).
    for (const running of layers.reverse()) for (let step = running.next(); !step.done; step = running.next());
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
  } finally {
    budget.read += first.consumed;
  }
}

const NESTED_FLATE: Decoder[] = new Array(MAX_CHAIN).fill(flate);
const KEYWORD = /(?<![^\s\0()<>[\]{}/%])stream(?![^\s\0()<>[\]{}/%])/g;

/**
 * The bytes the PDF's streams expand to (every layer of every stream), stopping past `budget`; or why they
 * are not measured (an encrypted file's streams are unreadable until decrypted).
 */
export async function pdfExpansion(body: Uint8Array, budget: number): Promise<PdfExpansion> {
  // Latin-1 keeps one character per byte, so string offsets are byte offsets.
  const text = new TextDecoder("latin1").decode(body);
  if (/\/Encrypt\b/.test(text)) return { encrypted: true };
  // Input read: a file's streams read it about once; overlapping false streams could make it quadratic.
  const counted = new Budget(budget, 16 * body.byteLength + 1024 * 1024);
  const index = indexDocument(text);
  KEYWORD.lastIndex = 0;
  for (let match = KEYWORD.exec(text); match && !counted.spent; match = KEYWORD.exec(text)) {
    const lineEnd = /\r\n|\r|\n/g;
    lineEnd.lastIndex = match.index + match[0].length;
    const eol = lineEnd.exec(text);
    if (!eol) break;
    const data = body.subarray(eol.index + eol[0].length);
    const chains = namedChains(index, match.index);
    if (!Array.isArray(chains)) return chains;
    for (const chain of chains) decodeChain(data, chain, counted);
    decodeChain(data, NESTED_FLATE, counted);
  }
  if (counted.read > counted.readLimit) return { unmeasured: "its streams overlap too much to measure" };
  return { bytes: counted.used };
}
