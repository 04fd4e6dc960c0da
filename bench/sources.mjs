/**
 * `npm run bench:sources`: the quote matcher (src/domain/sources/quote-match.ts) on the judged set.
 *
 *   npm run bench:sources                     every case, CPU time over 5 timed batches each
 *   npm run bench:sources -- --reps 9 --misses --json /tmp/sources.json
 *
 * Steps: bundle the matcher with esbuild (its imports are extensionless, as the Worker's bundler
 * wants them, so Node cannot load the .ts directly); load bench/sources/judged-set.json; answer every
 * case once and score the answers (bench/sources-report.mjs): precision and recall per status, the
 * confusion matrix, cases per kind, the goal lines; then measure the CPU time of each case, one page
 * and one quote as the pipeline will check them (the page prepared, then the quote matched);
 * then the same on large pages built from the set's pages (200,000 and 1,000,000 characters) with a
 * genuine quote near the end, an altered one and one from nowhere. Exit code 1 if a goal is missed.
 * See bench/README.md.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { nearestRankPercentile } from "../src/domain/percentile.ts";
import { renderScore, scoreResults, sourceGoalLines } from "./sources-report.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    reps: { type: "string", default: "5" },
    misses: { type: "boolean", default: false },
    json: { type: "string" },
  },
});
const reps = Math.max(1, Math.round(Number(args.reps)) || 5);
const log = (message) => process.stderr.write(`[bench:sources] ${message}\n`);
const percentile = (values, p) => nearestRankPercentile(values, p) ?? Number.NaN;
const fixed = (value, digits = 3) => (Number.isFinite(value) ? value.toFixed(digits) : "–");

async function loadMatcher() {
  const result = await build({
    entryPoints: [path.join(here, "..", "src", "domain", "sources", "quote-match.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  return import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].text).toString("base64")}`);
}

/**
 * CPU milliseconds per run of `run`: the process's CPU time (user + system, process.cpuUsage) over
 * batches of runs, doubled until a batch takes at least 10 ms of CPU; the median of `reps` batches.
 * CPU time, not wall-clock time, so other jobs on the machine do not count (their cache and memory
 * traffic still does).
 */
function cpuMsPerRun(run) {
  run();
  let batch = 1;
  for (;;) {
    const before = process.cpuUsage();
    for (let i = 0; i < batch; i++) run();
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 >= 10 || batch >= 4096) break;
    batch *= 2;
  }
  const samples = [];
  for (let r = 0; r < reps; r++) {
    const before = process.cpuUsage();
    for (let i = 0; i < batch; i++) run();
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / 1000 / batch);
  }
  return percentile(samples, 50);
}

function largePages(pages) {
  const joined = pages.map((p) => p.text).join("\n\n");
  const sized = (chars) => {
    let text = "";
    while (text.length < chars) text += `${joined}\n\n`;
    return text.slice(0, chars - 200);
  };
  return [200_000, 1_000_000].map((chars) => ({ chars, text: `${sized(chars)}\n\nThe audit found that 14 of the 312 contracts signed in 2022 had no competitive tender.` }));
}

async function main() {
  const { matchQuote, prepareSnapshot, QUOTE_MATCH_LIMITS } = await loadMatcher();
  const set = JSON.parse(readFileSync(path.join(here, "sources", "judged-set.json"), "utf8"));
  const pages = new Map(set.pages.map((p) => [p.id, p.text]));
  log(`${set.cases.length} cases on ${set.pages.length} pages; CPU time over ${reps} batches per case`);

  const results = set.cases.map((c) => {
    const answer = matchQuote(c.quote, pages.get(c.page));
    return { id: c.id, kind: c.kind, class: c.class, expected: c.expected, got: answer.status, method: answer.method, score: answer.score, quote: c.quote, reason: answer.reason };
  });
  const score = scoreResults(results);
  const goals = sourceGoalLines(score);

  const perCase = set.cases.map((c) => cpuMsPerRun(() => matchQuote(c.quote, prepareSnapshot(pages.get(c.page)))));
  const large = largePages(set.pages).map(({ chars, text }) => {
    const quotes = {
      "genuine, at the end": "The audit found that 14 of the 312 contracts signed in 2022 had no competitive tender.",
      "one number changed": "The audit found that 14 of the 321 contracts signed in 2022 had no competitive tender.",
      "from nowhere": "Regulators in three countries opened investigations into the merger last spring.",
    };
    const prepareMs = cpuMsPerRun(() => prepareSnapshot(text).words());
    return {
      chars,
      prepareMs,
      rows: Object.entries(quotes).map(([what, quote]) => {
        const snapshot = prepareSnapshot(text);
        snapshot.words();
        return { what, status: matchQuote(quote, text).status, totalMs: cpuMsPerRun(() => matchQuote(quote, prepareSnapshot(text))), matchMs: cpuMsPerRun(() => matchQuote(quote, snapshot)) };
      }),
    };
  });

  const out = [];
  out.push("", `## Quote matcher on the judged set — ${new Date().toISOString()}`, "");
  out.push(
    `Node ${process.version}. ${set.cases.length} cases on ${set.pages.length} pages (${[...new Set(set.pages.map((p) => p.lang))].join(", ")}): ` +
      `${score.genuine} genuine, ${score.altered} altered, ${score.unsupported} paraphrased or from elsewhere, ${set.cases.length - score.genuine - score.altered - score.unsupported} too short. ` +
      `Limits: quotes ≤ ${QUOTE_MATCH_LIMITS.quoteChars} characters, pages searched over ≤ ${QUOTE_MATCH_LIMITS.snapshotChars} characters, partial from a fuzzy score of ${QUOTE_MATCH_LIMITS.partialScore}.`,
    "",
  );
  out.push(renderScore(score, results));
  out.push(...goals.lines, "");
  out.push(
    `CPU ms per source (one page prepared and one quote matched; process CPU time, median of ${reps} batches per case): ` +
      `p50 ${fixed(percentile(perCase, 50))} ms, p95 ${fixed(percentile(perCase, 95))} ms, max ${fixed(Math.max(...perCase))} ms.`,
    "",
  );
  for (const page of large) {
    out.push(
      `Large page, ${page.chars.toLocaleString("en")} characters: prepared (normalized with its map and cut into words) in ${fixed(page.prepareMs, 1)} CPU ms; ` +
        page.rows.map((r) => `${r.what} → ${r.status}, ${fixed(r.totalMs, 1)} ms with the page prepared, ${fixed(r.matchMs, 1)} ms on a page prepared once`).join("; ") +
        ".",
    );
  }
  const misses = results.filter((r) => r.got !== r.expected);
  out.push("", `${misses.length} answers differ from the label${args.misses ? ":" : " (--misses lists them)."}`);
  if (args.misses) for (const r of misses) out.push(`- ${r.id} [${r.kind}] expected ${r.expected}, got ${r.got} (${r.score}): ${JSON.stringify(r.quote.slice(0, 120))}${r.reason ? ` — ${r.reason}` : ""}`);
  console.log(out.join("\n"));
  if (args.json) writeFileSync(path.resolve(args.json), JSON.stringify({ score, goals, perCase, large, results }, null, 2));
  if (!goals.pass) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`[bench:sources] FAILED: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
