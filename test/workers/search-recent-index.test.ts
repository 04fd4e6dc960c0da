import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import recentPerOrg from "../../migrations/0036_artifacts_recent_per_org.sql";
import recentUpkeep from "../../migrations/0040_artifacts_recent_window_upkeep.sql";
import { createPlan, ok } from "../support/plans";
import { seedTenant } from "../support/worker";

/**
 * Search reads the recent index, each org's own newest 25,000 artifacts, first and the full index only
 * when that cannot answer alone and the query's words are rare enough in the org's own records
 * (FULL_INDEX_BUDGET). Here org A's own 30,000 notes push its older research out of its window: a rare
 * word must still find it, a word in every note is answered from the recent index saying so, and the
 * index stays bounded. Beside A, a small org searches the same as it did alone.
 */

const RECENT = 25_000;
const NOTES = RECENT + 5_000;

type Found = { results: { id: string; title: string }[]; ranking: string };

let a: Awaited<ReturnType<typeof seedTenant>>;
let quiet: Awaited<ReturnType<typeof seedTenant>>;
let oldPlanId = "";
let olderPlanId = "";
let quietPlanId = "";
const idOf = new Map<string, string>();
/** The quiet org's queries and what they answered before A stored anything. */
const QUIET_QUERIES: [string, Record<string, unknown>][] = [
  ["quarry", {}],
  ['"quarry noise"', {}],
  ["quarry", { planId: "quiet" }],
  ["borehole permits", {}],
  ["noise depth", {}],
  ["the", {}],
  ["quarry", { artifactType: "finding" }],
];
const quietAlone: unknown[] = [];

const search = async (apiKey: string, query: string, filters: Record<string, unknown> = {}) => (await ok(apiKey, "search_sources", { query, limit: 5, ...filters })) as Found;
const recentHolds = async (term: string) =>
  Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts_recent_fts WHERE artifacts_recent_fts MATCH ?").bind(`"${term}"`).first("n"));
/** An org's window: where it begins (its oldest member's seq) and how many members it has (migration 0040). */
const windowOf = async (orgId: string) => (await env.DB.prepare("SELECT floor, members FROM artifacts_recent_orgs WHERE org_id = ?").bind(orgId).first<{ floor: number | null; members: number }>()) ?? { floor: null, members: 0 };
const members = async (orgId: string) => (await windowOf(orgId)).members;
/** The org's records in the recent index (matched by its key) and its artifacts from the window's floor on: both are its members. */
const heldFor = async (orgId: string) => {
  const { floor } = await windowOf(orgId);
  const key = orgId.replace(/[_-]/g, "");
  const inIndex = Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts_recent_fts WHERE artifacts_recent_fts MATCH ?").bind(`org_key : "${key}"`).first("n"));
  const fromFloor = floor === null ? 0 : Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts WHERE org_id = ? AND seq >= ?").bind(orgId, floor).first("n"));
  return { inIndex, fromFloor };
};
/** Runs a migration file's statements, as `wrangler d1 migrations apply` does (one batch). */
const migrate = (sql: string) =>
  env.DB.batch(
    sql
      .split("--> statement-breakpoint")
      .map((statement) => statement.trim())
      .filter(Boolean)
      .map((statement) => env.DB.prepare(statement)),
  );
/** `count` notes of an org in one statement; id, title and text are printf patterns of the note's number (from + 1…from + count). */
const insertNotes = (count: number, orgId: string, note: { id: string; title: string; text: string }, from = 0) =>
  env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT ?7 + 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?7 + ?1)
     INSERT INTO artifacts (id, org_id, artifact_type, title, content, content_text, tags, tag_index, version, created_by, created_at, updated_at)
     SELECT printf(?3, i), ?2, 'note', printf(?4, i), '{}', printf(?5, i), '[]', ' ', 1, 'usr_x', ?6 + i, ?6 + i FROM n`,
  )
    .bind(count, orgId, note.id, note.title, note.text, Date.now(), from)
    .run();
/** What the quiet org's queries answer: the hits in order and how they were ranked. */
const quietAnswers = async () => {
  const answers: unknown[] = [];
  for (const [query, filters] of QUIET_QUERIES) {
    const found = await search(quiet.apiKey, query, filters.planId ? { ...filters, planId: quietPlanId } : filters);
    answers.push({ query, filters, ids: found.results.map((hit) => hit.id), ranking: found.ranking });
  }
  return answers;
};

describe("search with a recent index and a full one", () => {
  beforeAll(async () => {
    a = await seedTenant();
    quiet = await seedTenant();
    oldPlanId = (await createPlan(a.apiKey)).planId;
    olderPlanId = (await createPlan(a.apiKey)).planId;
    quietPlanId = (await createPlan(quiet.apiKey)).planId;
    const store = async (apiKey: string, key: string, title: string, contentText: string, extra: Record<string, unknown> = {}) => {
      const stored = (await ok(apiKey, "store_research", { artifactType: "finding", title, content: {}, contentText, ...extra })) as { artifactId: string };
      idOf.set(key, stored.artifactId);
    };
    // The quiet org's research, searched before anything else is stored, then again beside A's.
    await store(quiet.apiKey, "quiet-quarry", "Quarry noise limits", "The quarry noise survey measured 55 dB at the nearest house.");
    await store(quiet.apiKey, "quiet-pit", "Pit depth", "The quarry pit reaches 40 m below the water table.", { planId: quietPlanId });
    await store(quiet.apiKey, "quiet-borehole", "Borehole drilling permits", "Borehole drilling for geothermal loops needs a permit; expect eight weeks.");
    await store(quiet.apiKey, "quiet-night", "Quarry noise at night", "Night work at the quarry raised complaints; the council set a 45 dB limit.", { planId: quietPlanId });
    quietAlone.push(...(await quietAnswers()));
    // Org A's research, older than its own notes stored next.
    await store(a.apiKey, "borehole", "Borehole drilling permits", "Borehole drilling for geothermal loops needs a permit; expect eight weeks.", { planId: oldPlanId });
    await store(a.apiKey, "gshp", "Ground-source heat pumps in cold climates", "Ground-source heat pumps keep a seasonal COP above 3 even at -20 C.");
    await store(a.apiKey, "quarry", "Quarry noise limits", "The quarry noise survey measured 55 dB at the nearest house.");
    await store(a.apiKey, "pit", "Pit depth", "The quarry pit reaches 40 m below the water table.", { planId: olderPlanId });
    // A's notes, 1,000 a statement (each its own transaction, as stored notes come): they fill A's window in the
    // recent index and push its older artifacts out of it.
    for (let from = 0; from < NOTES; from += 1_000) {
      await insertNotes(1_000, a.orgId, { id: "art_note%019d", title: "Site note %d", text: "the site team reviewed the quarry schedule, note %d" }, from);
    }
    // A's newest artifact, in its window.
    await store(a.apiKey, "recent", "Quarry noise at night", "Night work at the quarry raised complaints; the council set a 45 dB limit.", { planId: oldPlanId });
  }, 120_000);

  it("answers an org the same beside a neighbour that stored 30,000 notes with its words as it did alone", async () => {
    // Alone, each query of the quiet org ranked all its own matches; A's notes hold "quarry" and "the" 30,000
    // times, and A's window is full: none of that may change which of the quiet org's artifacts are found.
    expect(quietAlone.some((answer) => (answer as { ids: string[] }).ids.length >= 2)).toBe(true);
    expect(await quietAnswers()).toEqual(quietAlone);
  });

  it("holds each org's newest 25,000 artifacts: A's first notes and older artifacts have left it, the quiet org's stay", async () => {
    expect(await members(a.orgId)).toBe(RECENT);
    expect(await members(quiet.orgId)).toBe(4);
    expect(await recentHolds("site")).toBe(RECENT - 1);
    expect(await recentHolds("borehole")).toBe(1);
    expect(Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts_fts WHERE artifacts_fts MATCH 'borehole'").first("n"))).toBe(2);
    const firstNote = await env.DB.prepare("SELECT seq FROM artifacts WHERE id = ?").bind(`art_note${"1".padStart(19, "0")}`).first<number>("seq");
    expect((await windowOf(a.orgId)).floor).toBeGreaterThan(firstNote ?? Number.POSITIVE_INFINITY);
    // The window is every artifact of the org from its floor on, each in the index once.
    expect(await heldFor(a.orgId)).toEqual({ inIndex: RECENT, fromFloor: RECENT });
    expect(await heldFor(quiet.orgId)).toEqual({ inIndex: 4, fromFloor: 4 });
  });

  it("costs an insert a bounded number of rows read once the recent index is full, however many artifacts are older", async () => {
    // The artifact that leaves is found from the recent index's own list, not by walking every older artifact
    // (SQLite's first plan for the eviction walked all 5,000 older notes per insert: a 1,000,000-artifact
    // database slowed to a crawl).
    const inserted = await insertNotes(1, a.orgId, { id: "art_noteextra0000000000", title: "Site extra", text: "an extra site note" });
    expect(inserted.meta.rows_read).toBeLessThan(500);
    expect(await members(a.orgId)).toBe(RECENT);
  });

  it("finds an org's artifacts older than the recent index, ranked by relevance", async () => {
    const rare = await search(a.apiKey, "borehole permits");
    expect(rare.results.map((hit) => hit.id)).toEqual([idOf.get("borehole")]);
    expect(rare.ranking).toBe("relevance");
    const phrase = await search(a.apiKey, '"seasonal COP"');
    expect(phrase.results[0]?.id).toBe(idOf.get("gshp"));
  });

  it("answers a word the full index holds too often for one search from the recent index alone, and says so", async () => {
    // Every note of A's holds "quarry": the full index would walk 30,000 records for it (over the budget).
    // A's newest matches are ranked (its newest finding first, by its title); its older finding is not, and
    // the answer says the newest were ranked.
    const shared = await search(a.apiKey, "quarry");
    expect(shared.results[0]?.id).toBe(idOf.get("recent"));
    expect(shared.results.map((hit) => hit.id)).not.toContain(idOf.get("quarry"));
    expect(shared.ranking).toBe("recent-window");
    const phrase = await search(a.apiKey, '"quarry noise"');
    expect(phrase.results.map((hit) => hit.id)).toEqual([idOf.get("recent")]);
    expect(phrase.ranking).toBe("recent-window");
    // Filtered to a plan with artifacts in the recent index, the same: its recent matches, said so.
    const inPlan = await search(a.apiKey, "quarry", { planId: oldPlanId });
    expect(inPlan.results.map((hit) => hit.id)).toEqual([idOf.get("recent")]);
    expect(inPlan.ranking).toBe("recent-window");
    // A plan with none in the recent index has its own artifacts ranked in the full index, however common the word.
    const olderPlan = await search(a.apiKey, "quarry", { planId: olderPlanId });
    expect(olderPlan.results.map((hit) => hit.id)).toEqual([idOf.get("pit")]);
    expect(olderPlan.ranking).toBe("relevance");
  });

  it("filtered to a plan whose artifacts reach back beyond the recent index, ranks all of them", async () => {
    expect((await search(a.apiKey, "borehole", { planId: oldPlanId })).results.map((hit) => hit.id)).toEqual([idOf.get("borehole")]);
    expect((await search(a.apiKey, "quarry", { planId: oldPlanId })).results.map((hit) => hit.id)).toEqual([idOf.get("recent")]);
    const either = await search(a.apiKey, "drilling night", { planId: oldPlanId });
    expect(new Set(either.results.map((hit) => hit.id))).toEqual(new Set([idOf.get("borehole"), idOf.get("recent")]));
  });

  it("answers a common word of many notes from the recent index, saying it ranked the newest matches", async () => {
    const common = await search(a.apiKey, "quarry schedule");
    expect(common.ranking).toBe("recent-window");
    expect(common.results).toHaveLength(5);
    for (const hit of common.results) expect(hit.title).toMatch(/^Site note \d+$/);
    // The newest are ranked: none but the newest 600 notes can be among them.
    for (const hit of common.results) expect(Number(hit.title.split(" ").at(-1))).toBeGreaterThan(NOTES - 600);
  });

  it("keeps the recent index equal to each artifact as it is rewritten and deleted", async () => {
    const recentId = idOf.get("recent") as string;
    await ok(a.apiKey, "store_research", { artifactId: recentId, artifactType: "finding", title: "Quarry noise at night", content: {}, contentText: "Night blasting at the quarry: the council set a 45 dB limit after the vibration survey." });
    expect(await recentHolds("blasting")).toBe(1);
    expect(await recentHolds("complaints")).toBe(1); // the quiet org's
    expect((await search(a.apiKey, "blasting vibration")).results.map((hit) => hit.id)).toEqual([recentId]);
    expect((await search(a.apiKey, "complaints")).results).toHaveLength(0);
    await ok(a.apiKey, "delete_artifact", { artifactId: recentId, reason: "Superseded by the council decision" });
    expect(await recentHolds("blasting")).toBe(0);
    expect(await members(a.orgId)).toBe(RECENT - 1);
    // An artifact stored after the delete enters; the index stays whole (FTS5 checks its own structure).
    const next = (await ok(a.apiKey, "store_research", { artifactType: "finding", title: "Blasting schedule", content: {}, contentText: "Blasting only on weekdays." })) as { artifactId: string };
    expect((await search(a.apiKey, "blasting")).results.map((hit) => hit.id)).toEqual([next.artifactId]);
    await env.DB.prepare("INSERT INTO artifacts_recent_fts(artifacts_recent_fts, rank) VALUES ('integrity-check', 0)").run();
  });

  it("moves an org's window on when its oldest member is deleted, and forgets the org with its last artifact", async () => {
    const small = await seedTenant();
    const stored: string[] = [];
    for (const title of ["Kiln permits", "Kiln emissions", "Kiln fuel costs"]) {
      stored.push(((await ok(small.apiKey, "store_research", { artifactType: "finding", title, content: {}, contentText: `${title} for the brickworks.` })) as { artifactId: string }).artifactId);
    }
    const seqOf = async (id: string) => Number(await env.DB.prepare("SELECT seq FROM artifacts WHERE id = ?").bind(id).first("seq"));
    expect(await windowOf(small.orgId)).toEqual({ floor: await seqOf(stored[0] as string), members: 3 });
    const second = await seqOf(stored[1] as string);
    await ok(small.apiKey, "delete_artifact", { artifactId: stored[0], reason: "Duplicate" });
    expect(await windowOf(small.orgId)).toEqual({ floor: second, members: 2 });
    expect(await heldFor(small.orgId)).toEqual({ inIndex: 2, fromFloor: 2 });
    for (const id of stored.slice(1)) await ok(small.apiKey, "delete_artifact", { artifactId: id, reason: "Duplicate" });
    expect(await env.DB.prepare("SELECT org_id FROM artifacts_recent_orgs WHERE org_id = ?").bind(small.orgId).first()).toBeNull();
    expect(await recentHolds("kiln")).toBe(0);
    // Storing again starts a new window at the new artifact.
    const again = ((await ok(small.apiKey, "store_research", { artifactType: "finding", title: "Kiln permits", content: {}, contentText: "Kiln permits, again." })) as { artifactId: string }).artifactId;
    expect(await windowOf(small.orgId)).toEqual({ floor: await seqOf(again), members: 1 });
    expect((await search(small.apiKey, "kiln")).results.map((hit) => hit.id)).toEqual([again]);
  });

  it("drops what left the recent index by rowid, and what left does not pile up in the index", async () => {
    // An artifact leaving is a tombstone in its segment (its text is not read again); FTS5 merges a segment
    // once a tenth of it is deleted. A's 5,000 notes that left (in 5 transactions) must not stay in what a
    // search reads: the index is within 1.5× of the same members freshly merged.
    const size = async () => Number(await env.DB.prepare("SELECT SUM(LENGTH(block)) AS n FROM artifacts_recent_fts_data").first("n"));
    const churned = await size();
    await env.DB.prepare("INSERT INTO artifacts_recent_fts(artifacts_recent_fts) VALUES ('optimize')").run();
    const merged = await size();
    expect(churned / merged, JSON.stringify({ churned, merged })).toBeLessThan(1.5);
    expect(await recentHolds("site")).toBe((await members(a.orgId)) - 1);
  });

  it("migrates a database whose window 0036 kept: the same members, the same answers, and the window moves on after", async () => {
    // What the searches answer with the window this code kept from the start.
    const queries: [Awaited<ReturnType<typeof seedTenant>>, string, Record<string, unknown>][] = [
      [a, "quarry", {}],
      [a, "borehole permits", {}],
      [a, '"seasonal COP"', {}],
      [a, "quarry schedule", {}],
      [a, "quarry", { planId: olderPlanId }],
      [quiet, "quarry", {}],
      [quiet, "the", {}],
    ];
    const answers = async () => {
      const found: unknown[] = [];
      for (const [org, query, filters] of queries) {
        const answer = await search(org.apiKey, query, filters);
        found.push({ query, ids: answer.results.map((hit) => hit.id), ranking: answer.ranking });
      }
      return found;
    };
    const before = await answers();
    const windows = [await windowOf(a.orgId), await windowOf(quiet.orgId)];
    // Back to 0036's schema and triggers, its window built from the artifacts as that migration builds it.
    for (const trigger of ["insert", "delete", "update"]) await env.DB.prepare(`DROP TRIGGER artifacts_recent_${trigger}`).run();
    await env.DB.prepare("DROP TABLE artifacts_recent_orgs").run();
    await migrate(recentPerOrg);
    // 0036's own list of members: each org's newest 25,000 artifacts.
    const listed = Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts_recent WHERE org_id = ?").bind(a.orgId).first("n"));
    expect(listed).toBe(RECENT);
    await migrate(recentUpkeep);
    expect([await windowOf(a.orgId), await windowOf(quiet.orgId)]).toEqual(windows);
    expect(await heldFor(a.orgId)).toEqual({ inIndex: RECENT, fromFloor: RECENT });
    expect(await answers()).toEqual(before);
    // The next insert moves A's window on by one: its oldest member leaves.
    const { floor } = windows[0] as { floor: number };
    await insertNotes(1, a.orgId, { id: "art_notemigrated000000", title: "Site after the migration", text: "a site note after the migration" });
    const moved = await windowOf(a.orgId);
    expect(moved.members).toBe(RECENT);
    expect(moved.floor).toBeGreaterThan(floor);
    expect(await heldFor(a.orgId)).toEqual({ inIndex: RECENT, fromFloor: RECENT });
  });
});
