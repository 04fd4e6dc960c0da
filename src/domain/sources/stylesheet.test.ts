import { describe, expect, it } from "vitest";
import { rulesToRead, STYLESHEET_LIMITS, simpleSpecificity, styleRules, styleSheetsOf, subjectNames } from "./stylesheet";

describe("styleSheetsOf: the page's <style> elements for a screen", () => {
  it("reads each <style> in order, skipping print-only ones, a never-closed one to the end", () => {
    const html = '<style>.a{display:none}</style><p>x</p><STYLE media="print">.b{display:none}</STYLE><style media=screen>.c{}</style><style type="text/css">.d{';
    expect(styleSheetsOf(html)).toEqual([".a{display:none}", ".c{}", ".d{"]);
    expect(styleSheetsOf("<styles>.a{}</styles><p>no style here</p>")).toEqual([]);
  });

  it("reads at most styleChars in all", () => {
    const big = `<style>${"a{color:red}".repeat(STYLESHEET_LIMITS.styleChars / 10)}</style><style>.late{display:none}</style>`;
    expect(styleSheetsOf(big).join("").length).toBe(STYLESHEET_LIMITS.styleChars);
  });
});

describe("styleRules: the top-level rules that decide what is shown", () => {
  it("takes each selector of a list apart, with its specificity and order, and only display, visibility, content-visibility", () => {
    const rules = styleRules([".promo, #ad > p { color: red; display: none !important } p.note { visibility: hidden } h1 { color: blue }"]);
    expect(rules.map((r) => [r.selector, r.specificity, r.order])).toEqual([
      [".promo", 1_000, 0],
      ["#ad > p", 1_000_001, 1],
      ["p.note", 1_001, 2],
    ]);
    expect(rules[0]?.declarations).toEqual([{ effect: { property: "display", value: "none" }, important: true }]);
  });

  it("skips at-rules whole (media queries, supports, imports), comments and strings", () => {
    const rules = styleRules([
      '@import url("x.css"); @media print { .a { display: none } } @supports (display:grid) { .b { display:none } } /* .c{display:none} */ .d::after { content: "}" } .e { display: none }',
    ]);
    expect(rules.map((r) => r.selector)).toEqual([".e"]);
  });

  it("leaves out rules hiding the whole page until a script shows it (anti-clickjacking, anti-flicker)", () => {
    const rules = styleRules(["body { display: none !important } html.js-loading { visibility: hidden } * { display: none } main > * { display: none } body .promo { display: none }"]);
    expect(rules.map((r) => r.selector)).toEqual(["main > *", "body .promo"]);
  });

  it("keeps simple selectors only: type, class, id, attribute, descendant and child combinators, :not() of those", () => {
    for (const selector of ["p", ".a", "#b", "[data-x]", '[data-x="1"]', "div .a", "div > .a", "ul li.a:not(.b)", "*", "a[href^='http']", ".a:not([hidden], .c)"]) {
      expect(simpleSpecificity(selector), selector).not.toBeNull();
    }
    for (const selector of [".a:hover", "p::before", ".a + .b", ".a ~ .b", ".md\\:block", "> p", ".a >", ":not(:not(.a))", "p:nth-child(2)", ""]) {
      expect(simpleSpecificity(selector), selector).toBeNull();
    }
    expect(simpleSpecificity("ul li.a:not(#b)")).toBe(1_001_002);
  });
});

describe("rulesToRead", () => {
  it("keeps every hiding rule, and of the showing ones only those that could undo one", () => {
    const rules = styleRules([".modal { display: none } .modal.show { display: block } .card { display: flex } .shown-again { visibility: visible }"]);
    expect(rulesToRead(rules).map((r) => r.selector)).toEqual([".modal", ".modal.show", ".shown-again"]);
    expect(subjectNames("div > ul li.a:not(.b)[data-x]")).toEqual(["li", ".a"]);
  });
});
