/**
 * What a reader of a page does not see, judged from the markup and the page's own stylesheets: the one rule every
 * reader of a page's visible text in Cairn follows (source checks and extract_data). Pure: a tag name, attributes and
 * declarations in.
 *
 * An element's inline `style` and the rules of the page's `<style>` elements (stylesheet.ts: simple selectors only;
 * linked .css files are never fetched) are weighed as a browser weighs them: `!important` first, then the inline
 * style, then specificity, then the later rule. `display: none` and `content-visibility: hidden` hide everything
 * inside; `visibility: hidden` (or `collapse`) is inherited, and a descendant that sets `visibility: visible` is shown
 * again. `aria-hidden="true"` is not hiding: it takes text out of what a screen reader announces, while the text is
 * still shown on screen (a decorative caption, an icon's label), so a quote from it is what a reader saw.
 */
import { type StyleDeclaration, styleDeclarations } from "./stylesheet";

/**
 * Elements whose content is never shown as the page's text. The head is not among them: its only text is the title,
 * which readers take apart, and a page that never closes its head must not hide its whole body.
 */
export const NEVER_SHOWN_ELEMENTS: ReadonlySet<string> = new Set(["script", "style", "noscript", "template", "textarea"]);

/** The attributes of an element the judgement reads; null where the element has none. */
export interface ElementAttributes {
  hidden: string | null;
}

/** A declaration weighed in the cascade: inline declarations weigh above every selector. */
export interface WeighedDeclaration extends StyleDeclaration {
  specificity: number;
  order: number;
}

/** What the winning declarations do to an element: take it and its content out, and its (inherited) visibility. */
export interface StyleOutcome {
  removes: boolean;
  visibility: "hidden" | "visible" | null;
}

const INLINE_SPECIFICITY = 1e12;

/** An inline style's declarations that bear on what is shown, weighed as inline (later ones win ties). */
export function inlineDeclarations(style: string): WeighedDeclaration[] {
  return styleDeclarations(style).map((declaration, i) => ({ ...declaration, specificity: INLINE_SPECIFICITY, order: i }));
}

/** The winning declaration of each property (important, then specificity, then order), and what they do together. */
export function cascade(declarations: readonly WeighedDeclaration[]): StyleOutcome {
  const winning = new Map<string, WeighedDeclaration>();
  for (const declaration of declarations) {
    const before = winning.get(declaration.effect.property);
    const beats =
      !before ||
      (declaration.important !== before.important
        ? declaration.important
        : declaration.specificity !== before.specificity
          ? declaration.specificity > before.specificity
          : declaration.order >= before.order);
    if (beats) winning.set(declaration.effect.property, declaration);
  }
  const value = (property: string) => winning.get(property)?.effect.value;
  const visibility = value("visibility");
  return {
    removes: value("display") === "none" || value("content-visibility") === "hidden",
    visibility: visibility === "hidden" || visibility === "visible" ? visibility : null,
  };
}

/**
 * True when an inline style alone hides the element: `display: none`, `visibility: hidden` (or `collapse`) or
 * `content-visibility: hidden`, in any case and spacing, with or without `!important`. As in CSS, the last
 * declaration of a property wins, and an `!important` one beats a later ordinary one.
 */
export function hiddenByStyle(style: string): boolean {
  const outcome = cascade(inlineDeclarations(style));
  return outcome.removes || outcome.visibility === "hidden";
}

/**
 * True when a reader does not see the element's content whatever its style: an element that is never shown, or one
 * with the `hidden` attribute (any spelling, any value but `until-found`, which the browser's find-in-page reveals).
 */
export function hiddenElement(tagName: string, attributes: ElementAttributes): boolean {
  if (NEVER_SHOWN_ELEMENTS.has(tagName.toLowerCase())) return true;
  return attributes.hidden !== null && attributes.hidden.trim().toLowerCase() !== "until-found";
}
