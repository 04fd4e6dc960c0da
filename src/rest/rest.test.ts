import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { steps } from "../../test/support/plans";
import { fetchWorker, ORIGIN, rest, seedApiKey, seedTenant } from "../../test/support/worker";
import { OPERATIONS } from "../operations/registry";

describe("the OpenAPI document", () => {
  it("is public, OpenAPI 3.1, and describes every operation at its REST binding with its scope", async () => {
    const response = await fetchWorker(new Request(`${ORIGIN}/api/v1/openapi.json`));
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      info: { description: string };
      paths: Record<string, Record<string, { operationId: string; "x-required-scope": string; parameters: { $ref?: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> }>>;
      components: { securitySchemes: Record<string, unknown>; parameters: Record<string, { name: string; in: string }> };
    };
    expect(document.openapi).toBe("3.1.0");
    // How lists page and clipped text reads on is said once for the whole API, as in the MCP server's instructions.
    expect(document.info.description).toContain("pass nextCursor back as cursor");
    for (const operation of OPERATIONS) {
      expect(operation.rest.path).toMatch(/^[a-z0-9\-/{}A-Z]+$/);
      const item = document.paths[`/api/v1${operation.rest.path}`]?.[operation.rest.method];
      expect(item?.operationId).toBe(operation.name);
      expect(item?.["x-required-scope"]).toBe(operation.scope);
      // A create answers 201 with Location (200 too where the same call may update instead); the rest 200.
      const success = operation.rest.creates ? "201" : "200";
      expect(Object.keys(item?.responses ?? {}).filter((status) => status.startsWith("2")).sort()).toEqual(
        operation.rest.creates?.isNew ? ["200", "201"] : [success],
      );
      if (operation.rest.creates?.location) expect(item?.responses["201"]?.headers).toHaveProperty("Location");
      // The read position (read replicas): accepted by every operation and handed back on success.
      expect(item?.parameters).toContainEqual({ $ref: "#/components/parameters/ReadPosition" });
      expect(item?.responses[success]?.headers).toHaveProperty("Cairn-Bookmark");
      // A missing scope: problem+json with the step-up challenge beside it.
      expect(item?.responses["403"]?.headers).toHaveProperty("WWW-Authenticate");
    }
    expect(document.components.parameters.ReadPosition).toMatchObject({ name: "Cairn-Bookmark", in: "header" });
    expect(Object.keys(document.components.securitySchemes)).toEqual(["oauth2", "apiKey"]);
  });
});

// The POST operations that change something that exists (or only compute) rather than create: everything else a POST does is a create.
const POST_ACTIONS = ["get_next_step", "submit_step_result", "modify_plan", "request_user_review", "submit_review", "cancel_plan", "extract_data"];

describe("REST creates", () => {
  it("classifies every POST operation: a create (201) unless it acts on what exists", () => {
    for (const operation of OPERATIONS.filter((candidate) => candidate.rest.method === "post")) {
      expect(Boolean(operation.rest.creates), operation.name).toBe(!POST_ACTIONS.includes(operation.name));
    }
    // Only feedback, which no route reads back, comes without Location.
    expect(OPERATIONS.filter((operation) => operation.rest.creates && !operation.rest.creates.location).map((operation) => operation.name)).toEqual(["submit_research_feedback"]);
  });

  it("answers each create with 201 and a Location that reads back what it made", async () => {
    const { apiKey, orgId, admin } = await seedTenant();
    const adminKey = (await seedApiKey(orgId, admin.userId, ["research:read", "research:write", "org:admin"])).key;
    const post = async (path: string, body: unknown, key = apiKey) => {
      const response = await rest(key, path, { method: "POST", body: JSON.stringify(body) });
      expect(response.status, `${path}: ${await response.clone().text()}`).toBe(201);
      const location = response.headers.get("location") ?? "";
      expect(location, path).toMatch(/^\/api\/v1\//);
      expect(response.headers.get("access-control-expose-headers") ?? "", path).toContain("Location");
      const read = await rest(key, location.slice("/api/v1".length));
      expect(read.status, location).toBe(200);
      return { body: (await response.json()) as Record<string, unknown>, read: (await read.json()) as Record<string, unknown> };
    };
    const execution = await post("/skill-executions", { skillName: "research" });
    expect(execution.read.executionId).toBe(execution.body.executionId);
    const plan = await post("/plans", { name: "[Scan] Vector databases", researchQuestion: "Which vector database fits on-device search?", steps: steps("search", "synthesize"), planDesignRationale: "Search, then synthesize" });
    expect(plan.read.planId).toBe(plan.body.planId);
    const planId = String(plan.body.planId);
    const evidence = await post(`/plans/${planId}/evidence`, { evidence: [{ url: "https://example.com/a", title: "A", facts: "A fact" }] });
    // The ledger it points to lists the recorded source (compactly: its ref and title).
    expect(evidence.read).toMatchObject({ evidence: [{ ref: "E1", title: "A" }] });
    const artifact = await post("/artifacts", { artifactType: "note", title: "Note", content: { a: 1 }, contentText: "a note" });
    expect(artifact.read.artifactId).toBe(artifact.body.artifactId);
    const output = await post("/outputs", { planId, title: "Report", mediaType: "markdown", content: "# Report" });
    expect(output.read.outputId).toBe(output.body.outputId);
    const session = await post("/search-sessions/steps", { stepNumber: 1, searchStep: "first query", nextStepNeeded: true, researchGoal: "goal" });
    expect(session.read.sessionId).toBe(session.body.sessionId);
    const webhook = await post("/webhooks", { url: "https://hooks.example.com/cairn", events: ["plan.completed"] }, adminKey);
    expect((webhook.read.subscription as { id: string }).id).toBe((webhook.body.subscription as { id: string }).id);
    const feedback = await rest(apiKey, "/feedback", { method: "POST", body: JSON.stringify({ phase: "initial", summary: "Good", planId }) });
    expect(feedback.status).toBe(201);
  });

  it("answers log_skill_execution's update of an existing execution with 200 and no Location", async () => {
    const { apiKey } = await seedTenant();
    const created = await rest(apiKey, "/skill-executions", { method: "POST", body: JSON.stringify({ skillName: "research" }) });
    const { executionId } = (await created.json()) as { executionId: string };
    const updated = await rest(apiKey, "/skill-executions", { method: "POST", body: JSON.stringify({ executionId, status: "executing" }) });
    expect(updated.status).toBe(200);
    expect(updated.headers.get("location")).toBeNull();
  });
});

describe("REST errors", () => {
  it("answers an unknown route with 404 problem details", async () => {
    const { apiKey } = await seedTenant();
    const response = await rest(apiKey, "/nothing-here");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ code: "not_found", correlationId: expect.any(String) });
  });

  it("answers a wrong method with 405", async () => {
    const { apiKey } = await seedTenant();
    expect((await rest(apiKey, "/skill-executions", { method: "DELETE" })).status).toBe(405);
  });

  it("answers malformed JSON with 400 and writes nothing", async () => {
    const { apiKey } = await seedTenant();
    const response = await rest(apiKey, "/skill-executions", { method: "POST", body: "{not json" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "validation", issues: [{ path: "(body)" }] });
  });

  it("refuses a body over 4 MiB with 413 and writes nothing", async () => {
    const { apiKey } = await seedTenant();
    const response = await rest(apiKey, "/skill-executions", { method: "POST", body: JSON.stringify({ skillName: "r", metadata: { pad: "x".repeat(5 * 1024 * 1024) } }) });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "payload_too_large" });
  });

  it("answers a missing credential with a 401 challenge", async () => {
    const response = await rest(null, "/skill-executions");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("resource_metadata=");
  });
});

describe("the tool-call log", () => {
  it("records every one of many concurrent calls, sharing writes", async () => {
    const { orgId, apiKey } = await seedTenant();
    const { callTool } = await import("../../test/support/worker");
    await Promise.all(Array.from({ length: 40 }, () => callTool(apiKey, "list_skill_executions", {})));
    const row = await env.DB.prepare("SELECT COUNT(*) AS n, COUNT(DISTINCT correlation_id) AS ids FROM tool_call_log WHERE org_id = ?").bind(orgId).first();
    expect(row).toEqual({ n: 40, ids: 40 });
  });

  it("records every MCP and REST call with operation, caller, duration, outcome and error code", async () => {
    const { orgId, admin, apiKey, apiKeyId } = await seedTenant();
    await rest(apiKey, "/skill-executions", { method: "POST", body: JSON.stringify({ skillName: "research" }) });
    await rest(apiKey, "/skill-executions/exec_missing000000000000000000");
    const { callTool } = await import("../../test/support/worker");
    await callTool(apiKey, "list_skill_executions", { limit: 5 });
    const { results } = await env.DB.prepare(
      "SELECT face, operation, user_id, api_key_id, client_id, outcome, error_code, duration_ms FROM tool_call_log WHERE org_id = ? ORDER BY rowid",
    )
      .bind(orgId)
      .all();
    expect(results).toEqual([
      expect.objectContaining({ face: "rest", operation: "log_skill_execution", outcome: "ok", error_code: null }),
      expect.objectContaining({ face: "rest", operation: "get_skill_execution", outcome: "error", error_code: "not_found" }),
      expect.objectContaining({ face: "mcp", operation: "list_skill_executions", outcome: "ok" }),
    ]);
    for (const row of results) {
      expect(row).toMatchObject({ user_id: admin.userId, api_key_id: apiKeyId, client_id: null });
      expect(row.duration_ms).toBeGreaterThanOrEqual(0);
    }
  });
});
