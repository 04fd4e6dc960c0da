/**
 * `npm run bench -- --soak`: P5, memory under sustained load. Two fresh
 * workerd processes, each with both Workers loaded and the same setup (D1
 * migrated and seeded, an OAuth token through the real flow): one serves the
 * bare route for the soak's length, the other Cairn's MCP read (row B) for
 * the same length at the same concurrency. RSS is sampled while they run; the
 * goal compares the RSS each process ends with.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { loadCases, verifyCase } from "./cases.mjs";
import { memoryOf } from "./harness.mjs";
import { fmt } from "./report.mjs";
import { loadSpec, prepareRuntime, runChild } from "./setup.mjs";

export const SOAK_DEFAULT_S = 120;
/** workerd RSS after Cairn's soak ≤ this × RSS after the bare route's soak of equal length. */
export const SOAK_RSS_RATIO_GOAL = 1.2;
const SAMPLE_EVERY_MS = 10_000;

async function soakOne({ caseId, cairnBundle, bareCode, config, workDir, soakS, concurrency, log }) {
  const persistDir = path.join(workDir, `soak-${caseId}`);
  mkdirSync(persistDir);
  const runtime = await prepareRuntime({ cairnBundle, bareCode, config, persistDir, log });
  try {
    const testCase = loadCases({ accessToken: runtime.accessToken, apiKey: runtime.tenant.apiKey }).find((c) => c.id === caseId);
    await verifyCase(testCase, runtime.urls);
    const before = memoryOf(runtime.workerdPid);
    const samples = [];
    const started = Date.now();
    const sampler = setInterval(() => samples.push({ atS: Math.round((Date.now() - started) / 1000), ...memoryOf(runtime.workerdPid) }), SAMPLE_EVERY_MS);
    log(`soak ${caseId}: ${soakS} s at ${concurrency} connections (${testCase.label})`);
    let result;
    try {
      result = await runChild(loadSpec(testCase, runtime, { concurrency, durationS: soakS, warmupS: 2 }));
    } finally {
      clearInterval(sampler);
    }
    const after = memoryOf(runtime.workerdPid);
    const requests = result.ok + result.non2xx + result.bad + result.errors;
    log(`soak ${caseId}: ${fmt.int(result.rps)} req/s, RSS ${fmt.int(before?.rssMB)} → ${fmt.int(after?.rssMB)} MB`);
    return { caseId, label: testCase.label, before, after, samples, rps: result.rps, requests, failures: requests - result.ok, firstFailure: result.firstFailure };
  } finally {
    await runtime.mf.dispose();
  }
}

/** Runs both soaks and returns the report's text. */
export async function runSoak(options) {
  const bare = await soakOne({ ...options, caseId: "A" });
  const cairn = await soakOne({ ...options, caseId: "B" });
  const ratio = cairn.after && bare.after ? cairn.after.rssMB / bare.after.rssMB : Number.NaN;
  const pass = Number.isFinite(ratio) && ratio <= SOAK_RSS_RATIO_GOAL && cairn.failures === 0 && bare.failures === 0;
  const mb = (value) => (value === undefined || value === null ? "n/a" : `${fmt.int(value)}`);
  const row = (s) =>
    `| ${s.caseId} | ${s.label} | ${fmt.int(s.rps)} | ${fmt.int(s.requests)} | ${mb(s.before?.rssMB)} | ${mb(s.after?.rssMB)} | ${mb(s.after?.peakMB)} | ` +
    `${s.samples.map((sample) => mb(sample.rssMB)).join(" → ")} | ${s.failures} |`;
  return [
    "",
    `## Soak — ${new Date().toISOString()}: ${options.soakS} s at ${options.concurrency} connections, each in a fresh workerd with the same setup`,
    "",
    "| row | what | req/s | requests | RSS before (MB) | RSS after (MB) | peak (MB) | RSS every 10 s (MB) | failed |",
    "|---|---|---|---|---|---|---|---|---|",
    row(bare),
    row(cairn),
    "",
    `P5 memory: workerd RSS after Cairn's soak ≤ ${SOAK_RSS_RATIO_GOAL}× the bare route's: ${fmt.verdict(pass)} (${fmt.fixed(ratio, 2)}×)` +
      ([bare, cairn].some((s) => s.failures) ? ` — FAILED requests: ${[bare, cairn].filter((s) => s.failures).map((s) => `${s.caseId}: ${s.firstFailure}`).join("; ")}` : ""),
  ].join("\n");
}
