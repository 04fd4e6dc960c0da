import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { projectRoot } from "../../scripts/lib/local.mjs";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned and
 * upgraded deliberately) against the running Cairn, once per protocol revision Cairn
 * serves: `--requirements 2026-07-28` (stateless, per-request `_meta`) and
 * `--requirements 2025-11-25` (the `initialize` era). Each runs exactly the scenarios
 * that revision requires, frozen at its release. The suite has no token option, so a
 * small local proxy adds the API key.
 *
 * Every scenario is classified: it passes, or it is listed below with why it does
 * not apply (it drives the suite's own fixture tools, prompts and resources, or a
 * feature Cairn does not declare), or with why it runs without evidence. A scenario
 * passes only with a check of its own that passed and none failing: warnings, notes,
 * the schema check appended to every scenario and an answer of "Unknown tool" to a
 * fixture prove nothing. A failing check in any other scenario fails the test, and so
 * does an empty run or a scenario new to the suite until someone decides about it.
 */
const server = inject("server");

const FIXTURE_TOOL = "calls the suite's own fixture tool, which Cairn does not have";
const FIXTURE_PROMPT = "gets the suite's own fixture prompt, which Cairn does not have";
const FIXTURE_RESOURCE = "reads the suite's own fixture resource (test://…); Cairn serves cairn:// and ui:// resources only";
const NO_INPUT_REQUESTS = "calls the suite's fixture tool that asks the client for input; no Cairn tool asks the client for input";
const TASKS = "the optional tasks extension (io.modelcontextprotocol/tasks), which Cairn does not declare; its fixtures are the suite's own tools";

/** Scenarios that do not apply to Cairn, per revision, with why. */
const NOT_APPLICABLE: Record<string, Record<string, string>> = {
  "2026-07-28": {
    "completion-complete": `${FIXTURE_PROMPT} (Cairn's own completions are tested in src/mcp/completions.test.ts)`,
    "tools-call-simple-text": FIXTURE_TOOL,
    "tools-call-image": FIXTURE_TOOL,
    "tools-call-audio": FIXTURE_TOOL,
    "tools-call-embedded-resource": FIXTURE_TOOL,
    "tools-call-mixed-content": FIXTURE_TOOL,
    "tools-call-error": FIXTURE_TOOL,
    "tools-call-with-progress": FIXTURE_TOOL,
    "json-schema-2020-12": FIXTURE_TOOL,
    "resources-read-text": FIXTURE_RESOURCE,
    "resources-read-binary": FIXTURE_RESOURCE,
    "resources-templates-read": FIXTURE_RESOURCE,
    "prompts-get-simple": FIXTURE_PROMPT,
    "prompts-get-with-args": FIXTURE_PROMPT,
    "prompts-get-embedded-resource": FIXTURE_PROMPT,
    "prompts-get-with-image": FIXTURE_PROMPT,
    "input-required-result-basic-elicitation": NO_INPUT_REQUESTS,
    "input-required-result-basic-sampling": NO_INPUT_REQUESTS,
    "input-required-result-basic-list-roots": NO_INPUT_REQUESTS,
    "input-required-result-request-state": NO_INPUT_REQUESTS,
    "input-required-result-multiple-input-requests": NO_INPUT_REQUESTS,
    "input-required-result-multi-round": NO_INPUT_REQUESTS,
    "input-required-result-non-tool-request": NO_INPUT_REQUESTS,
    "input-required-result-result-type": NO_INPUT_REQUESTS,
    "input-required-result-tampered-state": NO_INPUT_REQUESTS,
    "input-required-result-capability-check": NO_INPUT_REQUESTS,
    "input-required-result-ignore-extra-params": NO_INPUT_REQUESTS,
    "input-required-result-missing-input-response": NO_INPUT_REQUESTS,
    "input-required-result-validate-input": NO_INPUT_REQUESTS,
    "http-custom-header-server-validation": "needs a tool whose input declares x-mcp-header parameters; no Cairn tool does",
    "tasks-lifecycle": TASKS,
    "tasks-capability-negotiation": TASKS,
    "tasks-wire-fields": TASKS,
    "tasks-request-state-removal": TASKS,
    "tasks-mrtr-input": TASKS,
    "tasks-request-headers": TASKS,
    "tasks-dispatch-and-envelope": TASKS,
    "tasks-status-notifications": TASKS,
    "tasks-required-task-error": TASKS,
    "tasks-mrtr-composition": TASKS,
  },
  "2025-11-25": {
    "completion-complete": `${FIXTURE_PROMPT} (Cairn's own completions are tested in src/mcp/completions.test.ts)`,
    "logging-set-level": "Cairn does not declare the logging capability",
    "tools-call-simple-text": FIXTURE_TOOL,
    "tools-call-image": FIXTURE_TOOL,
    "tools-call-audio": FIXTURE_TOOL,
    "tools-call-embedded-resource": FIXTURE_TOOL,
    "tools-call-mixed-content": FIXTURE_TOOL,
    "tools-call-with-logging": `${FIXTURE_TOOL}; no logging capability`,
    "tools-call-error": FIXTURE_TOOL,
    "tools-call-with-progress": FIXTURE_TOOL,
    "tools-call-sampling": `${FIXTURE_TOOL}; Cairn never asks the client to sample`,
    "tools-call-elicitation": `${FIXTURE_TOOL}; Cairn does not elicit`,
    "elicitation-sep1034-defaults": `${FIXTURE_TOOL}; Cairn does not elicit`,
    "elicitation-sep1330-enums": `${FIXTURE_TOOL}; Cairn does not elicit`,
    "json-schema-2020-12": FIXTURE_TOOL,
    "resources-read-text": FIXTURE_RESOURCE,
    "resources-read-binary": FIXTURE_RESOURCE,
    "resources-templates-read": FIXTURE_RESOURCE,
    "resources-subscribe": "Cairn declares resources without subscribe",
    "resources-unsubscribe": "Cairn declares resources without subscribe",
    "prompts-get-simple": FIXTURE_PROMPT,
    "prompts-get-with-args": FIXTURE_PROMPT,
    "prompts-get-embedded-resource": FIXTURE_PROMPT,
    "prompts-get-with-image": FIXTURE_PROMPT,
  },
};

/**
 * Checks inside scenarios that otherwise apply, which the suite can only exercise
 * through diagnostic tools of its own fixture server. The suite reports them as
 * failures saying "Not testable".
 */
const CHECKS_NOT_APPLICABLE: Record<string, string> = {
  "server-stateless/sep-2575-server-rejects-undeclared-capability": "probes with the suite's diagnostic tool test_missing_capability",
  "server-stateless/sep-2575-missing-capability-http-400": "probes with the suite's diagnostic tool test_missing_capability",
  "server-stateless/sep-2575-http-server-no-independent-requests-on-stream": "probes with the suite's diagnostic tool test_streaming_elicitation",
  "server-stateless/sep-2575-server-no-log-without-loglevel": "probes with the suite's diagnostic tool test_logging_tool",
};

/**
 * Scenarios that apply but prove nothing about Cairn as the suite stands: they run no check, or only warnings and
 * notes. An empty run is not a pass: each is listed with why, and the test fails when one starts passing checks
 * (then it counts, and leaves this list) or is no longer run.
 */
const STATELESS_2025 =
  "runs only on a session (Mcp-Session-Id) and its SSE streams; Cairn's 2025 lane is stateless, issues no session and answers each POST with JSON, so the suite only notes or warns";
const NO_EVIDENCE: Record<string, Record<string, string>> = {
  "2026-07-28": {},
  "2025-11-25": {
    "server-session-lifecycle": STATELESS_2025,
    "server-sse-polling": STATELESS_2025,
    "server-sse-multiple-streams": STATELESS_2025,
  },
};

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
  details?: unknown;
}

/** The check the suite appends to every scenario (the messages were valid JSON-RPC): no evidence of the scenario itself. */
const EVERY_SCENARIO_CHECK = "wire-schema-valid";

/** Whether a check saw Cairn answer that the tool it called does not exist. */
const answeredUnknownTool = (check: Check) => `${check.errorMessage ?? ""} ${JSON.stringify(check.details ?? null)}`.includes("Unknown tool");

let proxy: http.Server;
let proxyUrl = "";
const outputDirs: string[] = [];

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

/**
 * The Skills extension's scenarios (SEP-2640): optional extensions are in no revision's requirements, so
 * each runs by name (`--force`: the suite runs extensions on no revision of its own) at each revision's wire. A scenario counts as for the revisions: at least one check of
 * its own passed and none failed; the rest are listed with why.
 */
const SKILLS_SCENARIOS = ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"];
const SKILLS_NOT_APPLICABLE: Record<string, string> = {
  "sep-2640-skills-directory":
    "the optional resources/directory/read (directoryRead), which Cairn does not declare: each skill is one file, and its skills/list entry lists it",
};
/** Checks a scenario skips by design on one revision (the suite marks them SKIPPED, not failed): listed so a new skip is noticed. */
const SKILLS_SKIPPED: Record<string, string> = {
  "2025-11-25/sep-2640-skills-list-cache-attributes": "ttlMs and cacheScope exist from 2026-07-28 on",
  "2025-11-25/sep-2640-skills-get-cache-attributes": "ttlMs and cacheScope exist from 2026-07-28 on",
};

const CLI = join(projectRoot, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

function runCli(args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "server", "--url", `${proxyUrl}/mcp`, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    child.on("error", reject);
    child.on("close", resolve);
  });
}

const runSuite = (revision: string, outputDir: string) => runCli(["--requirements", revision, "-o", outputDir]);

/** Each scenario's checks, from the suite's output directory (`server-<scenario>-<timestamp>/checks.json`). */
function results(outputDir: string): Map<string, Check[]> {
  const byScenario = new Map<string, Check[]>();
  for (const entry of readdirSync(outputDir)) {
    const scenario = entry.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
    byScenario.set(scenario, JSON.parse(readFileSync(join(outputDir, entry, "checks.json"), "utf8")) as Check[]);
  }
  return byScenario;
}

describe("the official MCP conformance suite", { timeout: 300_000 }, () => {
  beforeAll(startProxy);
  afterAll(() => {
    proxy?.close();
    for (const dir of outputDirs) rmSync(dir, { recursive: true, force: true });
  });

  it.each(Object.keys(NOT_APPLICABLE))("passes every scenario %s requires that applies to Cairn, and accounts for every other", async (revision) => {
    const outputDir = mkdtempSync(join(tmpdir(), `cairn-conformance-${revision}-`));
    outputDirs.push(outputDir);
    await runSuite(revision, outputDir);
    const byScenario = results(outputDir);
    expect(byScenario.size, "the suite ran no scenario").toBeGreaterThan(5);
    const notApplicable = NOT_APPLICABLE[revision] ?? {};
    const noEvidence = NO_EVIDENCE[revision] ?? {};

    const report: string[] = [];
    const failures: string[] = [];
    let passedChecks = 0;
    for (const [scenario, checks] of [...byScenario].sort(([a], [b]) => a.localeCompare(b))) {
      const reason = notApplicable[scenario];
      if (reason) {
        report.push(`  n/a   ${scenario}: ${reason}`);
        continue;
      }
      const failed = checks.filter((check) => check.status === "FAILURE");
      const unexplained = failed.filter((check) => !CHECKS_NOT_APPLICABLE[`${scenario}/${check.id}`]);
      for (const check of unexplained) failures.push(`${scenario}/${check.id}: ${check.errorMessage ?? "failed"}`);
      // Evidence is a check of the scenario's own that passed: not the schema check the suite adds to every scenario,
      // nor one that "passed" on Cairn's answer to a tool it does not have (the suite's fixtures).
      const passed = checks.filter((check) => check.status === "SUCCESS" && check.id !== EVERY_SCENARIO_CHECK && !answeredUnknownTool(check)).length;
      passedChecks += passed;
      const empty = noEvidence[scenario];
      if (passed === 0) {
        // Warnings, notes and skips prove nothing: a scenario counts only with a check that passed.
        const statuses = checks.map((check) => `${check.id}: ${check.status}${check.errorMessage ? ` (${check.errorMessage.slice(0, 160)})` : ""}`).join("; ") || "no check";
        if (empty) report.push(`  none  ${scenario}: ${empty}`);
        else failures.push(`${scenario}: no check passed (${statuses}); an empty run is not a pass: fix it, or list it in NO_EVIDENCE with why`);
        continue;
      }
      if (empty) failures.push(`${scenario}: listed in NO_EVIDENCE ("${empty}") but ${passed} check(s) passed: it counts now, take it off the list`);
      const skipped = failed.length - unexplained.length;
      report.push(`  ${unexplained.length === 0 ? "PASS" : "FAIL"}  ${scenario} (${passed} check(s) passed${skipped > 0 ? `; ${skipped} need the suite's diagnostic tools` : ""})`);
    }
    console.log(`conformance --requirements ${revision}: ${byScenario.size} scenarios, ${passedChecks} checks passed\n${report.join("\n")}`);
    expect(failures, "a scenario that applies to Cairn failed (or is new to the suite: decide whether it applies)").toEqual([]);
    // A not-applicable entry the suite no longer runs is stale: keep the list true.
    const stale = [...Object.keys(notApplicable), ...Object.keys(noEvidence)].filter((scenario) => !byScenario.has(scenario));
    expect(stale, "listed as not applicable or without evidence, but no longer run by the suite").toEqual([]);
  });

  it.each(Object.keys(NOT_APPLICABLE))("passes the Skills extension's scenarios (SEP-2640) at the %s wire, and accounts for the rest", async (revision) => {
    const outputDir = mkdtempSync(join(tmpdir(), `cairn-conformance-skills-${revision}-`));
    outputDirs.push(outputDir);
    for (const scenario of SKILLS_SCENARIOS) await runCli(["--scenario", scenario, "--spec-version", revision, "--force", "-o", outputDir]);
    const byScenario = results(outputDir);
    expect([...byScenario.keys()].sort(), "every skills scenario ran").toEqual([...SKILLS_SCENARIOS].sort());
    const report: string[] = [];
    const failures: string[] = [];
    for (const [scenario, checks] of byScenario) {
      const failed = checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING");
      const passed = checks.filter((check) => check.status === "SUCCESS" && check.id !== EVERY_SCENARIO_CHECK);
      const reason = SKILLS_NOT_APPLICABLE[scenario];
      if (reason) {
        // Not applicable only while the suite itself finds nothing to check: a passing check means the reason no longer holds.
        if (passed.length > 0 || failed.length > 0) failures.push(`${scenario}: listed as not applicable ("${reason}") but it ran checks`);
        report.push(`  n/a   ${scenario}: ${reason}`);
        continue;
      }
      for (const check of failed) failures.push(`${scenario}/${check.id}: ${check.status} ${check.errorMessage ?? ""}`);
      const skipped = checks.filter((check) => check.status === "SKIPPED").map((check) => `${revision}/${check.id}`);
      for (const id of skipped.filter((id) => !SKILLS_SKIPPED[id])) failures.push(`${scenario}: ${id} was skipped; decide whether that is expected`);
      if (passed.length === 0) failures.push(`${scenario}: no check passed; an empty run is not a pass`);
      report.push(`  ${failed.length === 0 && passed.length > 0 ? "PASS" : "FAIL"}  ${scenario} (${passed.length} check(s) passed${skipped.length ? `; skipped: ${skipped.map((id) => `${id.split("/")[1]} (${SKILLS_SKIPPED[id] ?? "unexpected"})`).join(", ")}` : ""})`);
    }
    console.log(`conformance sep-2640 at ${revision}:\n${report.join("\n")}`);
    expect(failures).toEqual([]);
  });
});
