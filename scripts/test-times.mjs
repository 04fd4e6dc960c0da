#!/usr/bin/env node
/**
 * What a test run took, from Vitest's JSON reports (one per suite, `--reporter=json --outputFile.json=DIR/SUITE.json`):
 * a table of suite, files, tests, failed and seconds, then the slowest files. `npm test` (scripts/test-all.mjs) prints
 * it at its end; `node scripts/test-times.mjs [DIR]` prints it again from the reports a run left (default
 * test-results/times). A file's seconds are its own wall time; files of one suite may overlap, so they need not add
 * up to the suite's.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DEFAULT_REPORT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "test-results", "times");

/**
 * One suite's figures from its JSON report (null when the run left none).
 * @param {string} suite
 * @param {any} report Vitest's JSON report
 * @param {string} root the project root, cut from file names
 */
export function suiteFigures(suite, report, root) {
  const files = (report?.testResults ?? []).map((file) => ({
    suite,
    file: path.relative(root, String(file.name)),
    tests: (file.assertionResults ?? []).length,
    failed: (file.assertionResults ?? []).filter((test) => test.status === "failed").length + (file.status === "failed" && !(file.assertionResults ?? []).some((test) => test.status === "failed") ? 1 : 0),
    seconds: Math.max(0, (Number(file.endTime) - Number(file.startTime)) / 1000) || 0,
  }));
  return {
    suite,
    files,
    tests: Number(report?.numTotalTests ?? files.reduce((sum, file) => sum + file.tests, 0)),
    passed: Number(report?.numPassedTests ?? 0),
    // A file that failed to load counts as one failure: it ran no test, and the run is not green.
    failed: Number(report?.numFailedTests ?? 0) + files.filter((file) => file.failed > 0 && file.tests === 0).length,
    skipped: Number(report?.numPendingTests ?? 0) + Number(report?.numTodoTests ?? 0),
  };
}

const pad = (text, width, right = false) => (right ? String(text).padStart(width) : String(text).padEnd(width));

/**
 * The table: one row per suite (files, tests, failed, wall seconds), a total, then the `slowest` slowest files.
 * @param {{ suite: string, seconds: number, exitCode?: number | null, figures: ReturnType<typeof suiteFigures> | null }[]} runs
 * @param {number} [wall] the whole run's wall seconds, the total's seconds (suites that ran at the same time overlap); else their sum
 */
export function timesTable(runs, slowest = 10, wall = undefined) {
  const lines = [];
  const header = `${pad("suite", 16)}${pad("files", 7, true)}${pad("tests", 8, true)}${pad("failed", 8, true)}${pad("seconds", 10, true)}`;
  lines.push(header, "-".repeat(header.length));
  let files = 0;
  let tests = 0;
  let failed = 0;
  let seconds = 0;
  for (const run of runs) {
    const f = run.figures;
    const runFailed = f ? f.failed : run.exitCode ? 1 : 0;
    files += f?.files.length ?? 0;
    tests += f?.tests ?? 0;
    failed += runFailed;
    seconds += run.seconds;
    const note = run.exitCode && !runFailed ? `  (exit ${run.exitCode})` : "";
    lines.push(`${pad(run.suite, 16)}${pad(f ? f.files.length : "-", 7, true)}${pad(f ? f.tests : "-", 8, true)}${pad(runFailed, 8, true)}${pad(run.seconds.toFixed(0), 10, true)}${note}`);
  }
  const overlapped = wall !== undefined && wall < seconds - 1 ? `  (wall; the suites' own seconds add up to ${seconds.toFixed(0)})` : "";
  lines.push("-".repeat(header.length), `${pad("total", 16)}${pad(files, 7, true)}${pad(tests, 8, true)}${pad(failed, 8, true)}${pad((wall ?? seconds).toFixed(0), 10, true)}${overlapped}`);
  const all = runs.flatMap((run) => run.figures?.files ?? []).sort((a, b) => b.seconds - a.seconds);
  if (all.length > 0) {
    lines.push("", `The ${Math.min(slowest, all.length)} slowest test files (seconds, tests, suite):`);
    for (const file of all.slice(0, slowest)) lines.push(`${pad(file.seconds.toFixed(1), 8, true)}  ${pad(file.tests, 4, true)}  ${pad(file.suite, 8)} ${file.file}`);
  }
  return lines.join("\n");
}

/** The reports a run left in `dir` (SUITE.json each), as runs without their wall time (that only the run knew). */
export function runsFromDir(dir, root) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => {
      const suite = name.replace(/\.json$/, "");
      const figures = suiteFigures(suite, JSON.parse(readFileSync(path.join(dir, name), "utf8")), root);
      const seconds = figures.files.reduce((sum, file) => sum + file.seconds, 0);
      return { suite, seconds, figures };
    });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? DEFAULT_REPORT_DIR);
  const runs = runsFromDir(dir, process.cwd());
  if (runs.length === 0) {
    console.error(`No test reports in ${dir}: run npm test first.`);
    process.exit(1);
  }
  console.log(`(seconds per suite here: the sum of its files' times; npm test prints wall time)\n${timesTable(runs)}`);
}
