import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createPlan, ok } from "../support/plans";
import { seedTenant } from "../support/worker";

/**
 * Search reads the index of the database's newest 25,000 artifacts first and the full index only
 * when that cannot answer alone and the query's words are rare enough there (FULL_INDEX_BUDGET). Here a
 * neighbour's 30,000 notes push one org's artifacts out of the recent index: a rare word must still find
 * them, a word in every note is answered from the recent index saying so, and the index stays bounded.
 */

const RECENT = 25_000;
const NEIGHBOUR_NOTES = RECENT + 5_000;

type Found = { results: { id: string; title: string }[]; ranking: string };

let a: Awaited<ReturnType<typeof seedTenant>>;
let b: Awaited<ReturnType<typeof seedTenant>>;
let oldPlanId = "";
let olderPlanId = "";
const idOf = new Map<string, string>();

const search = async (apiKey: string, query: string, filters: Record<string, unknown> = {}) => (await ok(apiKey, "search_sources", { query, limit: 5, ...filters })) as Found;
const recentHolds = async (term: string) =>
  Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts_recent_fts WHERE artifacts_recent_fts MATCH ?").bind(`"${term}"`).first("n"));
/** `count` notes of an org in one statement; id, title and text are printf patterns of the note's number (1…count). */
const insertNotes = (count: number, orgId: string, note: { id: string; title: string; text: string }) =>
  env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
     INSERT INTO artifacts (id, org_id, artifact_type, title, content, content_text, tags, tag_index, version, created_by, created_at, updated_at)
     SELECT printf(?3, i), ?2, 'note', printf(?4, i), '{}', printf(?5, i), '[]', ' ', 1, 'usr_x', ?6 + i, ?6 + i FROM n`,
  )
    .bind(count, orgId, note.id, note.title, note.text, Date.now())
    .run();

describe("search with a recent index and a full one", () => {
  beforeAll(async () => {
    a = await seedTenant();
    b = await seedTenant();
    oldPlanId = (await createPlan(a.apiKey)).planId;
    olderPlanId = (await createPlan(a.apiKey)).planId;
    const store = async (key: string, title: string, contentText: string, extra: Record<string, unknown> = {}) => {
      const stored = (await ok(a.apiKey, "store_research", { artifactType: "finding", title, content: {}, contentText, ...extra })) as { artifactId: string };
      idOf.set(key, stored.artifactId);
    };
    // Org A's research, older than everything the neighbour writes next.
    await store("borehole", "Borehole drilling permits", "Borehole drilling for geothermal loops needs a permit; expect eight weeks.", { planId: oldPlanId });
    await store("gshp", "Ground-source heat pumps in cold climates", "Ground-source heat pumps keep a seasonal COP above 3 even at -20 C.");
    await store("quarry", "Quarry noise limits", "The quarry noise survey measured 55 dB at the nearest house.");
    await store("pit", "Pit depth", "The quarry pit reaches 40 m below the water table.", { planId: olderPlanId });
    // The neighbour's notes, in one statement: they fill the recent index and push A's artifacts out of it.
    await insertNotes(NEIGHBOUR_NOTES, b.orgId, { id: "art_neighbour%019d", title: "Neighbour note %d", text: "the neighbour reviewed the quarry schedule, note %d" });
    // A's newest artifact, in the recent index.
    await store("recent", "Quarry noise at night", "Night work at the quarry raised complaints; the council set a 45 dB limit.", { planId: oldPlanId });
  }, 120_000);

  it("holds only the newest 25,000 artifacts: the neighbour's first notes and A's older artifacts have left it", async () => {
    expect(Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts_recent_seq").first("n"))).toBe(RECENT);
    expect(await recentHolds("neighbour")).toBe(RECENT - 1);
    expect(await recentHolds("borehole")).toBe(0);
    expect(Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts_fts WHERE artifacts_fts MATCH 'borehole'").first("n"))).toBe(1);
    const firstNote = await env.DB.prepare("SELECT seq FROM artifacts WHERE id = ?").bind(`art_neighbour${"1".padStart(19, "0")}`).first<number>("seq");
    expect(await env.DB.prepare("SELECT seq FROM artifacts_recent_seq WHERE seq = ?").bind(firstNote).first()).toBeNull();
  });

  it("costs an insert a bounded number of rows read once the recent index is full, however many artifacts are older", async () => {
    // The artifact that leaves is found from the recent index's own list, not by walking every older artifact
    // (SQLite's first plan for the eviction walked all 5,000 older notes per insert: a 1,000,000-artifact
    // database slowed to a crawl).
    const inserted = await insertNotes(1, b.orgId, { id: "art_neighbourextra0000000000", title: "Neighbour extra", text: "an extra neighbour note" });
    expect(inserted.meta.rows_read).toBeLessThan(500);
    expect(Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts_recent_seq").first("n"))).toBe(RECENT);
  });

  it("finds an org's artifacts older than the recent index, ranked by relevance", async () => {
    const rare = await search(a.apiKey, "borehole permits");
    expect(rare.results.map((hit) => hit.id)).toEqual([idOf.get("borehole")]);
    expect(rare.ranking).toBe("relevance");
    const phrase = await search(a.apiKey, '"seasonal COP"');
    expect(phrase.results[0]?.id).toBe(idOf.get("gshp"));
  });

  it("answers a word the full index holds too often for one search from the recent index alone, and says so", async () => {
    // Every neighbour note holds "quarry": the full index would walk 30,000 records for it (over the budget).
    // A's newest match is ranked; its older one is not, and the answer says the newest were ranked.
    const shared = await search(a.apiKey, "quarry");
    expect(shared.results.map((hit) => hit.id)).toEqual([idOf.get("recent")]);
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

  it("answers the neighbour's common word from the recent index, saying it ranked the newest matches", async () => {
    const common = await search(b.apiKey, "quarry schedule");
    expect(common.ranking).toBe("recent-window");
    expect(common.results).toHaveLength(5);
    for (const hit of common.results) expect(hit.title).toMatch(/^Neighbour note \d+$/);
    // The newest are ranked: none but the newest 600 notes can be among them.
    for (const hit of common.results) expect(Number(hit.title.split(" ").at(-1))).toBeGreaterThan(NEIGHBOUR_NOTES - 600);
  });

  it("keeps the recent index equal to each artifact as it is rewritten and deleted", async () => {
    const recentId = idOf.get("recent") as string;
    await ok(a.apiKey, "store_research", { artifactId: recentId, artifactType: "finding", title: "Quarry noise at night", content: {}, contentText: "Night blasting at the quarry: the council set a 45 dB limit after the vibration survey." });
    expect(await recentHolds("blasting")).toBe(1);
    expect(await recentHolds("complaints")).toBe(0);
    expect((await search(a.apiKey, "blasting vibration")).results.map((hit) => hit.id)).toEqual([recentId]);
    expect((await search(a.apiKey, "complaints")).results).toHaveLength(0);
    await ok(a.apiKey, "delete_artifact", { artifactId: recentId, reason: "Superseded by the council decision" });
    expect(await recentHolds("blasting")).toBe(0);
    expect(Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts_recent_seq").first("n"))).toBe(RECENT - 1);
    // An artifact stored after the delete enters; the index stays whole (FTS5 checks its own structure).
    const next = (await ok(a.apiKey, "store_research", { artifactType: "finding", title: "Blasting schedule", content: {}, contentText: "Blasting only on weekdays." })) as { artifactId: string };
    expect((await search(a.apiKey, "blasting")).results.map((hit) => hit.id)).toEqual([next.artifactId]);
    await env.DB.prepare("INSERT INTO artifacts_recent_fts(artifacts_recent_fts, rank) VALUES ('integrity-check', 0)").run();
  });

  it("merges away what left the recent index: every 1,000th insert does a step of optimize", async () => {
    // Each artifact that leaves adds a delete marker that every search of the index reads until a merge drops
    // it (75,000 in and out made a search 20 times slower). The step is the only write an insert makes beyond
    // its own rows.
    const insert = (n: number) =>
      insertNotes(n, b.orgId, { id: `art_merge${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}%05d`, title: "Merge step", text: "merge step note %d of the quarry" });
    const last = Number(await env.DB.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'artifacts'").first("seq"));
    // Up to 20 before a multiple of 1,000 (the inserts in between do their own steps), then one by one: each
    // insert of its own adds a small segment to the index, which the step merges with the rest.
    const toBefore = (((978 - (last % 1000)) % 1000) + 1000) % 1000;
    if (toBefore > 0) await insert(toBefore);
    for (let i = 0; i < 20; i++) await insert(1);
    // What an insert changes in the index's pages (FTS5's %_data rows; D1 does not count those as written).
    const pages = async () => Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifacts_recent_fts_data").first("n"));
    const changed = async () => {
      const before = await pages();
      await insert(1);
      return Math.abs((await pages()) - before);
    };
    const plain = await changed();
    const stepping = await changed();
    expect(Number(await env.DB.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'artifacts'").first("seq")) % 1000).toBe(0);
    expect(plain).toBeLessThan(5);
    expect(stepping).toBeGreaterThan(10);
  });
});
