/**
 * `npm run bench:search`: research memory at scale (issue 4).
 *
 *   npm run bench:search                   100,000 artifacts of ~2 KB, 20 timed rounds of the query set
 *   npm run bench:search -- --quick        10,000 artifacts, 10 rounds
 *   npm run bench:search -- --count 50000 --reps 30 --batch 500 --json /tmp/search.json --keep
 *   npm run bench:search -- --quick --no-sizes   (skip the default-response sizes)
 *   npm run bench:search -- --count 1000000 --no-sizes --keep   (measures 100,000 too; the scale goals)
 *   npm run bench:search -- --count 1000000 --skew --no-sizes --keep   (two orgs: one holds 99 %, the other
 *       1 %, every 100th artifact; both orgs' searches timed and judged)
 *
 * --keep keeps each size's database (under --db-dir, default <tmpdir>/cairn-bench-search-kept) and
 * reuses it on the next run with --keep: only migrations it has not had are applied, so a repeated
 * measurement at a million artifacts takes minutes, not the hour its ingest takes on a shared machine.
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
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { encode } from "gpt-tokenizer/encoding/cl100k_base";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { findFreePort } from "../scripts/lib/local.mjs";
import { obtainTokens } from "../test/support/oauth-flow.ts";
import { mcpCall } from "./cases.mjs";
import { benchArtifact, prose, rng, TOPICS, VOCABULARY } from "./corpus.ts";
import { applyMigrations, buildCairnBundle, bundleBenchWorker, cairnWorker, findWorkerdPid, memoryOf, migrationFiles, migrationStatements, projectRoot, readProjectConfig, seedTenant } from "./harness.mjs";
import { SCALE_GOALS } from "./search-goals.mjs";
import { render } from "./search-report.mjs";
import { worstCaseDefaultResponses } from "./response-cases.ts";
import { loadBundled } from "./node-bundle.mjs";

// The query reading imports the policy of what text is indexed (search-text.ts): bundled, as the Worker has it.
const { toFtsQuery } = await loadBundled(['export { toFtsQuery } from "./src/domain/research/search-query";']);


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
    "db-dir": { type: "string" },
    skew: { type: "boolean", default: false },
    "ingest-only": { type: "boolean", default: false },
    "no-recent-index": { type: "boolean", default: false },
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
  /** Two orgs: every NEIGHBOUR_EVERY-th artifact is the second org's (1 % of the database), the rest the first's. */
  skew: args.skew,
  /** Stop after the ingest (its wall and workerd CPU time): no search, no end-to-end calls, no sizes. */
  ingestOnly: args["ingest-only"],
  /** With --ingest-only: the recent index's triggers dropped after the migrations (the full index alone), to measure what keeping it costs an ingest. */
  noRecentIndex: args["no-recent-index"],
};
if (settings.noRecentIndex && (!settings.ingestOnly || args.keep)) throw new Error("--no-recent-index needs --ingest-only (search reads the recent index) and no --keep");
const NEIGHBOUR_EVERY = 100;
const neighbourCount = (count) => (settings.skew ? Math.floor(count / NEIGHBOUR_EVERY) : 0);

/** A process's CPU time (user + system) in seconds, from /proc (NaN where there is none). */
const cpuSecondsOf = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ
  } catch {
    return Number.NaN;
  }
};
const log = (message) => process.stderr.write(`[bench:search] ${message}\n`);
const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "–");

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
        // No queues here: the search bench sends nothing through them.
        cairnWorker({ cairnBundle, config, port: cairnPort, publicUrl, queues: false }),
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

/** Where a kept database of `count` artifacts lives, and what it holds (written once its ingest finished). */
const keptDir = (count) =>
  path.join(path.resolve(args["db-dir"] ?? path.join(os.tmpdir(), "cairn-bench-search-kept")), `${count}x${settings.textChars}${settings.skew ? "-skew" : ""}`);
const readState = (dir) => (existsSync(path.join(dir, "state.json")) ? JSON.parse(readFileSync(path.join(dir, "state.json"), "utf8")) : null);

/** Migrations a kept database has not had yet (a schema change is applied to it as it would be to a live one). */
async function applyNewMigrations(db, migrationsDir, applied) {
  const pending = migrationFiles(migrationsDir).filter((name) => !applied.includes(name));
  for (const file of pending) {
    log(`  applying ${file} to the kept database`);
    await db.batch(migrationStatements(migrationsDir, file).map((statement) => db.prepare(statement)));
  }
  return [...applied, ...pending];
}

/** The org, its admin (a fresh password) and its plans in a kept database. */
async function recoverTenant(db) {
  const { hashPassword } = await import("../src/auth/password.ts");
  const org = await db.prepare("SELECT id FROM orgs WHERE slug = 'bench'").first("id");
  const neighbourOrg = await db.prepare("SELECT id FROM orgs WHERE slug = 'bench-b'").first("id");
  const neighbourUser = neighbourOrg ? await db.prepare("SELECT user_id FROM memberships WHERE org_id = ?").bind(neighbourOrg).first("user_id") : null;
  const user = await db.prepare("SELECT id, email FROM users WHERE email = 'bench-admin@example.com'").first();
  const password = `bench-${crypto.randomUUID()}`;
  await db.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(await hashPassword(password), user.id).run();
  const { results } = await db
    .prepare("SELECT plan_id FROM artifacts WHERE org_id = ? AND plan_id IS NOT NULL GROUP BY plan_id ORDER BY MIN(seq)")
    .bind(org)
    .all();
  return {
    tenant: { orgId: org, userId: user.id, email: user.email, password },
    neighbour: neighbourOrg ? { orgId: neighbourOrg, userId: neighbourUser } : null,
    planIds: results.map((row) => row.plan_id),
  };
}

async function main() {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "cairn-bench-search-"));
  const report = { date: new Date().toISOString(), settings, runs: [] };
  try {
    log(`work dir ${workDir}`);
    const config = await readProjectConfig();
    log("building Cairn (wrangler deploy --dry-run) and the bench Worker (esbuild)");
    const [cairnBundle, searchCode] = await Promise.all([buildCairnBundle(path.join(workDir, "bundle")), buildSearchWorker()]);
    // Above the default size, the same run measures the default size too: how search grows.
    const counts = settings.count > SCALE_GOALS.baseCount ? [SCALE_GOALS.baseCount, settings.count] : [settings.count];
    for (const count of counts) {
      const last = count === counts[counts.length - 1];
      report.runs.push(await measure({ count, last, workDir, config, cairnBundle, searchCode }));
    }
    console.log(render(report));
    if (args.json) {
      writeFileSync(path.resolve(args.json), JSON.stringify(report, null, 2));
      log(`wrote ${args.json}`);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** One size: its database (built, or kept from an earlier run with --keep), the search timings, and at the last size the end-to-end calls and response sizes. */
async function measure({ count, last, workDir, config, cairnBundle, searchCode }) {
  const kept = args.keep ? keptDir(count) : null;
  const state = kept ? readState(kept) : null;
  const persistDir = kept ? path.join(kept, "persist") : path.join(workDir, `persist-${count}`);
  if (kept && !state) rmSync(kept, { recursive: true, force: true });
  mkdirSync(persistDir, { recursive: true });
  const run = { count };
  const runtime = await startRuntime({ cairnBundle, searchCode, config, persistDir });
  try {
    const { mf, publicUrl, searchUrl } = runtime;
    const workerdPid = findWorkerdPid();
    const db = await mf.getD1Database("DB", "cairn");
    let tenant;
    let neighbour = null;
    let planIds = [];
    let accessToken;
    const epochMs = Date.parse("2026-01-01T00:00:00Z");
    if (state) {
      log(`${count}: reusing the database kept in ${kept}`);
      const migrations = await applyNewMigrations(db, config.migrationsDir, state.migrations);
      ({ tenant, neighbour, planIds } = await recoverTenant(db));
      accessToken = (await obtainTokens((request) => fetch(request), publicUrl, { email: tenant.email, password: tenant.password })).tokens.access_token;
      writeFileSync(path.join(kept, "state.json"), JSON.stringify({ ...state, migrations }, null, 2));
      run.ingest = { ...state.ingest, reused: true, storedBytes: dirBytes(persistDir) };
    } else {
      const migrations = await applyMigrations(db, config.migrationsDir);
      if (settings.noRecentIndex) for (const trigger of ["insert", "delete", "update"]) await db.prepare(`DROP TRIGGER artifacts_recent_${trigger}`).run();
      tenant = await seedTenant(db);
      if (settings.skew) neighbour = await seedTenant(db, { slug: "bench-b", email: "bench-b-admin@example.com" });
      accessToken = (await obtainTokens((request) => fetch(request), publicUrl, { email: tenant.email, password: tenant.password })).tokens.access_token;
      log(`${count}: migrated, seeded, OAuth token obtained; workerd pid ${workerdPid ?? "?"}`);
      planIds = await createPlans(publicUrl, accessToken);
      run.ingest = await ingest({ count, searchUrl, principal: principalOf(tenant), neighbour: neighbour ? principalOf(neighbour) : null, planIds, epochMs, db, persistDir, workerdPid });
      if (kept) writeFileSync(path.join(kept, "state.json"), JSON.stringify({ count, textChars: settings.textChars, migrations, ingest: run.ingest }, null, 2));
    }
    if (settings.ingestOnly) return run;
    const principal = principalOf(tenant);
    const rows = await db.prepare("SELECT COUNT(*) AS n FROM artifacts WHERE org_id = ?").bind(tenant.orgId).first("n");
    if (rows < count - neighbourCount(count)) throw new Error(`the database holds ${rows} artifacts of the org, not ${count - neighbourCount(count)}`);
    if (settings.skew && !neighbour) throw new Error("--skew: the kept database has no second org");

    // ---- Search inside the Worker
    const sinceIso = new Date(epochMs + Math.floor(count * 0.9) * 1000).toISOString();
    const cases = queryCases({ planIds, sinceIso });
    const matches = {};
    for (const c of cases) {
      const fts = toFtsQuery(c.input.query);
      matches[c.id] = fts ? await db.prepare("SELECT COUNT(*) AS n FROM artifacts_fts WHERE artifacts_fts MATCH ?").bind(fts.all).first("n") : 0;
    }
    log(`${count}: search, ${cases.length} queries × ${settings.reps} rounds (+1 warm-up round)`);
    await postJson(`${searchUrl}/search`, { principal, cases, reps: 1 });
    const searched = await postJson(`${searchUrl}/search`, { principal, cases, reps: settings.reps });
    const errors = Object.entries(searched.errors);
    if (errors.length) throw new Error(`search_sources failed: ${errors.map(([id, e]) => `${id}: ${e}`).join("; ")}`);
    run.search = summarizeSearch(cases, searched, matches);
    if (neighbour) run.neighbour = await searchNeighbour({ db, searchUrl, neighbour, sinceIso, count });
    if (!last) return run;

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
    run.e2e = { queries: e2eQueries, samples: e2e.length, p50: percentile(e2e, 50), p95: percentile(e2e, 95), max: Math.max(...e2e) };
    run.memoryAfterSearch = memoryOf(workerdPid);

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
      run.sizes = tools.map(({ name }) => {
        const response = responses.get(name);
        if (!response) return { name, tokens: null, chars: null };
        return { name, tokens: encode(response.text).length, chars: response.text.length, args: Object.keys(response.args).join(", ") || "(none)" };
      });
    }
    run.memoryAtEnd = memoryOf(workerdPid);
    return run;
  } finally {
    await runtime.mf.dispose();
    if (kept) log(`kept ${kept}`);
  }
}

const principalOf = (tenant) => ({ orgId: tenant.orgId, userId: tenant.userId, role: "admin", scopes: ["research:read", "research:write"] });

/** A few plans, each linked to a skill execution with an original request: what search hits show. */
async function createPlans(publicUrl, accessToken) {
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
  return planIds;
}

async function ingest({ count: total, searchUrl, principal, neighbour, planIds, epochMs, db, persistDir, workerdPid }) {
  log(`ingesting ${total} artifacts of ~${settings.textChars} characters (${settings.batch} per D1 batch, ${settings.chunk} per request)`);
  // workerd's CPU time over the ingest: what other work on a shared machine disturbs least (wall time waits for it).
  const cpuAtStart = cpuSecondsOf(workerdPid);
  const loadAtStart = os.loadavg()[0];
  const ingestStarted = performance.now();
  let workerMs = 0;
  let textChars = 0;
  for (let from = 0; from < total; from += settings.chunk) {
    const count = Math.min(settings.chunk, total - from);
    const result = await postJson(`${searchUrl}/ingest`, {
      principal,
      from,
      count,
      batch: settings.batch,
      epochMs,
      textChars: settings.textChars,
      planIds,
      planEvery: 100,
      ...(neighbour ? { neighbour, neighbourEvery: NEIGHBOUR_EVERY } : {}),
    });
    workerMs += result.ms;
    textChars += result.textChars;
    const elapsed = (performance.now() - ingestStarted) / 1000;
    if ((from / settings.chunk) % 4 === 3 || from + count >= total) log(`  ${from + count} artifacts in ${fixed(elapsed, 1)} s (${Math.round((from + count) / elapsed)}/s)`);
  }
  const ingestS = (performance.now() - ingestStarted) / 1000;
  const rows = await db.prepare("SELECT COUNT(*) AS n FROM artifacts").first("n");
  const storedBytes = dirBytes(persistDir);
  const workerdCpuS = cpuSecondsOf(workerdPid) - cpuAtStart;
  const load = [loadAtStart, os.loadavg()[0]];
  log(`ingested ${rows} rows in ${fixed(ingestS, 1)} s (workerd CPU ${fixed(workerdCpuS, 1)} s; load average ${fixed(load[0], 1)} → ${fixed(load[1], 1)}); storage on disk ${fixed(storedBytes / 1e6, 0)} MB`);
  return { count: total, rows, seconds: ingestS, workerSeconds: workerMs / 1000, workerdCpuS, load, perSecond: total / ingestS, textChars, storedBytes };
}

/**
 * The second org's searches (the skewed shape): the same query set but the plan filter (its plans are the
 * first org's), timed the same way; its matches are its own records.
 */
async function searchNeighbour({ db, searchUrl, neighbour, sinceIso, count }) {
  const cases = queryCases({ planIds: [], sinceIso }).filter((c) => c.cls !== "filter: plan");
  const matches = {};
  for (const c of cases) {
    const fts = toFtsQuery(c.input.query);
    matches[c.id] = fts
      ? await db
          .prepare("SELECT COUNT(*) AS n FROM artifacts_fts CROSS JOIN artifacts a ON a.seq = artifacts_fts.rowid WHERE artifacts_fts MATCH ? AND a.org_id = ?")
          .bind(fts.all, neighbour.orgId)
          .first("n")
      : 0;
  }
  log(`${count}: the second org's search (${neighbourCount(count)} artifacts), ${cases.length} queries × ${settings.reps} rounds (+1 warm-up round)`);
  const principal = principalOf(neighbour);
  await postJson(`${searchUrl}/search`, { principal, cases, reps: 1 });
  const searched = await postJson(`${searchUrl}/search`, { principal, cases, reps: settings.reps });
  const errors = Object.entries(searched.errors);
  if (errors.length) throw new Error(`search_sources (second org) failed: ${errors.map(([id, e]) => `${id}: ${e}`).join("; ")}`);
  return { count: neighbourCount(count), search: summarizeSearch(cases, searched, matches) };
}

function summarizeSearch(cases, searched, matches) {
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
    ranking: searched.rankings?.[c.id],
    rowsRead: searched.rowsRead?.[c.id],
    p50: percentile(searched.timings[c.id], 50),
    p95: percentile(searched.timings[c.id], 95),
    max: Math.max(...searched.timings[c.id]),
  }));
  return {
    overall: { samples: all.length, p50: percentile(all, 50), p95: percentile(all, 95), max: Math.max(...all) },
    floor: { samples: floor.length, p50: percentile(floor, 50), p95: percentile(floor, 95), max: Math.max(...floor) },
    byClass,
    perQuery,
  };
}

main().catch((error) => {
  console.error(`[bench:search] FAILED: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
