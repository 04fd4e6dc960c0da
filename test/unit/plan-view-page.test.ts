import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildPlanViewPage } from "../../scripts/lib/plan-view-page.mjs";

const SOURCE = "src/mcp/app/plan-view.html";
const BUILT = "src/mcp/app/plan-view.min.html";

describe("the plan view's page as served", () => {
  it("is built from its source (run `UPDATE_PLAN_VIEW=1 npx vitest run --config vitest.unit.config.ts test/unit/plan-view-page.test.ts` after editing it)", () => {
    const built = buildPlanViewPage(readFileSync(SOURCE, "utf8"));
    if (process.env.UPDATE_PLAN_VIEW) writeFileSync(BUILT, built);
    expect(readFileSync(BUILT, "utf8")).toBe(built);
  });

  it("keeps what the page promises: one script that parses, its CSP, nothing loaded from anywhere", () => {
    const built = readFileSync(BUILT, "utf8");
    const scripts = [...built.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? "");
    expect(scripts).toHaveLength(1);
    // Compiles without running: a syntax error in the minified script would fail here, before any browser.
    expect(() => new Function(scripts[0] ?? "")).not.toThrow();
    expect(built).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"`);
    expect(built).not.toMatch(/\s(src|href)=|@import|fetch\(|XMLHttpRequest|WebSocket|innerHTML|insertAdjacentHTML|outerHTML/);
  });
});
