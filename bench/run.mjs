/**
 * `npm run bench`: the MCP call against the bare stack, in one run, on one runtime.
 *
 *   npm run bench                      8 s per run, 2 s warm-up, 3 repetitions, 8 and 32 connections
 *   npm run bench -- --quick           3 s per run, 1 s warm-up, 2 repetitions
 *   npm run bench -- --duration 12 --reps 4 --conc 8,32 --json results.json --keep
 *   npm run bench -- --only B,D          (rows A, B and D only)
 *   npm run bench -- --cairn-root /tmp/cairn-scratch   (bench an instrumented scratch copy of the project)
 *   npm run bench -- --only P,M --plan-steps 60 --plans-conc 1,8,32   (the plan step cycle rows)
 *
 * Steps: build Cairn exactly as `wrangler deploy` would (dry run) and the bare
 * Hono Worker with esbuild; start both in one Miniflare/workerd with direct
 * sockets; migrate and seed D1 by SQL; get an OAuth token through the real
 * flow (register, sign in, consent, token exchange); verify every case (the
 * plan step cycle by running one whole plan); count
 * the tool list's tokens; then load each case from a child process
 * (bench/load.mjs), interleaving cases within each repetition so slow drift
 * hits every row alike. See bench/README.md.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadCases, verifyCase } from "./cases.mjs";
import { cycleCases, DEFAULT_PLAN_STEPS, MAX_PLAN_STEPS, verifyCycle } from "./cycle.mjs";
import { buildBareBundle, buildCairnBundle, buildTemplateBundle, memoryOf, projectRoot, readProjectConfig } from "./harness.mjs";
import { cycleTable, fmt, goalLines, loadTable, manyPlans, ratioRows, ratioTable, summarize, tokenTable } from "./report.mjs";
import { CORE_PROFILE_GOAL, measureToolList, TOKENS_PER_TOOL_GOAL, TOKENS_PER_TOOL_PROPOSED } from "./tokens.mjs";
import { countRoundTrips, roundTripLines } from "./round-trips.mjs";
import { loadSpec, prepareRuntime, runChild } from "./setup.mjs";
import { runSoak, SOAK_DEFAULT_S } from "./soak.mjs";

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    duration: { type: "string" },
    warmup: { type: "string" },
    reps: { type: "string" },
    conc: { type: "string", default: "8,32" },
    json: { type: "string" },
    keep: { type: "boolean", default: false },
    "cairn-root": { type: "string" },
    only: { type: "string" },
    "plan-steps": { type: "string", default: String(DEFAULT_PLAN_STEPS) },
    "plans-conc": { type: "string", default: "1,32" },
    soak: { type: "boolean", default: false },
    "soak-seconds": { type: "string", default: String(SOAK_DEFAULT_S) },
  },
});
const positive = (text, name) => {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got ${text}`);
  return value;
};
const settings = {
  durationS: positive(args.duration ?? (args.quick ? "3" : "8"), "duration"),
  warmupS: positive(args.warmup ?? (args.quick ? "1" : "2"), "warmup"),
  reps: Math.max(2, Math.round(positive(args.reps ?? (args.quick ? "2" : "3"), "reps"))),
  concurrencies: args.conc.split(",").map((c) => Math.round(positive(c, "conc"))),
  // Rows P and M: steps per plan (the engine allows 60), and M's own concurrencies (= plans at once).
  planSteps: Math.min(MAX_PLAN_STEPS, Math.round(positive(args["plan-steps"], "plan-steps"))),
  plansConcurrencies: args["plans-conc"].split(",").map((c) => Math.round(positive(c, "plans-conc"))),
  // Plan creation before the warm-up and between warm-up and measurement, per cycle run (load.mjs).
  setupBudgetS: 30,
};

const log = (message) => process.stderr.write(`[bench] ${message}\n`);

async function main() {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "cairn-bench-"));
  const bundleDir = path.join(workDir, "bundle");
  const persistDir = path.join(workDir, "persist");
  mkdirSync(persistDir);
  let runtime;
  try {
    log(`work dir ${workDir}`);
    const cairnRoot = path.resolve(args["cairn-root"] ?? projectRoot);
    if (cairnRoot !== projectRoot) log(`benching the Cairn project at ${cairnRoot}`);
    const config = await readProjectConfig(cairnRoot);
    log(`building (wrangler deploy --dry-run; esbuild) — compatibility ${config.compatibilityDate} [${config.compatibilityFlags.join(", ")}]`);
    const [cairnBundle, bareCode, templateCode] = await Promise.all([buildCairnBundle(bundleDir, cairnRoot), buildBareBundle(), buildTemplateBundle()]);
    if (args.soak) {
      const soakS = Math.round(positive(args["soak-seconds"], "soak-seconds"));
      console.log(await runSoak({ cairnBundle, bareCode, config, workDir, soakS, concurrency: settings.concurrencies[0], log }));
      return;
    }
    // Before the runtime starts: the test's own workerd must not be taken for the bench's.
    log(`counting round trips (${"test/workers/round-trips.test.ts"})`);
    const roundTrips = roundTripLines(await countRoundTrips());

    runtime = await prepareRuntime({ cairnBundle, bareCode, templateCode, config, persistDir, log });
    const { publicUrl, workerdPid, tenant, accessToken, templateToken, urls } = runtime;
    // --only A,B: a subset of rows (A is always kept: every ratio needs it).
    const only = args.only ? new Set(["A", ...args.only.toUpperCase().split(",")]) : null;
    const cases = [...loadCases({ accessToken, apiKey: tenant.apiKey, templateToken }), ...cycleCases({ accessToken, planSteps: settings.planSteps })].filter(
      (c) => !only || only.has(c.id),
    );
    for (const testCase of cases.filter((c) => c.mode !== "cycle")) {
      const checked = await verifyCase(testCase, urls);
      log(`verified ${testCase.id}: HTTP ${checked.status} ${checked.contentType ?? ""}, ${checked.bytes} bytes`);
    }
    const cycleIds = cases.filter((c) => c.mode === "cycle").map((c) => c.id);
    if (cycleIds.length) {
      // One whole plan through the same bodies and checks as the load (rows P and M share them).
      const checked = await verifyCycle(publicUrl, accessToken, settings.planSteps);
      log(
        `verified ${cycleIds.join(",")}: a ${settings.planSteps}-step plan run to plan_complete (${checked.contentType}; ` +
          `get_next_step ${checked.bytes.next} bytes, submit_step_result ${checked.bytes.submit} bytes)`,
      );
    }

    const toolCost = await measureToolList(publicUrl, accessToken);
    const coreCost = await measureToolList(publicUrl, accessToken, "/mcp/core");
    const memoryAfterSetup = memoryOf(workerdPid);

    // Load: every repetition runs every concurrency and every case, back to back.
    const runs = [];
    // Each repetition: every table concurrency × every row (except M), then M at each of its own concurrencies.
    const schedule = [
      ...settings.concurrencies.flatMap((concurrency) => cases.filter((c) => !c.ownConcurrencies).map((testCase) => ({ testCase, concurrency }))),
      ...settings.plansConcurrencies.flatMap((concurrency) => cases.filter((c) => c.ownConcurrencies).map((testCase) => ({ testCase, concurrency }))),
    ];
    const total = settings.reps * schedule.length;
    const etaS = settings.reps * schedule.reduce((sum, { testCase }) => sum + settings.durationS + settings.warmupS + (testCase.mode === "cycle" ? 2 : 0.5), 0);
    log(`load: ${total} runs × (${settings.warmupS} s warm-up + ${settings.durationS} s), about ${Math.ceil(etaS / 60)} min`);
    for (let rep = 1; rep <= settings.reps; rep++) {
      for (const { testCase, concurrency } of schedule) {
        const spec = loadSpec(testCase, runtime, {
          concurrency,
          durationS: settings.durationS,
          warmupS: settings.warmupS,
          setupBudgetS: settings.setupBudgetS,
        });
        const result = await runChild(spec);
        runs.push({ caseId: testCase.id, label: testCase.label, concurrency, rep, result });
        const failed = result.non2xx + result.bad + result.errors;
        const cycle =
          testCase.mode === "cycle"
            ? `, ${fmt.int(result.cyclesPerS)} cycles/s (${fmt.fixed(result.perPlanCyclesPerS, 1)} per plan), ${result.plansCreated} plans created` +
              (result.inlineCreates ? `, ${result.inlineCreates} INLINE` : "") +
              (result.nonStep ? `, ${result.nonStep} non-step answers` : "")
            : "";
        log(
          `rep ${rep} c=${concurrency} ${testCase.id}: ${fmt.int(result.rps)} req/s, p50 ${fmt.fixed(result.p50, 2)} ms, p99 ${fmt.fixed(result.p99, 2)} ms, ` +
            `workerd CPU ${fmt.int(result.serverCpuPct)} % (${fmt.fixed(result.serverCpuMsPerRequest, 2)} ms/req), client CPU ${fmt.int(result.clientCpuPct)} %, other ${fmt.int(result.otherCpuPct)} %` +
            cycle +
            (failed ? `  FAILED ${failed} (${result.firstFailure})` : ""),
        );
      }
    }
    const memoryAtEnd = memoryOf(workerdPid);

    // ---- Report
    const summaries = summarize(runs);
    const ratios = ratioRows(summaries, runs);
    const cycleSummaries = summaries.filter((s) => s.cyclesPerS !== undefined);
    const plans = manyPlans(summaries);
    const failedRows = summaries.filter((s) => s.failures > 0);
    const out = [];
    out.push("");
    out.push(`## Cairn benchmark — ${new Date().toISOString()}`);
    out.push("");
    out.push(
      `Harness: one workerd (Miniflare ${await miniflareVersion()}, direct sockets), Node ${process.version} client in a child process, ` +
        `${os.cpus().length} CPUs; ${settings.durationS} s per run after ${settings.warmupS} s warm-up, ${settings.reps} repetitions, medians` +
        (cycleSummaries.length ? `; plan step cycle on ${settings.planSteps}-step plans` : "") +
        ". " +
        `Cairn source: ${sourceRevision(cairnRoot)}.`,
    );
    out.push("");
    out.push(loadTable(summaries));
    out.push("");
    const reconnected = runs.filter((run) => run.result.newConnections > 0);
    out.push(
      reconnected.length === 0
        ? "Keep-alive: every measured request reused a warm-up connection."
        : `WARNING: ${reconnected.length} run(s) opened new connections while measuring (keep-alive broken?): ` +
            reconnected.map((run) => `${run.caseId}@${run.concurrency} rep ${run.rep}: ${run.result.newConnections}`).join(", "),
    );
    out.push("");
    const busy = summaries.filter((s) => s.otherCpuPct > 30);
    if (busy.length) {
      out.push(
        `WARNING: other processes used > 30 % of a core during ${busy.map((s) => `${s.caseId}@${s.concurrency}`).join(", ")} ` +
          "(column \"other CPU %\"): the machine was shared, so absolute figures are low; prefer the ratios and rerun on a quiet machine.",
      );
      out.push("");
    }
    out.push(ratioTable(ratios));
    out.push("");
    out.push(...goalLines(summaries, ratios));
    if (cycleSummaries.length) {
      out.push("");
      out.push(`### Plan step cycle (get_next_step + submit_step_result = 1 cycle = 2 calls; ${settings.planSteps}-step plans, each connection its own plans)`);
      out.push("");
      out.push(cycleTable(cycleSummaries));
      const inline = cycleSummaries.filter((s) => s.inlineCreates > 0);
      if (inline.length) {
        out.push("");
        out.push(
          `WARNING: plans were created inside the measured phase (the pre-created pool ran dry) in ${inline.map((s) => `${s.caseId}@${s.concurrency}`).join(", ")}: ` +
            "their time is in the measured phase but not counted as calls, so those figures are slightly low.",
        );
      }
    }
    if (plans) {
      out.push("");
      out.push(plans.text);
    }
    out.push("");
    out.push(
      `### tools/list token cost (cl100k, compact JSON of the tools the model is given, without _meta; as served: ${toolCost.served} for ${toolCost.servedCount}): ${toolCost.total} tokens, ${toolCost.count} tools, ` +
        `${fmt.fixed(toolCost.average, 1)} per tool — goal ≤ ${TOKENS_PER_TOOL_GOAL}: ${fmt.verdict(toolCost.pass)} ` +
        `(each tool's JSON counted alone: ${toolCost.sumOfTools} in all, ${fmt.fixed(toolCost.sumOfTools / toolCost.count, 1)} per tool); ` +
        `proposed goal ≤ ${TOKENS_PER_TOOL_PROPOSED}: ${fmt.verdict(toolCost.proposedPass)}; with no descriptions at all: ${fmt.fixed(toolCost.proseFree, 1)} per tool`,
    );
    out.push("");
    const corePass = coreCost.total <= CORE_PROFILE_GOAL.tokens && coreCost.count <= CORE_PROFILE_GOAL.tools;
    out.push(
      `### core profile (/mcp/core): ${coreCost.total} tokens, ${coreCost.count} tools for the model (as served, app-only tools included: ${coreCost.served}, ${coreCost.servedCount}) — goal ≤ ${CORE_PROFILE_GOAL.tokens} tokens and ≤ ${CORE_PROFILE_GOAL.tools} tools: ${fmt.verdict(corePass)}`,
      "",
    );
    out.push(tokenTable(toolCost));
    out.push("");
    out.push(`### P6 round trips on the critical path (test/workers/round-trips.test.ts, wrapping the real bindings): ${fmt.verdict(roundTrips.pass)}`, "");
    out.push(...roundTrips.lines);
    out.push("");
    const mb = (m) => (m ? `${fmt.int(m.rssMB)} MB (peak ${fmt.int(m.peakMB)} MB)` : "n/a");
    out.push(`workerd RSS: after setup ${mb(memoryAfterSetup)}; at end ${mb(memoryAtEnd)}. RSS only grows with requests served (perf-baseline.md): compare runs of equal length only.`);
    if (failedRows.length) {
      out.push("");
      for (const s of failedRows) out.push(`FAILED ROW ${s.caseId} @${s.concurrency}: ${s.failures} failed requests; first: ${s.firstFailure}`);
    }
    console.log(out.join("\n"));

    if (args.json) {
      writeFileSync(
        path.resolve(args.json),
        JSON.stringify(
          { date: new Date().toISOString(), settings, cpus: os.cpus().length, summaries, ratios, manyPlans: plans?.figures ?? null, runs, toolCost, coreCost, memoryAfterSetup, memoryAtEnd },
          null,
          2,
        ),
      );
      log(`wrote ${args.json}`);
    }
    if (failedRows.length) {
      console.error(`\n[bench] ${failedRows.length} row(s) had failed requests: their figures do not measure a successful call.`);
      process.exitCode = 1;
    }
  } finally {
    await runtime?.mf.dispose();
    if (args.keep) log(`kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

/** The commit the Cairn bundle was built from, and whether src/ had uncommitted changes (others edit it concurrently). */
function sourceRevision(root) {
  try {
    const commit = execFileSync("git", ["-C", root, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["-C", root, "status", "--porcelain", "--", "src", "migrations", "wrangler.toml"], { encoding: "utf8" }).trim();
    return dirty ? `${commit} + uncommitted changes` : commit;
  } catch {
    return "unknown (not a git checkout)";
  }
}

async function miniflareVersion() {
  const { createRequire } = await import("node:module");
  return createRequire(import.meta.url)("miniflare/package.json").version;
}

main().catch((error) => {
  console.error(`[bench] FAILED: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
