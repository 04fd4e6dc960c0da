/**
 * `npm run bench:search:languages`: the judged multilingual search set (test/support/multilingual-search-set.ts)
 * through the real server: Cairn built as `wrangler deploy --dry-run` builds it, in workerd (Miniflare) with a
 * local D1; an org and its admin seeded, an OAuth token from the real flow; every artifact stored with
 * `store_research` and every query asked with `search_sources` (limit 5) over MCP. Prints recall@5 and
 * precision@5 per language, for the held-out queries alone and overall, each against its goal (recall@5 ≥ 95 %),
 * and every query that missed. Exits 1 when the overall goal is missed.
 *
 *   npm run bench:search:languages [-- --json /tmp/languages.json]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { findFreePort } from "../scripts/lib/local.mjs";
import { obtainTokens } from "../test/support/oauth-flow.ts";
import { figuresOf, JUDGED_ARTIFACTS, JUDGED_QUERIES, LANGUAGES } from "../test/support/multilingual-search-set.ts";
import { callToolOk } from "./cases.mjs";
import { applyMigrations, buildCairnBundle, cairnWorker, readProjectConfig, seedTenant } from "./harness.mjs";

const { values: args } = parseArgs({ options: { json: { type: "string" } } });
const RECALL_GOAL = 0.95;
const log = (message) => console.error(`[bench:search:languages] ${message}`);
const percent = (x) => `${(x * 100).toFixed(1)} %`;

const workDir = mkdtempSync(path.join(os.tmpdir(), "cairn-bench-languages-"));
let mf;
try {
  const config = await readProjectConfig();
  log("building Cairn (wrangler deploy --dry-run)");
  const cairnBundle = await buildCairnBundle(path.join(workDir, "bundle"));
  const port = await findFreePort();
  const publicUrl = `http://localhost:${port}`;
  mf = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: path.join(workDir, "persist"),
      logRequests: false,
      cf: false,
      workers: [cairnWorker({ cairnBundle, config, port, publicUrl, queues: false })],
    }),
  );
  await mf.ready;
  const db = await mf.getD1Database("DB", "cairn");
  await applyMigrations(db, config.migrationsDir);
  const tenant = await seedTenant(db);
  const token = (await obtainTokens((request) => fetch(request), publicUrl, { email: tenant.email, password: tenant.password })).tokens.access_token;
  log(`storing ${JUDGED_ARTIFACTS.length} artifacts`);
  const keyOf = new Map();
  for (const doc of JUDGED_ARTIFACTS) {
    const stored = await callToolOk(publicUrl, token, { name: "store_research", arguments: { artifactType: "finding", title: doc.title, content: {}, contentText: doc.text } });
    keyOf.set(stored.artifactId, doc.key);
  }
  log(`asking ${JUDGED_QUERIES.length} queries`);
  const outcomes = [];
  for (const query of JUDGED_QUERIES) {
    const started = performance.now();
    const found = await callToolOk(publicUrl, token, { name: "search_sources", arguments: { query: query.query, limit: 5 } });
    outcomes.push({ query, found: found.results.map((hit) => keyOf.get(hit.id) ?? hit.id), ms: performance.now() - started });
  }
  const rows = [
    ...Object.entries(LANGUAGES).map(([code, name]) => figuresOf(name, outcomes.filter((o) => o.query.language === code))),
    figuresOf("held out (not tuned on)", outcomes.filter((o) => o.query.heldOut)),
    figuresOf("tuned", outcomes.filter((o) => !o.query.heldOut)),
    figuresOf("all", outcomes),
  ];
  const lines = [
    "## Judged multilingual search set",
    "",
    `${JUDGED_ARTIFACTS.length} artifacts, ${JUDGED_QUERIES.length} queries (${JUDGED_QUERIES.filter((q) => q.heldOut).length} held out), search_sources over MCP, limit 5. Goal: recall@5 ≥ ${percent(RECALL_GOAL)}.`,
    "",
    "| set | queries | recall@5 | precision@5 | goal | missed |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r.label} | ${r.queries} | ${percent(r.recallAt5)} | ${percent(r.precisionAt5)} | ${r.recallAt5 >= RECALL_GOAL ? "PASS" : "MISS"} | ${r.misses.join(", ")} |`),
    "",
    `search_sources over MCP: p50 ${median(outcomes.map((o) => o.ms)).toFixed(1)} ms a query (a near-empty index: what is measured here is what is found).`,
  ];
  console.log(lines.join("\n"));
  if (args.json) writeFileSync(path.resolve(args.json), JSON.stringify({ date: new Date().toISOString(), rows, outcomes }, null, 2));
  const overall = rows[rows.length - 1];
  if (overall.recallAt5 < RECALL_GOAL) process.exitCode = 1;
} finally {
  await mf?.dispose();
  rmSync(workDir, { recursive: true, force: true });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
