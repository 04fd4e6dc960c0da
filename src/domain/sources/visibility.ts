/**
 * What a reader of a page does not see, judged from the markup alone: the one rule every reader of a page's
 * visible text in Cairn follows (source checks and extract_data). Pure: a tag name and its attributes in.
 *
 * Only what the element itself says counts. A stylesheet (a <style> block, a linked .css file, a class such as
 * `.sr-only` or `.d-none`) is not applied: Cairn lays out no page, so text hidden by a stylesheet class still
 * counts as visible, and a quote from it can verify. A hidden element hides everything inside it (a child that sets
 * `visibility: visible` again is left out too: rare, and erring towards "not found" rather than "verified").
 */

/**
 * Elements whose content is never shown as the page's text. The head is not among them: its only text is the title,
 * which readers take apart, and a page that never closes its head must not hide its whole body.
 */
export const NEVER_SHOWN_ELEMENTS: ReadonlySet<string> = new Set(["script", "style", "noscript", "template", "textarea"]);

/** The attributes of an element a judgement reads; null where the element has none. */
export interface ElementAttributes {
  hidden: string | null;
  ariaHidden: string | null;
  style: string | null;
}

/** CSS properties and the values that hide an element's content from a reader. */
const HIDING: Readonly<Record<string, ReadonlySet<string>>> = {
  display: new Set(["none"]),
  visibility: new Set(["hidden", "collapse"]),
  "content-visibility": new Set(["hidden"]),
};

/** An inline style's declarations in order, comments dropped, names and values lowercased and trimmed. */
function declarations(style: string): [string, string][] {
  return style
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

/**
 * True when an inline style hides the element: `display: none`, `visibility: hidden` (or `collapse`) or
 * `content-visibility: hidden`, in any case and spacing, with or without `!important`. As in CSS, the last
 * declaration of a property wins, and an `!important` one beats a later ordinary one.
 */
export function hiddenByStyle(style: string): boolean {
  const winning = new Map<string, { value: string; important: boolean }>();
  for (const [name, declared] of declarations(style)) {
    const important = /!\s*important$/.test(declared);
    const value = declared.replace(/!\s*important$/, "").trim();
    const before = winning.get(name);
    if (before?.important && !important) continue;
    winning.set(name, { value, important });
  }
  return Object.entries(HIDING).some(([name, values]) => {
    const declared = winning.get(name);
    return declared !== undefined && values.has(declared.value);
  });
}

/**
 * True when a reader does not see the element's content: an element that is never shown, one with the `hidden`
 * attribute (any spelling, any value but `until-found`, which the browser's find-in-page reveals), one marked
 * `aria-hidden="true"`, or one whose inline style hides it.
 */
export function hiddenElement(tagName: string, attributes: ElementAttributes): boolean {
  if (NEVER_SHOWN_ELEMENTS.has(tagName.toLowerCase())) return true;
  if (attributes.hidden !== null && attributes.hidden.trim().toLowerCase() !== "until-found") return true;
  if (attributes.ariaHidden !== null && attributes.ariaHidden.trim().toLowerCase() === "true") return true;
  return attributes.style !== null && hiddenByStyle(attributes.style);
}
