/**
 * What the recent index costs an insert, in CPU time (less sensitive than wall time to other work on a
 * shared machine): the same artifacts inserted, 250 a transaction as the Worker ingest batches them, into
 * three databases built in node:sqlite — every migration before 0032 (the full index only), through 0032
 * (the database's newest 25,000 indexed again, external content, an optimize step every 1,000th insert),
 * and through 0036 (each org's newest 25,000, contentless, leaving by rowid). Only the artifacts row and
 * its triggers are written (no version row, no Worker): the difference between the three is the index.
 *
 *   node --import tsx bench/search-ingest-cost.mjs --count 60000
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { benchArtifact } from "./corpus.ts";
import { migrationFiles, migrationStatements } from "./harness.mjs";

const { values: args } = parseArgs({ options: { count: { type: "string", default: "60000" }, only: { type: "boolean", default: false }, upto: { type: "string" }, extra: { type: "string" } } });
const count = Number(args.count);
const migrations = path.join(import.meta.dirname, "..", "migrations");
const statementsOf = (file) => migrationStatements(migrations, file);
const files = migrationFiles(migrations);
const drafts = Array.from({ length: count }, (_, n) => benchArtifact(n, 2000));

function measure(label, upTo) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cairn-ingest-cost-"));
  const db = new DatabaseSync(path.join(dir, "db.sqlite"));
  try {
    for (const file of files.filter((name) => name < upTo)) for (const statement of statementsOf(file)) db.exec(statement);
    db.exec("DROP TRIGGER IF EXISTS artifacts_org_write_gate");
    // --extra: a statement run after the migrations (an FTS5 option to try, say).
    if (args.extra && upTo > "0036") db.exec(args.extra);
    const insert = db.prepare(
      `INSERT INTO artifacts (id, org_id, artifact_type, title, content, content_text, confidence, plan_id, step_id, tags, tag_index, source_url, version, created_by, created_at, updated_at)
       VALUES (?, 'org_bench', ?, ?, '{}', ?, NULL, NULL, NULL, '[]', ' ', NULL, 1, 'usr_bench', ?, ?)`,
    );
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let start = 0; start < count; start += 250) {
      db.exec("BEGIN");
      for (let n = start; n < Math.min(count, start + 250); n++) {
        const draft = drafts[n];
        insert.run(`art_bench${String(n).padStart(8, "0")}`, draft.artifactType, draft.title, draft.contentText, n, n);
      }
      db.exec("COMMIT");
    }
    const used = process.cpuUsage(cpu);
    const cpuS = (used.user + used.system) / 1e6;
    console.log(`${label}: ${count} artifacts, CPU ${cpuS.toFixed(1)} s (${((cpuS * 1e6) / count).toFixed(0)} µs each), wall ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return cpuS;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (args.upto) {
  measure(`migrations before ${args.upto}`, args.upto);
  process.exit(0);
}
if (args.only) {
  measure(`each org's newest 25,000, contentless (0036)${args.extra ? `, then ${args.extra}` : ""}`, "0037");
  process.exit(0);
}
const base = measure("full index only (before 0032)", "0032");
const database = measure("+ the database's newest 25,000 (0032)", "0033");
const perOrg = measure("+ each org's newest 25,000, contentless (0036)", "0037");
console.log(`CPU over the full index alone: 0032 ${(database / base).toFixed(2)}×, 0036 ${(perOrg / base).toFixed(2)}×`);
