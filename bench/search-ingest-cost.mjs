/**
 * What the recent index costs an insert, in workerd's CPU time (the SQLite D1 runs on, and a figure other work
 * on a shared machine disturbs less than wall time): the same artifacts inserted, 250 a transaction as the
 * Worker ingest batches them, into databases built side by side, each in a fresh workerd — every migration
 * before 0032 (the full index only), through 0036 (each org's newest 25,000, trimmed at every insert), and
 * every migration (today's code). Only the artifacts row and its triggers are written
 * (bench/search-ingest-cost-worker.ts: no version row, no Cairn code), so the difference between the
 * databases is the index. Each database is measured `--reps` times, interleaved; the text is generated inside
 * the Worker, the same for every database (in every line alike).
 *
 *   node --import tsx bench/search-ingest-cost.mjs --count 60000 --reps 3 --orgs 1
 *   node --import tsx bench/search-ingest-cost.mjs --count 60000 --upto 0037,0041 --extra /tmp/try.sql
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { bundleBenchWorker, findWorkerdPid, migrationFiles, migrationStatements, projectRoot } from "./harness.mjs";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "60000" },
    reps: { type: "string", default: "1" },
    orgs: { type: "string", default: "1" },
    upto: { type: "string", default: "0032,0037,9999" },
    extra: { type: "string" },
  },
});
const count = Number(args.count);
const orgs = Array.from({ length: Number(args.orgs) }, (_, i) => `org_bench${i}`);
const migrations = path.join(projectRoot, "migrations");
const files = migrationFiles(migrations);
const code = await bundleBenchWorker("search-ingest-cost-worker.ts");

/** A process's CPU time (user + system) in seconds, from /proc. */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ
};

async function measure(upTo) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cairn-ingest-cost-"));
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: dir,
      cf: false,
      workers: [{ name: "cost", modules: [{ type: "ESModule", path: path.join(projectRoot, "bench", "cost.mjs"), contents: code }], compatibilityDate: "2026-01-01", d1Databases: { DB: "cost" } }],
    }),
  );
  try {
    await mf.ready;
    const db = await mf.getD1Database("DB");
    for (const file of files.filter((name) => name < upTo)) await db.batch(migrationStatements(migrations, file).map((statement) => db.prepare(statement)));
    await db.exec("DROP TRIGGER IF EXISTS artifacts_org_write_gate");
    // --extra: statements to try after the migrations (an FTS5 option, other triggers), split like a migration file.
    if (args.extra && upTo > "0037") for (const statement of readFileSync(args.extra, "utf8").split("--> statement-breakpoint").map((text) => text.trim()).filter(Boolean)) await db.prepare(statement).run();
    const pid = findWorkerdPid();
    const cpu = cpuSeconds(pid);
    const started = performance.now();
    const chunk = 5000;
    for (let from = 0; from < count; from += chunk) {
      const response = await mf.dispatchFetch("http://cost/insert", { method: "POST", body: JSON.stringify({ from, count: Math.min(chunk, count - from), batch: 250, orgs }) });
      if (!response.ok) throw new Error(`insert failed: ${response.status} ${await response.text()}`);
      await response.json();
    }
    return { cpuS: cpuSeconds(pid) - cpu, wallS: (performance.now() - started) / 1000 };
  } finally {
    await mf.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

const label = (upTo) => (upTo === "0032" ? "full index only (before 0032)" : upTo === "0037" ? "through 0036 (trim at every insert)" : `migrations before ${upTo}${args.extra ? ` + ${path.basename(args.extra)}` : ""}`);
const uptos = args.upto.split(",");
const results = new Map(uptos.map((u) => [u, []]));
for (let rep = 0; rep < Number(args.reps); rep++) {
  for (const upTo of uptos) {
    const result = await measure(upTo);
    results.get(upTo).push(result);
    console.log(`${label(upTo)}: ${count} artifacts, ${orgs.length} org(s): workerd CPU ${result.cpuS.toFixed(1)} s (${((result.cpuS * 1e6) / count).toFixed(0)} µs each), wall ${result.wallS.toFixed(1)} s; load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  }
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const base = median(results.get(uptos[0]).map((r) => r.cpuS));
for (const upTo of uptos) {
  const cpu = median(results.get(upTo).map((r) => r.cpuS));
  console.log(`median ${label(upTo)}: ${((cpu * 1e6) / count).toFixed(0)} µs an artifact, ${(cpu / base).toFixed(2)}× the first`);
}
