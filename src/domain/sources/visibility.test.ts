import { describe, expect, it } from "vitest";
import { hiddenByStyle, hiddenElement } from "./visibility";

const none = { hidden: null, ariaHidden: null, style: null };

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

  it("hides aria-hidden=true only, and what an inline style hides", () => {
    expect(hiddenElement("div", { ...none, ariaHidden: "true" })).toBe(true);
    expect(hiddenElement("div", { ...none, ariaHidden: " TRUE" })).toBe(true);
    expect(hiddenElement("div", { ...none, ariaHidden: "false" })).toBe(false);
    expect(hiddenElement("div", { ...none, style: "display:none" })).toBe(true);
    expect(hiddenElement("div", { ...none, style: "color:red" })).toBe(false);
  });
});
