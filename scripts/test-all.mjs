#!/usr/bin/env node
/**
 * `npm test`: everything CI runs, in order: lint, the type check, the unit, Workers and end-to-end suites, the
 * deploy check. Each suite's own output is shown as it runs; at the end, a table of what each suite took
 * (suite, files, tests, failed, seconds) and the ten slowest test files (scripts/test-times.mjs, from Vitest's
 * JSON reports kept in test-results/times/), then one line: `N passed, N failed`.
 *
 * Lint or the type check failing stops the run (nothing else is worth running on code that does not build); a
 * failing suite does not: the others still run, so one CI run names every failure. Exits 1 when anything failed.
 * `--only unit,workers` runs just those steps (e.g. to time one suite).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { suiteFigures, timesTable } from "./test-times.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reportDir = path.join(root, "test-results", "times");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The steps: npm scripts of package.json; a suite's report goes to test-results/times/SUITE.json. */
const STEPS = [
  { name: "lint", script: "lint", gate: true },
  { name: "typecheck", script: "typecheck", gate: true },
  { name: "unit", script: "test:unit", suite: true },
  { name: "workers", script: "test:workers", suite: true },
  { name: "e2e", script: "test:e2e", suite: true },
  { name: "check:deploy", script: "check:deploy" },
];

const { values } = parseArgs({ options: { only: { type: "string" } }, strict: true });
const only = values.only ? new Set(values.only.split(",").map((name) => name.trim())) : null;
if (only) for (const name of only) if (!STEPS.some((step) => step.name === name)) throw new Error(`--only: no step "${name}" (${STEPS.map((step) => step.name).join(", ")})`);

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(npm, args, { cwd: root, stdio: "inherit" });
    child.on("error", () => resolve(127));
    child.on("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const runs = [];
const failedSteps = [];
for (const step of STEPS) {
  if (only && !only.has(step.name)) continue;
  const report = path.join(reportDir, `${step.name}.json`);
  const args = ["run", "--silent", step.script, ...(step.suite ? ["--", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`] : [])];
  console.log(`\n› ${step.name}: npm ${args.join(" ")}`);
  const started = performance.now();
  const exitCode = await run(args);
  const seconds = (performance.now() - started) / 1000;
  let figures = null;
  if (step.suite && existsSync(report)) {
    figures = suiteFigures(step.name, JSON.parse(readFileSync(report, "utf8")), root);
  }
  runs.push({ suite: step.name, seconds, exitCode, figures });
  if (exitCode !== 0) {
    failedSteps.push(step.name);
    if (step.gate) break;
  }
}

const table = timesTable(runs);
writeFileSync(path.join(reportDir, "summary.txt"), `${table}\n`);
const passed = runs.reduce((sum, r) => sum + (r.figures?.passed ?? 0), 0);
// A failing step that is not a suite (lint, the type check, the deploy check), or a suite that failed without a
// failing test (its setup, a file that would not load), counts as one failure.
const failed = runs.reduce((sum, r) => sum + (r.figures?.failed ? r.figures.failed : r.exitCode !== 0 ? 1 : 0), 0);
console.log(`\n${table}\n`);
if (failedSteps.length > 0) console.log(`Failed: ${failedSteps.join(", ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failedSteps.length > 0 || failed > 0 ? 1 : 0);
