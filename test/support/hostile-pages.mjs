/**
 * Pages built to exhaust a source checker, shared by the hostile-input suite (test/e2e/hostile-pages.test.ts),
 * `node bench/checks-hostile.mjs` and the unit and workers tests of the PDF expansion guard: PDF decompression
 * bombs (filters stacked so each layer multiplies the last), HTML that is deep, wide or unclosed, and a large
 * ordinary page as a control. Plain JavaScript (types in hostile-pages.d.mts) so Node runs it without a build;
 * everything but the loopback server runs in workerd too.
 */

const MiB = 1024 * 1024;
const latin1 = (text) => Uint8Array.from(text, (char) => char.charCodeAt(0));

/** The sentence every hostile page ends with: a source quoting it is verified only if the page is read to the end. */
export const HOSTILE_QUOTE = "The survey covered 1,204 households in 2025.";

function concat(parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** zlib data (a PDF's /FlateDecode) of `data`, or of `zeros` zero bytes written a MiB at a time (never held whole). */
export async function deflate(data, zeros = 0) {
  const stream = new CompressionStream("deflate");
  const writer = stream.writable.getWriter();
  const written = (async () => {
    if (data) await writer.write(data);
    const chunk = new Uint8Array(MiB);
    for (let left = zeros; left > 0; left -= MiB) await writer.write(left >= MiB ? chunk : chunk.subarray(0, left));
    await writer.close();
  })();
  const out = new Uint8Array(await new Response(stream.readable).arrayBuffer());
  await written;
  return out;
}

/** LZW data (a PDF's /LZWDecode, early change 1) of `data`: 9- to 12-bit codes, the table cleared when full. */
export function lzwEncode(data) {
  const bytes = [];
  let buffer = 0;
  let bits = 0;
  let width = 9;
  const emit = (code) => {
    buffer = (buffer << width) | code;
    bits += width;
    while (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >>> bits) & 0xff);
    }
    buffer &= (1 << bits) - 1;
  };
  // Entries by key (prefix code * 256 + next byte); 0: none.
  const table = new Int32Array(4096 * 256);
  let next = 258;
  emit(256);
  let current = -1;
  for (const byte of data) {
    if (current < 0) {
      current = byte;
      continue;
    }
    const found = table[current * 256 + byte];
    if (found !== 0) {
      current = found;
      continue;
    }
    emit(current);
    table[current * 256 + byte] = next++;
    // The decoder adds each entry one code later and widens one code early (early change 1): the same width.
    width = next < 512 ? 9 : next < 1024 ? 10 : next < 2048 ? 11 : 12;
    if (next >= 4094) {
      emit(256);
      table.fill(0);
      next = 258;
      width = 9;
    }
    current = byte;
  }
  if (current >= 0) emit(current);
  emit(257);
  if (bits > 0) bytes.push((buffer << (8 - bits)) & 0xff);
  return Uint8Array.from(bytes);
}

/** ASCII85 text (a PDF's /ASCII85Decode) of `data`, ending with `~>`. */
export function ascii85Encode(data) {
  let out = "";
  for (let i = 0; i < data.length; i += 4) {
    const group = [0, 1, 2, 3].map((k) => data[i + k] ?? 0);
    const value = ((group[0] << 24) | (group[1] << 16) | (group[2] << 8) | group[3]) >>> 0;
    const count = Math.min(4, data.length - i);
    if (value === 0 && count === 4) {
      out += "z";
      continue;
    }
    const digits = [];
    for (let k = 0, v = value; k < 5; k++, v = Math.floor(v / 85)) digits.unshift(String.fromCharCode(33 + (v % 85)));
    out += digits.slice(0, count + 1).join("");
  }
  return latin1(`${out}~>`);
}

/** Hex text (a PDF's /ASCIIHexDecode) of `data`, ending with `>`. */
export function asciiHexEncode(data) {
  return latin1(`${Array.from(data, (byte) => byte.toString(16).padStart(2, "0")).join("")}>`);
}

/** RunLength data (a PDF's /RunLengthDecode) of `count` copies of `byte`. */
export function runLengthRepeat(byte, count) {
  const out = [];
  for (let left = count; left > 0; left -= 128) out.push(257 - Math.min(128, Math.max(2, left)), byte);
  out.push(128);
  return Uint8Array.from(out);
}

/**
 * A one-page PDF whose page shows `HOSTILE_QUOTE` (an uncompressed content stream, last) after the streams
 * given (each `{ entries, data }`: its dictionary entries besides /Length, and its bytes), and any `objects`
 * (numbered from 5 + the streams' count, in order). The page's /Contents lists every stream, so PDF.js reads them all.
 */
export function pdfWithStreams(streams, objects = []) {
  const text = `BT /F1 11 Tf 72 740 Td (${HOSTILE_QUOTE}) Tj ET\n`;
  const all = [...streams, { entries: "", data: latin1(text) }];
  const first = 5;
  const contents = all.map((_, i) => `${first + i} 0 R`).join(" ");
  const parts = [latin1("%PDF-1.7\n")];
  const offsets = [];
  let size = parts[0].byteLength;
  const push = (bytes) => {
    parts.push(bytes);
    size += bytes.byteLength;
  };
  const object = (number, body) => {
    offsets[number] = size;
    push(latin1(`${number} 0 obj\n${body}\nendobj\n`));
  };
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  object(3, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents [${contents}] >>`);
  object(4, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  all.forEach((stream, i) => {
    offsets[first + i] = size;
    push(latin1(`${first + i} 0 obj\n<< /Length ${stream.data.byteLength} ${stream.entries} >>\nstream\n`));
    push(stream.data);
    push(latin1("\nendstream\nendobj\n"));
  });
  for (const [i, body] of objects.entries()) object(first + all.length + i, body);
  const count = first + all.length + objects.length;
  const xref = size;
  const rows = Array.from({ length: count - 1 }, (_, i) => `${String(offsets[i + 1]).padStart(10, "0")} 00000 n \n`).join("");
  push(latin1(`xref\n0 ${count}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return concat(parts);
}

/** Zero bytes each PDF bomb expands to. */
export const BOMB_EXPANDED_BYTES = 400 * MiB;

/** The PDF bombs: zeros behind two and three Flate layers (about 1.5 KB and 1 KB, each 400 MiB expanded). */
export async function pdfBombs() {
  const once = await deflate(null, BOMB_EXPANDED_BYTES);
  const twice = await deflate(once);
  const thrice = await deflate(twice);
  return [
    { name: "pdf: two Flate layers, 400 MiB", body: pdfWithStreams([{ entries: "/Filter [/FlateDecode /FlateDecode]", data: twice }]) },
    { name: "pdf: three Flate layers, 400 MiB", body: pdfWithStreams([{ entries: "/Filter [/FlateDecode /FlateDecode /FlateDecode]", data: thrice }]) },
  ];
}

/** The hostile HTML pages and a large ordinary one, each ending with HOSTILE_QUOTE (as the reader may or may not reach). */
export function hostileHtmlPages() {
  const page = (body) => `<!doctype html><html><head><title>Survey</title></head><body>${body}<p>${HOSTILE_QUOTE}</p></body></html>`;
  const attributes = [];
  for (let i = 0, size = 0; size < 2 * MiB - 4096; i++) {
    const attribute = ` data-a${i}="${i}"`;
    attributes.push(attribute);
    size += attribute.length;
  }
  const paragraph = "<p>The household survey interviewed families across every district about income, housing and schooling.</p>\n";
  return [
    { name: "html: 100,000 <div><p>x</p></div>", body: page("<div><p>x</p></div>".repeat(100_000)) },
    { name: "html: 500,000 unclosed <b>", body: page("<b>".repeat(500_000)) },
    { name: "html: tables nested 10,000 deep", body: page(`${"<table><tr><td>".repeat(10_000)}x${"</td></tr></table>".repeat(10_000)}`) },
    { name: "html: one element with 2 MiB of attributes", body: page(`<div${attributes.join("")}>x</div>`) },
    { name: "html: SVG nested 50,000 deep", body: page(`<svg>${"<g>".repeat(50_000)}${"</g>".repeat(50_000)}</svg>`) },
    // The quote also opens the control page: a check keeps the first 1,000,000 characters of a page's text.
    { name: "html: ordinary 2 MiB page (control)", body: page(`<p>${HOSTILE_QUOTE}</p>\n${paragraph.repeat(Math.floor((2 * MiB - 4096) / paragraph.length))}`), control: true },
  ].map((item) => ({ ...item, body: new TextEncoder().encode(item.body), contentType: "text/html; charset=utf-8" }));
}

/** Every hostile case: the PDF bombs and the HTML pages, each with the path it is served at. */
export async function hostileCases() {
  const pdfs = (await pdfBombs()).map((item) => ({ ...item, contentType: "application/pdf" }));
  return [...pdfs, ...hostileHtmlPages()].map((item, i) => ({ ...item, path: `/hostile/${i}${item.contentType === "application/pdf" ? ".pdf" : ".html"}` }));
}

/** Serves `cases` on loopback (plain http on 127.0.0.1, as development allows); any query string is ignored. */
export async function serveHostileCases(cases) {
  const { createServer } = await import("node:http");
  const byPath = new Map(cases.map((item) => [item.path, item]));
  const server = createServer((request, response) => {
    const item = byPath.get(new URL(request.url ?? "/", "http://localhost").pathname);
    if (!item) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    response.writeHead(200, { "content-type": item.contentType, "content-length": String(item.body.byteLength) }).end(Buffer.from(item.body));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
