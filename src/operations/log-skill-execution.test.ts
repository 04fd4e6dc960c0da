import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPlan } from "../../test/support/plans";
import { callTool, countRows, rest, seedTenant } from "../../test/support/worker";

const interview = {
  topic: "Vector databases for on-device search",
  researchType: "decision_support",
  scope: "Embedded options under 50 MB",
  depthSignals: ["thorough"],
  decisionContext: "Choosing a library for the mobile app",
  knownContext: "We use SQLite today",
  outputMediaType: "markdown",
  outputFormattingInstructions: "One comparison table",
  skipQuestionsReason: "The question is focused and self-contained",
  routingRationale: "3 options × 4 criteria, decision support, 'thorough' → deep",
  delegatedTo: "deep",
  originalQuery: "Which vector DB should we embed?",
};

describe("log_skill_execution", () => {
  it("creates a started execution with the interview metadata and returns its executionId", async () => {
    const { apiKey, admin } = await seedTenant();
    const { isError, body, structured } = await callTool(apiKey, "log_skill_execution", {
      skillName: "research",
      status: "started",
      sessionId: "session-1",
      metadata: interview,
    });
    expect(isError).toBe(false);
    expect(structured).toEqual(body);
    // An acknowledgement: the execution acted on, its status and plan; nothing the caller sent comes back.
    expect(body).toEqual({ executionId: expect.any(String), status: "started", planId: null, created: true });
    expect(String(body.executionId)).toMatch(/^exec_[0-9a-z]{25}$/);
    // The values just sent are not echoed back; get_skill_execution reads them.
    expect((await callTool(apiKey, "get_skill_execution", { executionId: body.executionId })).body).toMatchObject({
      skillName: "research",
      sessionId: "session-1",
      userId: admin.userId,
      completedAt: null,
      metadata: interview,
    });
  });

  it("caps originalQuery at 5000 characters and says so", async () => {
    const { apiKey } = await seedTenant();
    const longQuery = "q".repeat(7000);
    const { body } = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: { originalQuery: longQuery } });
    expect(body.originalQueryTruncated).toBe(true);
    const stored = await callTool(apiKey, "get_skill_execution", { executionId: body.executionId, field: "originalQuery" });
    expect(stored.body).toMatchObject({ metadata: { originalQuery: "q".repeat(5000) }, nextOffset: null });
  });

  it("moves through executing to completed, merging metadata and stamping completedAt", async () => {
    const { apiKey } = await seedTenant();
    const created = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: interview });
    const executionId = created.body.executionId;
    const { planId } = await createPlan(apiKey);
    const executing = await callTool(apiKey, "log_skill_execution", { executionId, status: "executing", planId, metadata: { planDesignRationale: "why" } });
    expect(executing.body).toMatchObject({ status: "executing", planId, created: false });
    const completed = await callTool(apiKey, "log_skill_execution", {
      executionId,
      skillName: "research",
      status: "completed",
      closedReason: "delivered",
      metadata: { stepsCompleted: 6, artifactsStored: 4, checkpointFeedback: [{ step: 3, feedback: "looks right" }] },
    });
    expect(completed.body).toEqual({ executionId, status: "completed", planId, created: false });
    const stored = await callTool(apiKey, "get_skill_execution", { executionId });
    expect(Object.keys(stored.body.metadata as object)).toEqual([...Object.keys(interview), "planDesignRationale", "stepsCompleted", "artifactsStored", "checkpointFeedback"]);
    expect(stored.body).toMatchObject({
      skillName: "research",
      closedReason: "delivered",
      completedAt: expect.any(String),
      metadata: { ...interview, planDesignRationale: "why", stepsCompleted: 6, artifactsStored: 4, checkpointFeedback: [{ step: 3, feedback: "looks right" }] },
      metadataClipped: [],
    });
  });

  it("audits creation and every update with the actor, the client and the transition", async () => {
    const { apiKey, apiKeyId, admin } = await seedTenant();
    const { body } = await callTool(apiKey, "log_skill_execution", { skillName: "research" });
    await callTool(apiKey, "log_skill_execution", { executionId: body.executionId, status: "completed", closedReason: "used existing research" });
    const { results } = await env.DB.prepare("SELECT action, actor_user_id, actor_client_id, target_type, detail FROM audit_log WHERE target_id = ? ORDER BY rowid")
      .bind(body.executionId)
      .all();
    expect(results).toEqual([
      { action: "skill_execution.created", actor_user_id: admin.userId, actor_client_id: apiKeyId, target_type: "skill_execution", detail: '{"status":"started"}' },
      {
        action: "skill_execution.updated",
        actor_user_id: admin.userId,
        actor_client_id: apiKeyId,
        target_type: "skill_execution",
        detail: '{"from":"started","to":"completed","closedReason":"used existing research"}',
      },
    ]);
  });

  it("records a failure with its errorMessage, and requires one", async () => {
    const { apiKey } = await seedTenant();
    const { body } = await callTool(apiKey, "log_skill_execution", { skillName: "research" });
    const missing = await callTool(apiKey, "log_skill_execution", { executionId: body.executionId, status: "failed" });
    expect(missing.isError).toBe(true);
    expect(missing.body).toMatchObject({ error: { code: "validation", issues: [{ path: "errorMessage" }] } });
    const failed = await callTool(apiKey, "log_skill_execution", { executionId: body.executionId, status: "failed", errorMessage: "search provider down" });
    expect(failed.body).toMatchObject({ status: "failed" });
    const stored = await callTool(apiKey, "get_skill_execution", { executionId: body.executionId });
    expect(stored.body).toMatchObject({ status: "failed", errorMessage: "search provider down" });
  });

  it("refuses to leave a terminal status, and leaves the record as it was", async () => {
    const { apiKey } = await seedTenant();
    const { body } = await callTool(apiKey, "log_skill_execution", { skillName: "research" });
    await callTool(apiKey, "log_skill_execution", { executionId: body.executionId, status: "completed", closedReason: "used existing research" });
    for (const status of ["executing", "failed", "started"]) {
      const result = await callTool(apiKey, "log_skill_execution", { executionId: body.executionId, status, errorMessage: "x" });
      expect(result.body).toMatchObject({ error: { code: "invalid_transition" } });
    }
    const stored = await callTool(apiKey, "get_skill_execution", { executionId: body.executionId });
    expect(stored.body).toMatchObject({ status: "completed", closedReason: "used existing research", errorMessage: null });
  });

  it("keeps every one of five concurrent metadata merges", async () => {
    const { apiKey } = await seedTenant();
    const { body } = await callTool(apiKey, "log_skill_execution", { skillName: "research" });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => callTool(apiKey, "log_skill_execution", { executionId: body.executionId, status: "executing", metadata: { [`k${i}`]: i } })),
    );
    expect(results.map((result) => result.isError)).toEqual([false, false, false, false, false]);
    const audits = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE target_id = ?").bind(body.executionId).first<{ n: number }>();
    expect(audits?.n).toBe(6);
    const stored = await callTool(apiKey, "get_skill_execution", { executionId: body.executionId });
    expect(stored.body.metadata).toEqual({ k0: 0, k1: 1, k2: 2, k3: 3, k4: 4 });
  });

  it("closes an execution whose user chose existing research only with a closedReason, and changes nothing without one", async () => {
    const { apiKey } = await seedTenant();
    const { body } = await callTool(apiKey, "log_skill_execution", {
      skillName: "research",
      metadata: { ...interview, priorResearchCheck: { decision: "use_existing", artifactIds: ["art_x"] } },
    });
    const refused = await callTool(apiKey, "log_skill_execution", { executionId: body.executionId, status: "completed" });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.body)).toContain("closedReason");
    expect((await callTool(apiKey, "get_skill_execution", { executionId: body.executionId })).body.status).toBe("started");
    const closed = await callTool(apiKey, "log_skill_execution", { executionId: body.executionId, status: "completed", closedReason: "Used existing research: art_x" });
    expect(closed.isError).toBe(false);
    expect(closed.body).toMatchObject({ status: "completed" });
  });

  it("is the same operation over REST", async () => {
    const { apiKey } = await seedTenant();
    const created = await rest(apiKey, "/skill-executions", { method: "POST", body: JSON.stringify({ skillName: "research-scan", metadata: { topic: "x" } }) });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { executionId: string };
    expect(created.headers.get("location")).toBe(`/api/v1/skill-executions/${body.executionId}`);
    const row = await env.DB.prepare("SELECT skill_name, status FROM skill_executions WHERE id = ?").bind(body.executionId).first();
    expect(row).toEqual({ skill_name: "research-scan", status: "started" });
  });

  it.each([
    ["no skillName on create", {}, "skillName"],
    ["a non-started status on create", { skillName: "research", status: "executing" }, "status"],
    ["both clarifyingQuestions and skipQuestionsReason", { skillName: "r", metadata: { clarifyingQuestions: [{ question: "a", answer: "b" }], skipQuestionsReason: "c" } }, "metadata.skipQuestionsReason"],
    ["three clarifying questions", { skillName: "r", metadata: { clarifyingQuestions: [1, 2, 3].map((n) => ({ question: `q${n}`, answer: "a" })) } }, "metadata.clarifyingQuestions"],
    ["an unknown researchType", { skillName: "r", metadata: { researchType: "vibes" } }, "metadata.researchType"],
    ["a wrong type", { skillName: 42 }, "skillName"],
    ["an unknown field", { skillName: "r", colour: "blue" }, "(input)"],
    ["an oversize skillName", { skillName: "x".repeat(101) }, "skillName"],
    ["an oversize topic", { skillName: "r", metadata: { topic: "t".repeat(501) } }, "metadata.topic"],
    ["a malformed executionId", { executionId: "../etc/passwd", status: "executing" }, "executionId"],
    ["sessionId on update", { executionId: "exec_0000000000000000000000000", sessionId: "s" }, "sessionId"],
  ])("refuses %s with a validation error and writes nothing", async (_label, input, path) => {
    const { apiKey } = await seedTenant();
    const before = [await countRows("skill_executions"), await countRows("audit_log")];
    const { isError, body } = await callTool(apiKey, "log_skill_execution", input);
    expect(isError).toBe(true);
    const error = (body as { error: { code: string; issues: { path: string }[] } }).error;
    expect(error.code).toBe("validation");
    expect(error.issues.map((issue) => issue.path)).toContain(path);
    expect([await countRows("skill_executions"), await countRows("audit_log")]).toEqual(before);
  });

  it("answers a write with the ids it acted on only, however large the metadata", async () => {
    const { apiKey } = await seedTenant();
    const big = { knownContext: "k".repeat(8000), routingRationale: "r".repeat(8000), notes: "n".repeat(40_000) };
    const { body } = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: big });
    expect(Object.keys(body).sort()).toEqual(["created", "executionId", "planId", "status"]);
    expect(JSON.stringify(body).length).toBeLessThan(200);
  });

  it("refuses metadata over 64 KiB with payload_too_large and writes nothing", async () => {
    const { apiKey } = await seedTenant();
    const before = await countRows("skill_executions");
    const { body } = await callTool(apiKey, "log_skill_execution", { skillName: "r", metadata: { notes: "n".repeat(70_000) } });
    expect(body).toMatchObject({ error: { code: "payload_too_large" } });
    expect(await countRows("skill_executions")).toBe(before);
  });
});
