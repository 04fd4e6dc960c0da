import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { projectRoot } from "../../scripts/lib/local.mjs";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against
 * the running Cairn. The suite has no token option, so a small local proxy adds
 * the API key. Every scenario it runs is classified here: the ones that apply
 * to Cairn must pass; the others test the suite's own fixture tools, resources
 * and prompts, or features Cairn does not declare, and are listed with why.
 */
const server = inject("server");

const APPLICABLE = ["server-initialize", "ping", "tools-list", "resources-list", "prompts-list", "dns-rebinding-protection", "server-sse-multiple-streams"];

const NOT_APPLICABLE: Record<string, string> = {
  "logging-set-level": "Cairn does not declare the logging capability",
  "completion-complete": "completes the suite's fixture prompt test_prompt_with_arguments; Cairn answers unknown prompts with -32602 as the spec asks (its own completions are tested in src/mcp/completions.test.ts)",
  "tools-call-simple-text": "calls the suite's fixture tool",
  "tools-call-image": "calls the suite's fixture tool (image content)",
  "tools-call-audio": "calls the suite's fixture tool (audio content)",
  "tools-call-embedded-resource": "calls the suite's fixture tool",
  "tools-call-mixed-content": "calls the suite's fixture tool",
  "tools-call-with-logging": "calls the suite's fixture tool; no logging capability",
  "tools-call-error": "calls the suite's fixture tool",
  "tools-call-with-progress": "calls the suite's fixture tool",
  "tools-call-sampling": "calls the suite's fixture tool; Cairn never asks the client to sample",
  "tools-call-elicitation": "calls the suite's fixture tool; Cairn does not elicit",
  "elicitation-sep1034-defaults": "Cairn does not elicit",
  "elicitation-sep1330-enums": "Cairn does not elicit",
  "resources-read-text": "reads the suite's fixture resource",
  "resources-read-binary": "reads the suite's fixture resource",
  "resources-templates-read": "reads the suite's fixture template",
  "resources-subscribe": "Cairn declares resources without subscribe",
  "resources-unsubscribe": "Cairn declares resources without subscribe",
  "prompts-get-simple": "gets the suite's fixture prompt",
  "prompts-get-with-args": "gets the suite's fixture prompt",
  "prompts-get-embedded-resource": "gets the suite's fixture prompt",
  "prompts-get-with-image": "gets the suite's fixture prompt",
};

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

let proxy: http.Server;
let proxyUrl = "";
let outputDir = "";

/** Forwards to the running Cairn with the API key added: the suite cannot send a token itself. */
function startProxy(): Promise<void> {
  proxy = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string" && !["host", "content-length", "connection"].includes(name)) headers.set(name, value);
    }
    headers.set("authorization", `Bearer ${server.apiKey}`);
    try {
      const upstream = await fetch(new URL(request.url ?? "/", server.url), {
        method: request.method,
        headers,
        body: request.method === "GET" || request.method === "HEAD" ? undefined : Buffer.concat(chunks),
      });
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!["content-encoding", "content-length", "transfer-encoding"].includes(name)) out[name] = value;
      });
      response.writeHead(upstream.status, out);
      response.end(Buffer.from(await upstream.arrayBuffer()));
    } catch (error) {
      response.writeHead(502).end(String(error));
    }
  });
  return new Promise((resolve) =>
    proxy.listen(0, "127.0.0.1", () => {
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

function runSuite(): Promise<number | null> {
  const cli = join(projectRoot, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "server", "--url", `${proxyUrl}/mcp`, "-o", outputDir], { stdio: ["ignore", "ignore", "pipe"] });
    child.on("error", reject);
    child.on("close", resolve);
  });
}

/** Each scenario's checks, from the suite's output directory (`server-<scenario>-<timestamp>/checks.json`). */
function results(): Map<string, Check[]> {
  const byScenario = new Map<string, Check[]>();
  for (const entry of readdirSync(outputDir)) {
    const scenario = entry.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
    byScenario.set(scenario, JSON.parse(readFileSync(join(outputDir, entry, "checks.json"), "utf8")) as Check[]);
  }
  return byScenario;
}

describe("the official MCP conformance suite", { timeout: 240_000 }, () => {
  beforeAll(async () => {
    outputDir = mkdtempSync(join(tmpdir(), "cairn-conformance-"));
    await startProxy();
  });
  afterAll(() => {
    proxy?.close();
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  });

  it("passes every scenario that applies to Cairn, and every other scenario is accounted for", async () => {
    await runSuite();
    const byScenario = results();
    expect(byScenario.size).toBeGreaterThan(0);
    const unclassified = [...byScenario.keys()].filter((scenario) => !APPLICABLE.includes(scenario) && !(scenario in NOT_APPLICABLE));
    expect(unclassified, "a scenario new to the suite: decide whether it applies to Cairn").toEqual([]);
    const failures: string[] = [];
    for (const scenario of APPLICABLE) {
      const checks = byScenario.get(scenario);
      if (!checks) {
        failures.push(`${scenario}: not run`);
        continue;
      }
      for (const check of checks.filter((c) => c.status === "FAILURE")) failures.push(`${scenario}/${check.id}: ${check.errorMessage ?? "failed"}`);
    }
    expect(failures).toEqual([]);
    const passed = APPLICABLE.flatMap((scenario) => byScenario.get(scenario) ?? []).filter((check) => check.status === "SUCCESS").length;
    console.log(`conformance: ${APPLICABLE.length} applicable scenarios, ${passed} checks passed; ${Object.keys(NOT_APPLICABLE).length} not applicable (reasons in the test)`);
  });
});
