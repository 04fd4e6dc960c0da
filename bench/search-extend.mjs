/**
 * Grows a kept `bench:search` database to a larger count without workerd: the same rows
 * `saveArtifact` + `d1ArtifactRepository.save` write for bench artifact n (the artifact row,
 * its first version, the FTS5 index through the same triggers), inserted with node:sqlite in
 * large transactions. On a shared 2-core machine the Worker ingest ran at 240–400 artifacts/s
 * (40–70 min for a million); this takes a fraction of that. The org, its user and the plans
 * come from the rows already there (artifact n belongs to plan n % 100 when that is below 5,
 * as the Worker ingest does).
 *
 *   node --import tsx bench/search-extend.mjs --db <D1 .sqlite file> --count 1000000 [--truncate]
 *
 * `--truncate` instead deletes every artifact numbered `count` or above (a smaller database from a larger one).
 */
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { normalizeTags } from "../src/domain/research/artifacts.ts";
import { newId } from "../src/domain/ids.ts";
import { benchArtifact } from "./corpus.ts";

const { values: args } = parseArgs({ options: { db: { type: "string" }, count: { type: "string" }, truncate: { type: "boolean", default: false }, "text-chars": { type: "string", default: "2000" } } });
const target = Number(args.count);
const textChars = Number(args["text-chars"]);
const db = new DatabaseSync(args.db);
db.exec("PRAGMA cache_size = -1000000");
const epochMs = Date.parse("2026-01-01T00:00:00Z");
const { org_id: orgId, created_by: userId, n: have } = db.prepare("SELECT org_id, created_by, COUNT(*) AS n FROM artifacts GROUP BY org_id, created_by ORDER BY n DESC LIMIT 1").get();
// Artifact n was created at epoch + n seconds: its number is recovered from created_at.
const numberOf = (createdAt) => Math.round((createdAt - epochMs) / 1000);
if (args.truncate) {
  db.prepare("DELETE FROM artifact_versions WHERE org_id = ? AND created_at >= ?").run(orgId, epochMs + target * 1000);
  const removed = db.prepare("DELETE FROM artifacts WHERE org_id = ? AND created_at >= ?").run(orgId, epochMs + target * 1000);
  console.log(`removed ${removed.changes} artifacts; ${target} left`);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  process.exit(0);
}
const planIds = db
  .prepare("SELECT plan_id, MIN(created_at) AS first FROM artifacts WHERE org_id = ? AND plan_id IS NOT NULL GROUP BY plan_id ORDER BY first")
  .all(orgId)
  .map((row) => row.plan_id);
const last = db.prepare("SELECT MAX(created_at) AS at FROM artifacts WHERE org_id = ? AND created_at >= ?").get(orgId, epochMs).at;
const from = numberOf(last) + 1;
console.log(`org ${orgId}: ${have} artifacts, next number ${from}, plans ${planIds.length}; growing to ${target}`);
const insertArtifact = db.prepare(
  `INSERT INTO artifacts (id, org_id, artifact_type, title, content, content_text, confidence, plan_id, step_id, tags, tag_index, source_url, version, created_by, created_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, 1, ?, ?, ?)`,
);
const insertVersion = db.prepare(
  `INSERT INTO artifact_versions (artifact_id, version, org_id, title, content, content_text, confidence, tags, source_url, created_by, created_at)
   VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const started = performance.now();
const STEP = 10_000;
for (let start = from; start < target; start += STEP) {
  db.exec("BEGIN");
  for (let n = start; n < Math.min(target, start + STEP); n++) {
    const draft = benchArtifact(n, textChars);
    const slot = n % 100;
    const planId = slot < planIds.length ? planIds[slot] : null;
    const tags = normalizeTags(draft.tags);
    const id = newId("art");
    const at = epochMs + n * 1000;
    const content = JSON.stringify(draft.content);
    insertArtifact.run(id, orgId, draft.artifactType, draft.title, content, draft.contentText, draft.confidence, planId, JSON.stringify(tags), ` ${tags.join(" ")} `, draft.sourceUrl, userId, at, at);
    insertVersion.run(id, orgId, draft.title, content, draft.contentText, draft.confidence, JSON.stringify(tags), draft.sourceUrl, userId, at);
  }
  db.exec("COMMIT");
  const done = Math.min(target, start + STEP);
  const seconds = (performance.now() - started) / 1000;
  console.log(`  ${done} artifacts, ${Math.round((done - from) / seconds)}/s`);
}
db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
console.log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
