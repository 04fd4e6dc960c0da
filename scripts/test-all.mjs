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
 *
 * The Workers and end-to-end suites run at the same time (`--one-at-a-time` runs them one after the other): the
 * end-to-end suite spends most of its time waiting (a server starting, a crash and restart, a lapsing lock, the
 * browser), and the Workers suite runs one file at a time per core, so on two cores each fills the other's gaps.
 * The Workers suite's output is shown as it runs; the end-to-end suite's is kept in test-results/times/e2e.log and
 * shown whole when it ends. Each suite's seconds are its own; the total is the run's wall time.
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  // Beside the Workers suite (see above), unless --one-at-a-time.
  { name: "e2e", script: "test:e2e", suite: true, beside: "workers" },
  { name: "check:deploy", script: "check:deploy" },
];

const { values } = parseArgs({ options: { only: { type: "string" }, "one-at-a-time": { type: "boolean" } }, strict: true });
const only = values.only ? new Set(values.only.split(",").map((name) => name.trim())) : null;
if (only) for (const name of only) if (!STEPS.some((step) => step.name === name)) throw new Error(`--only: no step "${name}" (${STEPS.map((step) => step.name).join(", ")})`);

/** Runs npm with `args`; its output shown as it comes, or (`log`) written to that file and shown when it ends. */
function run(args, log = null) {
  return new Promise((resolve) => {
    const child = spawn(npm, args, { cwd: root, stdio: log ? ["ignore", "pipe", "pipe"] : "inherit" });
    const out = log ? createWriteStream(log) : null;
    if (out) {
      child.stdout.pipe(out, { end: false });
      child.stderr.pipe(out, { end: false });
    }
    const done = (code) => {
      if (!out) return resolve(code);
      out.end(() => {
        console.log(`\n› ${path.basename(log, ".log")} (ran beside the suite before; its output, kept in ${path.relative(root, log)}):`);
        process.stdout.write(readFileSync(log, "utf8"));
        resolve(code);
      });
    };
    child.on("error", () => done(127));
    child.on("close", (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

/** One step: its seconds, exit code and (for a suite) figures from its JSON report. */
async function runStep(step, quiet) {
  const report = path.join(reportDir, `${step.name}.json`);
  const args = ["run", "--silent", step.script, ...(step.suite ? ["--", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`] : [])];
  console.log(`\n› ${step.name}: npm ${args.join(" ")}${quiet ? " (beside the next; output at its end)" : ""}`);
  const started = performance.now();
  const exitCode = await run(args, quiet ? path.join(reportDir, `${step.name}.log`) : null);
  const seconds = (performance.now() - started) / 1000;
  const figures = step.suite && existsSync(report) ? suiteFigures(step.name, JSON.parse(readFileSync(report, "utf8")), root) : null;
  return { step, run: { suite: step.name, seconds, exitCode, figures } };
}

rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const runStarted = performance.now();
const chosen = STEPS.filter((step) => !only || only.has(step.name));
const runs = [];
const failedSteps = [];
for (let i = 0; i < chosen.length; i++) {
  const step = chosen[i];
  // A step that runs beside the next one chosen starts first, quietly; both are awaited before going on.
  const partner = !values["one-at-a-time"] && chosen.find((other) => other.beside === step.name);
  const together = partner ? [runStep(partner, true), runStep(step, false)] : [runStep(step, false)];
  if (partner) chosen.splice(chosen.indexOf(partner), 1);
  const results = await Promise.all(together);
  for (const { run: result } of [...results].reverse()) {
    runs.push(result);
    if (result.exitCode !== 0) failedSteps.push(result.suite);
  }
  if (results.some(({ step: done, run: result }) => done.gate && result.exitCode !== 0)) break;
}

const table = timesTable(runs, 10, (performance.now() - runStarted) / 1000);
writeFileSync(path.join(reportDir, "summary.txt"), `${table}\n`);
const passed = runs.reduce((sum, r) => sum + (r.figures?.passed ?? 0), 0);
// A failing step that is not a suite (lint, the type check, the deploy check), or a suite that failed without a
// failing test (its setup, a file that would not load), counts as one failure.
const failed = runs.reduce((sum, r) => sum + (r.figures?.failed ? r.figures.failed : r.exitCode !== 0 ? 1 : 0), 0);
console.log(`\n${table}\n`);
if (failedSteps.length > 0) console.log(`Failed: ${failedSteps.join(", ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failedSteps.length > 0 || failed > 0 ? 1 : 0);
