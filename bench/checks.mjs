/**
 * `npm run bench:checks`: how long a recorded source waits for its verdict, and what a check costs.
 *
 *   npm run bench:checks                       A alone (20 sources), then A beside B for 60 s, CPU per check, hostile set
 *   npm run bench:checks -- --noisy-seconds 30 --alone 10 --json /tmp/checks.json
 *
 * Steps: build Cairn as `wrangler deploy --dry-run` does; run it in one workerd (Miniflare) with the queues, D1 and
 * R2 of wrangler.toml (the source-check queue and its dead-letter queue consumed by the Worker itself); serve cited
 * pages from a loopback HTTP server (development fetches from loopback): `/fast/…` an article, `/slow/…` a page that
 * never finishes (its check runs the fetch's whole 15 s deadline), `/big.html` 2 MiB of HTML, `/paper.pdf` a 150-page
 * PDF built here (test/support/pdf-builder.ts). Then:
 *  1. org A alone records one source at a time through MCP `record_evidence` and waits for its verdict (read from D1);
 *  2. CPU per check (workerd's CPU from /proc around one check with nothing else running) for the 2 MiB page and
 *     the PDF, three of each on URLs of their own (no snapshot reuse);
 *  3. workerd's memory peak over a hostile-page set, from bench/checks-hostile.mjs when that file exists;
 *  4. org B records 25 slow pages every 5 s (300 a minute) while A records one source every 3 s: A's time to verdict,
 *     waited for at most --drain-seconds after the noisy phase (a verdict not back by then counts as missed).
 * The run is bounded (it stops by itself); exit code 1 if a goal is missed. See bench/README.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { buildPdf, wrapLines } from "../test/support/pdf-builder.ts";
import { mcpCall } from "./cases.mjs";
import { checkGoalLines } from "./checks-report.mjs";
import { applyMigrations, buildCairnBundle, cairnWorker, findWorkerdPid, memoryOf, projectRoot, readProjectConfig } from "./harness.mjs";
import { findFreePort } from "../scripts/lib/local.mjs";

const { values: args } = parseArgs({
  options: {
    alone: { type: "string", default: "20" },
    "noisy-seconds": { type: "string", default: "60" },
    "drain-seconds": { type: "string", default: "90" },
    json: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
const settings = { alone: Math.max(1, Number(args.alone) || 20), noisySeconds: Math.max(10, Number(args["noisy-seconds"]) || 60), drainSeconds: Math.max(10, Number(args["drain-seconds"]) || 90) };
const log = (message) => process.stderr.write(`[bench:checks] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";
const ARTICLE = `<!doctype html><html><head><title>Solid-state batteries reach 500 Wh/kg</title></head><body><article><h1>Solid-state batteries reach 500 Wh/kg</h1><p>In March, the team reported that ${QUOTE}, a record for the chemistry.</p><p>Costs remain higher than lithium-ion cells.</p></article></body></html>`;

/** 2 MiB of HTML: the quote in the first paragraph, then many more (the whole page is still read and prepared). */
function bigHtml() {
  const paragraph = "<p>Battery researchers compared electrolytes, separators and anodes across many laboratory cells, noting cycle life and cost.</p>\n";
  const body = paragraph.repeat(Math.floor((2 * 1024 * 1024 - 2_000) / paragraph.length));
  return `<!doctype html><html><head><title>Solid-state batteries reach 500 Wh/kg</title></head><body><p>In March, ${QUOTE}.</p>${body}</body></html>`;
}

/** A 150-page PDF of full pages, the quote on the first (every page is still read). */
function bigPdf() {
  const filler = "Battery researchers compared electrolytes, separators and anodes across many laboratory cells, noting cycle life and cost. ".repeat(20);
  const pages = Array.from({ length: 150 }, (_, i) => ({ lines: wrapLines(i === 0 ? `In March, ${QUOTE}. ${filler}` : `Page ${i + 1}. ${filler}`) }));
  return Buffer.from(buildPdf(pages, "Solid-state batteries reach 500 Wh/kg"));
}

async function startPages() {
  const big = bigHtml();
  const pdf = bigPdf();
  const server = createServer((request, response) => {
    const url = request.url ?? "/";
    if (url.startsWith("/slow/")) {
      response.writeHead(200, { "content-type": "text/html" });
      response.write("<p>started");
      return; // never ends: the check's fetch deadline ends it
    }
    if (url.startsWith("/big/")) return response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(big);
    if (url.startsWith("/pdf/")) return response.writeHead(200, { "content-type": "application/pdf" }).end(pdf);
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return { origin: `http://127.0.0.1:${server.address().port}`, pdfBytes: pdf.byteLength, htmlBytes: Buffer.byteLength(big), close };
}

async function startCairn(cairnBundle, config, persistDir) {
  const port = await findFreePort();
  const publicUrl = `http://localhost:${port}`;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: persistDir,
      logRequests: false,
      cf: false,
      workers: [
        // B records 300 pages a minute, the default per-org limit; room for its calls landing a little early.
        cairnWorker({ cairnBundle, config, port, publicUrl, bindings: { SOURCE_CHECKS_PER_MINUTE: "600", SOURCE_CHECKS_PER_DAY: "100000" } }),
      ],
    }),
  );
  await mf.ready;
  return { mf, publicUrl };
}

/** An org with a member API key, written with SQL (the project's own hashing), and one plan. */
async function seedOrg(db, publicUrl, name) {
  const { generateApiKey } = await import("../src/auth/api-keys.ts");
  const { newId } = await import("../src/domain/ids.ts");
  const now = Date.now();
  const [orgId, userId, keyId] = [newId("org"), newId("usr"), newId("key")];
  const apiKey = await generateApiKey();
  await db.batch([
    db.prepare("INSERT INTO orgs (id, slug, name, created_at) VALUES (?, ?, ?, ?)").bind(orgId, `bench-${name}`, `Bench ${name}`, now),
    db.prepare("INSERT INTO users (id, email, display_name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)").bind(userId, `bench-${name}@example.com`, `Bench ${name}`, "unused: the bench signs in with an API key", now),
    db.prepare("INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, 'admin', ?)").bind(orgId, userId, now),
    db
      .prepare("INSERT INTO api_keys (id, org_id, user_id, name, prefix, key_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .bind(keyId, orgId, userId, "bench", apiKey.prefix, apiKey.hash, JSON.stringify(["research:read", "research:write"]), now),
  ]);
  const key = apiKey.key;
  const plan = await tool(publicUrl, key, "create_research_plan", {
    name: `[Deep] Bench ${name}`,
    researchQuestion: "Have solid-state batteries reached 500 Wh/kg?",
    steps: [{ stepType: "search", instructions: "Search" }, { stepType: "synthesize", instructions: "Write" }],
    planDesignRationale: "Bench",
    citationPolicy: "report",
  });
  return { orgId, key, planId: plan.planId };
}

async function tool(publicUrl, credential, name, args) {
  const result = await mcpCall(publicUrl, credential, "tools/call", { name, arguments: args });
  if (result?.isError) throw new Error(`${name}: ${result.content?.[0]?.text}`);
  return result.structuredContent;
}

const source = (url, i) => ({ url, title: "Solid-state batteries reach 500 Wh/kg", facts: `Cells reached 500 Wh/kg (${i})`, subtopic: "Density", quote: QUOTE });

/** Records sources and returns their numbers (E1 → 1) in the plan. */
async function record(publicUrl, org, urls) {
  const out = await tool(publicUrl, org.key, "record_evidence", { planId: org.planId, evidence: urls.map((url, i) => source(url, `${Date.now()}-${i}`)) });
  return (out.evidence ?? out.recorded ?? []).map((e) => Number(String(e.ref).slice(1)));
}

async function verdictOf(db, org, n) {
  return db.prepare("SELECT verification_status AS status FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = ?").bind(org.orgId, org.planId, n).first("status");
}

/** Waits for the source's verdict (polling D1 every 50 ms); the ms from `since`, or Infinity past `deadline`. */
async function timeToVerdict(db, org, n, since, deadline) {
  for (;;) {
    const status = await verdictOf(db, org, n);
    if (status && status !== "pending") return { ms: Date.now() - since, status };
    if (Date.now() > deadline) return { ms: Number.POSITIVE_INFINITY, status: "pending" };
    await sleep(50);
  }
}

function cpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

const pct = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.max(0, Math.ceil((q / 100) * sorted.length) - 1)] : Number.NaN;
};
const secs = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : Number.isNaN(ms) ? "–" : "not back");

async function main() {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "cairn-bench-checks-"));
  const persistDir = path.join(workDir, "persist");
  mkdirSync(persistDir);
  let runtime;
  let pages;
  const report = { date: new Date().toISOString(), settings };
  try {
    const config = await readProjectConfig();
    log("building Cairn (wrangler deploy --dry-run)");
    const cairnBundle = await buildCairnBundle(path.join(workDir, "bundle"));
    pages = await startPages();
    runtime = await startCairn(cairnBundle, config, persistDir);
    const { mf, publicUrl } = runtime;
    const pid = findWorkerdPid();
    const db = await mf.getD1Database("DB", "cairn");
    await applyMigrations(db, config.migrationsDir);
    const a = await seedOrg(db, publicUrl, "a");
    const b = await seedOrg(db, publicUrl, "b");
    log(`Cairn on ${publicUrl}, pages on ${pages.origin}, workerd pid ${pid ?? "?"}`);

    // 1. A alone.
    const alone = [];
    for (let i = 0; i < settings.alone; i++) {
      const started = Date.now();
      const [n] = await record(publicUrl, a, [`${pages.origin}/fast/alone-${i}`]);
      alone.push((await timeToVerdict(db, a, n, started, started + 60_000)).ms);
    }
    log(`A alone: p50 ${secs(pct(alone, 50))}, p95 ${secs(pct(alone, 95))}`);

    // 2. CPU per check, nothing else running (before B's pages fill the queue).
    const cpuPerCheck = async (kind) => {
      const samples = [];
      for (let i = 0; i < 3; i++) {
        const before = cpuSecondsOf(pid);
        const started = Date.now();
        const [n] = await record(publicUrl, a, [`${pages.origin}/${kind}/cpu-${i}`]);
        const verdict = await timeToVerdict(db, a, n, started, started + 60_000);
        samples.push({ cpuMs: (cpuSecondsOf(pid) - before) * 1000, wallMs: verdict.ms, status: verdict.status });
      }
      return samples;
    };
    const html = await cpuPerCheck("big");
    const pdf = await cpuPerCheck("pdf");

    // 3. The hostile set, when its module exists.
    const hostilePath = path.join(projectRoot, "bench", "checks-hostile.mjs");
    let hostile = null;
    if (existsSync(hostilePath)) {
      const { runHostileSet } = await import(hostilePath);
      hostile = await runHostileSet({ mf, publicUrl, db, org: a, record: (urls) => record(publicUrl, a, urls), workerdPid: pid, memoryOf, pagesOrigin: pages.origin });
    }

    // 4. A beside B (last: B's slow pages keep the queue busy past the run): B records 25 slow pages every 5 s; A one source every 3 s, from 5 s in until 5 s before the end.
    log(`A beside B for ${settings.noisySeconds} s (B: 25 slow pages every 5 s)`);
    const noisyStarted = Date.now();
    const end = noisyStarted + settings.noisySeconds * 1000;
    let bRecorded = 0;
    const bLoop = (async () => {
      for (let round = 0; Date.now() < end; round++) {
        const next = noisyStarted + (round + 1) * 5_000;
        try {
          bRecorded += (await record(publicUrl, b, Array.from({ length: 25 }, (_, i) => `${pages.origin}/slow/${round}-${i}`))).length;
        } catch (error) {
          log(`B's record_evidence refused: ${String(error).slice(0, 160)}`);
        }
        await sleep(Math.max(0, next - Date.now()));
      }
    })();
    const waits = [];
    await sleep(5_000);
    for (let i = 0; Date.now() < end - 5_000; i++) {
      const started = Date.now();
      const [n] = await record(publicUrl, a, [`${pages.origin}/fast/noisy-${i}`]);
      waits.push(timeToVerdict(db, a, n, started, end + settings.drainSeconds * 1000));
      await sleep(Math.max(0, started + 3_000 - Date.now()));
    }
    await bLoop;
    const noisy = (await Promise.all(waits)).map((w) => w.ms);
    const bLeft = await db.prepare("SELECT COUNT(*) AS n FROM ledger_evidence WHERE org_id = ? AND verification_status = 'pending'").bind(b.orgId).first("n");
    log(`A beside B: p50 ${secs(pct(noisy, 50))}, p95 ${secs(pct(noisy, 95))}; B recorded ${bRecorded}, ${bLeft} still pending`);

    const goals = checkGoalLines({ alone, noisy });
    const median = (samples, field) => pct(samples.map((s) => s[field]), 50);
    const out = [
      "",
      `## Source checks — ${new Date().toISOString()}`,
      "",
      `One workerd (Miniflare), the queues of wrangler.toml (batches of 10; Miniflare runs one batch at a time), loopback pages. Node ${process.version}.`,
      "",
      `| measure | p50 | p95 | max | sources |`,
      `|---|---|---|---|---|`,
      `| org A alone, time to verdict | ${secs(pct(alone, 50))} | ${secs(pct(alone, 95))} | ${secs(Math.max(...alone))} | ${alone.length} |`,
      `| org A beside org B (300 slow pages a minute, each 15 s), time to verdict | ${secs(pct(noisy, 50))} | ${secs(pct(noisy, 95))} | ${secs(Math.max(...noisy))} | ${noisy.length}, ${noisy.filter(Number.isFinite).length} back within the run${noisy.some(Number.isFinite) ? ` (in ${secs(Math.min(...noisy))}–${secs(Math.max(...noisy.filter(Number.isFinite)))})` : ""}; B recorded ${bRecorded}, ${bLeft} still pending at the end |`,
      "",
      `CPU per check (workerd, /proc, 10 ms ticks; median of 3): 2 MiB HTML page (${(pages.htmlBytes / 1048576).toFixed(2)} MiB) ${median(html, "cpuMs").toFixed(0)} ms (${html.map((s) => s.status).join(", ")}, ${secs(median(html, "wallMs"))} to verdict); ` +
        `150-page PDF (${(pages.pdfBytes / 1024).toFixed(0)} KiB) ${median(pdf, "cpuMs").toFixed(0)} ms (${pdf.map((s) => s.status).join(", ")}, ${secs(median(pdf, "wallMs"))} to verdict).`,
      hostile
        ? `Memory peak over hostile pages: ${hostile.peakMiB.toFixed(0)} MiB (bound ${hostile.boundMiB} MiB, ${hostile.cases?.length ?? "?"} cases) — ${hostile.pass ? "PASS" : "MISS"}`
        : "memory peak over hostile pages: not measured (bench/checks-hostile.mjs missing)",
      `workerd memory after the run: ${(() => {
        const m = memoryOf(pid);
        return m ? `RSS ${m.rssMB.toFixed(0)} MB, peak ${m.peakMB.toFixed(0)} MB` : "not available";
      })()}`,
      "",
      ...goals.lines,
    ];
    console.log(out.join("\n"));
    Object.assign(report, { alone, noisy, bRecorded, bLeft, html, pdf, hostile, goals });
    if (args.json) writeFileSync(path.resolve(args.json), JSON.stringify(report, null, 2));
    if (!goals.pass || (hostile && !hostile.pass)) process.exitCode = 1;
  } finally {
    await runtime?.mf.dispose().catch(() => {});
    await pages?.close();
    if (!args.keep) rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`[bench:checks] FAILED: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
