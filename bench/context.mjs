/**
 * `npm run bench:context`: what a research run costs the assistant's context.
 *
 * Builds Cairn as `wrangler deploy --dry-run` does, runs it in workerd (Miniflare) with
 * fresh local D1/KV/Durable Objects, signs in through the real OAuth flow, and plays one
 * scan and one deep lifecycle the way the skills instruct (bench/context-lifecycle.mjs),
 * every skill's calls in order, research-output's included, then the deep run through
 * /mcp/core. Counted in cl100k tokens: `tools/list`, the three skills a run loads (as
 * prompts, and through the Skills extension: the skill index and the SKILL.md files),
 * every request's arguments and every response's text content. Prints per tool and in
 * total, where each run departs from the skills' text, PASS/MISS against the goals both
 * ways, and the acknowledgements that echo the caller's words back.
 *
 *   npm run bench:context
 *   npm run bench:context -- --json /tmp/context.json --keep
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { obtainTokens } from "../test/support/oauth-flow.ts";
import { ACKNOWLEDGING_TOOLS, departures, echoesOf, Meter, measureSurface, planFromTemplate, runCoreDeep, runDeep, runScan } from "./context-lifecycle.mjs";
import { applyMigrations, buildBareBundle, buildCairnBundle, readProjectConfig, seedTenant, startRuntime } from "./harness.mjs";
import { table } from "./report.mjs";

/** The goals of "Half the model's context for the same research" (deep run, full catalog). */
export const CONTEXT_GOALS = { deepResponses: 8_000, deepTotal: 30_000 };
/** This bench on the code before any lever (commit 3dd7f17); the issue measured 32,029 and 56,516 by hand. */
const BEFORE = { deepResponses: 29_019, deepTotal: 51_820, scanTotal: 19_323 };
/**
 * The scan run is held to the deep run's ratio of total to its first measure (30,000 / 56,516): the issue's
 * "the same ratios". Its tools/list and prompts alone are most of it, so this goal is reported, not met.
 */
const SCAN_TOTAL_GOAL = Math.round((BEFORE.scanTotal * CONTEXT_GOALS.deepTotal) / 56_516);

const { values: args } = parseArgs({ options: { json: { type: "string" }, keep: { type: "boolean", default: false } } });
const log = (message) => process.stderr.write(`[bench:context] ${message}\n`);
const verdict = (pass) => (pass ? "PASS" : "MISS");
const n = (value) => value.toLocaleString("en-US");

/** A run's context through the prompts, and the same run through the Skills extension (the skill index and files instead). */
function summary(surface, meter) {
  const { request, response } = meter.totals();
  const io = surface.toolsList + request + response;
  return {
    toolsList: surface.toolsList,
    prompts: surface.promptTotal,
    requests: request,
    responses: response,
    total: io + surface.promptTotal,
    skills: { index: surface.skillIndex, files: surface.skillFiles, total: io + surface.skillTotal },
  };
}

/** Each skill's departures, one line each: what it names that the run did not call, and any call it does not name. */
function departureLines(run, surface, meter) {
  return departures(meter, surface.texts, surface.toolNames).map(({ skill, named, notCalled, unnamed }) => {
    const parts = [`${run}, ${skill}: names ${named.length} tools; not called (branches this run did not take): ${notCalled.join(", ") || "none"}`];
    if (unnamed.length) parts.push(`DEPARTS: called without the skill naming it: ${unnamed.join(", ")}`);
    return parts.join("; ");
  });
}

function perToolRows(meter) {
  return [...meter.perTool.entries()]
    .sort((a, b) => b[1].response + b[1].request - (a[1].response + a[1].request))
    .map(([name, e]) => [name, e.calls, n(e.request), n(e.response), n(e.request + e.response), (e.response / e.calls).toFixed(0)]);
}

async function main() {
  const started = Date.now();
  const tmp = mkdtempSync(path.join(os.tmpdir(), "cairn-bench-context-"));
  log(`temp dir ${tmp}`);
  const config = await readProjectConfig();
  const cairnBundle = await buildCairnBundle(path.join(tmp, "bundle"));
  const bareCode = await buildBareBundle();
  const { mf, publicUrl } = await startRuntime({ cairnBundle, bareCode, config, persistDir: path.join(tmp, "persist") });
  try {
    const db = await mf.getD1Database("DB", "cairn");
    await applyMigrations(db, config.migrationsDir);
    const tenant = await seedTenant(db);
    const flow = await obtainTokens((request) => fetch(request), publicUrl, { email: tenant.email, password: tenant.password });
    const token = flow.tokens.access_token;
    log("runtime up, signed in; running the lifecycles");

    const deepSurface = await measureSurface(publicUrl, token, "/mcp", ["research", "research-deep", "research-output"], "heat pumps");
    const deep = new Meter(publicUrl, token);
    const deepCounts = await runDeep(deep, { createPlan: planFromTemplate });

    const scanSurface = await measureSurface(publicUrl, token, "/mcp", ["research", "research-scan", "research-output"], "heat pumps");
    const scan = new Meter(publicUrl, token);
    const scanCounts = await runScan(scan, { createPlan: planFromTemplate });

    const coreSurface = await measureSurface(publicUrl, token, "/mcp/core", ["research", "research-deep", "research-output"], "heat pumps");
    const core = new Meter(publicUrl, token, "/mcp/core");
    const coreCounts = await runCoreDeep(core, new Meter(publicUrl, token));

    const result = {
      deep: { ...summary(deepSurface, deep), counts: deepCounts, promptTokens: deepSurface.prompts, tools: deepSurface.toolCount, perTool: Object.fromEntries(deep.perTool) },
      scan: { ...summary(scanSurface, scan), counts: scanCounts, promptTokens: scanSurface.prompts, tools: scanSurface.toolCount, perTool: Object.fromEntries(scan.perTool) },
      core: { ...summary(coreSurface, core), counts: coreCounts, promptTokens: coreSurface.prompts, tools: coreSurface.toolCount, perTool: Object.fromEntries(core.perTool) },
    };
    const echoes = [...deep.calls, ...scan.calls, ...core.calls].filter((call) => ACKNOWLEDGING_TOOLS.has(call.name)).flatMap(echoesOf);
    result.echoes = [...new Set(echoes)];
    if (process.env.BENCH_CONTEXT_DUMP) writeFileSync(process.env.BENCH_CONTEXT_DUMP, JSON.stringify({ deep: deep.calls, scan: scan.calls, core: core.calls }, null, 1));

    const out = [];
    const header = ["tool", "calls", "request tokens", "response tokens", "together", "response per call"];
    out.push(
      `Deep run, full catalog (${deepCounts.steps} steps, ${deepCounts.checkpoints} checkpoint, ${deepCounts.sources} sources, ${deepCounts.claims} claims, ${deepCounts.verdicts} verdicts, ${deepCounts.reportWords}-word report)`,
    );
    out.push(table(header, perToolRows(deep)));
    out.push(`\nScan run, full catalog (${scanCounts.steps} steps)`);
    out.push(table(header, perToolRows(scan)));
    out.push(`\nDeep run through /mcp/core (${coreCounts.steps} steps; findings in step results, no ledger)`);
    out.push(table(header, perToolRows(core)));
    const row = (name, s) => [name, n(s.toolsList), n(s.prompts), n(s.requests), n(s.responses), n(s.total), `${((100 * s.responses) / s.total).toFixed(0)} %`, (s.responses / result.deep.responses).toFixed(2), (s.total / result.deep.total).toFixed(2)];
    out.push("\nTotals (cl100k tokens)");
    out.push(
      table(
        ["run", "tools/list", "prompts", "requests", "responses", "total", "responses share", "responses / deep /mcp", "total / deep /mcp"],
        [row("deep, /mcp", result.deep), row("scan, /mcp", result.scan), row("deep, /mcp/core", result.core)],
      ),
    );
    out.push(
      `\nThe deep run, /mcp, both ways a client loads the skills: as prompts (${n(result.deep.prompts)} tokens: research, research-deep, research-output) or through the Skills extension (the index of ${n(result.deep.skills.index)} tokens and the three SKILL.md files, ${Object.values(result.deep.skills.files).map(n).join(" + ")})`,
    );
    for (const [way, total] of [
      ["prompts", result.deep.total],
      ["skills extension", result.deep.skills.total],
    ]) {
      out.push(`${verdict(result.deep.responses <= CONTEXT_GOALS.deepResponses && total <= CONTEXT_GOALS.deepTotal)} deep through the ${way}: responses ${n(result.deep.responses)} ≤ ${n(CONTEXT_GOALS.deepResponses)}, total ${n(total)} ≤ ${n(CONTEXT_GOALS.deepTotal)}`);
    }
    out.push("\nWhere the runs depart from the skills' text");
    out.push(...departureLines("deep /mcp", deepSurface, deep), ...departureLines("scan /mcp", scanSurface, scan), ...departureLines("deep /mcp/core", coreSurface, core));
    result.departures = { deep: departures(deep, deepSurface.texts, deepSurface.toolNames), scan: departures(scan, scanSurface.texts, scanSurface.toolNames), core: departures(core, coreSurface.texts, coreSurface.toolNames) };
    out.push("");
    out.push(`${verdict(result.deep.responses <= CONTEXT_GOALS.deepResponses)} deep responses ${n(result.deep.responses)} ≤ ${n(CONTEXT_GOALS.deepResponses)} (before the levers: ${n(BEFORE.deepResponses)})`);
    out.push(`${verdict(result.deep.total <= CONTEXT_GOALS.deepTotal)} deep total ${n(result.deep.total)} ≤ ${n(CONTEXT_GOALS.deepTotal)} (before the levers: ${n(BEFORE.deepTotal)})`);
    out.push(
      `${verdict(result.scan.total <= SCAN_TOTAL_GOAL)} scan total ${n(result.scan.total)} ≤ ${n(SCAN_TOTAL_GOAL)}, the deep goal's ratio (before the levers: ${n(BEFORE.scanTotal)}; tools/list and prompts alone: ${n(result.scan.toolsList + result.scan.prompts)}); responses ${n(result.scan.responses)}`,
    );
    out.push(`info deep via /mcp/core: responses ${n(result.core.responses)}, total ${n(result.core.total)} through the prompts, ${n(result.core.skills.total)} through the skills extension (measured, no goal)`);
    out.push(`${verdict(result.echoes.length === 0)} acknowledgements echo none of the caller's words${result.echoes.length ? `: ${result.echoes.length}\n  ${result.echoes.slice(0, 20).join("\n  ")}` : ""}`);
    process.stdout.write(`${out.join("\n")}\n`);
    if (args.json) writeFileSync(args.json, JSON.stringify(result, null, 2));
    log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await mf.dispose();
    if (!args.keep) rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
