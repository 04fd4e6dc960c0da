import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { resolveApiKey } from "../../src/auth/credentials";
import { newId } from "../../src/domain/ids";
import { Visitor } from "../support/dashboard";
import { createPlan } from "../support/plans";
import { authorizeInBrowser, pkcePair, registerClient } from "../support/oauth-flow";
import {
  callTool,
  countRows,
  fetchWorker,
  mcpRequest,
  ORIGIN,
  rest,
  seedApiKey,
  seedTenant,
  seedUser,
  tokensFor,
} from "../support/worker";

describe("scopes", () => {
  it("answers a write tool called with a read-only token with a 403 step-up challenge naming the scope", async () => {
    const { admin } = await seedTenant();
    const { tokens } = await tokensFor({ email: admin.email, password: admin.password, scopes: ["research:read"] });
    expect(tokens.scope).toBe("research:read");
    const response = await fetchWorker(mcpRequest(tokens.access_token, "tools/call", { name: "log_skill_execution", arguments: { skillName: "research" } }));
    expect(response.status).toBe(403);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="research:write"');
    expect(challenge).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
    const read = await callTool(tokens.access_token, "list_skill_executions", {});
    expect(read.isError).toBe(false);
    expect((await rest(tokens.access_token, "/skill-executions", { method: "POST", body: "{}" })).status).toBe(403);
  });

  it("limits an API key to its scopes", async () => {
    const { orgId, admin } = await seedTenant();
    const readOnly = await seedApiKey(orgId, admin.userId, ["research:read"]);
    const response = await rest(readOnly.key, "/skill-executions", { method: "POST", body: JSON.stringify({ skillName: "research" }) });
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toContain('scope="research:write"');
    expect((await rest(readOnly.key, "/skill-executions")).status).toBe(200);
  });

  it("drops org:admin from a member's API key", async () => {
    const { orgId } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const key = await seedApiKey(orgId, member.userId, ["research:read", "org:admin"]);
    const listed = await fetchWorker(mcpRequest(key.key, "tools/list"));
    expect(listed.status).toBe(200);
    const resolved = await resolveApiKey(env.DB, key.key, ORIGIN);
    expect((resolved?.props as { scopes: string[] } | undefined)?.scopes).toEqual(["research:read"]);
  });
});

describe("API keys", () => {
  it("stops working at once when revoked through Cairn, on both faces", async () => {
    const { apiKey, apiKeyId, admin } = await seedTenant();
    expect((await rest(apiKey, "/skill-executions")).status).toBe(200);
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const revoked = await visitor.post(`/dashboard/admin/keys/${apiKeyId}/revoke`, { csrf: await visitor.csrf("/dashboard/admin") });
    expect(revoked.status).toBe(303);
    expect((await rest(apiKey, "/skill-executions")).status).toBe(401);
    expect((await fetchWorker(mcpRequest(apiKey, "tools/list"))).status).toBe(401);
  });

  it("stops working within 30 s when revoked in the database directly (the CLI, another isolate), and at once when never used here", async () => {
    const { apiKey, apiKeyId, orgId, admin } = await seedTenant();
    expect((await rest(apiKey, "/skill-executions")).status).toBe(200);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(Date.now(), apiKeyId).run();
    // This isolate verified the key moments ago and trusts that for at most 30 s ...
    expect((await rest(apiKey, "/skill-executions")).status).toBe(200);
    // ... a key it has not verified is checked in the database at once ...
    const unused = await seedApiKey(orgId, admin.userId);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(Date.now(), unused.id).run();
    expect((await rest(unused.key, "/skill-executions")).status).toBe(401);
    // ... and once the 30 s are over, the revoked one is refused on both faces. The Worker shares this isolate and
    // reads the time through Date.now: the clock moves on 30.5 s instead of the test sleeping them.
    const later = Date.now() + 30_500;
    vi.spyOn(Date, "now").mockImplementation(() => later);
    try {
      expect((await rest(apiKey, "/skill-executions")).status).toBe(401);
      expect((await fetchWorker(mcpRequest(apiKey, "tools/list"))).status).toBe(401);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("stops working when its user leaves the organization", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    await env.DB.prepare("DELETE FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, admin.userId).run();
    expect((await fetchWorker(mcpRequest(apiKey, "tools/list"))).status).toBe(401);
  });

  it("refuses unknown and malformed keys", async () => {
    for (const token of ["cairn_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "cairn_short", "not-a-token", "a:b:c"]) {
      expect((await fetchWorker(mcpRequest(token, "tools/list"))).status).toBe(401);
    }
  });

  it("records when a key was last used", async () => {
    const { apiKey, apiKeyId } = await seedTenant();
    await rest(apiKey, "/skill-executions");
    const row = await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?").bind(apiKeyId).first<{ last_used_at: number | null }>();
    expect(row?.last_used_at).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe("transport", () => {
  it("refuses a foreign Origin on /mcp with 403, and serves localhost or no Origin", async () => {
    const { apiKey } = await seedTenant();
    const foreign = await fetchWorker(mcpRequest(apiKey, "tools/list", {}, { origin: "https://evil.example" }));
    expect(foreign.status).toBe(403);
    expect((await fetchWorker(mcpRequest(apiKey, "tools/list", {}, { origin: "http://localhost:6274" }))).status).toBe(200);
    expect((await fetchWorker(mcpRequest(apiKey, "tools/list"))).status).toBe(200);
  });

  it("answers a method other than POST on /mcp with 405 and Allow: POST (both profiles, both eras)", async () => {
    const { apiKey } = await seedTenant();
    for (const path of ["/mcp", "/mcp/core"]) {
      for (const method of ["GET", "DELETE", "PUT", "PATCH"]) {
        for (const version of ["2025-11-25", "2026-07-28"]) {
          const response = await fetchWorker(
            new Request(`${ORIGIN}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, accept: "application/json, text/event-stream", "mcp-protocol-version": version } }),
          );
          expect(response.status, `${method} ${path} ${version}`).toBe(405);
          expect(response.headers.get("allow"), `${method} ${path} ${version}`).toBe("POST");
        }
      }
    }
    // The REST face's 405s name the allowed methods too.
    const wrongRest = await rest(apiKey, "/skill-executions", { method: "DELETE" });
    expect(wrongRest.status).toBe(405);
    expect(wrongRest.headers.get("allow")?.split(", ").sort()).toEqual(["GET", "POST"]);
    const wrongPrompts = await rest(apiKey, "/prompts", { method: "POST", body: "{}" });
    expect(wrongPrompts.status).toBe(405);
    expect(wrongPrompts.headers.get("allow")).toBe("GET");
  });

  it("refuses a token presented at another origin than the one it was issued for", async () => {
    const { admin } = await seedTenant();
    const { tokens } = await tokensFor({ email: admin.email, password: admin.password });
    const elsewhere = mcpRequest(tokens.access_token, "tools/list", {}, { host: "127.0.0.1:8787" });
    const response = await fetchWorker(new Request(elsewhere.url.replace("localhost", "127.0.0.1"), elsewhere));
    expect(response.status).toBe(401);
  });
});

describe("one HTTP request is one MCP call", () => {
  const ARTIFACT = { artifactType: "note", title: "Batched", content: { text: "x" }, contentText: "batched call" };

  /** A JSON-RPC batch (an array) to /mcp, as a 2025-era client would send it, under the given protocol version header. */
  function batchRequest(token: string, messages: unknown[], protocolVersion?: string) {
    return new Request(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        ...(protocolVersion ? { "mcp-protocol-version": protocolVersion } : {}),
      },
      body: JSON.stringify(messages),
    });
  }
  const calls = (count: number, name: string, args: unknown) =>
    Array.from({ length: count }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name, arguments: args } }));

  // No header means 2025-03-26 to the SDK, a version that defined batches: refused all the same.
  it.each(["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", undefined])("refuses a batch of 25 tool calls (protocol version %s) with 400 and -32600, and runs none of them", async (version) => {
    const { apiKey } = await seedTenant();
    const before = await countRows("artifacts");
    const response = await fetchWorker(batchRequest(apiKey, calls(25, "store_research", ARTIFACT), version));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { jsonrpc: string; id: null; error: { code: number; message: string } };
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toContain("batch");
    expect(await countRows("artifacts")).toBe(before);
  });

  it("refuses a batch with a lone initialize, notifications only, or an empty array", async () => {
    const { apiKey } = await seedTenant();
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    for (const messages of [[initialize], [{ jsonrpc: "2.0", method: "notifications/initialized" }], []]) {
      const response = await fetchWorker(batchRequest(apiKey, messages, "2025-03-26"));
      expect(response.status, JSON.stringify(messages)).toBe(400);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
    }
  });

  it("gives a read-only key no way around the step-up challenge: a batched write is refused, the single call challenged", async () => {
    const { orgId, admin } = await seedTenant();
    const readOnly = await seedApiKey(orgId, admin.userId, ["research:read"]);
    const before = await countRows("artifacts");
    const batched = await fetchWorker(batchRequest(readOnly.key, [...calls(1, "list_skill_executions", {}), ...calls(1, "store_research", ARTIFACT)], "2025-03-26"));
    expect(batched.status).toBe(400);
    const single = await fetchWorker(mcpRequest(readOnly.key, "tools/call", { name: "store_research", arguments: ARTIFACT }));
    expect(single.status).toBe(403);
    expect(single.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(await countRows("artifacts")).toBe(before);
  });
});

describe("authorization code security", () => {
  async function authorizeRequest(redirectUri: string, clientId: string, challenge: string) {
    const query = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s" });
    return fetchWorker(new Request(`${ORIGIN}/authorize?${query}`, { redirect: "manual" }));
  }

  it.each([
    "https://app.example.com/cb/",
    "https://app.example.com/cb?x=1",
    "https://app.example.com/cb#f",
    "http://app.example.com/cb",
    "https://app.example.com.evil.example/cb",
    "javascript:alert(1)",
    "data:text/html,hi",
    " https://app.example.com/cb",
    "https://app.example.com/cb\u0000",
    "https://APP.example.com/cb/..",
  ])("refuses the redirect URI variant %j with 400 and no Location", async (variant) => {
    const clientId = await registerClient(fetchWorker, ORIGIN, { redirectUri: "https://app.example.com/cb" });
    const { challenge } = await pkcePair();
    const response = await authorizeRequest(variant, clientId, challenge);
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
  });

  it("refuses a wrong PKCE verifier and a missing one", async () => {
    const { admin } = await seedTenant();
    const redirectUri = "http://localhost:9999/callback";
    const clientId = await registerClient(fetchWorker, ORIGIN, { redirectUri });
    const { challenge } = await pkcePair();
    const query = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s" });
    const exchange = async (verifier: string | null) => {
      const redirect = await authorizeInBrowser(fetchWorker, `${ORIGIN}/authorize?${query}`, { email: admin.email, password: admin.password });
      const body = new URLSearchParams({ grant_type: "authorization_code", code: redirect.searchParams.get("code") ?? "", redirect_uri: redirectUri, client_id: clientId });
      if (verifier !== null) body.set("code_verifier", verifier);
      const response = await fetchWorker(new Request(`${ORIGIN}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }));
      return { status: response.status, error: ((await response.json()) as { error?: string }).error };
    };
    expect(await exchange("wrong-verifier-wrong-verifier-wrong-verifier-1234")).toEqual({ status: 400, error: "invalid_grant" });
    const missing = await exchange(null);
    expect(missing.status).toBe(400);
    expect(["invalid_request", "invalid_grant"]).toContain(missing.error);
  });

  it("refuses a replayed code and revokes the token the first exchange issued", async () => {
    const { admin } = await seedTenant();
    const flow = await tokensFor({ email: admin.email, password: admin.password });
    const replay = await fetchWorker(
      new Request(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: flow.code, redirect_uri: flow.redirectUri, client_id: flow.clientId, code_verifier: flow.verifier }),
      }),
    );
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
    expect((await fetchWorker(mcpRequest(flow.tokens.access_token, "tools/list"))).status).toBe(401);
  });
});

describe("tenant isolation", () => {
  it("makes another org's executionId indistinguishable from a missing one, and changes nothing", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const created = await callTool(a.apiKey, "log_skill_execution", { skillName: "research", metadata: { topic: "secret" } });
    const theirs = String(created.body.executionId);
    const missing = "exec_0000000000000000000000000";
    const viaMcp = async (id: string) => (await callTool(b.apiKey, "get_skill_execution", { executionId: id })).body as { error: { code: string; message: string } };
    const foreign = await viaMcp(theirs);
    const absent = await viaMcp(missing);
    expect(foreign.error.code).toBe("not_found");
    expect(foreign.error.message.replace(theirs, "ID")).toBe(absent.error.message.replace(missing, "ID"));

    const update = await callTool(b.apiKey, "log_skill_execution", { executionId: theirs, status: "failed", errorMessage: "x" });
    expect((update.body as { error: { code: string } }).error.code).toBe("not_found");
    const restForeign = await rest(b.apiKey, `/skill-executions/${theirs}`);
    const restAbsent = await rest(b.apiKey, `/skill-executions/${missing}`);
    expect(restForeign.status).toBe(404);
    expect(restAbsent.status).toBe(404);
    const list = (await (await rest(b.apiKey, "/skill-executions")).json()) as { executions: unknown[] };
    expect(list.executions).toEqual([]);

    const stored = await callTool(a.apiKey, "get_skill_execution", { executionId: theirs });
    expect(stored.body).toMatchObject({ status: "started", errorMessage: null });
  });

  it("answers another org's plan id and an unknown one with 404 on every surface, and keeps no storage for either", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const { planId: theirs } = await createPlan(a.apiKey, { name: "[Scan] Not yours" });
    const unknown = newId("plan");
    const before = await listDurableObjectIds(env.PLAN);
    for (const id of [theirs, unknown]) {
      expect((await rest(b.apiKey, `/plans/${id}`)).status, id).toBe(404);
      expect((await rest(b.apiKey, `/plans/${id}/history`)).status, id).toBe(404);
      expect((await rest(b.apiKey, `/plans/${id}/cancel`, { method: "POST", body: JSON.stringify({ reason: "probe" }), headers: { "content-type": "application/json" } })).status, id).toBe(404);
      expect(((await callTool(b.apiKey, "get_plan_status", { planId: id })).body as { error: { code: string } }).error.code, id).toBe("not_found");
    }
    // Reaching a plan's object makes its storage: a probe must not, or the org's erasure (which finds objects by its rows) leaves it.
    const after = await listDurableObjectIds(env.PLAN);
    expect(after.length).toBe(before.length);
    for (const id of [theirs, unknown]) expect(after.some((object) => object.equals(env.PLAN.idFromName(`${b.orgId}:${id}`))), id).toBe(false);
    // The org's own plan is reached as before.
    expect((await rest(a.apiKey, `/plans/${theirs}`)).status).toBe(200);
  });

  it("takes org and user from the credential, never from arguments", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const sneaky = await callTool(b.apiKey, "log_skill_execution", { skillName: "research", metadata: { orgId: a.orgId, userId: a.admin.userId } });
    const row = await env.DB.prepare("SELECT org_id, user_id FROM skill_executions WHERE id = ?")
      .bind(sneaky.body.executionId)
      .first<{ org_id: string; user_id: string }>();
    expect(row).toEqual({ org_id: b.orgId, user_id: b.admin.userId });
  });
});

describe("errors never leak internals", () => {
  it("turns an unexpected storage failure into a generic message with a correlation id", async () => {
    const { apiKey } = await seedTenant();
    await env.DB.prepare("ALTER TABLE skill_executions RENAME TO skill_executions_away").run();
    try {
      const result = await callTool(apiKey, "list_skill_executions", {});
      const error = (result.body as { error: { code: string; message: string; correlationId: string } }).error;
      expect(result.isError).toBe(true);
      expect(error.code).toBe("internal");
      expect(error.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(result.body)).not.toMatch(/skill_executions|SQL|no such table|at \w+ \(/i);
      const viaRest = await rest(apiKey, "/skill-executions");
      expect(viaRest.status).toBe(500);
      expect(await viaRest.text()).not.toMatch(/skill_executions|SQL|no such table/i);
    } finally {
      await env.DB.prepare("ALTER TABLE skill_executions_away RENAME TO skill_executions").run();
    }
    const call = await env.DB.prepare("SELECT outcome, error_code FROM tool_call_log WHERE error_code = 'internal' LIMIT 1").first();
    expect(call).toEqual({ outcome: "error", error_code: "internal" });
  });
});

