/**
 * P6: storage round trips before a call answers, as counted by
 * test/workers/round-trips.test.ts (the real bindings, wrapped), run here in a
 * child vitest so the bench prints the same counts `npm test` asserts.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "./harness.mjs";

/** What each counted call may take; a call not listed here is printed without a verdict. */
export const ROUND_TRIP_GOALS = {
  "OAuth token check, verified < 30 s": 0,
  "API key check, verified < 30 s": 0,
  // One read of the plan index by primary key (does the org hold this id?), then the plan's one Durable Object call.
  get_plan_status: 2,
  get_next_step: 2,
  submit_step_result: 2,
  list_active_plans: 1,
  "list_active_plans over REST (D1 session)": 1,
  search_sources: 1,
};

const TEST_FILE = "test/workers/round-trips.test.ts";

/** Runs the round-trip test and returns its counts, or the reason it could not. */
export function countRoundTrips() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cairn-round-trips-"));
  const report = path.join(dir, "report.json");
  const vitest = path.join(projectRoot, "node_modules", "vitest", "vitest.mjs");
  const args = [vitest, "run", "--config", "vitest.workers.config.ts", TEST_FILE, "--reporter=json", `--outputFile=${report}`];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: projectRoot, timeout: 180_000, maxBuffer: 16 << 20 }, (error) => {
      try {
        const results = JSON.parse(readFileSync(report, "utf8"));
        const tests = results.testResults.flatMap((file) => file.assertionResults);
        const failed = tests.filter((test) => test.status !== "passed").map((test) => test.title);
        const counts = Object.assign({}, ...tests.map((test) => test.meta?.roundTrips ?? {}));
        resolve({ counts, failed });
      } catch (readError) {
        resolve({ counts: {}, failed: [`${TEST_FILE} did not report: ${(error ?? readError).message.split("\n")[0]}`] });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/** The report's lines: each count with its goal, and PASS only when every goal is met and the test passed. */
export function roundTripLines({ counts, failed }) {
  const rows = Object.entries(counts).map(([call, count]) => {
    const goal = ROUND_TRIP_GOALS[call];
    return `| ${call} | ${count} | ${goal === undefined ? "(no goal)" : `≤ ${goal}`} |`;
  });
  const missing = Object.keys(ROUND_TRIP_GOALS).filter((call) => !(call in counts));
  const over = Object.entries(ROUND_TRIP_GOALS).filter(([call, goal]) => call in counts && counts[call] > goal);
  const pass = failed.length === 0 && missing.length === 0 && over.length === 0;
  return {
    pass,
    lines: [
      "| call | round trips before the answer | goal |",
      "|---|---|---|",
      ...rows,
      ...(failed.length ? ["", `round-trip test failed: ${failed.join("; ")}`] : []),
      ...(missing.length ? ["", `not counted: ${missing.join(", ")}`] : []),
    ],
  };
}
