import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SEPARATOR } from "../domain/research/search-text";
import type { Env } from "../env";
import { indexPendingEverywhere } from "../platform/search-reindex";
import { Visitor } from "../../test/support/dashboard";
import { createPlan, ok } from "../../test/support/plans";
import { callTool, countRows, fetchWorker, mcpRequest, readJsonRpc, rest, seedApiKey, seedTenant, seedUser } from "../../test/support/worker";

const CORPUS = [
  { title: "Running shoes for marathon training", contentText: "Runners who run long distances need cushioned shoes. Running economy improves.", tags: ["sport"] },
  { title: "Vector databases compared", contentText: "Embedded vector search engines: sqlite-vss, LanceDB and Chroma for on-device retrieval.", tags: ["databases", "ai"] },
  { title: "Heat pumps in cold climates", contentText: "Air source heat pumps keep working at minus twenty degrees with modern compressors.", tags: ["energy"] },
  { title: "Notes", contentText: "A short note that mentions vector databases once in passing.", tags: [] },
];

async function seedCorpus(key: string) {
  const ids: string[] = [];
  for (const doc of CORPUS) {
    const stored = await ok(key, "store_research", { artifactType: "finding", content: { summary: doc.title }, ...doc });
    ids.push(String(stored.artifactId));
  }
  return ids;
}

/** One read's budget (ARTIFACT_LIMITS.readChars) and a little for the pointer: what issue 4 bounds. */
const READ_CHARS = 20_500;

/** Every page of a paged read, following nextOffset; each page within one read's budget. */
async function readAll(key: string, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const pages: Record<string, unknown>[] = [];
  let offset: unknown = 0;
  while (typeof offset === "number" && pages.length < 100) {
    const page = await ok(key, name, offset === 0 ? args : { ...args, offset });
    expect(JSON.stringify(page).length).toBeLessThanOrEqual(READ_CHARS);
    expect(page.offset).toBe(offset);
    pages.push(page);
    offset = page.nextOffset;
  }
  expect(offset).toBeNull();
  return pages;
}

const titles = (body: Record<string, unknown>) => (body.results as { title: string }[]).map((r) => r.title);

describe("store_research and reading artifacts back", () => {
  it("stores, versions instead of overwriting, and reads any version back", async () => {
    const { apiKey } = await seedTenant();
    const first = await ok(apiKey, "store_research", { artifactType: "analysis", title: "Draft", content: { v: 1 }, contentText: "first text", tags: ["Draft", "draft "] });
    expect(first).toMatchObject({ version: 1, created: true });
    const second = await ok(apiKey, "store_research", { artifactId: first.artifactId, artifactType: "analysis", title: "Final", content: { v: 2 }, contentText: "second text" });
    expect(second).toMatchObject({ artifactId: first.artifactId, version: 2, created: false });
    expect(await ok(apiKey, "get_artifact", { artifactId: first.artifactId })).toMatchObject({ title: "Final", content: { v: 2 }, version: 2, trust: "untrusted-external-content" });
    expect(await ok(apiKey, "get_artifact", { artifactId: first.artifactId, version: 1 })).toMatchObject({ title: "Draft", content: { v: 1 }, tags: ["draft"], version: 1 });
    const missingVersion = await callTool(apiKey, "get_artifact", { artifactId: first.artifactId, version: 3 });
    expect(missingVersion.body).toMatchObject({ error: { code: "not_found" } });
  });

  it("lets one of two concurrent new versions win and answers the other with a conflict", async () => {
    const { apiKey } = await seedTenant();
    const { artifactId } = await ok(apiKey, "store_research", { artifactType: "note", title: "v1", content: {}, contentText: "one" });
    const results = await Promise.all(
      ["a", "b", "c", "d"].map((title) => callTool(apiKey, "store_research", { artifactId, artifactType: "note", title, content: {}, contentText: title })),
    );
    const won = results.filter((r) => !r.isError);
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const lost of results.filter((r) => r.isError)) expect(lost.body).toMatchObject({ error: { code: "conflict" } });
    const versions = await env.DB.prepare("SELECT version FROM artifact_versions WHERE artifact_id = ? ORDER BY version").bind(artifactId).all();
    expect(versions.results.map((r) => r.version)).toEqual(Array.from({ length: won.length + 1 }, (_, i) => i + 1));
    const current = await ok(apiKey, "get_artifact", { artifactId });
    expect(current.version).toBe(won.length + 1);
  });

  it("pages long text by offset within one read's budget, with the structured content only on the first read", async () => {
    const { apiKey } = await seedTenant();
    const text = "abcdefghij".repeat(4_500);
    const { artifactId } = await ok(apiKey, "store_research", { artifactType: "source", title: "Long", content: { big: true }, contentText: text });
    const pages = await readAll(apiKey, "get_artifact", { artifactId });
    expect(pages).toHaveLength(3);
    expect(pages[0]).toMatchObject({ offset: 0, content: { big: true }, contentChars: 12 });
    expect(pages[0]?.note).toBeUndefined();
    expect(pages.slice(1).every((page) => page.content === null)).toBe(true);
    expect(pages.map((page) => page.contentText).join("")).toBe(text);
  });

  it("leaves a large structured content out of the text read and pages its JSON with part content", async () => {
    const { apiKey } = await seedTenant();
    const content = { sections: Array.from({ length: 60 }, (_, i) => ({ heading: `Section ${i}`, body: `"Quoted" ${"prose ".repeat(800)}` })) };
    const json = JSON.stringify(content);
    const tags = Array.from({ length: 20 }, (_, n) => `${n}-${"t".repeat(40)}`);
    const sourceUrl = `https://example.com/${"u".repeat(1970)}`;
    const { artifactId } = await ok(apiKey, "store_research", { artifactType: "source", title: "T".repeat(300), content, contentText: "short text", tags, sourceUrl });
    const first = await ok(apiKey, "get_artifact", { artifactId });
    expect(first).toMatchObject({ content: null, contentChars: json.length, contentText: "short text", nextOffset: null, tags, sourceUrl });
    expect(first.note).toContain('part "content"');
    const pages = await readAll(apiKey, "get_artifact", { artifactId, part: "content" });
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.every((page) => page.content === null && page.contentText === "")).toBe(true);
    expect(JSON.parse(pages.map((page) => page.contentJson).join(""))).toEqual(content);
  });

  it("refuses oversize content and bad fields, writing nothing", async () => {
    const { apiKey } = await seedTenant();
    const before = await countRows("artifacts");
    const huge = await callTool(apiKey, "store_research", { artifactType: "dataset", title: "Big", content: { rows: "x".repeat(600_000) }, contentText: "t" });
    expect(huge.body).toMatchObject({ error: { code: "payload_too_large" } });
    const badUrl = await callTool(apiKey, "store_research", { artifactType: "source", title: "t", content: {}, contentText: "t", sourceUrl: "javascript:alert(1)" });
    expect(badUrl.body).toMatchObject({ error: { code: "validation", issues: [{ path: "sourceUrl" }] } });
    expect(await countRows("artifacts")).toBe(before);
  });

  it("lists by type, plan and tag, newest first, in pages", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    await ok(apiKey, "store_research", { artifactType: "source", title: "S", content: {}, contentText: "s", planId, tags: ["web"] });
    await ok(apiKey, "store_research", { artifactType: "finding", title: "F", content: {}, contentText: "f", tags: ["web", "key"] });
    await ok(apiKey, "store_research", { artifactType: "finding", title: "G", content: {}, contentText: "g" });
    const names = async (args: Record<string, unknown>) => ((await ok(apiKey, "list_artifacts", args)).artifacts as { title: string }[]).map((a) => a.title);
    expect(await names({})).toEqual(["G", "F", "S"]);
    expect(await names({ artifactType: "finding" })).toEqual(["G", "F"]);
    expect(await names({ planId })).toEqual(["S"]);
    expect(await names({ tag: "WEB" })).toEqual(["F", "S"]);
    expect(await names({ tag: "we" })).toEqual([]);
    const page = await ok(apiKey, "list_artifacts", { limit: 2 });
    expect(await names({ limit: 2, cursor: page.nextCursor })).toEqual(["S"]);
  });
});

describe("search_sources", () => {
  it("stems, matches phrases and prefixes, and ranks title hits first", async () => {
    const { apiKey } = await seedTenant();
    await seedCorpus(apiKey);
    expect(titles(await ok(apiKey, "search_sources", { query: "run" }))).toEqual(["Running shoes for marathon training"]);
    expect(titles(await ok(apiKey, "search_sources", { query: '"heat pumps"' }))).toEqual(["Heat pumps in cold climates"]);
    expect(titles(await ok(apiKey, "search_sources", { query: '"pumps heat"' }))).toEqual([]);
    expect(titles(await ok(apiKey, "search_sources", { query: "compress*" }))).toEqual(["Heat pumps in cold climates"]);
    // A prefix's snippet is read with the record's own words in its place: the word found is highlighted.
    const prefixHit = ((await ok(apiKey, "search_sources", { query: "compress* heat" })).results as { snippet: string }[])[0];
    expect(prefixHit?.snippet).toMatch(/«compressors?»/i);
    expect(titles(await ok(apiKey, "search_sources", { query: "vector databases" }))).toEqual(["Vector databases compared", "Notes"]);
    const hit = ((await ok(apiKey, "search_sources", { query: "lancedb" })).results as { snippet: string; relevance: number }[])[0];
    expect(hit?.snippet).toContain("«LanceDB»");
    expect(hit?.relevance).toBeGreaterThan(0);
  });

  it("falls back to any term when no artifact has them all, and honours filters and limit", async () => {
    const { apiKey } = await seedTenant();
    await seedCorpus(apiKey);
    expect(titles(await ok(apiKey, "search_sources", { query: "marathon compressors" })).sort()).toEqual(["Heat pumps in cold climates", "Running shoes for marathon training"]);
    expect(titles(await ok(apiKey, "search_sources", { query: "vector", tag: "ai" }))).toEqual(["Vector databases compared"]);
    expect(titles(await ok(apiKey, "search_sources", { query: "vector", limit: 1 }))).toHaveLength(1);
    expect(titles(await ok(apiKey, "search_sources", { query: "vector", since: "2999-01-01" }))).toEqual([]);
  });

  it.each([
    '"unbalanced',
    "(((",
    "a OR OR b",
    "NEAR(",
    "title:x",
    "*",
    "-",
    '"" AND NOT',
    "DROP TABLE artifacts; --",
    "\u0000vector\u0001",
    "🚀🚀",
  ])("treats %j as text: never an error", async (query) => {
    const { apiKey } = await seedTenant();
    await seedCorpus(apiKey);
    const result = await callTool(apiKey, "search_sources", { query });
    expect(result.isError, JSON.stringify(result.body)).toBe(false);
    expect(await countRows("artifacts")).toBeGreaterThan(0);
  });

  it("refuses a query of nothing but control characters as empty (stored and searched text drops them)", async () => {
    const { apiKey } = await seedTenant();
    const result = await callTool(apiKey, "search_sources", { query: "\u0000\u0001" });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.body)).toContain("query");
  });

  it("returns what the prior-research check shows: the plan's question and the original request", async () => {
    const { apiKey } = await seedTenant();
    await ok(apiKey, "log_skill_execution", { skillName: "research", sessionId: "s-prior", metadata: { originalQuery: "Which heat pump survives Oslo winters?" } });
    const { planId } = await createPlan(apiKey, { sessionId: "s-prior", researchQuestion: "Do heat pumps work in cold climates?" });
    await ok(apiKey, "store_research", { artifactType: "finding", title: "Heat pump findings", content: {}, contentText: "Cold climate heat pumps", planId });
    const [hit] = (await ok(apiKey, "search_sources", { query: "heat pump" })).results as Record<string, unknown>[];
    expect(hit).toMatchObject({ planId, researchQuestion: "Do heat pumps work in cold climates?", originalQuery: "Which heat pump survives Oslo winters?", date: expect.any(String) });
  });
});

describe("deliverables and feedback", () => {
  it("stores a plan's deliverable with versions, pages it, lists it, and finds it in search beside artifacts", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    const content = `# Heat pumps\n\n${"Cold climate performance is good. ".repeat(1000)}`;
    const first = await ok(apiKey, "store_research_output", { planId, title: "Heat pump report", mediaType: "markdown", content, formattingInstructions: "One table", citations: [{ ref: "E1", title: "NREL study", url: "https://nrel.gov/x" }] });
    expect(first).toMatchObject({ version: 1, created: true });
    const second = await ok(apiKey, "store_research_output", { outputId: first.outputId, planId, title: "Heat pump report v2", mediaType: "markdown", content: "# Short" });
    expect(second).toMatchObject({ version: 2, created: false });
    const old = await ok(apiKey, "get_research_output", { outputId: first.outputId, version: 1 });
    expect(old).toMatchObject({ title: "Heat pump report", citations: [{ ref: "E1" }], citationCount: 1, formattingInstructions: "One table", offset: 0 });
    expect(old.note).toBeUndefined();
    expect((await readAll(apiKey, "get_research_output", { outputId: first.outputId, version: 1 })).map((page) => page.content).join("")).toBe(content);
    expect((await ok(apiKey, "list_research_outputs", { planId })).outputs).toEqual([expect.objectContaining({ outputId: first.outputId, version: 2 })]);
    await ok(apiKey, "store_research", { artifactType: "finding", title: "Short finding", content: {}, contentText: "short heat note" });
    const hits = (await ok(apiKey, "search_sources", { query: "short" })).results as { kind: string; id: string }[];
    expect(hits.map((h) => h.kind).sort()).toEqual(["artifact", "output"]);
    const fetched = await ok(apiKey, "fetch", { id: first.outputId });
    // A link a person can open: the dashboard's page of the deliverable (behind its sign-in), not a bearer-only API URL.
    expect(fetched).toMatchObject({ id: first.outputId, title: "Heat pump report v2", text: "# Short", url: `http://localhost:8787/dashboard/outputs/${first.outputId}` });
    const searched = (await ok(apiKey, "search", { query: "short" })).results as { id: string; url: string }[];
    expect(searched.find((r) => r.id === first.outputId)?.url).toBe(`http://localhost:8787/dashboard/outputs/${first.outputId}`);
    const foreignPlan = await callTool(apiKey, "store_research_output", { planId: "plan_0000000000000000000000000", title: "x", mediaType: "text", content: "x" });
    expect(foreignPlan.body).toMatchObject({ error: { code: "not_found" } });
  });

  it.each([
    ["Japanese", "潮汐発電の見通し", "日本の潮汐発電は二〇三〇年までに広がる見込みです。", "発電", "«発電»"],
    ["Chinese", "潮汐能发电的前景", "潮汐能发电的前景很好，成本正在下降。", "成本", "«成本»"],
    ["Korean", "조력 발전의 전망", "한국의 조력 발전은 시화호에서 시작되었다.", "발전", "«발전»"],
    ["Thai", "ข้าวหอมมะลิ", "ชาวนาปลูกข้าวหอมมะลิในภาคอีสาน", "ข้าว", "«ข้าว»"],
  ])("finds a %s deliverable by a word inside its run, the snippet read without the index's separators", async (_language, title, content, query, highlighted) => {
    const { apiKey } = await seedTenant();
    const { outputId } = await ok(apiKey, "store_research_output", { title, mediaType: "markdown", content });
    const hits = (await ok(apiKey, "search_sources", { query })).results as { kind: string; id: string; title: string; snippet: string }[];
    expect(hits.map((hit) => [hit.kind, hit.id])).toEqual([["output", outputId]]);
    expect(hits[0]?.title).toBe(title);
    expect(hits[0]?.snippet).toContain(highlighted);
    expect(hits[0]?.snippet).not.toContain(SEPARATOR);
    // A new version is indexed by its own text: the old version's word is no longer found.
    await ok(apiKey, "store_research_output", { outputId, title: "Revised", mediaType: "markdown", content: "English only now." });
    expect((await ok(apiKey, "search_sources", { query })).results).toEqual([]);
  });

  it("migration 0042: a deliverable stored before it is listed, given its indexed form by the cron's sweep, and found", async () => {
    const { apiKey, orgId } = await seedTenant();
    // Stored as before 0042: the row without its indexed form, indexed as its text (one clause, one word).
    const outputId = "out_beforeindexforms000000001";
    await env.DB.prepare(
      `INSERT INTO research_outputs (id, org_id, title, media_type, content, citations, version, created_by, created_at, updated_at)
       VALUES (?1, ?2, '気象庁の報告', 'markdown', '気象庁は来週の天気予報を発表した。', '[]', 1, 'usr_x', ?3, ?3)`,
    )
      .bind(outputId, orgId, Date.now())
      .run();
    expect((await ok(apiKey, "search_sources", { query: "天気予報" })).results).toEqual([]);
    // The migration's own statements list what holds those scripts (run again here: the test database was migrated empty).
    const listing = (env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0042"))?.queries ?? []).filter((sql) => sql.includes("research_outputs_fts_words"));
    expect(listing.length).toBeGreaterThan(2);
    for (const sql of listing) await env.DB.prepare(sql).run();
    const listed = await env.DB.prepare("SELECT COUNT(*) AS n FROM research_outputs_index_pending p JOIN research_outputs o ON o.seq = p.seq WHERE o.id = ?").bind(outputId).first<number>("n");
    expect(listed).toBe(1);
    await indexPendingEverywhere(env as unknown as Env);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM research_outputs_index_pending").first<number>("n")).toBe(0);
    const hits = (await ok(apiKey, "search_sources", { query: "天気予報" })).results as { id: string; snippet: string }[];
    expect(hits.map((hit) => hit.id)).toEqual([outputId]);
    expect(hits[0]?.snippet).toBe("気象庁は来週の«天気予報»を発表した。");
    // The stored text is unchanged, and the index agrees with what it indexed.
    expect(await env.DB.prepare("SELECT content FROM research_outputs WHERE id = ?").bind(outputId).first("content")).toBe("気象庁は来週の天気予報を発表した。");
    await env.DB.prepare("INSERT INTO research_outputs_fts(research_outputs_fts) VALUES ('integrity-check')").run();
  });

  it("gives an artifact without a source URL a page a person can open: its dashboard page, for its org only", async () => {
    const { apiKey, admin } = await seedTenant();
    const { artifactId } = await ok(apiKey, "store_research", { artifactType: "finding", title: "Tidal <b>notes</b>", content: {}, contentText: "tidal lagoon yields <script>x</script>" });
    const page = `http://localhost:8787/dashboard/artifacts/${artifactId}`;
    expect(((await ok(apiKey, "search", { query: "tidal lagoon" })).results as { id: string; url: string }[]).find((r) => r.id === artifactId)?.url).toBe(page);
    expect(await ok(apiKey, "fetch", { id: artifactId })).toMatchObject({ id: artifactId, url: page });
    // The page itself: behind the sign-in, shown to the org's members, escaped.
    const visitor = new Visitor();
    expect((await visitor.get(`/dashboard/artifacts/${artifactId}`)).status).toBe(303);
    await visitor.signIn(admin.email, admin.password);
    const shown = await visitor.get(`/dashboard/artifacts/${artifactId}`);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain("Tidal &lt;b&gt;notes&lt;/b&gt;");
    expect(html).toContain("tidal lagoon yields &lt;script&gt;");
    expect(html).not.toContain("<script>x</script>");
    // Another org's member finds nothing there.
    const other = await seedTenant();
    const outsider = new Visitor();
    await outsider.signIn(other.admin.email, other.admin.password);
    expect((await outsider.get(`/dashboard/artifacts/${artifactId}`)).status).toBe(404);
  });

  it("records initial and closing feedback linked to real records only", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    const execution = await ok(apiKey, "log_skill_execution", { skillName: "research" });
    const initial = await ok(apiKey, "submit_research_feedback", { phase: "initial", satisfaction: 4, summary: "Useful", improvementSuggestions: ["More sources"], planId, executionId: execution.executionId });
    await ok(apiKey, "submit_research_feedback", { phase: "closing", summary: "Used it in the decision", followUpRequested: true, planId });
    const rows = await env.DB.prepare("SELECT phase, satisfaction, follow_up_requested, improvement_suggestions FROM research_feedback WHERE org_id = ? ORDER BY created_at, phase DESC").bind(orgId).all();
    expect(rows.results).toEqual([
      { phase: "initial", satisfaction: 4, follow_up_requested: 0, improvement_suggestions: '["More sources"]' },
      { phase: "closing", satisfaction: null, follow_up_requested: 1, improvement_suggestions: "[]" },
    ]);
    expect(initial.feedbackId).toMatch(/^fb_/);
    const unlinked = await callTool(apiKey, "submit_research_feedback", { phase: "initial", summary: "x" });
    expect(unlinked.body).toMatchObject({ error: { code: "validation" } });
    const dangling = await callTool(apiKey, "submit_research_feedback", { phase: "initial", summary: "x", outputId: "out_0000000000000000000000000" });
    expect(dangling.body).toMatchObject({ error: { code: "not_found" } });
    expect(await countRows("research_feedback")).toBeGreaterThanOrEqual(2);
  });

  it("keeps the prior-research check on the skill execution", async () => {
    const { apiKey } = await seedTenant();
    const check = { decision: "use_existing", artifactIds: ["art_1"], exchange: "User: that report is enough" };
    const execution = await ok(apiKey, "log_skill_execution", { skillName: "research", metadata: { priorResearchCheck: check } });
    const closed = await ok(apiKey, "log_skill_execution", { executionId: execution.executionId, status: "completed", closedReason: "used existing research" });
    expect(closed).toMatchObject({ status: "completed" });
    expect(await ok(apiKey, "get_skill_execution", { executionId: execution.executionId })).toMatchObject({ metadata: { priorResearchCheck: check } });
    const bad = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: { priorResearchCheck: { decision: "maybe" } } });
    expect(bad.body).toMatchObject({ error: { code: "validation", issues: [{ path: "metadata.priorResearchCheck.decision" }] } });
  });
});

describe("ChatGPT's search and fetch", () => {
  it("answer with exactly one text item holding the documented JSON", async () => {
    const { apiKey } = await seedTenant();
    const [, vectorId] = await seedCorpus(apiKey);
    const raw = async (name: string, args: unknown) => readJsonRpc(await fetchWorker(mcpRequest(apiKey, "tools/call", { name, arguments: args })));
    const search = await raw("search", { query: "vector" });
    expect(search.result?.content).toHaveLength(1);
    const results = JSON.parse(search.result?.content?.[0]?.text ?? "{}");
    expect(Object.keys(results)).toEqual(["results"]);
    expect(results.results[0]).toEqual({ id: vectorId, title: "Vector databases compared", url: `http://localhost:8787/dashboard/artifacts/${vectorId}` });
    const fetched = await raw("fetch", { id: vectorId });
    expect(fetched.result?.content).toHaveLength(1);
    const doc = JSON.parse(fetched.result?.content?.[0]?.text ?? "{}");
    expect(Object.keys(doc).sort()).toEqual(["id", "metadata", "text", "title", "url"]);
    expect(doc).toMatchObject({ id: vectorId, title: "Vector databases compared", text: CORPUS[1]?.contentText, metadata: { trust: "untrusted-external-content" } });
  });
});

describe("bounded responses (issue 4): long fields clipped in lists and hits, whole in the record", () => {
  const longTitle = `Heat pumps ${"t".repeat(289)}`;
  const tags = Array.from({ length: 20 }, (_, n) => `${n}-${"g".repeat(40)}`);
  const sourceUrl = `https://example.com/${"u".repeat(1970)}`;

  it("list_artifacts clips titles and URLs, shows the first tags with their count; get_artifact has them whole", async () => {
    const { apiKey } = await seedTenant();
    const { artifactId } = await ok(apiKey, "store_research", { artifactType: "source", title: longTitle, content: {}, contentText: "x", tags, sourceUrl });
    const [row] = (await ok(apiKey, "list_artifacts", {})).artifacts as Record<string, unknown>[];
    expect(row).toMatchObject({ artifactId, tagCount: 20, title: `${longTitle.slice(0, 199)}…`, sourceUrl: `${sourceUrl.slice(0, 119)}…` });
    expect(row?.tags).toEqual(tags.slice(0, 2));
    expect(await ok(apiKey, "get_artifact", { artifactId })).toMatchObject({ title: longTitle, tags, sourceUrl });
  });

  it("search_sources clips the research question, the original request and the URL of each hit", async () => {
    const { apiKey } = await seedTenant();
    const originalQuery = `Which heat pump ${"q".repeat(4900)}`;
    const researchQuestion = `Do heat pumps ${"r".repeat(3900)}`;
    await ok(apiKey, "log_skill_execution", { skillName: "research", sessionId: "s-long", metadata: { originalQuery } });
    const { planId } = await createPlan(apiKey, { sessionId: "s-long", researchQuestion });
    await ok(apiKey, "store_research", { artifactType: "finding", title: longTitle, content: {}, contentText: "heat pump", planId, sourceUrl });
    const [hit] = (await ok(apiKey, "search_sources", { query: "heat pump" })).results as Record<string, unknown>[];
    expect(hit).toMatchObject({
      title: longTitle,
      researchQuestion: `${researchQuestion.slice(0, 399)}…`,
      originalQuery: `${originalQuery.slice(0, 399)}…`,
      sourceUrl: `${sourceUrl.slice(0, 199)}…`,
    });
  });

  it("ChatGPT search links a record whose URL is too long by its own URL; fetch has it and bounds the text with a pointer", async () => {
    const { apiKey } = await seedTenant();
    const text = "Heat pump field notes. ".repeat(4000);
    const { artifactId } = await ok(apiKey, "store_research", { artifactType: "source", title: "Heat pump notes", content: {}, contentText: text, sourceUrl });
    const [result] = (await ok(apiKey, "search", { query: "heat pump" })).results as Record<string, unknown>[];
    expect(result).toEqual({ id: artifactId, title: "Heat pump notes", url: `http://localhost:8787/dashboard/artifacts/${artifactId}` });
    const doc = await ok(apiKey, "fetch", { id: artifactId });
    expect(doc.url).toBe(sourceUrl);
    expect(JSON.stringify(doc).length).toBeLessThanOrEqual(READ_CHARS);
    const pointer = /\n\[truncated: read the rest with get_artifact offset (\d+)\]$/.exec(String(doc.text));
    const offset = Number(pointer?.[1]);
    expect(offset).toBeGreaterThan(15_000);
    expect(String(doc.text).slice(0, offset)).toBe(text.slice(0, offset));
    // The pointer reads on exactly where the text stopped.
    const next = String((await ok(apiKey, "get_artifact", { artifactId, offset })).contentText);
    expect(next.length).toBeGreaterThan(10_000);
    expect(text.startsWith(next, offset)).toBe(true);
  });

  it("get_research_output previews instructions and citations beside the content; part citations pages them whole", async () => {
    const { apiKey } = await seedTenant();
    const instructions = `One table. ${"i".repeat(7000)}`;
    const citations = Array.from({ length: 120 }, (_, n) => ({ ref: `E${n + 1}`, title: `Source ${n} ${"s".repeat(300)}`, url: `https://example.com/${n}/${"c".repeat(600)}` }));
    const content = "Heat pump report. ".repeat(3000);
    const { outputId } = await ok(apiKey, "store_research_output", { title: "Report", mediaType: "markdown", content, formattingInstructions: instructions, citations });
    const first = await ok(apiKey, "get_research_output", { outputId });
    expect(first).toMatchObject({ citationCount: 120, formattingInstructions: `${instructions.slice(0, 999)}…` });
    const shown = (first.citations as unknown[]).length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(120);
    expect(first.note).toBe(`Shows ${shown} of 120 citations and the start of formattingInstructions: part "citations" has them whole.`);
    expect((await readAll(apiKey, "get_research_output", { outputId })).map((page) => page.content).join("")).toBe(content);
    const pages = await readAll(apiKey, "get_research_output", { outputId, part: "citations" });
    expect(pages.length).toBeGreaterThan(2);
    expect(pages[0]).toMatchObject({ formattingInstructions: instructions, content: "" });
    expect(pages[1]?.formattingInstructions).toBeNull();
    expect(pages.flatMap((page) => page.citations as unknown[])).toEqual(citations);
  });

  it("list_research_outputs gives each deliverable's citation count and the start of its instructions", async () => {
    const { apiKey } = await seedTenant();
    const citations = Array.from({ length: 50 }, (_, n) => ({ title: `Source ${n}`, url: `https://example.com/${n}` }));
    const { outputId } = await ok(apiKey, "store_research_output", { title: "Report", mediaType: "text", content: "c", formattingInstructions: "f".repeat(500), citations });
    const [row] = (await ok(apiKey, "list_research_outputs", {})).outputs as Record<string, unknown>[];
    expect(row).toMatchObject({ outputId, citationCount: 50, formattingInstructions: `${"f".repeat(199)}…` });
    expect(row).not.toHaveProperty("citations");
  });
});

describe("deleting", () => {
  it("lets the author delete, audits it, and leaves nothing searchable", async () => {
    const { apiKey, admin } = await seedTenant();
    const { artifactId } = await ok(apiKey, "store_research", { artifactType: "note", title: "Obsolete", content: {}, contentText: "obsolete widget" });
    const response = await rest(apiKey, `/artifacts/${artifactId}?reason=superseded`, { method: "DELETE" });
    expect(response.status).toBe(200);
    expect(titles(await ok(apiKey, "search_sources", { query: "widget" }))).toEqual([]);
    expect((await callTool(apiKey, "get_artifact", { artifactId })).body).toMatchObject({ error: { code: "not_found" } });
    const audit = await env.DB.prepare("SELECT action, actor_user_id, detail FROM audit_log WHERE target_id = ?").bind(artifactId).first();
    expect(audit).toMatchObject({ action: "artifact.deleted", actor_user_id: admin.userId });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM artifact_versions WHERE artifact_id = ?").bind(artifactId).first()).toEqual({ n: 0 });
  });

  it("refuses another member who is not an admin, and changes nothing", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { artifactId } = await ok(apiKey, "store_research", { artifactType: "note", title: "Mine", content: {}, contentText: "mine" });
    const member = await seedUser(orgId, "member");
    const memberKey = await seedApiKey(orgId, member.userId);
    expect((await callTool(memberKey.key, "delete_artifact", { artifactId, reason: "x" })).body).toMatchObject({ error: { code: "forbidden" } });
    expect(await ok(apiKey, "get_artifact", { artifactId })).toMatchObject({ title: "Mine" });
  });
});

describe("isolation", () => {
  it("shows org B nothing of org A: list, search, get, fetch, delete", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const [id] = await seedCorpus(a.apiKey);
    await seedCorpus(b.apiKey);
    const foreign = await callTool(b.apiKey, "get_artifact", { artifactId: id });
    const absent = await callTool(b.apiKey, "get_artifact", { artifactId: "art_0000000000000000000000000" });
    expect((foreign.body as { error: { message: string } }).error.message.replace(String(id), "ID")).toBe(
      (absent.body as { error: { message: string } }).error.message.replace("art_0000000000000000000000000", "ID"),
    );
    expect((await callTool(b.apiKey, "fetch", { id })).body).toMatchObject({ error: { code: "not_found" } });
    expect((await callTool(b.apiKey, "delete_artifact", { artifactId: id, reason: "x" })).body).toMatchObject({ error: { code: "not_found" } });
    const bIds = new Set(((await ok(b.apiKey, "list_artifacts", { limit: 100 })).artifacts as { artifactId: string }[]).map((x) => x.artifactId));
    expect(bIds.has(String(id))).toBe(false);
    const searched = (await ok(b.apiKey, "search_sources", { query: "running", limit: 50 })).results as { id: string }[];
    expect(searched.length).toBeGreaterThan(0);
    expect(searched.every((hit) => bIds.has(hit.id))).toBe(true);
    const chatgpt = (await ok(b.apiKey, "search", { query: "running" })).results as { id: string }[];
    expect(chatgpt.length).toBeGreaterThan(0);
    expect(chatgpt.every((hit) => bIds.has(hit.id))).toBe(true);
  });
});
