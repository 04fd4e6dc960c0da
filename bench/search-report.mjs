/**
 * The printed report of `npm run bench:search`: a section per size measured, then, when the run
 * measured a larger size beside the default one, the scale goals (bench/search-goals.mjs).
 */
import { createRequire } from "node:module";
import os from "node:os";
import { SCALE_GOALS, SEARCH_GOALS, scaleGoalLines } from "./search-goals.mjs";
import { table } from "./report.mjs";

const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const verdict = (pass) => (pass ? "PASS" : "MISS");

export function render(report) {
  const { settings, runs } = report;
  const out = ["", `## Cairn search benchmark — ${report.date}`, ""];
  out.push(
    `Harness: one workerd (Miniflare ${createRequire(import.meta.url)("miniflare/package.json").version}), local D1 persisted on disk, ` +
      `Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} at the end. ` +
      `Corpus: ~${settings.textChars} characters of text per artifact, ${settings.skew ? "two orgs (the second stores every 100th artifact)" : "one org"}; ${settings.reps} timed rounds of the query set.`,
  );
  for (const run of runs) out.push(renderRun(run), ...(run.neighbour ? [renderNeighbour(run)] : []));
  if (runs.length > 1 && runs.every((run) => run.search)) {
    const [base, large] = [runs[0], runs[runs.length - 1]];
    out.push("", `## Scale goals (${base.count.toLocaleString("en-US")} → ${large.count.toLocaleString("en-US")} artifacts)`, "");
    out.push(...scaleGoalLines({ count: base.count, ...base.search }, { count: large.count, ...large.search }));
    if (base.neighbour && large.neighbour) {
      out.push("", `## Scale goals, the second org (${base.neighbour.count.toLocaleString("en-US")} → ${large.neighbour.count.toLocaleString("en-US")} of its own, beside the first)`, "");
      out.push(...scaleGoalLines({ count: base.count, ...base.neighbour.search }, { count: large.count, ...large.neighbour.search }));
    }
  }
  return out.join("\n");
}

/** The second org's searches in the skewed two-org shape (`--skew`). */
function renderNeighbour(run) {
  const { count, search } = run.neighbour;
  return [
    "",
    `### The second org: ${count.toLocaleString("en-US")} of the ${run.count.toLocaleString("en-US")} artifacts, stored among the first org's`,
    "",
    `search_sources inside the Worker (${search.overall.samples} calls): p50 ${fixed(search.overall.p50)} ms, p95 ${fixed(search.overall.p95)} ms, max ${fixed(search.overall.max)} ms; ` +
      `floor p95 ${fixed(search.floor.p95)} ms (${fixed(search.overall.p95 / search.floor.p95, 1)}×).`,
    "",
    table(
      ["class", "queries", "calls", "p50 ms", "p95 ms", "max ms", "its own documents with every word", "ranking", "D1 rows read"],
      search.byClass.map((c) => {
        const ofClass = search.perQuery.filter((q) => q.cls === c.cls);
        return [c.cls, c.queries, c.samples, fixed(c.p50), fixed(c.p95), fixed(c.max), c.matches.join(", "), ofClass.map((q) => q.ranking ?? "–").join(", "), ofClass.map((q) => q.rowsRead ?? "–").join(", ")];
      }),
    ),
    "",
  ].join("\n");
}

/** One size's section of the report. */
function renderRun(run) {
  const out = [];
  const { ingest, search, e2e } = run;
  const classGoal = run.count <= SCALE_GOALS.baseCount ? SEARCH_GOALS.p95Ms : SCALE_GOALS.classP95Ms;
  out.push("", `## ${run.count.toLocaleString("en-US")} artifacts`, "");
  out.push(
    ingest.reused
      ? `### Ingest: database kept from an earlier run (--keep), ${ingest.rows ?? run.count} artifacts`
      : `### Ingest: ${ingest.rows} artifacts in ${fixed(ingest.seconds, 1)} s (${Math.round(ingest.perSecond)}/s, ` +
          `${fixed(ingest.textChars / 1e6 / ingest.seconds, 1)} M characters of text/s; ${fixed(ingest.workerSeconds, 1)} s inside the Worker` +
          (ingest.workerdCpuS !== undefined ? `; workerd CPU ${fixed(ingest.workerdCpuS, 1)} s, ${fixed((ingest.workerdCpuS * 1e6) / ingest.rows, 0)} µs an artifact; load average ${fixed(ingest.load[0], 1)} → ${fixed(ingest.load[1], 1)}` : "") +
          ") — " +
          `goal ≤ ${SEARCH_GOALS.ingestS} s: ${verdict(ingest.seconds <= SEARCH_GOALS.ingestS)}` +
          (ingest.count !== 100_000 ? ` (for 100,000 at this rate: ${fixed((ingest.seconds * 100_000) / ingest.count, 0)} s)` : ""),
    "",
    `Storage on disk: ${fixed(ingest.storedBytes / 1e6, 0)} MB (D1 with artifacts, versions and the FTS5 index; KV; Durable Objects).`,
    "",
  );
  if (!search) return out.join("\n"); // --ingest-only
  out.push(
    `### search_sources inside the Worker (${search.overall.samples} calls): p50 ${fixed(search.overall.p50)} ms, p95 ${fixed(search.overall.p95)} ms, ` +
      `max ${fixed(search.overall.max)} ms` + (run.count <= SCALE_GOALS.baseCount ? ` — goal p95 ≤ ${SEARCH_GOALS.p95Ms} ms: ${verdict(search.overall.p95 <= SEARCH_GOALS.p95Ms)}` : ""),
    "",
    `Floor (one indexed one-row D1 read, same Worker, interleaved): p50 ${fixed(search.floor.p50)} ms, p95 ${fixed(search.floor.p95)} ms; ` +
      `search/floor p50 ${fixed(search.overall.p50 / search.floor.p50, 1)}×, p95 ${fixed(search.overall.p95 / search.floor.p95, 1)}×.`,
    "",
  );
  out.push(
    table(
      ["class", "queries", "calls", "p50 ms", "p95 ms", "max ms", `p95 ≤ ${classGoal} ms`, "documents with every word (before filters)"],
      search.byClass.map((c) => [c.cls, c.queries, c.samples, fixed(c.p50), fixed(c.p95), fixed(c.max), verdict(c.p95 <= classGoal), c.matches.join(", ")]),
    ),
    "",
  );
  out.push(
    table(
      ["query", "class", "documents with every word", "hits", "ranking", "D1 rows read", "p50 ms", "p95 ms", "max ms"],
      search.perQuery.map((q) => {
        const { query, ...filters } = q.input;
        const shown = query.length > 60 ? `${query.slice(0, 57)}… (${query.length} chars)` : query;
        const extra = Object.entries(filters).map(([k, v]) => `${k}=${String(v).slice(0, 24)}`).join(" ");
        return [`\`${shown.replace(/\|/g, "\\|")}\`${extra ? ` ${extra}` : ""}`, q.cls, q.matches, q.hits, q.ranking ?? "–", q.rowsRead ?? "–", fixed(q.p50), fixed(q.p95), fixed(q.max)];
      }),
    ),
    "",
  );
  if (e2e) out.push(
    `### search_sources end to end through MCP (OAuth token, HTTP, ${e2e.samples} calls of ${e2e.queries.length} queries): ` +
      `p50 ${fixed(e2e.p50)} ms, p95 ${fixed(e2e.p95)} ms, max ${fixed(e2e.max)} ms`,
    "",
  );
  if (run.sizes) {
    const measured = run.sizes.filter((s) => s.tokens !== null);
    const over = measured.filter((s) => s.tokens > SEARCH_GOALS.maxResponseTokens);
    out.push(
      `### Default responses, worst-case records (cl100k tokens of the text the model reads): ${measured.length - over.length} of ${measured.length} ` +
        `within ${SEARCH_GOALS.maxResponseTokens} — goal: ${verdict(over.length === 0)}` +
        (run.sizes.length > measured.length ? `; not measured: ${run.sizes.filter((s) => s.tokens === null).map((s) => s.name).join(", ")}` : ""),
      "",
      table(
        ["operation", "arguments of the largest default call", "characters", "tokens", `≤ ${SEARCH_GOALS.maxResponseTokens}`],
        run.sizes.map((s) => [s.name, s.args ?? "not measured", s.chars ?? "–", s.tokens ?? "–", s.tokens === null ? "–" : verdict(s.tokens <= SEARCH_GOALS.maxResponseTokens)]),
      ),
      "",
    );
  }
  if (!e2e) return out.join("\n");
  const mb = (m) => (m ? `${Math.round(m.rssMB)} MB (peak ${Math.round(m.peakMB)} MB)` : "n/a");
  out.push(`workerd RSS after search: ${mb(run.memoryAfterSearch)}; at end: ${mb(run.memoryAtEnd)}.`);
  return out.join("\n");
}

