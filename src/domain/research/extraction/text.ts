import { EXTRACTION_LIMITS } from "./model";

/** Text helpers every extractor shares: character references, whitespace, clipping, link targets. */

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  ensp: "\u2002",
  emsp: "\u2003",
  thinsp: "\u2009",
  shy: "\u00ad",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  minus: "−",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  laquo: "«",
  raquo: "»",
  lsaquo: "‹",
  rsaquo: "›",
  bull: "•",
  middot: "·",
  deg: "°",
  plusmn: "±",
  times: "×",
  divide: "÷",
  frac12: "½",
  frac14: "¼",
  frac34: "¾",
  sup2: "²",
  sup3: "³",
  micro: "µ",
  para: "¶",
  sect: "§",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  curren: "¤",
  permil: "‰",
  prime: "′",
  Prime: "″",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  harr: "↔",
  le: "≤",
  ge: "≥",
  ne: "≠",
  asymp: "≈",
  infin: "∞",
  check: "✓",
  dagger: "†",
  Dagger: "‡",
  iexcl: "¡",
  iquest: "¿",
  auml: "ä",
  ouml: "ö",
  uuml: "ü",
  Auml: "Ä",
  Ouml: "Ö",
  Uuml: "Ü",
  szlig: "ß",
  eacute: "é",
  egrave: "è",
  ecirc: "ê",
  Eacute: "É",
  aacute: "á",
  agrave: "à",
  acirc: "â",
  iacute: "í",
  oacute: "ó",
  uacute: "ú",
  ntilde: "ñ",
  ccedil: "ç",
  aring: "å",
  oslash: "ø",
  aelig: "æ",
  zwj: "\u200d",
  zwnj: "\u200c",
};

const codePoint = (value: number): string =>
  value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff) ? "\ufffd" : String.fromCodePoint(value);

/** Decodes HTML character references (numeric ones and the common named ones; unknown names stay as written). */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));?/g, (whole, dec, hex, name) => {
    if (dec !== undefined) return codePoint(Number.parseInt(dec, 10));
    if (hex !== undefined) return codePoint(Number.parseInt(hex, 16));
    return NAMED_ENTITIES[name as string] ?? whole;
  });
}

/** Whitespace runs (newlines and no-break spaces included) become one space; ends trimmed. */
export const collapseWhitespace = (text: string): string => text.replace(/[\s\u00ad\u200b]+/g, " ").trim();

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/**
 * A link target as the caller should see it: resolved against `base` when
 * relative, and only http, https or mailto (javascript:, data: and the like are
 * dropped). Relative targets stay as written when there is no base.
 */
export function resolveHref(raw: string, base: URL | null): string | null {
  const href = raw.trim().replace(/[\t\n\r]/g, "");
  if (href === "" || href.length > EXTRACTION_LIMITS.hrefChars) return null;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(href);
  if (scheme) {
    try {
      const url = new URL(href);
      return LINK_PROTOCOLS.has(url.protocol) ? url.href : null;
    } catch {
      return null;
    }
  }
  if (!base) return href;
  try {
    const url = new URL(href, base);
    return LINK_PROTOCOLS.has(url.protocol) && url.href.length <= EXTRACTION_LIMITS.hrefChars ? url.href : null;
  } catch {
    return null;
  }
}

/** The base for relative links: an absolute http(s) URL, or none. */
export function parseBaseUrl(baseUrl: string | undefined | null): URL | null {
  if (!baseUrl) return null;
  try {
    const url = new URL(baseUrl);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** Whether stored text is HTML (extracted with the HTML extractor) rather than markdown or plain text. */
export function looksLikeHtml(text: string): boolean {
  const head = text.slice(0, 2000);
  if (/<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]/i.test(head)) return true;
  const trimmed = head.trimStart();
  return trimmed.startsWith("<") && /^<[a-zA-Z][a-zA-Z0-9-]*(\s[^>]*)?>/.test(trimmed) && /<\/[a-zA-Z][a-zA-Z0-9-]*\s*>/.test(text);
}
