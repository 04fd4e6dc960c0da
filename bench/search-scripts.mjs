/**
 * How words inside Japanese, Chinese and Korean runs are indexed, measured three ways in SQLite's own FTS5
 * (node:sqlite; the same engine as D1), with Cairn's tokenizer (`porter unicode61 remove_diacritics 2`) or
 * FTS5's trigram tokenizer:
 *
 *   characters  one piece per Han/kana/Hangul character (what Cairn does: src/domain/research/search-text.ts)
 *   words       pieces cut by Intl.Segmenter (word granularity)
 *   trigram     the text as stored, tokenize='trigram'
 *
 * For each: index size, insert time, query time over a generated corpus of `--count` artifacts of ~700
 * CJK characters (≈ 2 KB of UTF-8; words of one to four characters drawn from 3,000 Han characters by a
 * Zipf law, hiragana particles between them), and what the judged multilingual set's Japanese, Chinese and
 * Korean queries find in their artifacts (recall: the share of relevant artifacts found).
 * Then the cost of indexing German compounds by their tails too (each word of 8+ letters adds its
 * tails of 4+ letters as pieces), over German-like text of the same size; and the cost of giving an
 * existing artifact its indexed form (migration 0039's sweep: the form, then the row's update re-indexing it).
 *
 *   npm exec -- node --import tsx bench/search-scripts.mjs --count 5000
 */
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { JUDGED_ARTIFACTS, JUDGED_QUERIES } from "../test/support/multilingual-search-set.ts";
import { toFtsQuery } from "../src/domain/research/search-query.ts";
import { indexForm, SEPARATOR } from "../src/domain/research/search-text.ts";
import { rng } from "./corpus.ts";
import { migrationFiles, migrationStatements } from "./harness.mjs";

const { values: args } = parseArgs({ options: { count: { type: "string", default: "5000" } } });
const count = Number(args.count);
const TOKENIZER = "porter unicode61 remove_diacritics 2";
const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });
const wordsForm = (text) => Array.from(segmenter.segment(text), (s) => s.segment).join(SEPARATOR);

/** Generated CJK text: Zipf-drawn words of Han characters with particles between them. */
function cjkText(n, chars = 700) {
  const random = rng(1000 + n);
  const han = (i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 3000));
  const zipf = () => Math.floor(3000 ** random()) - 1;
  const particles = "のはがをにでと、。";
  let out = "";
  while (out.length < chars) {
    const len = 1 + Math.floor(random() * 3);
    for (let i = 0; i < len; i++) out += han(zipf());
    out += particles[Math.floor(random() * particles.length)];
  }
  return out;
}

/** German-like text: compounds of two or three stems, lower-case words between them. */
function germanText(n, chars = 2000) {
  const random = rng(5000 + n);
  const stems = "batterie zellen energie speicher wärme pumpe wind kraft anlage strom netz kohle werk solar dach bahn streik fern verkehr haus halt preis brot mehl wasser stoff auto fabrik".split(" ");
  const small = "die der das und in mit für auf ist wird von zu den ein eine nicht auch bei".split(" ");
  let out = "";
  while (out.length < chars) {
    if (random() < 0.3) {
      const parts = 2 + Math.floor(random() * 2);
      let word = "";
      for (let i = 0; i < parts; i++) word += stems[Math.floor(random() * stems.length)];
      out += `${word[0].toUpperCase()}${word.slice(1)} `;
    } else out += `${small[Math.floor(random() * small.length)]} `;
  }
  return out;
}

/** A word's tails of 4+ letters (each word of 8+ letters), as extra pieces: what indexing compounds by their tail would add. */
const withTails = (text) =>
  text.replace(/\p{L}{8,}/gu, (word) => {
    const tails = [];
    for (let i = 4; i <= word.length - 4; i++) tails.push(word.slice(i));
    return `${word}${SEPARATOR}${tails.join(SEPARATOR)}`;
  });

const sizeOf = (db, table) => Number(db.prepare(`SELECT COALESCE(SUM(length(block)), 0) AS n FROM ${table}_data`).get().n);
const ms = (t) => performance.now() - t;

function build(db, name, tokenize, texts) {
  db.exec(`CREATE VIRTUAL TABLE ${name} USING fts5(x, tokenize='${tokenize}')`);
  const insert = db.prepare(`INSERT INTO ${name}(rowid, x) VALUES (?, ?)`);
  const t = performance.now();
  db.exec("BEGIN");
  for (const [i, text] of texts.entries()) insert.run(i + 1, text);
  db.exec("COMMIT");
  return { insertMs: ms(t), bytes: sizeOf(db, name) };
}

function timeQueries(db, name, queries) {
  const select = db.prepare(`SELECT rowid FROM ${name} WHERE ${name} MATCH ? ORDER BY bm25(${name}) LIMIT 5`);
  const times = [];
  for (const q of queries) {
    const t = performance.now();
    select.all(q);
    times.push(ms(t));
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], max: times[times.length - 1] };
}

const db = new DatabaseSync(":memory:");
const fmt = (n, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });

// ---- 1. CJK: characters, words, trigram
const texts = Array.from({ length: count }, (_, i) => cjkText(i));
const prep = {};
let t = performance.now();
const charTexts = texts.map(indexForm);
prep.characters = ms(t);
t = performance.now();
const wordTexts = texts.map(wordsForm);
prep.words = ms(t);
const built = {
  characters: build(db, "c_chars", TOKENIZER, charTexts),
  words: build(db, "c_words", TOKENIZER, wordTexts),
  trigram: build(db, "c_tri", "trigram", texts),
};
// Queries: two- and three-character words drawn from the corpus itself.
const sample = Array.from({ length: 60 }, (_, i) => {
  const text = texts[(i * 37) % texts.length];
  const at = (i * 13) % (text.length - 4);
  return text.slice(at, at + 2 + (i % 2)).replace(/[のはがをにでと、。]/g, "");
}).filter((w) => w.length >= 2);
const charQueries = sample.map((w) => `"${[...w].join(" ")}"`);
const wordQueries = sample.map((w) => `"${Array.from(segmenter.segment(w), (s) => s.segment).join(" ")}"`);
const triQueries = sample.filter((w) => w.length >= 3).map((w) => `"${w}"`);
const timed = {
  characters: timeQueries(db, "c_chars", charQueries),
  words: timeQueries(db, "c_words", wordQueries),
  trigram: timeQueries(db, "c_tri", triQueries),
};
// Recall on the judged set's Japanese, Chinese and Korean queries, each way.
const cjk = JUDGED_ARTIFACTS.filter((a) => ["ja", "zh", "ko"].includes(a.language));
const judged = JUDGED_QUERIES.filter((q) => ["ja", "zh", "ko"].includes(q.language));
const judgedDb = new DatabaseSync(":memory:");
const recall = {};
for (const [name, form, tokenize, queryOf] of [
  ["characters", indexForm, TOKENIZER, (q) => toFtsQuery(q)?.all],
  ["words", wordsForm, TOKENIZER, (q) => Array.from(segmenter.segment(q), (s) => s).filter((s) => s.isWordLike).map((s) => `"${s.segment}"`).join(" ")],
  ["trigram", (x) => x, "trigram", (q) => q.split(/\s+/).map((w) => `"${w}"`).join(" ")],
]) {
  judgedDb.exec(`CREATE VIRTUAL TABLE j_${name} USING fts5(x, tokenize='${tokenize}')`);
  const insert = judgedDb.prepare(`INSERT INTO j_${name}(rowid, x) VALUES (?, ?)`);
  for (const [i, a] of cjk.entries()) insert.run(i + 1, form(`${a.title} ${a.text}`));
  let relevant = 0;
  let found = 0;
  for (const q of judged) {
    const match = queryOf(q.query);
    let ids = [];
    try {
      ids = judgedDb.prepare(`SELECT rowid FROM j_${name} WHERE j_${name} MATCH ? LIMIT 5`).all(match).map((r) => cjk[Number(r.rowid) - 1].key);
    } catch {
      ids = []; // trigram: a query under three characters matches nothing
    }
    relevant += q.relevant.length;
    found += q.relevant.filter((k) => ids.includes(k)).length;
  }
  recall[name] = found / relevant;
}
console.log(`## Indexing words inside CJK runs: ${fmt(count)} artifacts of ~700 characters\n`);
console.log("| way | form ms (all) | insert s | index MB | query p50 ms | query max ms | judged recall (ja, zh, ko) |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const name of ["characters", "words", "trigram"]) {
  const b = built[name];
  console.log(
    `| ${name} | ${prep[name] === undefined ? "–" : fmt(prep[name])} | ${fmt(b.insertMs / 1000, 2)} | ${fmt(b.bytes / 1e6, 1)} | ${fmt(timed[name].p50, 2)} | ${fmt(timed[name].max, 2)} | ${fmt(recall[name] * 100, 0)} % |`,
  );
}
console.log("\n(trigram: queries of three characters only; a two-character word, most Chinese and Japanese words, cannot be matched.)\n");

// ---- 2. German compounds by their tails
const german = Array.from({ length: count }, (_, i) => germanText(i));
const plain = build(db, "g_plain", TOKENIZER, german);
t = performance.now();
const tailed = german.map(withTails);
const tailForm = ms(t);
const tails = build(db, "g_tails", TOKENIZER, tailed);
const headQueries = ["batterie", "energie", "wärme", "kohle", "speicher"].map((w) => `"${w}"*`);
const tailQueries = ["zellen", "speicher", "pumpe", "kraft", "werk"].map((w) => `"${w}"`);
console.log(`## German compounds: ${fmt(count)} artifacts of ~2,000 characters\n`);
console.log("| index | insert s | index MB | head query p50 ms | tail query p50 ms |");
console.log("| --- | --- | --- | --- | --- |");
console.log(`| heads only (query prefix) | ${fmt(plain.insertMs / 1000, 2)} | ${fmt(plain.bytes / 1e6, 1)} | ${fmt(timeQueries(db, "g_plain", headQueries).p50, 2)} | – |`);
console.log(`| heads and tails (tails indexed) | ${fmt((tails.insertMs + tailForm) / 1000, 2)} | ${fmt(tails.bytes / 1e6, 1)} | ${fmt(timeQueries(db, "g_tails", headQueries).p50, 2)} | ${fmt(timeQueries(db, "g_tails", tailQueries).p50, 2)} |`);
console.log(`\nTails: index ${fmt((tails.bytes / plain.bytes - 1) * 100, 0)} % larger, insert ${fmt(((tails.insertMs + tailForm) / plain.insertMs - 1) * 100, 0)} % slower.\n`);

// ---- 3. Giving existing artifacts their indexed form (0039's sweep), with every migration applied
const full = new DatabaseSync(":memory:");
const migrations = new URL("../migrations", import.meta.url).pathname;
for (const file of migrationFiles(migrations)) for (const statement of migrationStatements(migrations, file)) full.exec(statement);
full.exec("DROP TRIGGER IF EXISTS artifacts_org_write_gate");
const sweepCount = Math.min(count, 5000);
const insert = full.prepare(
  `INSERT INTO artifacts (id, org_id, artifact_type, title, content, content_text, tags, tag_index, version, created_by, created_at, updated_at)
   VALUES (?, 'org_bench', 'note', ?, '{}', ?, '[]', ' ', 1, 'usr_bench', ?, ?)`,
);
full.exec("BEGIN");
for (let i = 0; i < sweepCount; i++) insert.run(`art_${i}`, `記事 ${i}`, cjkText(i), i, i);
full.exec("COMMIT");
// Migration 0039's own listing (its statements naming artifacts_fts_words), run again over these artifacts.
const listing = migrationStatements(migrations, migrationFiles(migrations).find((f) => f.startsWith("0039"))).filter((sql) => sql.includes("artifacts_fts_words"));
t = performance.now();
for (const sql of listing) full.exec(sql);
const listingMs = ms(t);
const listed = Number(full.prepare("SELECT COUNT(*) AS n FROM artifacts_index_pending").get().n);
const read = full.prepare("SELECT p.seq AS seq, a.title AS title, a.content_text AS text, a.version AS version FROM (SELECT seq FROM artifacts_index_pending ORDER BY seq LIMIT 200) p JOIN artifacts a ON a.seq = p.seq");
const update = full.prepare("UPDATE artifacts SET search_title = ?, search_text = ? WHERE seq = ? AND version = ?");
const done = full.prepare("DELETE FROM artifacts_index_pending WHERE seq = ?");
t = performance.now();
let formMs = 0;
for (;;) {
  const batch = read.all();
  if (batch.length === 0) break;
  full.exec("BEGIN");
  for (const row of batch) {
    const f = performance.now();
    const title = indexForm(row.title);
    const text = indexForm(row.text);
    formMs += ms(f);
    update.run(title, text, row.seq, row.version);
    done.run(row.seq);
  }
  full.exec("COMMIT");
}
const sweepMs = ms(t);
console.log(`## Existing artifacts given their indexed form (the cron's sweep after migration 0039)\n`);
console.log(`Migration 0039's listing (${listing.length} statements over the index's words): ${fmt(listed)} of ${fmt(sweepCount)} artifacts listed in ${fmt(listingMs)} ms.\n`);
console.log(
  `${fmt(sweepCount)} artifacts of ~700 CJK characters, both full-text indexes kept by the triggers: ${fmt(sweepMs / sweepCount, 2)} ms an artifact (${fmt(formMs / sweepCount, 3)} ms of it the form); a million: ${fmt((sweepMs / sweepCount) * 1e6 / 1000 / 60, 0)} minutes of work, spread over five-minute runs of 20 s each (REINDEX_BUDGET_MS): ${fmt((sweepMs / sweepCount) * 1e6 / 20_000 * 5 / 60, 0)} hours.`,
);
