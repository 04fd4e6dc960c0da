import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
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

  it("pages long text by offset, with the structured content only on the first read", async () => {
    const { apiKey } = await seedTenant();
    const text = "abcdefghij".repeat(4_500);
    const { artifactId } = await ok(apiKey, "store_research", { artifactType: "source", title: "Long", content: { big: true }, contentText: text });
    const first = await ok(apiKey, "get_artifact", { artifactId });
    expect(first).toMatchObject({ offset: 0, nextOffset: 20_000, content: { big: true } });
    const rest_ = await ok(apiKey, "get_artifact", { artifactId, offset: 40_000 });
    expect(rest_).toMatchObject({ offset: 40_000, nextOffset: null, content: null });
    expect((first.contentText as string) + (await ok(apiKey, "get_artifact", { artifactId, offset: 20_000 })).contentText + rest_.contentText).toBe(text);
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
    "\u0000\u0001",
    "🚀🚀",
  ])("treats %j as text: never an error", async (query) => {
    const { apiKey } = await seedTenant();
    await seedCorpus(apiKey);
    const result = await callTool(apiKey, "search_sources", { query });
    expect(result.isError, JSON.stringify(result.body)).toBe(false);
    expect(await countRows("artifacts")).toBeGreaterThan(0);
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
    expect(old).toMatchObject({ title: "Heat pump report", citations: [{ ref: "E1" }], nextOffset: 20_000 });
    expect((await ok(apiKey, "list_research_outputs", { planId })).outputs).toEqual([expect.objectContaining({ outputId: first.outputId, version: 2 })]);
    await ok(apiKey, "store_research", { artifactType: "finding", title: "Short finding", content: {}, contentText: "short heat note" });
    const hits = (await ok(apiKey, "search_sources", { query: "short" })).results as { kind: string; id: string }[];
    expect(hits.map((h) => h.kind).sort()).toEqual(["artifact", "output"]);
    const fetched = await ok(apiKey, "fetch", { id: first.outputId });
    expect(fetched).toMatchObject({ id: first.outputId, title: "Heat pump report v2", text: "# Short", url: `http://localhost:8787/api/v1/outputs/${first.outputId}` });
    const foreignPlan = await callTool(apiKey, "store_research_output", { planId: "plan_0000000000000000000000000", title: "x", mediaType: "text", content: "x" });
    expect(foreignPlan.body).toMatchObject({ error: { code: "not_found" } });
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
    expect(closed).toMatchObject({ status: "completed", metadata: { priorResearchCheck: check } });
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
    expect(results.results[0]).toEqual({ id: vectorId, title: "Vector databases compared", url: `http://localhost:8787/api/v1/artifacts/${vectorId}` });
    const fetched = await raw("fetch", { id: vectorId });
    expect(fetched.result?.content).toHaveLength(1);
    const doc = JSON.parse(fetched.result?.content?.[0]?.text ?? "{}");
    expect(Object.keys(doc).sort()).toEqual(["id", "metadata", "text", "title", "url"]);
    expect(doc).toMatchObject({ id: vectorId, title: "Vector databases compared", text: CORPUS[1]?.contentText, metadata: { trust: "untrusted-external-content" } });
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
