/**
 * The rules of a page's own stylesheets (its `<style>` elements) that decide whether text is shown: declarations of
 * `display`, `visibility` and `content-visibility`, with the selectors they apply to. The page reader hands each
 * selector to the HTML parser's own matcher (lol-html's, native, as it streams the page) and weighs what matches by
 * the cascade (stylesheet-cascade.ts). Pure and bounded.
 *
 * Read: rules at the top level of a `<style>` element with no `media` attribute, or `media="all"` or `"screen"`.
 * Not read: rules inside an at-rule (`@media`, `@supports`, `@layer`, …: whether they apply depends on the screen,
 * the browser or their order among layers), linked `.css` files (never fetched), and selectors beyond the simple
 * ones: type, class, id and attribute selectors, `*`, descendant and child combinators, selector lists and `:not()`
 * of those. A rule with any other selector (`:hover`, `::before`, `+`, `~`, an escaped character) depends on what a
 * reader does or on the layout, and is left out; so is one whose subject is the whole page (`html`, `body`, `*`: see
 * hidesWholePage). The reader errs towards showing text, as with no stylesheet.
 */

export const STYLESHEET_LIMITS = {
  /** Characters of `<style>` text read in all; the rest of a longer stylesheet is not read. */
  styleChars: 256 * 1024,
  /** Selectors that hide, and selectors that show again, taken (each): beyond them, the rest is not read. */
  selectors: 300,
} as const;

/** A property's value as the reader weighs it: `none` and `hidden` take text out, the others put it back. */
export type StyleEffect =
  | { property: "display"; value: "none" | "shown" }
  | { property: "visibility"; value: "hidden" | "visible" }
  | { property: "content-visibility"; value: "hidden" | "shown" };

export interface StyleDeclaration {
  effect: StyleEffect;
  important: boolean;
}

/** A selector of the page's stylesheet and what it declares, weighed by specificity (ids, classes, types) then order. */
export interface StyleRule {
  selector: string;
  /** ids × 1,000,000 + classes, attributes and pseudo-classes × 1,000 + types. */
  specificity: number;
  /** The rule's place in the page's stylesheets: a later rule wins a tie. */
  order: number;
  declarations: StyleDeclaration[];
}

/** The declared effect of one declaration on what is shown, or null for any other property or value. */
export function effectOf(name: string, value: string): StyleEffect | null {
  if (name === "display") return { property: "display", value: value === "none" ? "none" : "shown" };
  if (name === "visibility") {
    if (value === "hidden" || value === "collapse") return { property: "visibility", value: "hidden" };
    return value === "visible" ? { property: "visibility", value: "visible" } : null;
  }
  if (name === "content-visibility") return { property: "content-visibility", value: value === "hidden" ? "hidden" : "shown" };
  return null;
}

/** A block's declarations in order, comments dropped, names and values lowercased and trimmed. */
export function declarationsOf(block: string): [string, string][] {
  return block
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, " ")
    .split(";")
    .flatMap((declaration) => {
      const colon = declaration.indexOf(":");
      if (colon < 0) return [];
      const name = declaration.slice(0, colon).trim().toLowerCase();
      const value = declaration.slice(colon + 1).trim().toLowerCase();
      return name && value ? [[name, value] as [string, string]] : [];
    });
}

/** The declarations of a block that bear on what is shown, `!important` read apart. */
export function styleDeclarations(block: string): StyleDeclaration[] {
  return declarationsOf(block).flatMap(([name, declared]) => {
    const important = /!\s*important$/.test(declared);
    const effect = effectOf(name, declared.replace(/!\s*important$/, "").trim());
    return effect ? [{ effect, important }] : [];
  });
}

/**
 * The text of the page's `<style>` elements that apply to a screen, in order, at most STYLESHEET_LIMITS.styleChars in
 * all. A linear scan for the tags (no expression over the page): a `<style>` never closed runs to the page's end.
 */
export function styleSheetsOf(html: string): string[] {
  const sheets: string[] = [];
  let budget: number = STYLESHEET_LIMITS.styleChars;
  let at = 0;
  while (budget > 0) {
    const open = indexOfTag(html, "<style", at);
    if (open < 0) break;
    const tagEnd = html.indexOf(">", open);
    if (tagEnd < 0) break;
    const close = indexOfTag(html, "</style", tagEnd);
    const end = close < 0 ? html.length : close;
    if (appliesToScreen(html.slice(open + 6, tagEnd))) {
      const text = html.slice(tagEnd + 1, Math.min(end, tagEnd + 1 + budget));
      sheets.push(text);
      budget -= text.length;
    }
    if (close < 0) break;
    at = close + 7;
  }
  return sheets;
}

/** The next `<style` (or `</style`) at or after `from`, in any case, followed by a space, `/` or `>`. */
function indexOfTag(html: string, tag: string, from: number): number {
  let at = from;
  for (;;) {
    const lower = html.indexOf(tag, at);
    const upper = html.indexOf(tag.toUpperCase(), at);
    const found = lower < 0 ? upper : upper < 0 ? lower : Math.min(lower, upper);
    // Mixed case ("<Style") is rare enough to be read as text: the rule then errs towards showing.
    if (found < 0) return -1;
    const next = html[found + tag.length];
    if (next === undefined || next === ">" || next === "/" || /\s/.test(next)) return found;
    at = found + 1;
  }
}

/** Whether a `<style>` element's attributes let it apply on a screen: no `media`, or `all` or `screen`. */
function appliesToScreen(attributes: string): boolean {
  const media = /\bmedia\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes);
  if (!media) return true;
  const value = (media[1] ?? media[2] ?? media[3] ?? "").trim().toLowerCase();
  return value === "" || value === "all" || value === "screen";
}

/**
 * The top-level rules of a stylesheet that declare what is shown, each selector of a list apart, in order. At-rules
 * and their blocks are skipped whole; strings and comments are stepped over; a selector outside the simple ones is
 * dropped.
 */
export function styleRules(sheets: readonly string[]): StyleRule[] {
  const rules: StyleRule[] = [];
  let order = 0;
  for (const sheet of sheets) {
    const css = sheet.replace(/\/\*[\s\S]*?(\*\/|$)/g, " ").replace(/<!--|-->/g, " ");
    let i = 0;
    while (i < css.length) {
      const open = blockStart(css, i);
      if (open < 0) break;
      const close = blockEnd(css, open);
      const prelude = css.slice(i, open).trim();
      const body = css.slice(open + 1, close < 0 ? css.length : close);
      i = close < 0 ? css.length : close + 1;
      // A statement at-rule before this block (`@import …;`) ends at its semicolon; what follows is the selector.
      const selectorText = prelude.slice(prelude.lastIndexOf(";") + 1).trim();
      if (selectorText.startsWith("@") || selectorText === "") continue;
      const declarations = styleDeclarations(body);
      if (declarations.length === 0) continue;
      for (const selector of splitList(selectorText)) {
        const specificity = simpleSpecificity(selector);
        if (specificity !== null && !hidesWholePage(selector)) rules.push({ selector, specificity, order: order++, declarations });
      }
    }
  }
  return rules;
}

/** The next `{` at or after `from` outside strings, or -1. */
function blockStart(css: string, from: number): number {
  for (let i = from; i < css.length; i++) {
    const char = css[i];
    if (char === '"' || char === "'") i = stringEnd(css, i);
    else if (char === "{") return i;
  }
  return -1;
}

/** The `}` closing the block opened at `open` (nested blocks counted, strings stepped over), or -1. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const char = css[i];
    if (char === '"' || char === "'") i = stringEnd(css, i);
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return i;
  }
  return -1;
}

function stringEnd(css: string, open: number): number {
  const quote = css[open];
  for (let i = open + 1; i < css.length; i++) {
    if (css[i] === "\\") i++;
    else if (css[i] === quote || css[i] === "\n") return i;
  }
  return css.length;
}

/** A selector list's selectors (commas inside brackets or parentheses kept). */
function splitList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "(" || char === "[") depth++;
    else if (char === ")" || char === "]") depth--;
    else if (char === "," && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out.filter((selector) => selector !== "");
}

const NAME = /^-?[_a-zA-Z][\w-]*/;
const ATTRIBUTE = /^\[\s*-?[_a-zA-Z][\w-]*\s*(?:[~|^$*]?=\s*(?:"[^"\\]*"|'[^'\\]*'|-?[_a-zA-Z][\w-]*)\s*(?:[iIsS]\s*)?)?\]/;

/**
 * The specificity of a simple selector (see the file's comment), or null for any other. Descendant (space) and child
 * (`>`) combinators; compounds of a type or `*`, `.class`, `#id`, `[attribute…]` and `:not(…)` of simple compounds.
 */
export const simpleSpecificity = (selector: string): number | null => compounds(selector.trim(), false);

function compounds(selector: string, insideNot: boolean): number | null {
  let rest = selector;
  let ids = 0;
  let classes = 0;
  let types = 0;
  let expectCompound = true;
  while (rest.length > 0) {
    const space = /^\s*>\s*|^\s+/.exec(rest);
    if (space) {
      if (expectCompound || insideNot) return null; // a combinator first, twice, or inside :not()
      rest = rest.slice(space[0].length);
      expectCompound = true;
      continue;
    }
    let matched = false;
    if (expectCompound) {
      const type = rest[0] === "*" ? "*" : NAME.exec(rest)?.[0];
      if (type) {
        if (type !== "*") types++;
        rest = rest.slice(type.length);
        matched = true;
      }
    }
    for (;;) {
      const char = rest[0];
      if (char === "." || char === "#") {
        const name = NAME.exec(rest.slice(1))?.[0];
        if (!name) return null;
        if (char === "#") ids++;
        else classes++;
        rest = rest.slice(1 + name.length);
      } else if (char === "[") {
        const attribute = ATTRIBUTE.exec(rest)?.[0];
        if (!attribute) return null;
        classes++;
        rest = rest.slice(attribute.length);
      } else if (rest.toLowerCase().startsWith(":not(") && !insideNot) {
        const close = rest.indexOf(")");
        if (close < 0) return null;
        let inner = 0;
        for (const part of splitList(rest.slice(5, close))) {
          const specificity = compounds(part, true);
          if (specificity === null) return null;
          inner = Math.max(inner, specificity);
        }
        ids += Math.floor(inner / 1_000_000);
        classes += Math.floor((inner % 1_000_000) / 1_000);
        types += inner % 1_000;
        rest = rest.slice(close + 1);
      } else break;
      matched = true;
    }
    if (!matched) return null;
    expectCompound = false;
    if (rest.length > 0 && !/^\s/.test(rest) && rest[0] !== ">") return null;
  }
  if (expectCompound) return null;
  return ids * 1_000_000 + classes * 1_000 + types;
}

/**
 * Whether a selector's subject is the whole page (`html`, `body`, `*` alone): a page that hides its whole body in its
 * stylesheet is waiting for a script to show it (the anti-clickjacking `body { display: none }` a framing check
 * removes, an anti-flicker `html { visibility: hidden }`), and a reader sees the page once it has; so such a rule is
 * not read.
 */
function hidesWholePage(selector: string): boolean {
  const subject = selector.trim().split(/\s*>\s*|\s+/).pop() ?? "";
  return selector.trim() === "*" || /^(html|body)(?![\w-])/i.test(subject);
}

/** The names (type, class, id) of a selector's last compound: what a rule's subject is. */
export function subjectNames(selector: string): string[] {
  const last = selector.trim().split(/\s*>\s*|\s+/).pop() ?? "";
  const withoutNot = last.replace(/:not\([^)]*\)/gi, "");
  return [...withoutNot.matchAll(/([.#]?)(-?[_a-zA-Z][\w-]*)/g)].filter((m) => !withoutNot.slice(0, m.index).endsWith("[")).map((m) => `${m[1]}${m[2]?.toLowerCase()}`);
}

/**
 * The rules the reader registers, within STYLESHEET_LIMITS.selectors each: every rule that hides; of those that show
 * again, only `visibility: visible` ones and ones whose subject shares a type, class or id with a hiding rule's
 * subject (`.modal.show { display: block }` against `.modal { display: none }`): a page's many `display: block` rules
 * for other elements cannot undo any hiding, and each one registered costs the parser.
 */
export function rulesToRead(rules: readonly StyleRule[]): StyleRule[] {
  const hides = (rule: StyleRule) => rule.declarations.some((d) => d.effect.value === "none" || d.effect.value === "hidden");
  const hiding = rules.filter(hides).slice(0, STYLESHEET_LIMITS.selectors);
  if (hiding.length === 0) {
    // Only `visibility: visible` can matter then: under an element an inline style hides that way.
    return rules.filter((rule) => rule.declarations.some((d) => d.effect.value === "visible")).slice(0, STYLESHEET_LIMITS.selectors);
  }
  const hidden = new Set(hiding.flatMap((rule) => subjectNames(rule.selector)));
  const showing = rules
    .filter((rule) => !hides(rule))
    .filter((rule) => rule.declarations.some((d) => d.effect.value === "visible") || subjectNames(rule.selector).some((name) => hidden.has(name)))
    .slice(0, STYLESHEET_LIMITS.selectors);
  const kept = new Set([...hiding, ...showing]);
  return rules.filter((rule) => kept.has(rule));
}
