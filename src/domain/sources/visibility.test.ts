import { describe, expect, it } from "vitest";
import { cascade, hiddenByStyle, hiddenElement, inlineDeclarations, type WeighedDeclaration } from "./visibility";

const none = { hidden: null };

describe("hiddenByStyle", () => {
  it("hides display:none, visibility:hidden or collapse, and content-visibility:hidden", () => {
    for (const style of ["display:none", "visibility:hidden", "visibility: collapse", "content-visibility:hidden"]) expect(hiddenByStyle(style), style).toBe(true);
  });

  it("reads any case and spacing, !important, comments and several declarations", () => {
    for (const style of [
      "DISPLAY : NONE",
      "  display:\tnone ;",
      "display:none!important",
      "display: none ! IMPORTANT",
      "color: red; display: none; margin: 0",
      "color:red;;display:/* hidden */none",
      "font-weight: bold;\n visibility:Hidden",
    ])
      expect(hiddenByStyle(style), style).toBe(true);
  });

  it("lets the last declaration of a property win, unless an earlier one is !important", () => {
    expect(hiddenByStyle("display:none; display:block")).toBe(false);
    expect(hiddenByStyle("display:block; display:none")).toBe(true);
    expect(hiddenByStyle("display:none !important; display:block")).toBe(true);
    expect(hiddenByStyle("display:none; display:block !important")).toBe(false);
  });

  it("keeps what only looks like hiding visible", () => {
    for (const style of [
      "",
      "display:block",
      "display: inline-block",
      "visibility: visible",
      "content-visibility: auto",
      "opacity: 0.5",
      "font-family: none",
      "--display: none",
      "background: url(display:none)",
      "/* display:none */ color: red",
      "display",
      "displaynone",
    ])
      expect(hiddenByStyle(style), style).toBe(false);
  });
});

describe("hiddenElement", () => {
  it("hides never-shown elements whatever their case", () => {
    for (const tag of ["script", "STYLE", "noscript", "template", "textarea"]) expect(hiddenElement(tag, none), tag).toBe(true);
    expect(hiddenElement("p", none)).toBe(false);
    // The head's title is read apart; its other text is whitespace or never-shown elements.
    expect(hiddenElement("head", none)).toBe(false);
  });

  it("hides the hidden attribute in all its spellings, but not hidden=until-found", () => {
    for (const value of ["", "hidden", "HIDDEN", "true", "false"]) expect(hiddenElement("div", { ...none, hidden: value }), value).toBe(true);
    expect(hiddenElement("div", { ...none, hidden: "until-found" })).toBe(false);
    expect(hiddenElement("div", { ...none, hidden: " Until-Found " })).toBe(false);
  });

});

describe("cascade: the page's stylesheet rules and the inline style, weighed as a browser weighs them", () => {
  const rule = (value: "none" | "shown", specificity: number, order: number, important = false): WeighedDeclaration => ({
    effect: { property: "display", value },
    important,
    specificity,
    order,
  });

  it("lets the inline style beat a rule, an !important rule beat the inline style, specificity then order decide between rules", () => {
    expect(cascade([rule("none", 1_000, 0), ...inlineDeclarations("display:block")]).removes).toBe(false);
    expect(cascade([rule("none", 1_000, 0, true), ...inlineDeclarations("display:block")]).removes).toBe(true);
    expect(cascade([rule("none", 1_000, 0), rule("shown", 2_000, 1)]).removes).toBe(false); // .modal.show after .modal
    expect(cascade([rule("none", 2_000, 1), rule("shown", 1_000, 2)]).removes).toBe(true); // more specific hiding wins
    expect(cascade([rule("none", 1_000, 0), rule("shown", 1_000, 1)]).removes).toBe(false); // a later rule wins a tie
  });

  it("reads visibility apart: hidden, collapse or visible, inherited by the reader", () => {
    expect(cascade(inlineDeclarations("visibility:collapse"))).toEqual({ removes: false, visibility: "hidden" });
    expect(cascade(inlineDeclarations("visibility:visible"))).toEqual({ removes: false, visibility: "visible" });
    expect(cascade(inlineDeclarations("content-visibility:hidden"))).toEqual({ removes: true, visibility: null });
  });
});
