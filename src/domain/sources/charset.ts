/**
 * Which encoding a fetched page's bytes are in, by the WHATWG rule (HTML Standard, "determining the character
 * encoding"): a byte order mark, else the Content-Type header's charset, else (HTML only) a `<meta charset>` or
 * `<meta http-equiv="Content-Type" content="…charset=…">` among the first 1,024 bytes, else UTF-8.
 * Pure: the caller says which labels its decoder knows (`known` maps a label to the encoding's name, or null),
 * so the label table (latin1 and iso-8859-1 are windows-1252, and so on) is the runtime's WHATWG one.
 */

/** Bytes of an HTML page searched for a `<meta>` naming its encoding (the HTML Standard's prescan length). */
export const CHARSET_PRESCAN_BYTES = 1024;

export type KnownEncoding = (label: string) => string | null;

export interface PageEncoding {
  /** The encoding's name as the decoder knows it. */
  encoding: string;
  /** Where it was read from. */
  from: "bom" | "content-type" | "meta" | "default";
}

/** The encoding a byte order mark at the start names, if any. */
export function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return null;
}

/** The charset parameter of a Content-Type header (quoted or not), if any. */
export function contentTypeCharset(contentType: string | null): string | null {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? "");
  const label = (match?.[1] ?? match?.[2] ?? "").trim();
  return label === "" ? null : label;
}

const SPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const lower = (byte: number) => (byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte);
const isLetter = (byte: number | undefined) => byte !== undefined && ((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a));
const ascii = (bytes: number[]) => String.fromCharCode(...bytes);

/** "extracting a character encoding from a meta element": the charset named in a content attribute's value. */
export function charsetInMetaContent(content: string): string | null {
  let at = 0;
  for (;;) {
    const found = content.toLowerCase().indexOf("charset", at);
    if (found < 0) return null;
    at = found + "charset".length;
    while (/[\t\n\f\r ]/.test(content[at] ?? "")) at++;
    if (content[at] !== "=") continue;
    at++;
    while (/[\t\n\f\r ]/.test(content[at] ?? "")) at++;
    const quote = content[at];
    if (quote === '"' || quote === "'") {
      const end = content.indexOf(quote, at + 1);
      return end < 0 ? null : content.slice(at + 1, end);
    }
    const value = /^[^\t\n\f\r ;]*/.exec(content.slice(at))?.[0] ?? "";
    return value === "" ? null : value;
  }
}

/** The prescan's reader of one attribute ("get an attribute"): its name and value, and where it ends; null at `>` or the end. */
function attributeAt(bytes: Uint8Array, start: number, end: number): { name: string; value: string; next: number } | null {
  let at = start;
  while (at < end && (SPACE.has(bytes[at] as number) || bytes[at] === 0x2f)) at++;
  if (at >= end || bytes[at] === 0x3e) return null;
  const name: number[] = [];
  const value: number[] = [];
  // The name: up to `=` (unless first), whitespace, `/` or `>`.
  for (;;) {
    if (at >= end) return null;
    const byte = bytes[at] as number;
    if (byte === 0x3d && name.length > 0) {
      at++;
      break;
    }
    if (SPACE.has(byte)) {
      while (at < end && SPACE.has(bytes[at] as number)) at++;
      if (bytes[at] !== 0x3d) return { name: ascii(name), value: "", next: at };
      at++;
      break;
    }
    if (byte === 0x2f || byte === 0x3e) return { name: ascii(name), value: "", next: at };
    name.push(lower(byte));
    at++;
  }
  while (at < end && SPACE.has(bytes[at] as number)) at++;
  if (at >= end) return null;
  const quote = bytes[at];
  if (quote === 0x22 || quote === 0x27) {
    at++;
    while (at < end && bytes[at] !== quote) value.push(lower(bytes[at++] as number));
    if (at >= end) return null;
    return { name: ascii(name), value: ascii(value), next: at + 1 };
  }
  if (quote === 0x3e) return { name: ascii(name), value: "", next: at };
  while (at < end && !SPACE.has(bytes[at] as number) && bytes[at] !== 0x3e) value.push(lower(bytes[at++] as number));
  if (at >= end) return null;
  return { name: ascii(name), value: ascii(value), next: at };
}

/** A label a `<meta>` gives, as the page is read: x-user-defined is read as windows-1252 (the standard's rule). */
const metaLabel = (label: string, known: KnownEncoding) => (label.trim().toLowerCase() === "x-user-defined" ? "windows-1252" : known(label));

/** The encoding a `<meta>` whose attributes start at `start` declares, and where the tag ends. */
function metaEncoding(bytes: Uint8Array, start: number, end: number, known: KnownEncoding): { encoding: string | null; next: number } {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | null = null;
  let charset: string | null = null;
  let at = start;
  for (;;) {
    const attribute = attributeAt(bytes, at, end);
    if (!attribute) break;
    at = attribute.next;
    if (seen.has(attribute.name)) continue;
    seen.add(attribute.name);
    if (attribute.name === "http-equiv") {
      if (attribute.value === "content-type") gotPragma = true;
    } else if (attribute.name === "content") {
      const label = charsetInMetaContent(attribute.value);
      if (charset === null && label !== null) {
        charset = metaLabel(label, known);
        needPragma = true;
      }
    } else if (attribute.name === "charset") {
      charset = metaLabel(attribute.value, known);
      needPragma = false;
    }
  }
  if (needPragma === null || (needPragma && !gotPragma) || charset === null) return { encoding: null, next: at };
  // A page cannot declare itself UTF-16 in the ASCII-compatible bytes the prescan just read.
  if (charset === "utf-16le" || charset === "utf-16be") return { encoding: "utf-8", next: at };
  return { encoding: charset, next: at };
}

const startsWith = (bytes: Uint8Array, at: number, text: string) => {
  for (let i = 0; i < text.length; i++) if (lower(bytes[at + i] ?? -1) !== text.charCodeAt(i)) return false;
  return true;
};

/**
 * The encoding a `<meta>` among the first CHARSET_PRESCAN_BYTES bytes declares (the HTML Standard's "prescan a
 * byte stream to determine its encoding"), or null. Comments are skipped, and so are other tags with their
 * attributes (a `>` inside a quoted value does not end them).
 */
export function prescanCharset(bytes: Uint8Array, known: KnownEncoding): string | null {
  const end = Math.min(bytes.length, CHARSET_PRESCAN_BYTES);
  let at = 0;
  while (at < end) {
    if (bytes[at] !== 0x3c) {
      at++;
      continue;
    }
    if (startsWith(bytes, at, "<!--")) {
      let close = at + 2; // `<!-->` closes at once, as the standard reads it
      while (close < end && !(bytes[close] === 0x2d && bytes[close + 1] === 0x2d && bytes[close + 2] === 0x3e)) close++;
      at = close + 3;
    } else if (startsWith(bytes, at, "<meta") && (SPACE.has(bytes[at + 5] ?? -1) || bytes[at + 5] === 0x2f)) {
      const meta = metaEncoding(bytes, at + 5, end, known);
      if (meta.encoding) return meta.encoding;
      at = meta.next + 1;
    } else if (isLetter(bytes[at + 1]) || (bytes[at + 1] === 0x2f && isLetter(bytes[at + 2]))) {
      // Another tag: its name, then its attributes, so a quoted `>` does not end it.
      at += bytes[at + 1] === 0x2f ? 2 : 1;
      while (at < end && !SPACE.has(bytes[at] as number) && bytes[at] !== 0x3e) at++;
      for (;;) {
        const attribute = attributeAt(bytes, at, end);
        if (!attribute) break;
        at = attribute.next;
      }
      at++;
    } else if (bytes[at + 1] === 0x21 || bytes[at + 1] === 0x2f || bytes[at + 1] === 0x3f) {
      while (at < end && bytes[at] !== 0x3e) at++;
      at++;
    } else {
      at++;
    }
  }
  return null;
}

/**
 * The encoding to decode a page's bytes with: BOM, then the Content-Type charset (if the decoder knows it), then
 * for HTML the `<meta>` prescan, else UTF-8.
 */
export function pageEncoding(bytes: Uint8Array, contentType: string | null, html: boolean, known: KnownEncoding): PageEncoding {
  const bom = bomEncoding(bytes);
  if (bom) return { encoding: bom, from: "bom" };
  const declared = contentTypeCharset(contentType);
  const named = declared === null ? null : known(declared);
  if (named) return { encoding: named, from: "content-type" };
  const meta = html ? prescanCharset(bytes, known) : null;
  if (meta) return { encoding: meta, from: "meta" };
  return { encoding: "utf-8", from: "default" };
}
