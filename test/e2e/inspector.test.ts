import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { OPERATIONS } from "../../src/operations/registry";

const server = inject("server");

/** The protocol eras the Inspector CLI can negotiate: `initialize` (2025) and per-request `_meta` (2026-07-28). */
const ERAS = ["legacy", "modern"] as const;

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

const withKey = (era: string) => [`${server.url}/mcp`, "--transport", "http", "--header", `Authorization: Bearer ${server.apiKey}`, "--protocol-era", era];

/** One tool call through the Inspector; its structured result (the text content is its JSON). */
async function call(era: string, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const toolArgs = Object.entries(args).map(([name, value]) => `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const result = await inspector([...withKey(era), "--method", "tools/call", "--tool-name", tool, "--tool-arg", ...toolArgs]);
  expect(result.code, `${tool}: ${result.stderr}${result.stdout}`).toBe(0);
  const answer = JSON.parse(result.stdout) as { isError?: boolean; content: { type: string; text: string }[] };
  expect(answer.isError, `${tool}: ${result.stdout}`).toBeFalsy();
  return JSON.parse(answer.content[0]?.text ?? "{}") as Record<string, unknown>;
}

describe.each(ERAS)("the MCP Inspector CLI, %s protocol era", (era) => {
  it("lists every tool with an API key", async () => {
    const result = await inspector([...withKey(era), "--method", "tools/list"]);
    expect(result.code, result.stderr).toBe(0);
    const listed = JSON.parse(result.stdout) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(OPERATIONS.map((operation) => operation.name));
  });

  it("finds no portability problem in any tool's schema (--strict)", async () => {
    const result = await inspector([...withKey(era), "--strict", "--method", "tools/list"]);
    expect(result.code, result.stderr).toBe(0);
    // --strict prints each problem (and a count) on stderr, and nothing when there is none.
    expect(result.stderr).not.toMatch(/warning|error/i);
  });

  it("runs a plan end to end", { timeout: 60_000 }, async () => {
    const created = await call(era, "create_research_plan", {
      name: `[Scan] Inspector ${era} era`,
      researchQuestion: "Does a plan run through the Inspector?",
      planDesignRationale: "One step is enough to see the loop",
      steps: [{ stepType: "search", instructions: "Find one source" }],
    });
    const planId = created.planId as string;
    const next = await call(era, "get_next_step", { planId });
    expect(next.status).toBe("step");
    const step = next.step as { stepId: string };
    await call(era, "submit_step_result", {
      planId,
      stepId: step.stepId,
      claimId: next.claimId,
      result: { findings: ["one source found"] },
      confidence: 0.9,
      stepExecutionReport: { thinking: "searched", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] },
    });
    const status = await call(era, "get_plan_status", { planId });
    expect(status).toMatchObject({ derivedStatus: "completed", progress: 100 });
  });

  it("reports that authentication is required without a key", async () => {
    const result = await inspector([`${server.url}/mcp`, "--transport", "http", "--protocol-era", era, "--method", "tools/list"]);
    expect(result.code).not.toBe(0);
  });
});
