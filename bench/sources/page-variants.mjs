/**
 * The bodies the article bench serves for a page of bench/sources/articles/: the page as the dataset
 * stores it (UTF-8), the page with hidden elements put in, and the page re-encoded in a legacy
 * charset that only its own <meta> declares. Used alike by the set's builder (to check labels on the
 * very bytes served) and by the bench (to serve them); building a page is not labelling it.
 */

const encoders = new Map();

/** Character → bytes in `encoding`, found by decoding every one- and two-byte sequence (Node can decode legacy charsets, not encode them). */
function encoderFor(encoding) {
  if (encoders.has(encoding)) return encoders.get(encoding);
  const decoder = new TextDecoder(encoding, { fatal: true });
  const map = new Map();
  const learn = (bytes) => {
    let text;
    try {
      text = decoder.decode(Uint8Array.from(bytes));
    } catch {
      return;
    }
    if ([...text].length === 1 && text !== "\ufffd" && !map.has(text)) map.set(text, bytes);
  };
  for (let b = 0x80; b <= 0xff; b++) learn([b]);
  if (!["windows-1252", "windows-1251", "koi8-r", "iso-8859-2", "iso-8859-15"].includes(encoding)) {
    for (let lead = 0x81; lead <= 0xfe; lead++) for (let trail = 0x40; trail <= 0xfe; trail++) learn([lead, trail]);
  }
  encoders.set(encoding, map);
  return map;
}

/** `text` in `encoding`; a character the charset lacks becomes a numeric character reference, as browsers submit forms. */
export function encodeLegacy(text, encoding) {
  const map = encoderFor(encoding);
  const bytes = [];
  for (const char of text) {
    const code = char.codePointAt(0);
    if (code < 0x80) bytes.push(code);
    else if (map.has(char)) bytes.push(...map.get(char));
    else for (const c of `&#${code};`) bytes.push(c.charCodeAt(0));
  }
  return Uint8Array.from(bytes);
}

const DECLARATION = /<meta\b[^>]*\bcharset\s*=[^>]*>|<meta\b[^>]*http-equiv\s*=\s*["']?content-type[^>]*>/gi;

/**
 * The page declaring `encoding` in its own <meta> (its former declarations removed), either as
 * `<meta charset>` or as `<meta http-equiv="Content-Type">`, placed first in the head.
 */
export function declaringCharset(html, encoding, form) {
  const meta = form === "http-equiv" ? `<meta http-equiv="Content-Type" content="text/html; charset=${encoding}">` : `<meta charset="${encoding}">`;
  const stripped = html.replace(DECLARATION, "");
  const head = /<head\b[^>]*>/i.exec(stripped);
  return head ? `${stripped.slice(0, head.index + head[0].length)}${meta}${stripped.slice(head.index + head[0].length)}` : `${meta}${stripped}`;
}

/** The page with each injection's HTML put in at its character offset (offsets into the page as stored). */
export function withInjections(html, injections) {
  let out = html;
  for (const { offset, html: inserted } of [...injections].sort((a, b) => b.offset - a.offset)) out = `${out.slice(0, offset)}${inserted}${out.slice(offset)}`;
  return out;
}

/** What the bench serves for a variant: the body's bytes and the Content-Type header sent with them. */
export function servedVariant(html, variant) {
  if (variant.kind === "original") return { body: new TextEncoder().encode(html), contentType: "text/html; charset=utf-8" };
  if (variant.kind === "hidden") return { body: new TextEncoder().encode(withInjections(html, variant.injections)), contentType: "text/html; charset=utf-8" };
  if (variant.kind === "charset") return { body: encodeLegacy(declaringCharset(html, variant.encoding, variant.form), variant.encoding), contentType: "text/html" };
  throw new Error(`unknown page variant ${variant.kind}`);
}
