import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { OPERATIONS } from "../../src/operations/registry";

const server = inject("server");

function inspector(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const bin = join(process.cwd(), "node_modules", "@modelcontextprotocol", "inspector", "clients", "cli", "build", "index.js");
  const catalog = join(mkdtempSync(join(tmpdir(), "cairn-inspector-")), "mcp.json");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, NO_COLOR: "1", MCP_CATALOG_PATH: catalog } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the MCP Inspector CLI", () => {
  it("lists every tool with an API key", async () => {
    const result = await inspector([`${server.url}/mcp`, "--transport", "http", "--header", `Authorization: Bearer ${server.apiKey}`, "--method", "tools/list"]);
    expect(result.code, result.stderr).toBe(0);
    const listed = JSON.parse(result.stdout) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(OPERATIONS.map((operation) => operation.name));
  });

  it("reports that authentication is required without a key", async () => {
    const result = await inspector([`${server.url}/mcp`, "--transport", "http", "--method", "tools/list"]);
    expect(result.code).not.toBe(0);
  });
});
