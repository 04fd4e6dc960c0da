/**
 * `npm run bench:downloads`: what a deliverable download costs (see bench/README.md, "Downloads").
 *
 *   npm run bench:downloads                 20 timed runs of each format on a 20-page deliverable, and the largest one
 *   npm run bench:downloads -- --reps 50 --json /tmp/downloads.json
 *   npm run bench:downloads -- --cpu-only     without the two-org run on a local server (bench/downloads-fairness.mjs)
 *   npm run bench:downloads -- --no-pdf       without the PDF print times (bench/downloads-pdf.mjs)
 *
 * The download modules (src/web/downloads: Markdown, standalone HTML, DOCX) are bundled with esbuild as the Worker
 * bundles them and run in Node (V8, the engine workerd runs). CPU is process CPU time (process.cpuUsage) around each
 * call, so other jobs on the machine do not count. Printed: CPU per download (p50, p95), the file's size, and the
 * download code's share of the Worker bundle (minified, gzipped), each with PASS/MISS against DOWNLOAD_GOALS.
 * The Markdown's render is timed apart: it is kept per version (src/web/dashboard/rendered-deliverable.ts) and shared
 * with the dashboard's page, so a download pays it at most once per version.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { FAIRNESS_GOALS, listsCodeLinks, runTwoOrgs } from "./downloads-fairness.mjs";
import { pdfPrintTimes } from "./downloads-pdf.mjs";
import { table } from "./report.mjs";

export const DOWNLOAD_GOALS = {
  /** CPU ms per download of a 20-page deliverable, its render kept. */
  mdMs: 5,
  htmlMs: 10,
  docxMs: 50,
  /** The largest deliverable (1,000,000 characters, shown as text): CPU ms of a DOCX. */
  largestDocxMs: 1000,
  /** The 196 KB lists-code-links deliverable: CPU ms of its DOCX, its Markdown's render kept (made once per version and source state, then kept). */
  listsCodeLinksDocxMs: 1000,
  /** KiB gzipped the download code (the docx package included) adds to the Worker. */
  bundleKiB: 150,
  /** Wall ms of a 20-page PDF: a browser started and the page printed (p95 of each, added). */
  pdfMs: 10_000,
  /**
   * The longest the 196 KB deliverable's first DOCX (its Markdown's render, then the file) runs between two pauses,
   * CPU-bound, in Node: what another request on the instance waits at most behind one render (median of the runs).
   */
  renderStretchMs: 50,
};

const { values: args } = parseArgs({
  options: {
    reps: { type: "string", default: "20" },
    json: { type: "string" },
    "cpu-only": { type: "boolean", default: false },
    "no-pdf": { type: "boolean", default: false },
    samples: { type: "string", default: "60" },
  },
});
const reps = Math.max(3, Number(args.reps));
const root = path.resolve(import.meta.dirname, "..");

/** About 20 pages: 12 sections of headings, paragraphs with emphasis, links and refs, a list, a table and code. */
function twentyPages() {
  const sentence = (i) => `Solid-state cells from lab ${i} reached **${400 + (i % 90)} Wh/kg** in *controlled* tests [E${(i % 8) + 1}], see [the report](https://lab${i}.example.org/r).`;
  const sections = [];
  for (let s = 1; s <= 12; s++) {
    const paragraphs = Array.from({ length: 6 }, (_, p) => Array.from({ length: 6 }, (_, k) => sentence(s * 100 + p * 10 + k)).join(" "));
    const list = Array.from({ length: 6 }, (_, i) => `- Finding ${i + 1}: \`cell-${s}-${i}\` holds ${i * 3} % after 500 cycles [E${i + 1}]`).join("\n");
    const rows = Array.from({ length: 8 }, (_, i) => `| Lab ${i} | ${400 + i} | ${i % 2 ? "yes" : "no"} |`).join("\n");
    sections.push(`## Section ${s}\n\n${paragraphs.join("\n\n")}\n\n${list}\n\n| Lab | Wh/kg | Repeated |\n| --- | --- | --- |\n${rows}\n\n\`\`\`\nrun ${s}: ok\n\`\`\``);
  }
  return `# Solid-state batteries: the state of the art\n\n${sections.join("\n\n")}\n`;
}

const verification = (status, reason = null) => ({ status, reason, score: 1, passage: null, basis: "fetched", titleMismatch: false, snapshot: null, checkedAt: Date.UTC(2026, 10, 27) });
const SOURCES = Array.from({ length: 8 }, (_, i) => ({
  ref: `E${i + 1}`,
  title: `Source ${i + 1}: a study of cell density`,
  url: `https://source${i + 1}.example.org/paper`,
  verification: i === 7 ? verification("unreachable", "dead: HTTP 404") : verification(i % 3 ? "verified" : "partial"),
}));

const ENTRY = `
export { markdownDownload } from "${root}/src/domain/research/downloads.ts";
export { standaloneHtml } from "${root}/src/web/downloads/html.ts";
export { docxOf } from "${root}/src/web/downloads/docx.ts";
export { renderForPage, renderForPageInParts } from "${root}/src/web/dashboard/markdown.ts";
export { printOptions } from "${root}/src/web/downloads/pdf-options.ts";
`;

async function bundle(minify) {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: root, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"],
    minify,
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

/** The gzipped KiB of a bundle of the download code alone, and of the same without the docx package's part. */
async function bundleSizes() {
  const all = await bundle(true);
  const withoutDocx = await build({
    stdin: { contents: ENTRY.replace(/.*docx\.ts.*\n/, ""), resolveDir: root, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"],
    minify: true,
    write: false,
    logLevel: "silent",
  });
  const kib = (text) => gzipSync(text).byteLength / 1024;
  return { downloadsKiB: kib(all), withoutDocxKiB: kib(withoutDocx.outputFiles[0].text), rawKiB: all.length / 1024 };
}

const cpuMs = (start) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

async function time(fn) {
  await fn(); // warm: the first call compiles
  const samples = [];
  let size = 0;
  for (let i = 0; i < reps; i++) {
    const start = process.cpuUsage();
    const body = await fn();
    samples.push(cpuMs(start));
    size = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  }
  return { p50: pct(samples, 50), p95: pct(samples, 95), size };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "cairn-bench-downloads-"));
try {
  const file = path.join(dir, "downloads.mjs");
  writeFileSync(file, await bundle(false));
  const { markdownDownload, standaloneHtml, docxOf, renderForPage, renderForPageInParts, printOptions } = await import(file);

  const content = twentyPages();
  const output = { title: "Solid-state batteries", mediaType: "markdown", content, version: 3, updatedAt: Date.UTC(2026, 10, 27) };
  const renderStart = process.cpuUsage();
  const rendered = renderForPage(content);
  const renderMs = cpuMs(renderStart);
  if (rendered.kind !== "html") throw new Error(`the 20-page deliverable did not render: ${rendered.note}`);

  const largest = { ...output, content: "A line of a very long deliverable, shown as its text [E1].\n".repeat(17_000).slice(0, 1_000_000) };
  const largestRendered = renderForPage(largest.content);

  const runbook = { ...output, content: listsCodeLinks() };
  const runbookStart = process.cpuUsage();
  const runbookRendered = renderForPage(runbook.content);
  const runbookRenderMs = cpuMs(runbookStart);

  const rows = {
    md: await time(async () => markdownDownload(output, SOURCES)),
    html: await time(async () => standaloneHtml(output, rendered, SOURCES, Date.now())),
    docx: await time(() => docxOf(output, rendered, SOURCES)),
    largestDocx: await time(() => docxOf(largest, largestRendered, SOURCES)),
    runbookDocx: await time(() => docxOf(runbook, runbookRendered, SOURCES)),
  };
  // The longest stretch between two pauses of a first render (Markdown in parts, then the DOCX), per run.
  const stretches = [];
  for (let i = 0; i < reps; i++) {
    let longest = 0;
    let last = performance.now();
    const pause = async () => {
      longest = Math.max(longest, performance.now() - last);
      await new Promise((resolve) => setTimeout(resolve, 0));
      last = performance.now();
    };
    await docxOf(runbook, await renderForPageInParts(runbook.content, pause), SOURCES, pause);
    stretches.push(Math.max(longest, performance.now() - last));
  }
  const stretch = pct(stretches, 50);
  const sizes = await bundleSizes();
  const words = content.split(/\s+/).length;

  console.log(`\nDeliverable: ${content.length.toLocaleString("en")} characters, ${words.toLocaleString("en")} words (≈ ${Math.round(words / 500)} pages), 8 sources; ${reps} runs each, CPU ms in Node ${process.version}`);
  // markdown.ts measured its render at about 3 ms a KiB of prose: the ratio here says how loaded the machine is.
  console.log(`Its Markdown's render (once per version, kept, shared with the dashboard page): ${renderMs.toFixed(1)} ms, ${(renderMs / (content.length / 1024)).toFixed(1)} ms a KiB\n`);
  console.log(
    table(
      ["download", "CPU p50 ms", "CPU p95 ms", "file KiB"],
      [
        ["md", rows.md.p50.toFixed(2), rows.md.p95.toFixed(2), (rows.md.size / 1024).toFixed(1)],
        ["html", rows.html.p50.toFixed(2), rows.html.p95.toFixed(2), (rows.html.size / 1024).toFixed(1)],
        ["docx", rows.docx.p50.toFixed(2), rows.docx.p95.toFixed(2), (rows.docx.size / 1024).toFixed(1)],
        ["docx, 1,000,000 characters as text", rows.largestDocx.p50.toFixed(1), rows.largestDocx.p95.toFixed(1), (rows.largestDocx.size / 1024).toFixed(1)],
        [`docx, ${(runbook.content.length / 1000).toFixed(0)} KB lists-code-links (${runbookRendered.kind})`, rows.runbookDocx.p50.toFixed(1), rows.runbookDocx.p95.toFixed(1), (rows.runbookDocx.size / 1024).toFixed(1)],
      ],
    ),
  );
  const addedKiB = sizes.downloadsKiB - sizes.withoutDocxKiB;
  console.log(`\nDownload code bundled alone (with the Markdown renderer): ${sizes.downloadsKiB.toFixed(1)} KiB gzipped (${sizes.rawKiB.toFixed(0)} KiB minified); the DOCX part (docx package and its mapping): ${addedKiB.toFixed(1)} KiB gzipped\n`);
  const goals = [
    [`md of 20 pages, CPU p95 ≤ ${DOWNLOAD_GOALS.mdMs} ms`, rows.md.p95 <= DOWNLOAD_GOALS.mdMs, rows.md.p95],
    [`html of 20 pages (render kept), CPU p95 ≤ ${DOWNLOAD_GOALS.htmlMs} ms`, rows.html.p95 <= DOWNLOAD_GOALS.htmlMs, rows.html.p95],
    [`docx of 20 pages (render kept), CPU p95 ≤ ${DOWNLOAD_GOALS.docxMs} ms`, rows.docx.p95 <= DOWNLOAD_GOALS.docxMs, rows.docx.p95],
    [`docx of the largest deliverable, CPU p95 ≤ ${DOWNLOAD_GOALS.largestDocxMs} ms`, rows.largestDocx.p95 <= DOWNLOAD_GOALS.largestDocxMs, rows.largestDocx.p95],
    [`docx of the 196 KB lists-code-links deliverable (made once, then kept), CPU p95 ≤ ${DOWNLOAD_GOALS.listsCodeLinksDocxMs} ms`, rows.runbookDocx.p95 <= DOWNLOAD_GOALS.listsCodeLinksDocxMs, rows.runbookDocx.p95],
    [`the 196 KB deliverable's first DOCX, longest stretch between pauses (median of ${reps}) ≤ ${DOWNLOAD_GOALS.renderStretchMs} ms`, stretch <= DOWNLOAD_GOALS.renderStretchMs, stretch],
    [`DOCX code ≤ ${DOWNLOAD_GOALS.bundleKiB} KiB gzipped`, addedKiB <= DOWNLOAD_GOALS.bundleKiB, addedKiB],
  ];
  console.log(`The 196 KB lists-code-links deliverable's Markdown render (once per version, kept): ${runbookRenderMs.toFixed(0)} ms\n`);
  let pdf = null;
  if (!args["no-pdf"]) {
    pdf = await pdfPrintTimes({ html: standaloneHtml(output, rendered, SOURCES, Date.now()), title: output.title, options: printOptions, reps });
    if (pdf.skipped) console.log(`PDF: not measured (${pdf.skipped})\n`);
    else {
      console.log(`PDF: the 20-page standalone HTML printed by ${pdf.browser} with the download's print options (wall-clock ms; the browser's work, not the Worker's CPU)\n`);
      console.log(
        table(
          ["pdf", "p50 ms", "p95 ms", "file KiB"],
          [
            ["browser start (a new browser per download)", pdf.launch.p50.toFixed(0), pdf.launch.p95.toFixed(0), "–"],
            [`print, ${pdf.pages} pages (setContent + pdf)`, pdf.print.p50.toFixed(0), pdf.print.p95.toFixed(0), (pdf.size / 1024).toFixed(1)],
          ],
        ),
      );
      console.log("");
      goals.push([`pdf of 20 pages, browser start and print, p95 ≤ ${DOWNLOAD_GOALS.pdfMs} ms (the download's time limit is 30 s)`, pdf.launch.p95 + pdf.print.p95 <= DOWNLOAD_GOALS.pdfMs, pdf.launch.p95 + pdf.print.p95]);
    }
  }
  let twoOrgs = null;
  if (!args["cpu-only"]) {
    twoOrgs = await runTwoOrgs({ tmp: dir, samples: Math.max(20, Number(args.samples)), log: (line) => console.log(`  ${line}`) });
    const [alone, ...beside] = twoOrgs.rows;
    console.log(
      `\nTwo orgs on one local workerd (wall-clock ms, a loaded machine counts): the ${twoOrgs.content.toLocaleString("en")}-character deliverable's first DOCX ${twoOrgs.render.firstMs.toFixed(0)} ms (HTTP ${twoOrgs.render.status}, ${(twoOrgs.render.docxBytes / 1024).toFixed(0)} KiB), kept ${twoOrgs.render.keptMs.toFixed(0)} ms\n`,
    );
    console.log(
      table(
        ["org A's GET /outputs/{id}", "p50 ms", "p95 ms", "max ms", "B: 200 / 429 / other"],
        twoOrgs.rows.map((r) => [r.name, r.p50.toFixed(1), r.p95.toFixed(1), r.max.toFixed(0), r.counts ? `${r.counts.ok} / ${r.counts.refused} / ${r.counts.other}` : "–"]),
      ),
    );
    for (const r of beside) {
      const ratio = r.p95 / alone.p95;
      // The control is no goal: it says what any neighbour asking 20 at a time costs A on this one thread.
      if (r.control) {
        console.log(`(control) org A's read p95 ${r.name}: ${ratio.toFixed(1)}× alone`);
        continue;
      }
      goals.push([`org A's read p95 ≤ ${FAIRNESS_GOALS.readP95Ratio}× alone ${r.name}`, ratio <= FAIRNESS_GOALS.readP95Ratio, ratio]);
      // Proposed in place of the 2× (bench/README.md): downloads hold a neighbour no more than any requests of B at that rate.
      const control = beside.find((other) => other.control);
      if (control) goals.push([`org A's read p95 ${r.name} ≤ beside B's reads at that rate (control), as a multiple of it`, r.p95 <= control.p95, r.p95 / control.p95]);
    }
  }
  for (const [goal, met, value] of goals) console.log(`${met ? "PASS" : "MISS"}  ${goal}: ${value.toFixed(1)}`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ renderMs, runbookRenderMs, stretches, rows, sizes, pdf, twoOrgs, goals: goals.map(([goal, met, value]) => ({ goal, met, value })) }, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
