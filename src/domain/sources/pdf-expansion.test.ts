import { describe, expect, it } from "vitest";
import { buildPdf, buildPdfWithStream, deflate } from "../../../test/support/pdf-builder";
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

  it("stops counting past the budget: a decompression bomb of 100 MiB in about 100 KiB", async () => {
    const bomb = await deflate(spaces(100 * MiB));
    expect(bomb.byteLength).toBeLessThan(200 * 1024);
    const result = await pdfExpansion(buildPdfWithStream("/Filter /FlateDecode", bomb), 32 * MiB);
    expect("bytes" in result && result.bytes).toBeGreaterThan(32 * MiB);
    expect("bytes" in result && result.bytes).toBeLessThan(40 * MiB); // stopped near the budget, not at 100 MiB
  });

  it("is not fooled by a false endstream or /Length, junk after the data, an indirect filter or a missing filter name", async () => {
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
    // A filter through an indirect object: counted at its worst case.
    const indirect = await pdfExpansion(buildPdfWithStream("/Filter 9 0 R", ascii("x".repeat(20_000))), 32 * MiB);
    expect("bytes" in indirect && indirect.bytes).toBeGreaterThan(32 * MiB);
  });

  it("counts LZW and ASCII-then-Flate streams at their worst case, and refuses to measure an encrypted file", async () => {
    const lzw = await pdfExpansion(buildPdfWithStream("/Filter /LZWDecode", ascii("x".repeat(20_000))), 32 * MiB);
    expect("bytes" in lzw && lzw.bytes).toBeGreaterThan(32 * MiB);
    const small = await pdfExpansion(buildPdfWithStream("/Filter /LZWDecode", ascii("x".repeat(100))), 32 * MiB);
    expect("bytes" in small && small.bytes).toBeLessThan(32 * MiB);
    const chained = await pdfExpansion(buildPdfWithStream("/Filter [/ASCII85Decode /FlateDecode]", ascii("x".repeat(40_000))), 32 * MiB);
    expect("bytes" in chained && chained.bytes).toBeGreaterThan(32 * MiB);
    expect(await pdfExpansion(buildPdfWithStream("", ascii("BT ET")), 32 * MiB)).toEqual({ bytes: expect.any(Number) });
    expect(await pdfExpansion(buildPdfWithStream("", ascii("BT ET"), "/Encrypt 7 0 R "), 32 * MiB)).toEqual({ encrypted: true });
  });
});
