import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/operations/registry";

const START = "<!-- tool-catalog:start -->";
const END = "<!-- tool-catalog:end -->";

/** The tool catalog of the research protocol page, rendered from the registry (UPDATE_README=1 rewrites it). */
const CATALOG_PAGE = "docs/research-protocol.md";

function catalog(): string {
  const rows = OPERATIONS.map((operation) => {
    const { readOnlyHint, destructiveHint, idempotentHint } = operation.annotations;
    const hints = [readOnlyHint ? "read-only" : "writes", destructiveHint ? "destructive" : "", idempotentHint ? "idempotent" : ""].filter(Boolean).join(", ");
    const route = `\`${operation.rest.method.toUpperCase()} /api/v1${operation.rest.path}\``;
    return `| \`${operation.name}\` | ${operation.title} | \`${operation.scope}\` | ${route} | ${hints} |`;
  });
  return [START, "| MCP tool | Title | Scope | REST | Hints |", "|---|---|---|---|---|", ...rows, END].join("\n");
}

describe("README", () => {
  it("lists exactly the registry's operations in the tool catalog", () => {
    const page = readFileSync(CATALOG_PAGE, "utf8");
    const current = page.slice(page.indexOf(START), page.indexOf(END) + END.length);
    if (process.env.UPDATE_README) {
      writeFileSync(CATALOG_PAGE, page.replace(current, catalog()));
      return;
    }
    expect(current, "run `UPDATE_README=1 npm run test:unit` to regenerate").toBe(catalog());
  });

  // resources/read serves the built page byte for byte (src/mcp/app/plan-view.test.ts), so its size is that file's.
  it("states the plan view's size as resources/read returns it", () => {
    const readme = readFileSync("README.md", "utf8");
    const stated = /`ui:\/\/cairn\/plan-view\.html`, ([\d.]+) KB/.exec(readme)?.[1];
    const bytes = readFileSync("src/mcp/app/plan-view.min.html").byteLength;
    expect(stated, "the README names the plan view's size").toBe((bytes / 1000).toFixed(1));
  });

  it("shows the two set-up commands", () => {
    const readme = readFileSync("README.md", "utf8");
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm test");
  });
});
