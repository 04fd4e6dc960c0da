/**
 * A reading of an HTML page written for labelling the article set only, independent of Cairn's reader
 * (src/platform/sources/visible-text.ts): a plain tag scanner with its own entity table. It is
 * deliberately strict about what counts as visible: text inside the head, scripts, styles, templates,
 * noscript, textarea, svg and select, and inside any element hidden by the `hidden` attribute,
 * `aria-hidden="true"` or an inline style (display:none, visibility:hidden, content-visibility:hidden)
 * is left out, so a sentence it finds is one a reader sees. Where it is unsure (an entity it does not
 * know, an element left open) it loses text rather than inventing any: a sentence it misses is merely
 * not used as a genuine quote.
 */

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr", "keygen"]);
const HIDDEN_ELEMENTS = new Set(["head", "script", "style", "template", "noscript", "textarea", "svg", "select", "title", "iframe", "object", "math"]);
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "noembed", "noframes", "iframe"]);
const BLOCK = new Set([
  "p", "div", "br", "li", "dt", "dd", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header",
  "footer", "main", "nav", "aside", "blockquote", "pre", "figcaption", "figure", "table", "ul", "ol", "hr", "form", "body", "html",
]);
const NAMED = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", mdash: "\u2014", ndash: "\u2013", hellip: "\u2026",
  lsquo: "\u2018", rsquo: "\u2019", ldquo: "\u201c", rdquo: "\u201d", sbquo: "\u201a", bdquo: "\u201e", laquo: "\u00ab", raquo: "\u00bb",
  copy: "\u00a9", reg: "\u00ae", trade: "\u2122", deg: "\u00b0", middot: "\u00b7", bull: "\u2022", shy: "\u00ad", times: "\u00d7",
  eacute: "é", egrave: "è", ecirc: "ê", euml: "ë", aacute: "á", agrave: "à", acirc: "â", auml: "ä", atilde: "ã", aring: "å",
  iacute: "í", igrave: "ì", icirc: "î", iuml: "ï", oacute: "ó", ograve: "ò", ocirc: "ô", ouml: "ö", otilde: "õ", oslash: "ø",
  uacute: "ú", ugrave: "ù", ucirc: "û", uuml: "ü", ccedil: "ç", ntilde: "ñ", szlig: "ß", Eacute: "É", Aacute: "Á", Oacute: "Ó",
  Uacute: "Ú", Auml: "Ä", Ouml: "Ö", Uuml: "Ü", Ccedil: "Ç", Ntilde: "Ñ", euro: "€", pound: "£", cent: "¢", yen: "¥", sect: "§",
  para: "¶", frac12: "½", frac14: "¼", frac34: "¾", zwj: "\u200d", zwnj: "\u200c", thinsp: "\u2009", ensp: "\u2002", emsp: "\u2003",
  prime: "\u2032", Prime: "\u2033", iexcl: "¡", iquest: "¿", ordf: "ª", ordm: "º", plusmn: "±", minus: "\u2212",
};

/** Decodes character references; an unknown named one is left as written. */
export function decodeReferences(text) {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);?/gi, (whole, ref) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return Object.hasOwn(NAMED, ref) ? NAMED[ref] : whole;
  });
}

const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function attributesOf(source) {
  const attributes = new Map();
  for (const m of source.matchAll(ATTRIBUTE)) attributes.set(m[1].toLowerCase(), decodeReferences(m[2] ?? m[3] ?? m[4] ?? ""));
  return attributes;
}

/** Whether a start tag's attributes hide the element (and everything in it) from a reader. */
export function hiddenByAttributes(attributes) {
  if (attributes.has("hidden")) return true;
  if ((attributes.get("aria-hidden") ?? "").trim().toLowerCase() === "true") return true;
  const style = (attributes.get("style") ?? "").toLowerCase().replace(/\s+/g, "");
  return /(^|;)display:none/.test(style) || /(^|;)visibility:(hidden|collapse)/.test(style) || /(^|;)content-visibility:hidden/.test(style);
}

const TAG = /<!--[\s\S]*?(?:-->|$)|<![^>]*>|<\?[^>]*>|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

/** The text a reader sees, one block a line, whitespace collapsed. */
export function visibleText(html) {
  let out = "";
  // Open hidden elements: the name and how many of that name are nested inside it.
  const hidden = [];
  const lower = html.toLowerCase();
  let at = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(html); m; m = TAG.exec(html)) {
    if (hidden.length === 0) out += decodeReferences(html.slice(at, m.index));
    at = TAG.lastIndex;
    const [, closing, rawName, rest] = m;
    if (rawName === undefined) continue; // a comment, doctype or processing instruction
    const name = rawName.toLowerCase();
    if (closing) {
      const top = hidden.at(-1);
      if (top && top.name === name && --top.depth === 0) hidden.pop();
      if (BLOCK.has(name) && hidden.length === 0) out += "\n";
      continue;
    }
    if (BLOCK.has(name) && hidden.length === 0) out += "\n";
    const selfClosing = /\/\s*$/.test(rest);
    const top = hidden.at(-1);
    if (top && top.name === name && !VOID.has(name) && !selfClosing) top.depth++;
    else if (!VOID.has(name) && !(selfClosing && name !== "script") && (HIDDEN_ELEMENTS.has(name) || hiddenByAttributes(attributesOf(rest)))) hidden.push({ name, depth: 1 });
    if (RAW_TEXT.has(name)) {
      // Raw text runs to its end tag whatever it holds.
      const end = lower.indexOf(`</${name}`, at);
      const stop = end < 0 ? html.length : end;
      if (hidden.length === 0) out += decodeReferences(html.slice(at, stop));
      at = stop;
      TAG.lastIndex = stop;
    }
  }
  if (hidden.length === 0) out += decodeReferences(html.slice(at));
  return out
    .split("\n")
    .map((line) => line.replace(/[\s\u00a0]+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}
