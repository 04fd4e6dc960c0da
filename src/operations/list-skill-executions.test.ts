import { describe, expect, it } from "vitest";
import { callTool, countRows, rest, seedTenant } from "../../test/support/worker";

describe("list_skill_executions", () => {
  it("pages newest first without repeating or skipping a record", async () => {
    const { apiKey } = await seedTenant();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const { body } = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: { topic: `topic ${i}` } });
      ids.push(String(body.executionId));
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const { body } = await callTool(apiKey, "list_skill_executions", { limit: 3, ...(cursor ? { cursor } : {}) });
      const page = body as { executions: { executionId: string; topic: string }[]; nextCursor: string | null };
      expect(page.executions.length).toBeLessThanOrEqual(3);
      seen.push(...page.executions.map((e) => e.executionId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it("filters by status, skillName and sessionId, and leaves metadata out of the summaries", async () => {
    const { apiKey } = await seedTenant();
    const a = await callTool(apiKey, "log_skill_execution", { skillName: "research", sessionId: "s-1", metadata: { topic: "A", delegatedTo: "deep" } });
    await callTool(apiKey, "log_skill_execution", { skillName: "research-output", sessionId: "s-2" });
    await callTool(apiKey, "log_skill_execution", { executionId: a.body.executionId, status: "executing" });
    const bySession = (await callTool(apiKey, "list_skill_executions", { sessionId: "s-1" })).body as { executions: Record<string, unknown>[] };
    expect(bySession.executions).toHaveLength(1);
    expect(bySession.executions[0]).toMatchObject({ executionId: a.body.executionId, topic: "A", delegatedTo: "deep", status: "executing" });
    expect(bySession.executions[0]).not.toHaveProperty("metadata");
    const byStatus = (await callTool(apiKey, "list_skill_executions", { status: "started" })).body as { executions: { skillName: string }[] };
    expect(byStatus.executions.map((e) => e.skillName)).toEqual(["research-output"]);
    const bySkill = await (await rest(apiKey, "/skill-executions?skillName=research-output&limit=5")).json();
    expect((bySkill as { executions: unknown[] }).executions).toHaveLength(1);
  });

  it.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 101 }, "limit"],
    [{ limit: 2.5 }, "limit"],
    [{ status: "done" }, "status"],
    [{ cursor: "not-a-cursor" }, "cursor"],
    [{ orgId: "org_other" }, "(input)"],
  ])("refuses %j with a validation error", async (input, path) => {
    const { apiKey } = await seedTenant();
    const before = await countRows("skill_executions");
    const { body } = await callTool(apiKey, "list_skill_executions", input);
    expect(body).toMatchObject({ error: { code: "validation" } });
    expect((body as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path)).toContain(path);
    expect(await countRows("skill_executions")).toBe(before);
  });

  it("reports bad query strings over REST as problem details", async () => {
    const { apiKey } = await seedTenant();
    const response = await rest(apiKey, "/skill-executions?limit=lots");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ code: "validation", status: 400, issues: [{ path: "limit" }] });
  });
});
