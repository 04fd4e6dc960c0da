import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { STORED_JSON_LIMITS } from "../../src/domain/stored-input";
import { Visitor } from "../support/dashboard";
import { createPlan, ok } from "../support/plans";
import { callTool, countRows, rest, seedTenant } from "../support/worker";

/** The error a tool reported: `{ error: { code, message } }`. */
const errorOf = (result: { body: Record<string, unknown> }) => (result.body.error ?? {}) as { code?: string; message?: string };

/** `{"a":[[[…]]]}` with `depth` levels of objects and arrays in all. */
function nested(depth: number): Record<string, unknown> {
  let value: unknown = "bottom";
  for (let level = 1; level < depth; level++) value = [value];
  return { a: value };
}

/** A skill execution of a session, a plan linked to it, and an artifact of that plan: what search joins. */
async function linkedRecords(apiKey: string) {
  const sessionId = `sess-${crypto.randomUUID()}`;
  const execution = await ok(apiKey, "log_skill_execution", { skillName: "research", sessionId, metadata: { topic: "tidal energy", delegatedTo: "scan" } });
  const plan = await createPlan(apiKey, { sessionId });
  expect(plan.linkedExecutionId).toBe(execution.executionId);
  await ok(apiKey, "store_research", {
    artifactType: "finding",
    title: "Tidal lagoons",
    content: { note: "lagoons" },
    contentText: "Tidal lagoons store water behind a wall and release it through turbines.",
    planId: plan.planId,
  });
  return { executionId: String(execution.executionId), planId: plan.planId };
}

describe("stored JSON a caller controls", () => {
  it("refuses metadata nested past the limit, naming the field, and stores nothing", async () => {
    const { apiKey } = await seedTenant();
    const before = await countRows("skill_executions");
    const result = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: nested(1_000) });
    expect(result.isError).toBe(true);
    expect(errorOf(result).code).toBe("validation");
    expect(String(errorOf(result).message)).toMatch(/metadata\.a\..*Nested too deeply/);
    expect(await countRows("skill_executions")).toBe(before);
    // Just inside the limit is fine (the input object is level 1, metadata level 2).
    const inside = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: nested(STORED_JSON_LIMITS.maxDepth - 2) });
    expect(inside.isError).toBe(false);
  });

  it("applies the same bound to every open JSON field: step results, artifact content", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    const next = await ok(apiKey, "get_next_step", { planId });
    const step = next.step as { stepId: string };
    const submitted = await callTool(apiKey, "submit_step_result", {
      planId,
      stepId: step.stepId,
      claimId: next.claimId,
      result: nested(200),
      confidence: 0.8,
      stepExecutionReport: { thinking: "x", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] },
    });
    expect(errorOf(submitted).code).toBe("validation");
    const stored = await rest(apiKey, "/artifacts", {
      method: "POST",
      body: JSON.stringify({ artifactType: "finding", title: "t", content: nested(5_000), contentText: "deep" }),
    });
    expect(stored.status).toBe(400);
    expect(((await stored.json()) as { detail: string }).detail).toContain("content.a");
  });

  it("refuses a __proto__ key anywhere in an input", async () => {
    const { apiKey } = await seedTenant();
    const response = await rest(apiKey, "/skill-executions", {
      method: "POST",
      body: '{"skillName":"research","metadata":{"knownContext":"x","extra":{"__proto__":{"polluted":true}}}}',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toContain("metadata.extra.__proto__");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("keeps every list, page and search of the org working when a stored row is beyond what SQLite's JSON functions parse", async () => {
    const { apiKey, admin } = await seedTenant();
    const { executionId } = await linkedRecords(apiKey);
    // A row written before the write bound existed (or by any other path): SQLite refuses to parse it.
    const deep = JSON.stringify({ topic: "t", delegatedTo: "deep", a: nested(1_200).a });
    await env.DB.prepare("UPDATE skill_executions SET metadata = ? WHERE id = ?").bind(deep, executionId).run();

    const listed = await callTool(apiKey, "list_skill_executions", {});
    expect(listed.isError).toBe(false);
    expect(JSON.stringify(listed.body)).toContain(executionId);
    expect((await rest(apiKey, "/skill-executions")).status).toBe(200);

    const searched = await callTool(apiKey, "search_sources", { query: "tidal lagoons" });
    expect(searched.isError).toBe(false);
    expect(JSON.stringify(searched.body)).toContain("Tidal lagoons");
    const chatgpt = await callTool(apiKey, "search", { query: "tidal lagoons" });
    expect(chatgpt.isError).toBe(false);

    const visitor = new Visitor();
    expect((await visitor.signIn(admin.email, admin.password)).status).toBe(303);
    for (const page of ["/dashboard/executions", "/dashboard/analytics", "/dashboard/plans"]) {
      expect((await visitor.get(page)).status, page).toBe(200);
    }
  });
});

describe("references a caller passes resolve inside the caller's org", () => {
  it("refuses another org's plan, step and execution ids as not found, storing nothing", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const other = await linkedRecords(b.apiKey);
    const otherPlan = await createPlan(b.apiKey);
    const otherStepId = otherPlan.steps[0]?.stepId ?? "";
    const ownPlan = await createPlan(a.apiKey);
    const before = await Promise.all(["skill_executions", "artifacts", "research_outputs"].map(countRows));

    const attempts: [string, Record<string, unknown>][] = [
      ["log_skill_execution", { skillName: "research", planId: other.planId }],
      ["store_research", { artifactType: "finding", title: "t", content: {}, contentText: "x", planId: other.planId }],
      ["store_research", { artifactType: "finding", title: "t", content: {}, contentText: "x", planId: ownPlan.planId, stepId: otherStepId }],
      ["store_research_output", { title: "Report", mediaType: "markdown", content: "# Report", executionId: other.executionId }],
    ];
    for (const [tool, args] of attempts) {
      const result = await callTool(a.apiKey, tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(errorOf(result).code, tool).toBe("not_found");
    }
    // An update of one's own execution may not point it at another org's plan either.
    const own = await ok(a.apiKey, "log_skill_execution", { skillName: "research" });
    const update = await callTool(a.apiKey, "log_skill_execution", { executionId: own.executionId, status: "executing", planId: other.planId });
    expect(errorOf(update).code).toBe("not_found");
    expect(await Promise.all(["skill_executions", "artifacts", "research_outputs"].map(countRows))).toEqual([
      (before[0] ?? 0) + 1,
      before[1],
      before[2],
    ]);
    // A stepId alone cannot be checked: it needs its plan.
    const lonely = await callTool(a.apiKey, "store_research", { artifactType: "finding", title: "t", content: {}, contentText: "x", stepId: otherStepId });
    expect(errorOf(lonely).code).toBe("validation");
  });
});

describe("control characters in stored text", () => {
  it("drops them (and mends lone surrogates) the same way in every text field, so snippets stay whole", async () => {
    const { apiKey } = await seedTenant();
    const stored = await ok(apiKey, "store_research", {
      artifactType: "finding",
      title: "Wave\u0000 farms\u001b",
      content: { note: "a\u0000b" },
      contentText: "Wave farms\u0000 convert swell into electricity along exposed coasts \ud800.",
      tags: ["ocean\u0007"],
    });
    const artifact = await ok(apiKey, "get_artifact", { artifactId: stored.artifactId });
    const text = JSON.stringify(artifact);
    expect(text).not.toMatch(/\\u0000|\\u001b|\\u0007/);
    expect(artifact.title).toBe("Wave farms");
    expect(text).toContain("\ufffd");
    const hits = await ok(apiKey, "search_sources", { query: "swell electricity" });
    expect(JSON.stringify(hits)).toContain("exposed coasts");
  });
});
