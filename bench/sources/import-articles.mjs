/**
 * Copies a subset of the pages of Zyte's (Scrapinghub's) article extraction benchmark into
 * bench/sources/articles/: each page's HTML as the dataset stores it (gzip) and its ground truth (the
 * article's text as people marked it, and the page's URL). See bench/sources/articles/README.md.
 *
 *   node bench/sources/import-articles.mjs <git dir of scrapinghub/article-extraction-benchmark>
 *
 * The subset is chosen without looking at Cairn: pages of at most 60 KB gzipped, every page not in
 * English, then English pages in the order of a hash of their id, at most 3 pages a site, 80 in all.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, "articles");
const gitDir = process.argv[2];
if (!gitDir) throw new Error("usage: node bench/sources/import-articles.mjs <git dir of the dataset>");
const git = (...args) => execFileSync("git", ["-C", gitDir, ...args], { maxBuffer: 64 << 20 });
const commit = git("rev-parse", "HEAD").toString().trim();
const truth = JSON.parse(git("show", "HEAD:ground-truth.json").toString("utf8"));

const MAX_GZIP_BYTES = 60_000;
const PAGES = 80;
const PER_SITE = 3;
// Latin-script words frequent in English and rare elsewhere: a page whose article uses few of them is not in English.
const ENGLISH = /\b(the|and|of|to|is|that|with|for)\b/gi;
const english = (text) => (text.match(ENGLISH)?.length ?? 0) / Math.max(1, text.split(/\s+/).length) > 0.08;
const rank = (id) => createHash("sha256").update(`cairn-articles:${id}`).digest("hex");

const candidates = Object.entries(truth)
  .map(([id, { articleBody, url }]) => ({ id, url, articleBody, bytes: Number(git("cat-file", "-s", `HEAD:html/${id}.html.gz`).toString()) }))
  .filter((p) => p.bytes <= MAX_GZIP_BYTES && p.articleBody.length >= 400)
  .sort((a, b) => Number(english(a.articleBody)) - Number(english(b.articleBody)) || rank(a.id).localeCompare(rank(b.id)));
const chosen = [];
const perSite = new Map();
for (const page of candidates) {
  const site = new URL(page.url).hostname.replace(/^www\./, "");
  if ((perSite.get(site) ?? 0) >= PER_SITE || chosen.length >= PAGES) continue;
  perSite.set(site, (perSite.get(site) ?? 0) + 1);
  chosen.push(page);
}

mkdirSync(out, { recursive: true });
for (const name of readdirSync(out)) if (name.endsWith(".html.gz")) rmSync(path.join(out, name));
for (const page of chosen) writeFileSync(path.join(out, `${page.id}.html.gz`), git("show", `HEAD:html/${page.id}.html.gz`));
const subset = Object.fromEntries(chosen.sort((a, b) => a.id.localeCompare(b.id)).map((p) => [p.id, { articleBody: p.articleBody, url: p.url }]));
writeFileSync(path.join(out, "ground-truth.json"), `${JSON.stringify({ source: "https://github.com/scrapinghub/article-extraction-benchmark", commit, pages: subset }, null, 1)}\n`);
const total = chosen.reduce((sum, p) => sum + p.bytes, 0);
console.log(`copied ${chosen.length} pages (${(total / 1e6).toFixed(2)} MB gzipped) from ${perSite.size} sites at ${commit.slice(0, 12)}; ${chosen.filter((p) => !english(p.articleBody)).length} not in English`);
