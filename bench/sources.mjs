/**
 * `npm run bench:sources`: the quote matcher (src/domain/sources/quote-match.ts) on the judged set,
 * and the cost of checking one source: CPU time (text read from the body, page prepared, quote
 * matched) and the bytes stored (the snapshot and the URL's pointer, as snapshots.ts writes them).
 *
 *   npm run bench:sources                     every case, CPU time over 5 timed batches each
 *   npm run bench:sources -- --reps 9 --misses --json /tmp/sources.json
 *
 * Steps: bundle the matcher and the text readers with esbuild (their imports are extensionless, as the
 * Worker's bundler wants them, so Node cannot load the .ts directly); load bench/sources/judged-set.json;
 * build each page marked `pdf` as a PDF (test/support/pdf-builder.ts) and read its text back with the
 * Worker's PDF reader (unpdf); answer every case once, on the page's text and again on its PDF's, and
 * score the answers (bench/sources-report.mjs): precision and recall per status, the confusion matrix,
 * cases per kind, the goal lines; then measure the CPU time of each case as the pipeline checks a
 * source (the body read to text, the page prepared, the quote matched) and the bytes stored per
 * source; then the same on large pages built from the set's pages (200,000 and 1,000,000 characters)
 * with a genuine quote near the end, an altered one and one from nowhere; then the article set (sources-articles.mjs), and
 * network failures and link citations (sources-network.mjs). Exit code 1 if a goal is missed.
 * See bench/README.md.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { nearestRankPercentile } from "../src/domain/percentile.ts";
import { buildPdf, wrapLines } from "../test/support/pdf-builder.ts";
import { loadBundled } from "./node-bundle.mjs";
import { table } from "./report.mjs";
import { runArticleSet } from "./sources-articles.mjs";
import { runNetworkAndCitations } from "./sources-network.mjs";
import { renderScore, scoreResults, sourceGoalLines } from "./sources-report.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    reps: { type: "string", default: "5" },
    misses: { type: "boolean", default: false },
    "articles-only": { type: "boolean", default: false },
    json: { type: "string" },
  },
});
const reps = Math.max(1, Math.round(Number(args.reps)) || 5);
const log = (message) => process.stderr.write(`[bench:sources] ${message}\n`);
const percentile = (values, p) => nearestRankPercentile(values, p) ?? Number.NaN;
const fixed = (value, digits = 3) => (Number.isFinite(value) ? value.toFixed(digits) : "–");


/** The matcher, the plain-text reader and the PDF reader as the Worker bundles them (unpdf included). */
const loadPipeline = () =>
  loadBundled([
        'export { matchQuote, prepareSnapshot, QUOTE_MATCH_LIMITS } from "./src/domain/sources/quote-match";',
        'export { pageText } from "./src/platform/sources/visible-text";',
        'export { PDF_LIMITS, pdfText } from "./src/platform/sources/pdf-text";',
  ]);

/**
 * Bytes a checked source adds to R2: its snapshot object and its URL's pointer, as
 * src/platform/sources/snapshots.ts writes them (JSON, UTF-8). A second source on the same page adds nothing.
 */
function bytesStored(page, text, title, contentType) {
  const url = `https://example.org/sources/${page.id}`;
  const sha256 = createHash("sha256").update(text).digest("hex");
  const fetchedAt = Date.UTC(2026, 10, 1);
  const snapshot = { url, finalUrl: url, status: 200, contentType, title, fetchedAt, truncated: false, text, sha256 };
  return Buffer.byteLength(JSON.stringify(snapshot)) + Buffer.byteLength(JSON.stringify({ fetchedAt, sha256 }));
}

/** As cpuMsPerRun, for a run that awaits (PDF.js answers through promises): process CPU time per run, median of `reps` batches. */
async function cpuMsPerAsyncRun(run, batch = 5) {
  await run();
  const samples = [];
  for (let r = 0; r < reps; r++) {
    const before = process.cpuUsage();
    for (let i = 0; i < batch; i++) await run();
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / 1000 / batch);
  }
  return percentile(samples, 50);
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

/** `--articles-only`: the article set alone (about a minute), without the judged set and the cost per source. */
async function articlesOnly({ matchQuote, prepareSnapshot }) {
  const articles = await runArticleSet({ matchQuote, prepareSnapshot, log });
  const misses = articles.results.filter((r) => r.got !== r.expected);
  const out = [...articles.lines, `${misses.length} answers differ from the label${args.misses ? ":" : " (--misses lists them)."}`];
  if (args.misses) for (const r of misses) out.push(`- ${r.id} [${r.kind}] expected ${r.expected}, got ${r.got} (${r.score}): ${JSON.stringify(r.quote.slice(0, 120))}${r.reason ? ` — ${r.reason}` : ""}`);
  const network = await runNetworkAndCitations({ log });
  out.push(...network.lines);
  console.log(out.join("\n"));
  if (args.json) writeFileSync(path.resolve(args.json), JSON.stringify({ articles: articles.results }, null, 2));
  if (!articles.pass || !network.pass) process.exitCode = 1;
}

async function main() {
  const pipeline = await loadPipeline();
  if (args["articles-only"]) return articlesOnly(pipeline);
  const { matchQuote, pageText, pdfText, prepareSnapshot, QUOTE_MATCH_LIMITS } = pipeline;
  const set = JSON.parse(readFileSync(path.join(here, "sources", "judged-set.json"), "utf8"));
  const pages = new Map(set.pages.map((p) => [p.id, p.text]));
  const pdfPages = set.pages.filter((p) => p.pdf);
  log(`${set.cases.length} cases on ${set.pages.length} pages, ${pdfPages.length} of them also as PDFs; CPU time over ${reps} batches per case`);

  // Each PDF page: its bytes (the page's paragraphs wrapped in lines, as print lays them out) and the text read back.
  const pdfs = new Map();
  for (const page of pdfPages) {
    const bytes = buildPdf([{ lines: wrapLines(page.text) }], page.id);
    const read = await pdfText(bytes);
    if (!("text" in read)) throw new Error(`the PDF of ${page.id} was not read: ${read.unchecked}`);
    pdfs.set(page.id, { bytes, text: read.text, title: read.title });
  }
  const pdfCases = set.cases.filter((c) => pdfs.has(c.page));

  const answer = (c, text, format) => {
    const got = matchQuote(c.quote, text);
    return { id: format === "pdf" ? `pdf:${c.id}` : c.id, kind: format === "pdf" ? `pdf:${c.class}` : c.kind, class: c.class, expected: c.expected, got: got.status, method: got.method, score: got.score, quote: c.quote, reason: got.reason, format };
  };
  const results = [...set.cases.map((c) => answer(c, pages.get(c.page), "text")), ...pdfCases.map((c) => answer(c, pdfs.get(c.page).text, "pdf"))];
  const score = scoreResults(results);
  const goals = sourceGoalLines(score);
  const pdfScore = scoreResults(results.filter((r) => r.format === "pdf"));

  // The cost of one source: its body read to text, the page prepared, the quote matched (CPU), and what R2 keeps.
  // Plain text is read synchronously (the promise pageText returns is already settled): timed whole.
  const textExtractMs = new Map(set.pages.map((p) => [p.id, cpuMsPerRun(() => pageText("text", p.text))]));
  const pdfExtractMs = new Map();
  for (const [id, pdf] of pdfs) pdfExtractMs.set(id, await cpuMsPerAsyncRun(() => pdfText(pdf.bytes)));
  const perTextSource = set.cases.map((c) => textExtractMs.get(c.page) + cpuMsPerRun(() => matchQuote(c.quote, prepareSnapshot(pages.get(c.page)))));
  const perPdfSource = pdfCases.map((c) => pdfExtractMs.get(c.page) + cpuMsPerRun(() => matchQuote(c.quote, prepareSnapshot(pdfs.get(c.page).text))));
  const textBytes = set.pages.map((p) => bytesStored(p, p.text, null, "text/plain; charset=utf-8"));
  const pdfBytes = pdfPages.map((p) => bytesStored(p, pdfs.get(p.id).text, pdfs.get(p.id).title, "application/pdf"));
  const pdfFileBytes = pdfPages.map((p) => pdfs.get(p.id).bytes.byteLength);

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
      bytes: bytesStored({ id: `large-${chars}` }, text, null, "text/plain; charset=utf-8"),
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
    `Node ${process.version}. ${results.length} (quote, page) pairs: ${set.cases.length} cases on ${set.pages.length} pages (${[...new Set(set.pages.map((p) => p.lang))].join(", ")}): ` +
      `${score.genuine} genuine, ${score.altered} altered, ${score.unsupported} paraphrased or from elsewhere, ${score.cases - score.genuine - score.altered - score.unsupported} too short, ` +
      `of which ${pdfCases.length} on ${pdfPages.length} pages served as PDFs (kinds pdf:*; read back with unpdf). ` +
      `Limits: quotes ≤ ${QUOTE_MATCH_LIMITS.quoteChars} characters, pages searched over ≤ ${QUOTE_MATCH_LIMITS.snapshotChars} characters, partial from a fuzzy score of ${QUOTE_MATCH_LIMITS.partialScore}.`,
    "",
  );
  out.push(renderScore(score, results));
  out.push(...goals.lines, "");
  const stats = (values, digits = 3) => `p50 ${fixed(percentile(values, 50), digits)}, p95 ${fixed(percentile(values, 95), digits)}, max ${fixed(Math.max(...values), digits)}`;
  const bytes = (values) => `p50 ${percentile(values, 50).toLocaleString("en")}, p95 ${percentile(values, 95).toLocaleString("en")}, max ${Math.max(...values).toLocaleString("en")}`;
  out.push(
    `PDF pairs alone: ${pdfScore.genuineVerified} of ${pdfScore.genuine} genuine verified, ${pdfScore.falselyVerified.length} of ${pdfScore.altered + pdfScore.unsupported} altered or unsupported verified.`,
    "",
    "Cost per source (process CPU time, median of the batches; bytes as stored in R2):",
    "",
    table(
      ["source", "CPU ms: read to text + prepared + matched", "bytes stored (snapshot + URL pointer)"],
      [
        [`text page (${set.cases.length} cases, ${set.pages.length} pages)`, stats(perTextSource), bytes(textBytes)],
        [`PDF (${pdfCases.length} cases, ${pdfPages.length} one-page PDFs of ${bytes(pdfFileBytes)} bytes)`, stats(perPdfSource), bytes(pdfBytes)],
        ...large.map((page) => [`large text page, ${page.chars.toLocaleString("en")} characters`, `${fixed(page.prepareMs + Math.max(...page.rows.map((r) => r.matchMs)), 1)} (prepared ${fixed(page.prepareMs, 1)}, matched ≤ ${fixed(Math.max(...page.rows.map((r) => r.matchMs)), 1)})`, page.bytes.toLocaleString("en")]),
      ],
    ),
    "",
    `Of that, reading the text: plain text ${stats([...textExtractMs.values()])} ms a page; PDF (unpdf, PDF.js) ${stats([...pdfExtractMs.values()], 2)} ms a page. ` +
      "A second source citing the same page within the reuse window costs only the match, and stores nothing.",
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
  const listMisses = (list) => {
    out.push("", `${list.length} answers differ from the label${args.misses ? ":" : " (--misses lists them)."}`);
    if (args.misses) for (const r of list) out.push(`- ${r.id} [${r.kind}] expected ${r.expected}, got ${r.got} (${r.score}): ${JSON.stringify(r.quote.slice(0, 120))}${r.reason ? ` — ${r.reason}` : ""}`);
  };
  listMisses(misses);

  // The article set: real pages read on workerd, scored per part.
  const articles = await runArticleSet({ matchQuote, prepareSnapshot, log });
  out.push(...articles.lines);
  listMisses(articles.results.filter((r) => r.got !== r.expected));
  // Network failures a check retries, and link citations of a page the ledger holds twice.
  const network = await runNetworkAndCitations({ log });
  out.push(...network.lines);
  console.log(out.join("\n"));
  if (args.json) writeFileSync(path.resolve(args.json), JSON.stringify({ score, goals, perTextSource, perPdfSource, textBytes, pdfBytes, large, results, articles: articles.results }, null, 2));
  if (!goals.pass || !articles.pass || !network.pass) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`[bench:sources] FAILED: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
