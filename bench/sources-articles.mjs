/**
 * The article set's part of `npm run bench:sources`: judged quotes on real pages
 * (bench/sources/article-set.json, pages in bench/sources/articles/). Each page variant is served as
 * bytes with a Content-Type to a Worker on workerd (bench/sources-worker.ts: the source check's own
 * readableKind and readPage, so HTMLRewriter and the charset decoding are the runtime's), and each
 * case's quote is matched on the text that comes back with the matcher as the Worker bundles it.
 * Answers are scored for the development part and the held-out part apart.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { bundleBenchWorker, readProjectConfig } from "./harness.mjs";
import { servedVariant } from "./sources/page-variants.mjs";
import { articleGoalLines, renderKindCounts, scoreResults } from "./sources-report.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
export const PARTS = ["development", "held-out"];

/** Reads every page variant of the set on workerd; returns (page, variant) → { text, title } or { unchecked }. */
async function readOnWorkerd(set, log) {
  const config = await readProjectConfig();
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      logRequests: false,
      cf: false,
      workers: [
        {
          name: "sources-bench",
          modules: [{ type: "ESModule", path: path.join(here, "sources-worker.bundle.mjs"), contents: await bundleBenchWorker("sources-worker.ts") }],
          modulesRoot: here,
          compatibilityDate: config.compatibilityDate,
          compatibilityFlags: config.compatibilityFlags,
          unsafeRegisterWorker: false,
        },
      ],
    }),
  );
  const reads = new Map();
  try {
    await mf.ready;
    for (const page of set.pages) {
      const html = gunzipSync(readFileSync(path.join(here, "sources", page.fixture))).toString("utf8");
      for (const variant of page.variants) {
        const { body, contentType } = servedVariant(html, variant);
        const response = await mf.dispatchFetch("http://bench.local/read", { method: "POST", body, headers: { "x-page-content-type": contentType } });
        if (!response.ok) throw new Error(`reading ${page.id} (${variant.name}) failed: ${response.status} ${await response.text()}`);
        reads.set(`${page.id}/${variant.name}`, await response.json());
      }
    }
  } finally {
    await mf.dispose();
  }
  log(`read ${reads.size} page variants on workerd`);
  return reads;
}

/** Every case answered, then the lines to print per part and whether every goal passed. */
export async function runArticleSet({ matchQuote, prepareSnapshot, log }) {
  const set = JSON.parse(readFileSync(path.join(here, "sources", "article-set.json"), "utf8"));
  const started = performance.now();
  const reads = await readOnWorkerd(set, log);
  const readSeconds = (performance.now() - started) / 1000;
  const prepared = new Map();
  const snapshotOf = (key) => {
    const read = reads.get(key);
    if (!("text" in read)) return null;
    if (!prepared.has(key)) prepared.set(key, prepareSnapshot(read.text));
    return prepared.get(key);
  };
  const matchStarted = performance.now();
  const results = set.cases.map((c) => {
    const snapshot = snapshotOf(`${c.page}/${c.variant}`);
    const got = snapshot ? matchQuote(c.quote, snapshot) : { status: "unchecked", reason: reads.get(`${c.page}/${c.variant}`).unchecked };
    return { id: c.id, part: c.part, kind: c.kind, class: c.class, expected: c.expected, got: got.status, score: got.score, reason: got.reason, quote: c.quote };
  });
  const matchSeconds = (performance.now() - matchStarted) / 1000;

  const out = ["", "## The check on real pages (article set)", ""];
  const variants = set.pages.flatMap((p) => p.variants);
  out.push(
    `${set.cases.length} cases on ${set.pages.length} pages of ${new Set(set.pages.map((p) => p.site)).size} sites (${Object.entries(Object.groupBy(set.pages, (p) => p.lang)).map(([lang, ps]) => `${lang} ${ps.length}`).join(", ")}) ` +
      `from ${set.dataset.source} at ${set.dataset.commit.slice(0, 12)}, labelled from its ground truth; ${variants.length} page variants served ` +
      `(${Object.entries(Object.groupBy(variants, (v) => v.kind)).map(([kind, vs]) => `${kind} ${vs.length}`).join(", ")}). ` +
      `Read on workerd in ${readSeconds.toFixed(1)} s wall-clock, matched in ${matchSeconds.toFixed(1)} s.`,
    "",
  );
  let pass = true;
  for (const part of PARTS) {
    const mine = results.filter((r) => r.part === part);
    const score = scoreResults(mine);
    const goals = articleGoalLines(score, part);
    pass &&= goals.pass;
    const pages = part === "development" ? set.split.development.length : set.split.heldOut.length;
    out.push(`### ${part === "development" ? "Development part" : "Held-out part (measured only, never tuned on)"}: ${mine.length} cases on ${pages} pages`, "", renderKindCounts(mine), "", ...goals.lines, "");
  }
  return { results, pass, lines: out, readSeconds, matchSeconds };
}
