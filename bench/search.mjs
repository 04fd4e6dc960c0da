/**
 * `npm run bench:search`: research memory at scale (issue 4).
 *
 *   npm run bench:search                   100,000 artifacts of ~2 KB, 20 timed rounds of the query set
 *   npm run bench:search -- --quick        10,000 artifacts, 10 rounds
 *   npm run bench:search -- --count 50000 --reps 30 --batch 500 --json /tmp/search.json --keep
 *   npm run bench:search -- --quick --no-sizes   (skip the default-response sizes)
 *
 * Steps: build Cairn as `wrangler deploy --dry-run` does and the bench Worker
 * (bench/search-worker.ts) with esbuild; run both in one workerd (Miniflare),
 * bound to the SAME D1 database; migrate and seed an org; create a few plans
 * through MCP (so hits carry a research question and an original request);
 * ingest the corpus through the bench Worker (Cairn's own saveArtifact and
 * d1ArtifactRepository, many artifacts per D1 batch); time `search_sources`
 * inside the Worker over a varied query set, beside the floor of one indexed
 * D1 read; time a few `search_sources` calls end to end through MCP over HTTP
 * with an OAuth token from the real flow; then seed worst-case records in the
 * same org and count the cl100k tokens of every operation's default response.
 * See bench/README.md.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { encode } from "gpt-tokenizer/encoding/cl100k_base";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { toFtsQuery } from "../src/domain/research/search-query.ts";
import { findFreePort } from "../scripts/lib/local.mjs";
import { obtainTokens } from "../test/support/oauth-flow.ts";
import { mcpCall } from "./cases.mjs";
import { benchArtifact, prose, rng, TOPICS, VOCABULARY } from "./corpus.ts";
import { applyMigrations, buildCairnBundle, bundleBenchWorker, bundleModules, findWorkerdPid, memoryOf, projectRoot, readProjectConfig, seedTenant } from "./harness.mjs";
import { table } from "./report.mjs";
import { worstCaseDefaultResponses } from "./response-cases.ts";

export const SEARCH_GOALS = { p95Ms: 20, ingestS: 120, maxResponseTokens: 8000 };

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    count: { type: "string" },
    reps: { type: "string" },
    batch: { type: "string", default: "250" },
    chunk: { type: "string", default: "5000" },
    "text-chars": { type: "string", default: "2000" },
    "no-sizes": { type: "boolean", default: false },
    json: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
const positiveInt = (text, name) => {
  const value = Math.round(Number(text));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got ${text}`);
  return value;
};
const settings = {
  count: positiveInt(args.count ?? (args.quick ? "10000" : "100000"), "count"),
  reps: positiveInt(args.reps ?? (args.quick ? "10" : "20"), "reps"),
  batch: positiveInt(args.batch, "batch"),
  chunk: positiveInt(args.chunk, "chunk"),
  textChars: positiveInt(args["text-chars"], "text-chars"),
  sizes: !args["no-sizes"],
};

const log = (message) => process.stderr.write(`[bench:search] ${message}\n`);
const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const verdict = (pass) => (pass ? "PASS" : "MISS");

/** Nearest-rank percentile of a list of numbers. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const buildSearchWorker = () => bundleBenchWorker("search-worker.ts", { ".sql": "text", ".md": "text" });

/** Cairn and the bench Worker in one workerd, both bound to the same D1 database (same id). */
async function startRuntime({ cairnBundle, searchCode, config, persistDir }) {
  const [cairnPort, searchPort] = [await findFreePort(), await findFreePort()];
  const publicUrl = `http://localhost:${cairnPort}`;
  const common = { compatibilityDate: config.compatibilityDate, compatibilityFlags: config.compatibilityFlags, unsafeRegisterWorker: false };
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: persistDir,
      logRequests: false,
      cf: false,
      workers: [
        {
          name: "cairn",
          ...common,
          modules: bundleModules(cairnBundle),
          modulesRoot: path.dirname(cairnBundle),
          bindings: { ...config.vars, PUBLIC_URL: publicUrl },
          d1Databases: { DB: "cairn-bench" },
          kvNamespaces: { OAUTH_KV: "cairn-bench-oauth" },
          durableObjects: config.durableObjects,
          ratelimits: config.ratelimits,
          unsafeDirectSockets: [{ host: "127.0.0.1", port: cairnPort }],
        },
        {
          name: "search-bench",
          ...common,
          modules: [{ type: "ESModule", path: path.join(projectRoot, "bench", "search-worker.bundle.mjs"), contents: searchCode }],
          modulesRoot: path.join(projectRoot, "bench"),
          bindings: { PUBLIC_URL: publicUrl },
          d1Databases: { DB: "cairn-bench" },
          // The plans artifacts name are Cairn's own (storing an artifact checks its plan exists in the org).
          durableObjects: { PLAN: { className: "PlanObject", scriptName: "cairn" } },
          unsafeDirectSockets: [{ host: "127.0.0.1", port: searchPort }],
        },
      ],
    }),
  );
  await mf.ready;
  return { mf, publicUrl, searchUrl: `http://localhost:${searchPort}` };
}

async function postJson(url, body) {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = await response.json();
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status} ${json.error ?? JSON.stringify(json).slice(0, 500)}`);
  return json;
}

/** A tools/call that must succeed, returning the structured result. */
async function tool(publicUrl, credential, name, args) {
  const result = await mcpCall(publicUrl, credential, "tools/call", { name, arguments: args });
  if (result?.isError) throw new Error(`${name}: ${result.content?.[0]?.text}`);
  return result.structuredContent;
}

/**
 * The query set, by class: single terms of every frequency, topic words, phrases taken from the corpus,
 * prefixes, several terms (all present, or none together: the any-term fallback), hostile strings, filters.
 */
export function queryCases({ planIds, sinceIso }) {
  const phraseOf = (n, words) => {
    const text = benchArtifact(n).contentText.toLowerCase().replace(/[^a-z\s]/g, " ").split(/\s+/).filter(Boolean);
    return `"${text.slice(20, 20 + words).join(" ")}"`;
  };
  const cases = [
    ["common term", VOCABULARY[0]], // "the": in every document
    ["common term", VOCABULARY[40]],
    ["common term", "market"],
    ["mid term", "latency"],
    ["mid term", "lithium"],
    ["mid term", "vaccine"],
    ["rare term", VOCABULARY[1200]],
    ["rare term", VOCABULARY[2400]],
    ["rare term", VOCABULARY[3200]],
    ["topic term", TOPICS[1][0]],
    ["topic term", TOPICS[17][2]],
    ["topic term", TOPICS[33][4]],
    ["phrase", phraseOf(5, 2)],
    ["phrase", phraseOf(777, 3)],
    ["phrase", '"supply chain"'],
    ["prefix", "lith*"],
    ["prefix", "th*"],
    ["prefix", "torvex*"],
    ["several terms", "battery lithium cost"],
    ["several terms", "vaccine clinical trial patients"],
    ["several terms", `${TOPICS[2][1]} ${VOCABULARY[150]} growth`],
    ["any-term fallback", `${VOCABULARY[1500]} ${VOCABULARY[2900]} ${TOPICS[9][3]}`],
    ["any-term fallback", "qwzx nonexistentterm lithium"],
    ["no hit", "xyzzyplugh"],
    ["hostile", '"unbalanced (quote'],
    ["hostile", "AND OR NOT NEAR("],
    ["hostile", "title:secret) OR * ^ {col}: -x"],
    ["hostile", "'; DROP TABLE artifacts; --"],
    ["hostile", Array.from({ length: 120 }, (_, i) => VOCABULARY[(i * 37) % 400]).join(" ").slice(0, 1000)],
  ].map(([cls, query], i) => ({ id: `q${i}`, cls, input: { query } }));
  const filtered = [
    ["filter: type", { query: "market", artifactType: "analysis" }],
    ["filter: tag", { query: "market", tag: "priority" }],
    ["filter: tag", { query: TOPICS[5][0], tag: "topic-5" }],
    ["filter: plan", { query: "the", planId: planIds[0] }],
    ["filter: since", { query: "latency", since: sinceIso }],
    ["limit 50", { query: "market", limit: 50 }],
  ].map(([cls, input], i) => ({ id: `f${i}`, cls, input }));
  return [...cases, ...filtered];
}

function dirBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(full) : statSync(full).size;
  }
  return total;
}

async function main() {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "cairn-bench-search-"));
  const bundleDir = path.join(workDir, "bundle");
  const persistDir = path.join(workDir, "persist");
  mkdirSync(persistDir);
  let runtime;
  const report = { date: new Date().toISOString(), settings };
  try {
    log(`work dir ${workDir}`);
    const config = await readProjectConfig();
    log("building Cairn (wrangler deploy --dry-run) and the bench Worker (esbuild)");
    const [cairnBundle, searchCode] = await Promise.all([buildCairnBundle(bundleDir), buildSearchWorker()]);
    runtime = await startRuntime({ cairnBundle, searchCode, config, persistDir });
    const { mf, publicUrl, searchUrl } = runtime;
    const workerdPid = findWorkerdPid();
    const db = await mf.getD1Database("DB", "cairn");
    await applyMigrations(db, config.migrationsDir);
    const tenant = await seedTenant(db);
    const principal = { orgId: tenant.orgId, userId: tenant.userId, role: "admin", scopes: ["research:read", "research:write"] };
    const flow = await obtainTokens((request) => fetch(request), publicUrl, { email: tenant.email, password: tenant.password });
    const accessToken = flow.tokens.access_token;
    log(`migrated, seeded, OAuth token obtained; workerd pid ${workerdPid ?? "?"}`);

    // A few plans, each linked to a skill execution with an original request: what search hits show.
    const planIds = [];
    for (let i = 0; i < 5; i++) {
      const sessionId = `bench-search-${i}`;
      const random = rng(500 + i);
      await tool(publicUrl, accessToken, "log_skill_execution", {
        skillName: "research",
        sessionId,
        metadata: { topic: `Bench topic ${i}`, originalQuery: prose(random, 300, TOPICS[i]) },
      });
      const plan = await tool(publicUrl, accessToken, "create_research_plan", {
        name: `[Scan] Bench plan ${i}`,
        researchQuestion: prose(random, 200, TOPICS[i]),
        steps: [{ stepType: "search", instructions: "Search" }],
        planDesignRationale: "Bench",
        sessionId,
      });
      planIds.push(plan.planId);
    }

    // ---- Ingest
    const epochMs = Date.parse("2026-01-01T00:00:00Z");
    log(`ingesting ${settings.count} artifacts of ~${settings.textChars} characters (${settings.batch} per D1 batch, ${settings.chunk} per request)`);
    const ingestStarted = performance.now();
    let workerMs = 0;
    let textChars = 0;
    for (let from = 0; from < settings.count; from += settings.chunk) {
      const count = Math.min(settings.chunk, settings.count - from);
      const result = await postJson(`${searchUrl}/ingest`, { principal, from, count, batch: settings.batch, epochMs, textChars: settings.textChars, planIds, planEvery: 100 });
      workerMs += result.ms;
      textChars += result.textChars;
      const elapsed = (performance.now() - ingestStarted) / 1000;
      if ((from / settings.chunk) % 4 === 3 || from + count >= settings.count) log(`  ${from + count} artifacts in ${fixed(elapsed, 1)} s (${Math.round((from + count) / elapsed)}/s)`);
    }
    const ingestS = (performance.now() - ingestStarted) / 1000;
    const rows = await db.prepare("SELECT COUNT(*) AS n FROM artifacts WHERE org_id = ?").bind(tenant.orgId).first("n");
    const storedBytes = dirBytes(persistDir);
    report.ingest = { count: settings.count, rows, seconds: ingestS, workerSeconds: workerMs / 1000, perSecond: settings.count / ingestS, textChars, storedBytes };
    log(`ingested ${rows} rows in ${fixed(ingestS, 1)} s; storage on disk ${fixed(storedBytes / 1e6, 0)} MB`);

    // ---- Search inside the Worker
    const sinceIso = new Date(epochMs + Math.floor(settings.count * 0.9) * 1000).toISOString();
    const cases = queryCases({ planIds, sinceIso });
    const matches = {};
    for (const c of cases) {
      const fts = toFtsQuery(c.input.query);
      matches[c.id] = fts ? await db.prepare("SELECT COUNT(*) AS n FROM artifacts_fts WHERE artifacts_fts MATCH ?").bind(fts.all).first("n") : 0;
    }
    log(`search: ${cases.length} queries × ${settings.reps} rounds (+1 warm-up round)`);
    await postJson(`${searchUrl}/search`, { principal, cases, reps: 1 });
    const searched = await postJson(`${searchUrl}/search`, { principal, cases, reps: settings.reps });
    const errors = Object.entries(searched.errors);
    if (errors.length) throw new Error(`search_sources failed: ${errors.map(([id, e]) => `${id}: ${e}`).join("; ")}`);
    const all = cases.flatMap((c) => searched.timings[c.id]);
    const classes = [...new Set(cases.map((c) => c.cls))];
    const floor = searched.timings.floor;
    const byClass = classes.map((cls) => {
      const ofClass = cases.filter((c) => c.cls === cls);
      const times = ofClass.flatMap((c) => searched.timings[c.id]);
      return { cls, queries: ofClass.length, samples: times.length, p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times), matches: ofClass.map((c) => matches[c.id]) };
    });
    const perQuery = cases.map((c) => ({
      id: c.id,
      cls: c.cls,
      input: c.input,
      matches: matches[c.id],
      hits: searched.hits[c.id],
      p50: percentile(searched.timings[c.id], 50),
      p95: percentile(searched.timings[c.id], 95),
      max: Math.max(...searched.timings[c.id]),
    }));
    report.search = {
      overall: { samples: all.length, p50: percentile(all, 50), p95: percentile(all, 95), max: Math.max(...all) },
      floor: { samples: floor.length, p50: percentile(floor, 50), p95: percentile(floor, 95), max: Math.max(...floor) },
      byClass,
      perQuery,
    };

    // ---- End to end through MCP over HTTP (context: auth, MCP framing, the tool-call log, the socket)
    const e2eQueries = ["market", VOCABULARY[1200], '"supply chain"', "lith*", "battery lithium cost"];
    const e2e = [];
    for (let round = 0; round < 10; round++) {
      for (const query of e2eQueries) {
        const started = performance.now();
        await tool(publicUrl, accessToken, "search_sources", { query });
        if (round > 0) e2e.push(performance.now() - started);
      }
    }
    report.e2e = { queries: e2eQueries, samples: e2e.length, p50: percentile(e2e, 50), p95: percentile(e2e, 95), max: Math.max(...e2e) };
    report.memoryAfterSearch = memoryOf(workerdPid);

    // ---- Token size of every default response, with worst-case records added to the same org
    if (settings.sizes) {
      log("default responses: seeding worst-case records through MCP");
      const random = rng(42);
      const call = async (name, toolArgs) => {
        const result = await mcpCall(publicUrl, accessToken, "tools/call", { name, arguments: toolArgs });
        const text = (result.content ?? []).map((item) => item.text).join("\n");
        return { isError: result.isError === true, text, body: JSON.parse(text || "null") };
      };
      const responses = await worstCaseDefaultResponses(call, (chars) => prose(random, chars, TOPICS[3]));
      const { tools } = await mcpCall(publicUrl, accessToken, "tools/list", {});
      report.sizes = tools.map(({ name }) => {
        const response = responses.get(name);
        if (!response) return { name, tokens: null, chars: null };
        return { name, tokens: encode(response.text).length, chars: response.text.length, args: Object.keys(response.args).join(", ") || "(none)" };
      });
    }
    report.memoryAtEnd = memoryOf(workerdPid);

    console.log(render(report));
    if (args.json) {
      writeFileSync(path.resolve(args.json), JSON.stringify(report, null, 2));
      log(`wrote ${args.json}`);
    }
  } finally {
    await runtime?.mf.dispose();
    if (args.keep) log(`kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

function render(report) {
  const out = [];
  const { ingest, search, e2e } = report;
  out.push("", `## Cairn search benchmark — ${report.date}`, "");
  out.push(
    `Harness: one workerd (Miniflare ${createRequire(import.meta.url)("miniflare/package.json").version}), local D1 persisted on disk, ` +
      `Node ${process.version}, ${os.cpus().length} CPUs. Corpus: ${ingest.count} artifacts, ~${settings.textChars} characters of text each, one org.`,
    "",
  );
  out.push(
    `### Ingest: ${ingest.rows} artifacts in ${fixed(ingest.seconds, 1)} s (${Math.round(ingest.perSecond)}/s, ` +
      `${fixed(ingest.textChars / 1e6 / ingest.seconds, 1)} M characters of text/s; ${fixed(ingest.workerSeconds, 1)} s inside the Worker) — ` +
      `goal ≤ ${SEARCH_GOALS.ingestS} s: ${verdict(ingest.seconds <= SEARCH_GOALS.ingestS)}` +
      (ingest.count !== 100_000 ? ` (for 100,000 at this rate: ${fixed((ingest.seconds * 100_000) / ingest.count, 0)} s)` : ""),
    "",
    `Storage on disk after ingest: ${fixed(ingest.storedBytes / 1e6, 0)} MB (D1 with artifacts, versions and the FTS5 index; KV; Durable Objects).`,
    "",
  );
  out.push(
    `### search_sources inside the Worker (${search.overall.samples} calls): p50 ${fixed(search.overall.p50)} ms, p95 ${fixed(search.overall.p95)} ms, ` +
      `max ${fixed(search.overall.max)} ms — goal p95 ≤ ${SEARCH_GOALS.p95Ms} ms: ${verdict(search.overall.p95 <= SEARCH_GOALS.p95Ms)}`,
    "",
    `Floor (one indexed one-row D1 read, same Worker, interleaved): p50 ${fixed(search.floor.p50)} ms, p95 ${fixed(search.floor.p95)} ms; ` +
      `search/floor p50 ${fixed(search.overall.p50 / search.floor.p50, 1)}×, p95 ${fixed(search.overall.p95 / search.floor.p95, 1)}×.`,
    "",
  );
  out.push(
    table(
      ["class", "queries", "calls", "p50 ms", "p95 ms", "max ms", "p95 ≤ 20 ms", "documents with every word (before filters)"],
      search.byClass.map((c) => [c.cls, c.queries, c.samples, fixed(c.p50), fixed(c.p95), fixed(c.max), verdict(c.p95 <= SEARCH_GOALS.p95Ms), c.matches.join(", ")]),
    ),
    "",
  );
  out.push(
    table(
      ["query", "class", "documents with every word", "hits", "p50 ms", "p95 ms", "max ms"],
      search.perQuery.map((q) => {
        const { query, ...filters } = q.input;
        const shown = query.length > 60 ? `${query.slice(0, 57)}… (${query.length} chars)` : query;
        const extra = Object.entries(filters).map(([k, v]) => `${k}=${String(v).slice(0, 24)}`).join(" ");
        return [`\`${shown.replace(/\|/g, "\\|")}\`${extra ? ` ${extra}` : ""}`, q.cls, q.matches, q.hits, fixed(q.p50), fixed(q.p95), fixed(q.max)];
      }),
    ),
    "",
  );
  out.push(
    `### search_sources end to end through MCP (OAuth token, HTTP, ${e2e.samples} calls of ${e2e.queries.length} queries): ` +
      `p50 ${fixed(e2e.p50)} ms, p95 ${fixed(e2e.p95)} ms, max ${fixed(e2e.max)} ms`,
    "",
  );
  if (report.sizes) {
    const measured = report.sizes.filter((s) => s.tokens !== null);
    const over = measured.filter((s) => s.tokens > SEARCH_GOALS.maxResponseTokens);
    out.push(
      `### Default responses, worst-case records (cl100k tokens of the text the model reads): ${measured.length - over.length} of ${measured.length} ` +
        `within ${SEARCH_GOALS.maxResponseTokens} — goal: ${verdict(over.length === 0)}` +
        (report.sizes.length > measured.length ? `; not measured: ${report.sizes.filter((s) => s.tokens === null).map((s) => s.name).join(", ")}` : ""),
      "",
      table(
        ["operation", "arguments of the largest default call", "characters", "tokens", `≤ ${SEARCH_GOALS.maxResponseTokens}`],
        report.sizes.map((s) => [s.name, s.args ?? "not measured", s.chars ?? "–", s.tokens ?? "–", s.tokens === null ? "–" : verdict(s.tokens <= SEARCH_GOALS.maxResponseTokens)]),
      ),
      "",
    );
  }
  const mb = (m) => (m ? `${Math.round(m.rssMB)} MB (peak ${Math.round(m.peakMB)} MB)` : "n/a");
  out.push(`workerd RSS after search: ${mb(report.memoryAfterSearch)}; at end: ${mb(report.memoryAtEnd)}.`);
  return out.join("\n");
}

main().catch((error) => {
  console.error(`[bench:search] FAILED: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
