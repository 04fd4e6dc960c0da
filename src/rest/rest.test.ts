import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fetchWorker, ORIGIN, rest, seedTenant } from "../../test/support/worker";
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
      expect(item?.responses).toHaveProperty(String(operation.rest.status ?? 200));
      // The read position (read replicas): accepted by every operation and handed back on success.
      expect(item?.parameters).toContainEqual({ $ref: "#/components/parameters/ReadPosition" });
      expect(item?.responses[String(operation.rest.status ?? 200)]?.headers).toHaveProperty("Cairn-Bookmark");
      // A missing scope: problem+json with the step-up challenge beside it.
      expect(item?.responses["403"]?.headers).toHaveProperty("WWW-Authenticate");
    }
    expect(document.components.parameters.ReadPosition).toMatchObject({ name: "Cairn-Bookmark", in: "header" });
    expect(Object.keys(document.components.securitySchemes)).toEqual(["oauth2", "apiKey"]);
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
