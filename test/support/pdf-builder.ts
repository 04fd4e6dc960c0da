/**
 * Builds small, valid PDF files for the source-check fixtures and `npm run bench:sources`: one text
 * line per line of each page (Helvetica, WinAnsi encoding), an optional /Title in the document info,
 * and pages drawn without any text (a scan's look, with no text layer). Written by hand rather than
 * with a PDF library so the bytes are known exactly; plain TypeScript (erasable syntax) so Node
 * loads it directly from the bench.
 */

export interface PdfPage {
  /** Lines of text; none for a page with no text layer (drawn shapes only, as a scanned page). */
  lines: string[];
}

/** WinAnsi codes of the typographic characters the fixtures use; other characters up to U+00FF are Latin-1. */
const WIN_ANSI: Record<string, number> = { "\u2018": 0x91, "\u2019": 0x92, "\u201c": 0x93, "\u201d": 0x94, "\u2013": 0x96, "\u2014": 0x97, "\u2026": 0x85 };

/** Whether every character of `text` has a code in the fixtures' font encoding (no CJK, no symbols beyond Latin-1). */
export function winAnsiEncodable(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (WIN_ANSI[char] === undefined && (code > 0xff || (code >= 0x80 && code < 0xa0))) return false;
  }
  return true;
}

/** A PDF literal string: parentheses and backslashes escaped, other bytes as octal escapes. */
function literal(text: string): string {
  let out = "(";
  // A soft hyphen prints nothing unless a line breaks there (lines here break at spaces): like print, the PDF leaves it out.
  for (const char of text.replace(/\u00ad/g, "")) {
    const code = WIN_ANSI[char] ?? char.codePointAt(0) ?? 0x3f;
    const byte = code > 0xff ? 0x3f : code;
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte < 0x20 || byte > 0x7e) out += `\\${byte.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(byte);
  }
  return `${out})`;
}

function contentStream(page: PdfPage): string {
  if (page.lines.length === 0) return "0.5 g 72 400 468 320 re f 0 g 90 600 m 520 600 l S\n";
  return `BT /F1 11 Tf 14 TL 72 740 Td\n${page.lines.map((line) => `${literal(line)} Tj T*`).join("\n")}\nET\n`;
}

/** The bytes of a PDF with these pages (Letter size) and, if given, this title. */
export function buildPdf(pages: PdfPage[], title?: string): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) as number; // object number = its index + 1
  const catalog = add("<< /Type /Catalog /Pages 2 0 R >>");
  const pageTree = add(""); // filled in once the pages' numbers are known
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const kids: number[] = [];
  for (const page of pages) {
    const stream = contentStream(page);
    const contents = add(`<< /Length ${stream.length} >>\nstream\n${stream}endstream`);
    kids.push(add(`<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contents} 0 R >>`));
  }
  objects[pageTree - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  const info = title === undefined ? null : add(`<< /Title ${literal(title)} /Producer (Cairn test fixtures) >>`);

  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${info ? ` /Info ${info} 0 R` : ""} >>\nstartxref\n${xref}\n%%EOF\n`;
  // Every character is one byte (the literals are escaped to ASCII; the binary comment is Latin-1).
  return Uint8Array.from(out, (char) => char.charCodeAt(0));
}

/** Wraps `text` into lines of at most `width` characters, at spaces. */
export function wrapLines(text: string, width = 90): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(line);
  }
  return lines;
}

/** zlib-compressed bytes (what a PDF's /FlateDecode holds), with the runtime's Compression Streams. */
export async function deflate(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([data]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
}

/**
 * A one-page PDF whose content stream is `data` with the dictionary entries `entries` (e.g. a Flate
 * "decompression bomb": megabytes of spaces compressed to kilobytes).
 * `trailerExtra`: entries added to the trailer (an /Encrypt reference).
 */
export function buildPdfWithStream(entries: string, data: Uint8Array, trailerExtra = ""): Uint8Array {
  const encoder = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
  const parts: Uint8Array[] = [encoder("%PDF-1.4\n")];
  let size = parts[0]?.byteLength ?? 0;
  const offsets: number[] = [];
  const push = (bytes: Uint8Array) => {
    parts.push(bytes);
    size += bytes.byteLength;
  };
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  objects.forEach((body, i) => {
    offsets.push(size);
    push(encoder(`${i + 1} 0 obj\n${body}\nendobj\n`));
  });
  offsets.push(size);
  push(encoder(`5 0 obj\n<< /Length ${data.byteLength} ${entries} >>\nstream\n`));
  push(data);
  push(encoder("\nendstream\nendobj\n"));
  const xref = size;
  push(encoder(`xref\n0 6\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}trailer\n<< /Size 6 /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`));
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
