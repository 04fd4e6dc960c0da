import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ok } from "../../test/support/plans";
import { contextWith, errorOf, GOAL, run, startSession, step } from "../../test/support/search-sessions";
import { callTool, rest, seedTenant, seedUser } from "../../test/support/worker";
import { durableSearchSessions } from "../storage/search-sessions";
import { getResearchSession } from "./get-research-session";
import { sequentialSearch } from "./sequential-search";

const indexRow = (sessionId: string) =>
  env.DB.prepare("SELECT org_id, status, step_count, completed_at FROM search_sessions WHERE session_id = ?")
    .bind(sessionId)
    .first<{ org_id: string; status: string; step_count: number; completed_at: number | null }>();

describe("sequential_search", () => {
  it("records a session step by step: sources, gaps open → addressed, revisions, branches, completion", async () => {
    const { apiKey, orgId } = await seedTenant();
    const first = await ok(apiKey, "sequential_search", {
      stepNumber: 1,
      researchGoal: GOAL,
      searchStep: "Listed embedded vector databases",
      nextStepNeeded: true,
      knowledgeGap: "Licensing costs for commercial apps?",
      sources: [{ url: "https://a.example/dbs", title: "Embedded vector databases", snippet: "sqlite-vss, LanceDB" }],
      totalStepsEstimate: 4,
    });
    const sessionId = String(first.sessionId);
    expect(sessionId).toMatch(/^srch_[0-9a-z]{25}$/);
    expect(first).toMatchObject({
      stepIndex: 1,
      isComplete: false,
      completedAt: null,
      responseMode: "full",
      researchGoal: GOAL,
      totalStepsEstimate: 4,
      trust: "untrusted-external-content",
      currentStep: { stepNumber: 1, sources: ["S1"], knowledgeGap: "Licensing costs for commercial apps?" },
      gaps: [{ gapId: "G1", status: "open", openedAtStep: 1 }],
      sources: [{ ref: "S1", url: "https://a.example/dbs", steps: [1] }],
    });
    expect(first.depth).toBeUndefined();
    expect(first.coverage).toBeUndefined();
    expect(await indexRow(sessionId)).toMatchObject({ org_id: orgId, status: "active", step_count: 1 });

    const second = await ok(apiKey, "sequential_search", {
      sessionId,
      stepNumber: 2,
      searchStep: "Read the license pages",
      nextStepNeeded: true,
      sources: [{ url: "https://b.example/license", title: "LanceDB licensing", snippet: "Apache 2.0: no licensing costs for commercial apps" }],
    });
    expect(second.gaps).toEqual([{ gapId: "G1", text: "Licensing costs for commercial apps?", status: "addressed", openedAtStep: 1, addressedAtStep: 2 }]);

    await ok(apiKey, "sequential_search", { sessionId, stepNumber: 3, searchStep: "Correction: sqlite-vss is archived", nextStepNeeded: true, isRevision: true, revisesStep: 1 });
    const branched = await ok(apiKey, "sequential_search", {
      sessionId,
      stepNumber: 4,
      searchStep: "Server-side alternative",
      nextStepNeeded: false,
      branchId: "server",
      branchFromStep: 2,
      sessionSummary: "LanceDB fits; sqlite-vss archived.",
    });
    expect(branched).toMatchObject({ isComplete: true, stepIndex: 4, summary: "LanceDB fits; sqlite-vss archived.", currentStep: { branchId: "server", branchFromStep: 2 } });
    expect(typeof branched.completedAt).toBe("string");
    expect((branched.steps as { stepNumber: number; revisedBy?: number[] }[]).find((s) => s.stepNumber === 1)?.revisedBy).toEqual([3]);
    expect(await indexRow(sessionId)).toMatchObject({ status: "completed", step_count: 4 });

    const after = await step(apiKey, { sessionId, stepNumber: 5 });
    expect(after.isError).toBe(true);
    expect(errorOf(after)).toMatchObject({ code: "invalid_transition" });
    expect(errorOf(after).message).toMatch(/complete/);
  });

  it("refuses out-of-order step numbers with the expected number, and records nothing", async () => {
    const { apiKey } = await seedTenant();
    const sessionId = await startSession(apiKey);
    for (const wrong of [1, 3, 7]) {
      const result = await step(apiKey, { sessionId, stepNumber: wrong, searchStep: `attempt ${wrong}` });
      expect(errorOf(result)).toMatchObject({ code: "validation", issues: [{ path: "stepNumber" }] });
      expect(errorOf(result).message).toContain("expected stepNumber 2");
    }
    expect(await ok(apiKey, "get_research_session", { sessionId })).toMatchObject({ stepIndex: 1 });
  });

  it("refuses a new session that does not start at 1, before it takes a slot", async () => {
    const { apiKey, orgId } = await seedTenant();
    const result = await step(apiKey, { stepNumber: 2 });
    expect(errorOf(result).message).toContain("starts at stepNumber 1");
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM search_sessions WHERE org_id = ?").bind(orgId).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("refuses revising or branching from a step that does not exist", async () => {
    const { apiKey } = await seedTenant();
    const sessionId = await startSession(apiKey);
    const revise = await step(apiKey, { sessionId, stepNumber: 2, isRevision: true, revisesStep: 4 });
    expect(errorOf(revise)).toMatchObject({ code: "validation", message: "revisesStep 4 does not exist: the session has steps 1–1.", issues: [{ path: "revisesStep" }] });
    const unnamed = await step(apiKey, { sessionId, stepNumber: 2, isRevision: true });
    expect(errorOf(unnamed).issues?.[0]?.path).toBe("revisesStep");
    const branch = await step(apiKey, { sessionId, stepNumber: 2, branchId: "alt", branchFromStep: 2 });
    expect(errorOf(branch)).toMatchObject({ code: "validation", issues: [{ path: "branchFromStep" }] });
    expect(await ok(apiKey, "get_research_session", { sessionId })).toMatchObject({ stepIndex: 1 });
  });

  it("lets exactly one of several concurrent step-2 calls win", async () => {
    const { apiKey } = await seedTenant();
    const sessionId = await startSession(apiKey);
    const results = await Promise.all(["a", "b", "c", "d", "e"].map((text) => step(apiKey, { sessionId, stepNumber: 2, searchStep: `version ${text}` })));
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    for (const lost of results.filter((r) => r.isError)) expect(errorOf(lost).message).toContain("expected stepNumber 3");
  });

  it("answers a retried step with the same session, recording it once", async () => {
    const { apiKey } = await seedTenant();
    const sessionId = await startSession(apiKey);
    const args = { sessionId, stepNumber: 2, searchStep: "same", sources: [{ url: "https://x.example", title: "X" }] };
    const once = await ok(apiKey, "sequential_search", { ...args, nextStepNeeded: true });
    const twice = await ok(apiKey, "sequential_search", { ...args, nextStepNeeded: true });
    expect(twice).toEqual(once);
    expect((await indexRow(sessionId))?.step_count).toBe(2);
  });

  it("keeps sessions apart between orgs: another org's session looks exactly like a missing one", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const sessionId = await startSession(a.apiKey);
    const foreignRead = await callTool(b.apiKey, "get_research_session", { sessionId });
    const missing = "srch_0000000000000000000000000";
    const missingRead = await callTool(b.apiKey, "get_research_session", { sessionId: missing });
    const { correlationId: _a, ...foreign } = errorOf(foreignRead) as ReturnType<typeof errorOf> & { correlationId?: string };
    const { correlationId: _b, ...absent } = errorOf(missingRead) as ReturnType<typeof errorOf> & { correlationId?: string };
    expect(foreign).toEqual({ ...absent, message: absent.message.replace(missing, sessionId) });
    expect(errorOf(foreignRead).code).toBe("not_found");
    const foreignStep = await step(b.apiKey, { sessionId, stepNumber: 2 });
    expect(errorOf(foreignStep)).toMatchObject({ code: "not_found", message: `No search session with id "${sessionId}" exists.` });
    expect(await ok(a.apiKey, "get_research_session", { sessionId })).toMatchObject({ stepIndex: 1 });
    expect((await rest(b.apiKey, `/search-sessions/${sessionId}`)).status).toBe(404);
  });

  it("keeps no storage for a session id the org does not hold: another org's and an unknown one", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const theirs = await startSession(a.apiKey);
    const unknown = "srch_0000000000000000000000001";
    const before = await listDurableObjectIds(env.SEARCH_SESSION);
    for (const sessionId of [theirs, unknown]) {
      expect(errorOf(await callTool(b.apiKey, "get_research_session", { sessionId })).code, sessionId).toBe("not_found");
      expect(errorOf(await step(b.apiKey, { sessionId, stepNumber: 2 })).code, sessionId).toBe("not_found");
      expect((await rest(b.apiKey, `/search-sessions/${sessionId}`)).status, sessionId).toBe(404);
    }
    // Reaching a session's object makes its storage, which the prober's erasure (it finds objects by its rows) would leave behind.
    const after = await listDurableObjectIds(env.SEARCH_SESSION);
    for (const sessionId of [theirs, unknown]) expect(after.some((object) => object.equals(env.SEARCH_SESSION.idFromName(`${b.orgId}:${sessionId}`))), sessionId).toBe(false);
    expect(after.length).toBe(before.length);
    expect(await ok(a.apiKey, "get_research_session", { sessionId: theirs })).toMatchObject({ stepIndex: 1 });
  });

  it("serves both tools over REST", async () => {
    const { apiKey } = await seedTenant();
    const created = await rest(apiKey, "/search-sessions/steps", { method: "POST", body: JSON.stringify({ stepNumber: 1, searchStep: "REST step", nextStepNeeded: true }) });
    expect(created.status).toBe(201);
    const { sessionId } = (await created.json()) as { sessionId: string };
    const read = await rest(apiKey, `/search-sessions/${sessionId}?responseMode=summary`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ sessionId, responseMode: "summary", lastSteps: [{ stepNumber: 1, searchStep: "REST step" }] });
  });
});

describe("get_research_session", () => {
  it("recovers a session in full up to 8 steps and as a summary beyond, or as asked", async () => {
    const { apiKey } = await seedTenant();
    const sessionId = await startSession(apiKey, { knowledgeGap: "Battery impact of indexing?" });
    for (let n = 2; n <= 8; n++) await ok(apiKey, "sequential_search", { sessionId, stepNumber: n, searchStep: `Step ${n}`, nextStepNeeded: true });
    const full = await ok(apiKey, "get_research_session", { sessionId });
    expect(full).toMatchObject({ responseMode: "full", stepIndex: 8, currentStep: { stepNumber: 8 }, researchGoal: GOAL, gaps: [{ gapId: "G1", status: "open" }] });
    expect((full.steps as unknown[]).length).toBe(8);
    expect(full.lastSteps).toBeUndefined();
    await ok(apiKey, "sequential_search", { sessionId, stepNumber: 9, searchStep: "Step 9", nextStepNeeded: true });
    const summary = await ok(apiKey, "get_research_session", { sessionId });
    expect(summary).toMatchObject({ responseMode: "summary", summary: "9 steps, 0 sources, 1 open gap; in progress." });
    expect((summary.lastSteps as { stepNumber: number }[]).map((s) => s.stepNumber)).toEqual([7, 8, 9]);
    expect(summary.steps).toBeUndefined();
    expect(((await ok(apiKey, "get_research_session", { sessionId, responseMode: "full" })).steps as unknown[]).length).toBe(9);
  });
});

describe("limits", () => {
  it("caps the active sessions of an org; completed and expired sessions free their slot", async () => {
    const { orgId, admin } = await seedTenant();
    const ctx = await contextWith(orgId, admin.userId, { sessions: durableSearchSessions(env as never, { ttlMinutes: 240, maxActivePerOrg: 2, maxActivePerMember: 2, maxStepsPerSession: 100 }) });
    const start = () => run(sequentialSearch, { stepNumber: 1, searchStep: "s", nextStepNeeded: true }, ctx);
    const one = await start();
    const two = await start();
    const refused = await start();
    expect(refused.error).toMatchObject({ code: "rate_limited" });
    expect((refused.error as { message: string }).message).toContain("2 active search sessions");

    await run(sequentialSearch, { sessionId: one.sessionId, stepNumber: 2, searchStep: "done", nextStepNeeded: false }, ctx);
    const three = await start();
    expect(three.sessionId).toMatch(/^srch_/);
    expect((await start()).error).toMatchObject({ code: "rate_limited" });

    // An expired session stops counting even before its alarm has run.
    await env.DB.prepare("UPDATE search_sessions SET expires_at = ? WHERE session_id = ?").bind(Date.now() - 1, two.sessionId).run();
    expect((await start()).sessionId).toMatch(/^srch_/);
  });

  it("keeps a share for everyone: one member holds at most their own share, told when a slot frees", async () => {
    const { orgId, admin } = await seedTenant();
    const colleague = await seedUser(orgId, "member");
    const sessions = durableSearchSessions(env as never, { ttlMinutes: 240, maxActivePerOrg: 4, maxActivePerMember: 2, maxStepsPerSession: 100 });
    const start = async (userId: string) => run(sequentialSearch, { stepNumber: 1, searchStep: "s", nextStepNeeded: true }, await contextWith(orgId, userId, { sessions }));
    await start(admin.userId);
    await start(admin.userId);
    const refused = await start(admin.userId);
    expect(refused.error).toMatchObject({ code: "rate_limited" });
    expect((refused.error as { message: string }).message).toContain("You already hold 2 active search sessions");
    // The colleague still has their share of the org's four.
    expect((await start(colleague.userId)).sessionId).toMatch(/^srch_/);
    expect((await start(colleague.userId)).sessionId).toMatch(/^srch_/);
    expect((await start(colleague.userId)).error).toMatchObject({ code: "rate_limited" });
  });

  it("answers a full share over REST with 429 and Retry-After", async () => {
    const { apiKey } = await seedTenant();
    const start = () => rest(apiKey, "/search-sessions/steps", { method: "POST", body: JSON.stringify({ stepNumber: 1, searchStep: "s", nextStepNeeded: true }) });
    for (let i = 0; i < 5; i++) expect((await start()).status).toBe(201);
    const response = await start();
    expect(response.status).toBe(429);
    // A slot frees when the member's oldest session expires (240 minutes without steps), if none completes first.
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(239 * 60);
    expect(Number(response.headers.get("retry-after"))).toBeLessThanOrEqual(240 * 60);
    expect(((await response.json()) as { code: string }).code).toBe("rate_limited");
  });

  it("lets concurrent starts take only the free slots", async () => {
    const { orgId, admin } = await seedTenant();
    const ctx = await contextWith(orgId, admin.userId, { sessions: durableSearchSessions(env as never, { ttlMinutes: 240, maxActivePerOrg: 2, maxActivePerMember: 2, maxStepsPerSession: 100 }) });
    const results = await Promise.all(Array.from({ length: 6 }, () => run(sequentialSearch, { stepNumber: 1, searchStep: "s", nextStepNeeded: true }, ctx)));
    expect(results.filter((r) => typeof r.sessionId === "string")).toHaveLength(2);
    expect(results.filter((r) => (r.error as { code?: string } | undefined)?.code === "rate_limited")).toHaveLength(4);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM search_sessions WHERE org_id = ?").bind(orgId).first<{ n: number }>();
    expect(rows?.n).toBe(2);
  });

  it("caps the steps of a session with a clear error", async () => {
    const { orgId, admin } = await seedTenant();
    const ctx = await contextWith(orgId, admin.userId, { sessions: durableSearchSessions(env as never, { ttlMinutes: 240, maxActivePerOrg: 20, maxActivePerMember: 5, maxStepsPerSession: 3 }) });
    const { sessionId } = await run(sequentialSearch, { stepNumber: 1, searchStep: "s", nextStepNeeded: true }, ctx);
    await run(sequentialSearch, { sessionId, stepNumber: 2, searchStep: "s", nextStepNeeded: true }, ctx);
    await run(sequentialSearch, { sessionId, stepNumber: 3, searchStep: "s", nextStepNeeded: true }, ctx);
    const refused = await run(sequentialSearch, { sessionId, stepNumber: 4, searchStep: "s", nextStepNeeded: true }, ctx);
    expect(refused.error).toMatchObject({ code: "invalid_transition", message: expect.stringContaining("limit of 3 steps") });
    expect(await run(getResearchSession, { sessionId }, ctx)).toMatchObject({ stepIndex: 3 });
  });
});

describe("depth", () => {
  const gathered = async (key: string) => {
    const sessionId = await startSession(key, {
      searchStep: "Listed candidate vector databases",
      sources: [{ url: "https://a.example/dbs", title: "Embedded vector databases compared", snippet: "SQLite extensions and on-device search engines" }],
      knowledgeGap: "What are the licensing costs?",
    });
    return sessionId;
  };

  it("standard adds a deterministic coverage analysis and refinement queries", async () => {
    const { apiKey } = await seedTenant();
    const results = [];
    for (const _ of [1, 2]) {
      const sessionId = await gathered(apiKey);
      const body = await ok(apiKey, "sequential_search", { sessionId, stepNumber: 2, searchStep: "Read about mobile apps", nextStepNeeded: true, depth: "standard" });
      results.push(body);
    }
    const [first, second] = results;
    expect(first).toMatchObject({
      depth: "standard",
      coverage: { coveredFacets: 4, totalFacets: 7, uncovered: ["mobile", "apps", "What are the licensing costs?"] },
      refinementQueries: ["licensing costs vector database", "mobile vector database", "apps vector database"],
    });
    expect(first?.refinementResults).toBeUndefined();
    expect(second?.coverage).toEqual(first?.coverage);
    expect(second?.refinementQueries).toEqual(first?.refinementQueries);
  });

  it("thorough without a configured provider runs up to 3 queries through the org's research index", async () => {
    const { apiKey } = await seedTenant();
    await ok(apiKey, "store_research", {
      artifactType: "source",
      title: "Licensing costs of vector database engines",
      content: {},
      contentText: "Licensing costs: LanceDB and Chroma are Apache 2.0; vector database vendors charge for cloud.",
      sourceUrl: "https://licenses.example/vector",
    });
    const sessionId = await gathered(apiKey);
    const body = await ok(apiKey, "sequential_search", { sessionId, stepNumber: 2, searchStep: "Read about mobile apps", nextStepNeeded: true, depth: "thorough" });
    expect(body.depth).toBe("thorough");
    expect(body.refinementResults).toEqual([
      expect.objectContaining({ provider: "research-index", query: "licensing costs vector database", url: "https://licenses.example/vector", rank: 1 }),
    ]);
    expect(body.refinementNote).toBeUndefined();
    expect(body.warning).toBeUndefined();
  });
});
