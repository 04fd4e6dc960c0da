/**
 * How long the recent-index migrations take on a large database, statement by statement, without workerd
 * (D1 stops a query at 30 s: each statement must stay well under it). Builds a database of `--count`
 * artifacts of the bench corpus (~2 KB of text each) in node:sqlite with every migration before 0032,
 * spread over `--orgs` orgs (the first holding `--share` of them, the rest shared evenly, stored
 * interleaved), then applies every later migration (0032, 0036, 0039…) and prints each statement's time.
 * The full-text index of every artifact (0003) is left out of the build: 0032 and 0036 neither read nor
 * write it, and 0039 makes it again from the artifacts.
 *
 *   node --import tsx bench/search-migrate.mjs --count 1000000 --orgs 1
 *   node --import tsx bench/search-migrate.mjs --count 1000000 --orgs 100 --share 0.01
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { benchArtifact } from "./corpus.ts";
import { migrationFiles, migrationStatements } from "./harness.mjs";

const { values: args } = parseArgs({
  options: { count: { type: "string", default: "1000000" }, orgs: { type: "string", default: "1" }, share: { type: "string" }, dir: { type: "string" } },
});
const count = Number(args.count);
const orgs = Number(args.orgs);
const share = args.share === undefined ? 1 / orgs : Number(args.share);
const dir = mkdtempSync(path.join(args.dir ?? os.tmpdir(), "cairn-migrate-"));
const db = new DatabaseSync(path.join(dir, "db.sqlite"));
const migrations = path.join(import.meta.dirname, "..", "migrations");
const statementsOf = (file) => migrationStatements(migrations, file);
const files = migrationFiles(migrations);
const timed = files.filter((name) => name >= "0032");
try {
  for (const file of files.filter((name) => name < "0032")) for (const statement of statementsOf(file)) db.exec(statement);
  db.exec("DROP TRIGGER artifacts_fts_insert; DROP TRIGGER IF EXISTS artifacts_org_write_gate");
  const orgIds = Array.from({ length: orgs }, (_, i) => `org_bench${String(i).padStart(4, "0")}`);
  // Orgs of equal shares take turns; otherwise every k-th artifact (k = 1 / the others' share) is another
  // org's, in turn, and the rest the first org's.
  const every = share < 1 ? Math.round(1 / (1 - share)) : 0;
  const ofOrg = (n) =>
    orgs === 1 ? orgIds[0] : Math.abs(share - 1 / orgs) < 1e-9 ? orgIds[n % orgs] : n % every === every - 1 ? orgIds[1 + (Math.floor(n / every) % (orgs - 1))] : orgIds[0];
  const insert = db.prepare(
    `INSERT INTO artifacts (id, org_id, artifact_type, title, content, content_text, confidence, plan_id, step_id, tags, tag_index, source_url, version, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, '{}', ?, NULL, NULL, NULL, '[]', ' ', NULL, 1, 'usr_bench', ?, ?)`,
  );
  const started = performance.now();
  for (let start = 0; start < count; start += 20_000) {
    db.exec("BEGIN");
    for (let n = start; n < Math.min(count, start + 20_000); n++) {
      const draft = benchArtifact(n, 2000);
      insert.run(`art_bench${String(n).padStart(8, "0")}`, ofOrg(n), draft.artifactType, draft.title, draft.contentText, n, n);
    }
    db.exec("COMMIT");
  }
  const perOrg = db.prepare("SELECT org_id, COUNT(*) AS n FROM artifacts GROUP BY org_id ORDER BY n DESC LIMIT 3").all();
  console.log(`${count} artifacts in ${orgs} org(s) built in ${((performance.now() - started) / 1000).toFixed(0)} s; largest: ${perOrg.map((o) => o.n).join(", ")}`);
  for (const file of timed) {
    let total = 0;
    for (const statement of statementsOf(file)) {
      const t = performance.now();
      db.exec(statement);
      const ms = performance.now() - t;
      total += ms;
      const head = statement.split("\n").filter((line) => !line.startsWith("--")).join(" ").slice(0, 90);
      if (ms >= 50) console.log(`  ${file}: ${(ms / 1000).toFixed(2)} s  ${head}`);
    }
    console.log(`${file}: ${(total / 1000).toFixed(1)} s in all`);
  }
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
