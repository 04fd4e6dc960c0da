import { transformSync } from "esbuild";

/**
 * The plan view as hosts load it (src/mcp/app/plan-view.min.html), built from its readable source
 * (src/mcp/app/plan-view.html): the stylesheet and the script minified by esbuild (pinned in package.json, so the
 * output is the same on every machine), the markup around them with its indentation dropped. The source keeps its
 * layout and its comments; what every host downloads, and what the size bound counts, is what runs.
 * test/unit/plan-view-page.test.ts checks the built page is current and rebuilds it with UPDATE_PLAN_VIEW=1.
 */
export function buildPlanViewPage(source) {
  const parts = /^([\s\S]*<style>)([\s\S]*)(<\/style>[\s\S]*<script>)([\s\S]*)(<\/script>[\s\S]*)$/.exec(source);
  if (!parts) throw new Error("the plan view has one <style> and one <script>");
  const [, head, style, middle, script, tail] = parts;
  const markup = (text) =>
    text
      .split("\n")
      .map((line) => line.trim())
      .join("");
  const minified = (code, loader) => transformSync(code, { loader, minify: true, legalComments: "none" }).code.trim();
  return `${markup(head)}${minified(style, "css")}${markup(middle)}${minified(script, "js")}${markup(tail)}\n`;
}
