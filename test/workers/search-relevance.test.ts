import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { RANKING_WINDOW } from "../../src/storage/artifact-repository";
import { createPlan, ok } from "../support/plans";
import { seedTenant } from "../support/worker";

/**
 * A small judged query set: for each query, the artifact a person would expect
 * first. Ranking only the newest matches of a word in nearly every record (the
 * recent window) and dropping words that carry no topic must not move these.
 */

const CORPUS: { key: string; title: string; text: string; tags?: string[] }[] = [
  { key: "gshp", title: "Ground-source heat pumps in cold climates", text: "Ground-source heat pumps keep a seasonal COP above 3 even at -20 C, because the ground stays warm." },
  { key: "ashp", title: "Air-source heat pumps below freezing", text: "Air-source heat pumps lose efficiency below -15 C; defrost cycles cut the COP to about 1.8." },
  { key: "district", title: "District heating tariffs since 2021", text: "District heating tariffs rose 35% since 2021 in most Nordic cities, driven by fuel costs." },
  { key: "lfp", title: "LFP battery cycle life", text: "Lithium iron phosphate cells reach 6,000 cycles at 80% depth of discharge in stationary storage." },
  { key: "sodium", title: "Sodium-ion cells for home storage", text: "Sodium-ion cells trade energy density for cost and cold tolerance; first home products ship in 2026." },
  { key: "borehole", title: "Borehole drilling permits", text: "Borehole drilling for geothermal loops needs a permit in most municipalities; expect eight weeks." },
  { key: "insulation", title: "Loft insulation payback", text: "Loft insulation pays back in under four years and lowers the heat pump size a house needs." },
  // Older than every meeting note below, and the best answer to a word every note holds once ("schedule").
  { key: "schedule", title: "Install schedule review", text: "The install schedule slipped two weeks a quarter; the schedule review raised the schedule buffer for heat pump crews.", tags: ["review"] },
];

const FILLER = (i: number) => `Meeting note ${i}: the team reviewed the market and the schedule for the quarter.`;

let apiKey = "";
let orgId = "";
const idOf = new Map<string, string>();

async function search(query: string) {
  return (await ok(apiKey, "search_sources", { query, limit: 5 })) as { results: { id: string; title: string }[]; ranking: string };
}

describe("search relevance on a judged query set", () => {
  beforeAll(async () => {
    ({ apiKey, orgId } = await seedTenant());
    for (const doc of CORPUS) {
      const stored = (await ok(apiKey, "store_research", { artifactType: "finding", title: doc.title, content: { key: doc.key }, contentText: doc.text, ...(doc.tags ? { tags: doc.tags } : {}) })) as { artifactId: string };
      idOf.set(doc.key, stored.artifactId);
    }
    // Enough notes that "the" and "market" match more records than the ranking window: inserted in one statement.
    const now = Date.now();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
       INSERT INTO artifacts (id, org_id, artifact_type, title, content, content_text, tags, tag_index, version, created_by, created_at, updated_at)
       SELECT printf('art_filler%021d', i), ?2, 'note', printf('Meeting note %d', i), '{}', printf(?3, i), '[]', ' ', 1, 'usr_x', ?4 + i, ?4 + i FROM n`,
    )
      .bind(RANKING_WINDOW + 200, orgId, FILLER(0).replace("0", "%d"), now)
      .run();
  });

  it.each([
    ["rare term", "borehole", "borehole"],
    ["topic terms", "sodium-ion home storage", "sodium"],
    ["phrase", '"depth of discharge"', "lfp"],
    ["question with words that carry no topic", "what is the COP of a ground-source heat pump in the cold?", "gshp"],
    ["several terms", "district heating tariffs", "district"],
    ["prefix", "insul*", "insulation"],
  ])("%s: %j finds the expected record first, ranked by relevance", async (_cls, query, expected) => {
    const found = await search(query);
    expect(found.results[0]?.id, JSON.stringify(found.results.map((r) => r.title))).toBe(idOf.get(expected));
    expect(found.ranking).toBe("relevance");
  });

  it("filtered to a plan, ranks that plan's own matches, even of a word in nearly every record", async () => {
    const { planId } = await createPlan(apiKey);
    const inPlan = (await ok(apiKey, "store_research", { artifactType: "finding", title: "The plan's own note", content: {}, contentText: "The plan's cooperative chose the borehole field.", planId })) as { artifactId: string };
    const found = (await ok(apiKey, "search_sources", { query: "the", planId, limit: 5 })) as { results: { id: string }[]; ranking: string };
    expect(found.results.map((r) => r.id)).toEqual([inPlan.artifactId]);
    expect(found.ranking).toBe("relevance");
    const borehole = (await ok(apiKey, "search_sources", { query: "borehole", planId })) as { results: { id: string }[] };
    expect(borehole.results.map((r) => r.id)).toEqual([inPlan.artifactId]);
  });

  it("ranks a word in nearly every record among its newest matches, and says so", async () => {
    const common = await search("the");
    expect(common.ranking).toBe("recent-window");
    expect(common.results).toHaveLength(5);
    const market = await search("market");
    expect(market.ranking).toBe("recent-window");
    // Beside a word with a topic, "the" is dropped: every match is ranked again.
    const narrowed = await search("the borehole");
    expect(narrowed.ranking).toBe("relevance");
    expect(narrowed.results[0]?.id).toBe(idOf.get("borehole"));
  });
});

describe("search relevance when the best answer is old", () => {
  // Judged from the corpus: "schedule" is written for these queries; the 700 newer notes hold the word once each.
  it.each([
    ["a rare word beside a common one", "install schedule slips", {}],
    ["a phrase", '"schedule buffer"', {}],
    ["a common word narrowed by type before ranking", "schedule", { artifactType: "finding" }],
    ["a common word narrowed by tag before ranking", "schedule", { tag: "review" }],
  ])("%s: %j finds the old record first, ranked by relevance", async (_cls, query, filters) => {
    const found = (await ok(apiKey, "search_sources", { query, limit: 5, ...filters })) as { results: { id: string; title: string }[]; ranking: string };
    expect(found.results[0]?.id, JSON.stringify(found.results.map((r) => r.title))).toBe(idOf.get("schedule"));
    expect(found.ranking).toBe("relevance");
  });

  it("a common word whose best record is older than the window: the answer says it ranked the newest matches", async () => {
    const found = await search("schedule");
    // The old record may only be missing from the first place if the answer says its window was full.
    if (found.results[0]?.id !== idOf.get("schedule")) expect(found.ranking).toBe("recent-window");
    expect(found.results).toHaveLength(5);
  });
});

describe("search_sources scores in a small org", () => {
  it("gives every artifact and deliverable hit a score above 0 that orders the hits, the best 1", async () => {
    const tenant = await seedTenant();
    // Three records out of four hold the word: in so small an index its weight is tiny, which the scores must survive.
    await ok(tenant.apiKey, "store_research", { artifactType: "finding", title: "Geothermal loops", content: {}, contentText: "Geothermal geothermal geothermal loops under the garden." });
    await ok(tenant.apiKey, "store_research", { artifactType: "finding", title: "Drilling", content: {}, contentText: "A long note on drilling costs, permits, schedules, crews and one geothermal aside among many other words here." });
    await ok(tenant.apiKey, "store_research", { artifactType: "finding", title: "Unrelated", content: {}, contentText: "Nothing about the topic at all." });
    await ok(tenant.apiKey, "store_research_output", { title: "Geothermal report", mediaType: "markdown", content: "# Geothermal report\n\nGeothermal heat, geothermal wells." });
    const found = (await ok(tenant.apiKey, "search_sources", { query: "geothermal", limit: 10 })) as { results: { kind: string; title: string; relevance: number }[] };
    const scores = found.results.map((hit) => hit.relevance);
    expect(found.results.map((hit) => hit.kind).sort()).toEqual(["artifact", "artifact", "output"]);
    expect(scores.every((score) => score > 0), JSON.stringify(found.results)).toBe(true);
    expect(scores[0]).toBe(1);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(new Set(scores).size, "distinct records score apart").toBe(scores.length);
    // Within one kind the denser record ranks first (kinds are indexed apart, so only their scores are merged).
    const artifacts = found.results.filter((hit) => hit.kind === "artifact").map((hit) => hit.title);
    expect(artifacts).toEqual(["Geothermal loops", "Drilling"]);
  });
});
