import { describe, expect, it } from "vitest";
import { buildPdf, buildPdfWithStream, deflate } from "../../../test/support/pdf-builder";
import { ascii85Encode, asciiHexEncode, deflate as deflateZeros, lzwEncode, pdfWithStreams, runLengthRepeat } from "../../../test/support/hostile-pages.mjs";
import { pdfExpansion } from "./pdf-expansion";

const MiB = 1024 * 1024;
const spaces = (bytes: number) => new Uint8Array(bytes).fill(0x20);
const ascii = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

/** zlib data of `prefix` in a stored block, then `rest` compressed: `prefix` appears as is among the compressed bytes. */
async function zlibWithStoredPrefix(prefix: Uint8Array, rest: Uint8Array): Promise<Uint8Array> {
  const raw = new Uint8Array(await new Response(new Blob([rest]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
  let a = 1;
  let b = 0;
  for (const part of [prefix, rest]) {
    for (const byte of part) {
      a = (a + byte) % 65521;
      b = (b + a) % 65521;
    }
  }
  const length = prefix.byteLength;
  const head = [0x78, 0x01, 0x00, length & 0xff, length >> 8, ~length & 0xff, (~length >> 8) & 0xff];
  const adler = [(b >> 8) & 0xff, b & 0xff, (a >> 8) & 0xff, a & 0xff];
  return Uint8Array.from([...head, ...prefix, ...raw, ...adler]);
}

describe("pdfExpansion", () => {
  it("counts a plain PDF's streams as they are", async () => {
    const pdf = buildPdf([{ lines: ["The survey covered 1,204 households in 2025."] }]);
    const result = await pdfExpansion(pdf, 32 * MiB);
    expect(result).toEqual({ bytes: expect.any(Number) });
    expect("bytes" in result && result.bytes).toBeLessThan(pdf.byteLength);
  });

  it("inflates a Flate stream and counts what it expands to", async () => {
    const text = ascii(`BT /F1 11 Tf 72 740 Td ${"(The survey covered 1,204 households.) Tj T* ".repeat(2000)} ET`);
    const pdf = buildPdfWithStream("/Filter /FlateDecode", await deflate(text));
    expect(await pdfExpansion(pdf, 32 * MiB)).toEqual({ bytes: text.byteLength });
  });

  it("stops counting past the budget: a decompression bomb of 100 MiB in about 100 KiB", { timeout: 60_000 }, async () => {
    const bomb = await deflate(spaces(100 * MiB));
    expect(bomb.byteLength).toBeLessThan(200 * 1024);
    const result = await pdfExpansion(buildPdfWithStream("/Filter /FlateDecode", bomb), 32 * MiB);
    expect("bytes" in result && result.bytes).toBeGreaterThan(32 * MiB);
    expect("bytes" in result && result.bytes).toBeLessThan(40 * MiB); // stopped near the budget, not at 100 MiB
  });

  it("is not fooled by a false endstream or /Length, junk after the data, an indirect filter or a missing filter name", { timeout: 60_000 }, async () => {
    const bomb = await deflate(spaces(64 * MiB));
    // A false "endstream" early in the data, in a stored (uncompressed) deflate block before the bomb's blocks:
    // the data stays valid zlib data, and the stated /Length (which PDF.js reads) still counts.
    const cut = await zlibWithStoredPrefix(ascii("\nendstream\n"), spaces(64 * MiB));
    const falseEnd = await pdfExpansion(buildPdfWithStream("/Filter /FlateDecode", cut), 32 * MiB);
    expect("bytes" in falseEnd && falseEnd.bytes).toBeGreaterThan(32 * MiB);
    // A false /Length written in a string after the true one, with the false endstream: still counted.
    const falseLength = await pdfExpansion(buildPdfWithStream(`/Filter /FlateDecode /X (/Length 7)`, cut), 32 * MiB);
    expect("bytes" in falseLength && falseLength.bytes).toBeGreaterThan(32 * MiB);
    // Junk after the bomb's last block (which PDF.js ignores, and an inflater may stop at): counted at its worst case.
    const junk = Uint8Array.from([...bomb, ...ascii("junk after the end")]);
    const trailing = await pdfExpansion(buildPdfWithStream("/Filter /FlateDecode", junk), 32 * MiB);
    expect("bytes" in trailing && trailing.bytes).toBeGreaterThan(32 * MiB);
    // Data that does not open as zlib data (a JPEG's bytes), whatever the dictionary says, is counted as it is.
    const jpeg = await pdfExpansion(buildPdfWithStream("/Filter /FlateDecode", Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, ...ascii("x".repeat(50_000))])), 32 * MiB);
    expect("bytes" in jpeg && jpeg.bytes).toBeLessThan(1 * MiB);
    // No filter named where it seems (the dictionary says nothing): the data is inflated anyway.
    const unnamed = await pdfExpansion(buildPdfWithStream("", bomb), 32 * MiB);
    expect("bytes" in unnamed && unnamed.bytes).toBeGreaterThan(32 * MiB);
    // A filter through an indirect object that is not in the file's text (in an object stream): not measured.
    const indirect = await pdfExpansion(buildPdfWithStream("/Filter 9 0 R", ascii("x".repeat(20_000))), 32 * MiB);
    expect(indirect).toEqual({ unmeasured: "a stream's filters are named in an object Cairn cannot find (an object stream)" });
  });

  it("decodes LZW and ASCII-then-Flate streams, and refuses to measure an encrypted file", { timeout: 60_000 }, async () => {
    // An LZW bomb (zeros, 12-bit codes standing for thousands of bytes) and LZW text counted as what they decode to.
    const lzwBomb = await pdfExpansion(buildPdfWithStream("/Filter /LZWDecode", lzwEncode(new Uint8Array(34 * MiB))), 32 * MiB);
    expect("bytes" in lzwBomb && lzwBomb.bytes).toBeGreaterThan(32 * MiB);
    const words = ascii("The survey covered 1,204 households in 2025. ".repeat(200));
    expect(await pdfExpansion(buildPdfWithStream("/Filter /LZWDecode", lzwEncode(words)), 32 * MiB)).toEqual({ bytes: words.byteLength });
    const chained = await pdfExpansion(buildPdfWithStream("/Filter [/ASCII85Decode /FlateDecode]", ascii85Encode(await deflate(spaces(40 * MiB)))), 32 * MiB);
    expect("bytes" in chained && chained.bytes).toBeGreaterThan(32 * MiB);
    expect(await pdfExpansion(buildPdfWithStream("", ascii("BT ET")), 32 * MiB)).toEqual({ bytes: expect.any(Number) });
    expect(await pdfExpansion(buildPdfWithStream("", ascii("BT ET"), "/Encrypt 7 0 R "), 32 * MiB)).toEqual({ encrypted: true });
  });

  /** `layers` Flate layers over `zeros` zero bytes (the zeros never held whole). */
  async function nested(layers: number, zeros: number): Promise<Uint8Array> {
    let data = await deflateZeros(null, zeros);
    for (let i = 1; i < layers; i++) data = await deflateZeros(data);
    return data;
  }
  const over = (result: Awaited<ReturnType<typeof pdfExpansion>>) => "bytes" in result && result.bytes > 32 * MiB;

  it("counts every layer of a filter chain: two and three Flate layers of a 1 KB stream, stopping near the budget", { timeout: 120_000 }, async () => {
    const twice = await nested(2, 64 * MiB);
    const thrice = await deflateZeros(twice);
    expect(twice.byteLength).toBeLessThan(1024);
    for (const [entries, data] of [
      ["/Filter [/FlateDecode /FlateDecode]", twice],
      ["/Filter [/FlateDecode /FlateDecode /FlateDecode]", thrice],
      // Spelled as PDF.js also reads it: abbreviations, a comment, #xx escapes in a name.
      ["/Filter [/Fl %a comment\n /Fl#61teDecode]", twice],
    ] as const) {
      const result = await pdfExpansion(pdfWithStreams([{ entries, data }]), 32 * MiB);
      expect(over(result)).toBe(true);
      expect("bytes" in result && result.bytes).toBeLessThan(33 * MiB); // stopped at the budget, not at 64 MiB
    }
  });

  it("counts a Flate chain after an ASCII filter, RunLength, and an object stream (ObjStm)", { timeout: 120_000 }, async () => {
    const twice = await nested(2, 40 * MiB);
    expect(over(await pdfExpansion(pdfWithStreams([{ entries: "/Filter [/ASCIIHexDecode /FlateDecode /FlateDecode]", data: asciiHexEncode(twice) }]), 32 * MiB))).toBe(true);
    expect(over(await pdfExpansion(pdfWithStreams([{ entries: "/Filter [/A85 /Fl /Fl]", data: ascii85Encode(twice) }]), 32 * MiB))).toBe(true);
    expect(over(await pdfExpansion(pdfWithStreams([{ entries: "/Filter /RunLengthDecode", data: runLengthRepeat(0, 40 * MiB) }]), 32 * MiB))).toBe(true);
    // /F names the filters as well as /Filter (PDF.js reads /F first).
    expect(over(await pdfExpansion(pdfWithStreams([{ entries: "/F [/AHx /Fl /Fl]", data: asciiHexEncode(twice) }]), 32 * MiB))).toBe(true);
    const objectStream = pdfWithStreams([{ entries: "/Type /ObjStm /N 1 /First 4 /Filter [/FlateDecode /FlateDecode]", data: twice }]);
    expect(over(await pdfExpansion(objectStream, 32 * MiB))).toBe(true);
  });

  it("resolves a filter named through an indirect object, and is not fooled by a wrong /Length", { timeout: 120_000 }, async () => {
    const twice = await nested(2, 40 * MiB);
    // Object 7 (after the page's text stream, object 6) holds the chain.
    expect(over(await pdfExpansion(pdfWithStreams([{ entries: "/Filter 7 0 R", data: twice }], ["[/FlateDecode /FlateDecode]"]), 32 * MiB))).toBe(true);
    expect(over(await pdfExpansion(pdfWithStreams([{ entries: "/Filter [7 0 R /FlateDecode]", data: twice }], ["/FlateDecode"]), 32 * MiB))).toBe(true);
    // An ordinary stream named through an indirect object is measured, not refused.
    const words = ascii("BT (The survey covered 1,204 households in 2025.) Tj ET ".repeat(100));
    expect(await pdfExpansion(pdfWithStreams([{ entries: "/Filter 7 0 R", data: await deflate(words) }], ["/FlateDecode"]), 32 * MiB)).toEqual({ bytes: words.byteLength });
    // A /Length of 10 (and a false endstream in the data's place): the data is decoded to its own end.
    // One character per byte both ways (a TextDecoder's "latin1" is windows-1252, which remaps 0x80–0x9F).
    const wrongLength = String.fromCharCode(...pdfWithStreams([{ entries: "/Filter [/FlateDecode /FlateDecode]", data: twice }])).replace(`/Length ${twice.byteLength} `, "/Length 10 ");
    expect(over(await pdfExpansion(Uint8Array.from(wrongLength, (char) => char.charCodeAt(0)), 32 * MiB))).toBe(true);
  });

  it("sums many medium streams past the budget, and counts what a truncated stream decodes", { timeout: 120_000 }, async () => {
    const medium = await deflateZeros(null, 2 * MiB);
    const many = pdfWithStreams(Array.from({ length: 20 }, () => ({ entries: "/Filter /FlateDecode", data: medium })));
    expect(over(await pdfExpansion(many, 32 * MiB))).toBe(true);
    const some = pdfWithStreams(Array.from({ length: 10 }, () => ({ entries: "/Filter /FlateDecode", data: medium })));
    expect(await pdfExpansion(some, 32 * MiB)).toEqual({ bytes: 20 * MiB });
    // The file cut in the middle of a two-layer bomb (as a fetch cut at 2 MiB would): what is there still decodes past the budget.
    const bomb = await nested(2, 400 * MiB);
    const whole = pdfWithStreams([{ entries: "/Filter [/FlateDecode /FlateDecode]", data: bomb }]);
    const start = new TextDecoder("latin1").decode(whole).indexOf("stream\n") + "stream\n".length;
    expect(over(await pdfExpansion(whole.subarray(0, start + Math.floor(bomb.byteLength / 2)), 32 * MiB))).toBe(true);
  });

  it("counts an image filter's input, not an image, and refuses what it cannot measure", async () => {
    const words = ascii("x".repeat(50_000));
    // Flate, then DCT (a JPEG): the Flate layer counts; the image is not decoded to read text.
    expect(await pdfExpansion(pdfWithStreams([{ entries: "/Filter [/FlateDecode /DCTDecode]", data: await deflate(words) }]), 32 * MiB)).toEqual({ bytes: words.byteLength });
    expect(await pdfExpansion(pdfWithStreams([{ entries: "/Filter /BrotliDecode", data: words }]), 32 * MiB)).toEqual({ unmeasured: "a stream uses the Brotli filter, which Cairn does not measure" });
    const long = `/Filter [${"/AHx ".repeat(9)}]`;
    expect(await pdfExpansion(pdfWithStreams([{ entries: long, data: words }]), 32 * MiB)).toEqual({ unmeasured: "a stream has 9 filters (more than 8)" });
    // A dictionary PDF.js might read otherwise (unbalanced here) that names a filter: not measured.
    const broken = new TextDecoder("latin1").decode(pdfWithStreams([{ entries: "/Filter /AHx", data: words }])).replace("/Filter /AHx >>", "/Filter /AHx >");
    expect(await pdfExpansion(Uint8Array.from(broken, (char) => char.charCodeAt(0)), 32 * MiB)).toEqual({ unmeasured: "a stream's dictionary names filters Cairn cannot read" });
  });
});
