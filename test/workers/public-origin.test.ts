import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { type FetchLike, obtainTokens } from "../support/oauth-flow";
import { seedApiKey, seedOrg, seedUser } from "../support/worker";

/** The real Worker entry with some configuration changed: PUBLIC_URL unset, or production. */
function workerWith(vars: Partial<Record<"PUBLIC_URL" | "CAIRN_ENV", string | undefined>>): FetchLike {
  const configured = { ...(env as unknown as Env), ...vars } as Env;
  return async (request) => {
    const headers = new Headers(request.headers);
    if (!headers.has("host")) headers.set("host", new URL(request.url).host);
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(request, { headers }), configured as never, ctx);
    const body = await response.arrayBuffer();
    await waitOnExecutionContext(ctx);
    return new Response(response.status === 204 || response.status === 304 ? null : body, response);
  };
}

const listTools = (origin: string, token: string, headers: Record<string, string> = {}) =>
  new Request(`${origin}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      authorization: `Bearer ${token}`,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });

describe("public origin without PUBLIC_URL: the hostname each request arrives on", () => {
  const derived = workerWith({ PUBLIC_URL: undefined });
  const A = "https://cairn.team-a.workers.dev";
  const B = "https://research.example.org";

  it("OAuth metadata, the protected resource and the landing document name the request's origin", async () => {
    for (const origin of [A, B]) {
      const server = (await (await derived(new Request(`${origin}/.well-known/oauth-authorization-server`))).json()) as Record<string, string>;
      expect(server.issuer).toBe(origin);
      expect(server.token_endpoint).toBe(`${origin}/oauth/token`);
      const resource = (await (await derived(new Request(`${origin}/.well-known/oauth-protected-resource/mcp`))).json()) as Record<string, unknown>;
      expect(JSON.stringify(resource)).toContain(origin);
      expect(JSON.stringify(resource)).not.toContain("localhost");
      const landing = (await (await derived(new Request(`${origin}/`))).json()) as Record<string, string>;
      expect(landing).toMatchObject({ mcp: `${origin}/mcp`, dashboard: `${origin}/dashboard` });
    }
  });

  it("a token issued on one hostname works there and is refused on another: the audience stays exact", async () => {
    const orgId = await seedOrg();
    const person = await seedUser(orgId, "member");
    const { tokens } = await obtainTokens(derived, A, { email: person.email, password: person.password });
    expect((await derived(listTools(A, tokens.access_token))).status).toBe(200);
    const elsewhere = await derived(listTools(B, tokens.access_token));
    expect(elsewhere.status).toBe(401);
    // And the configured origin (localhost in this test configuration) refuses it too.
    expect((await workerWith({})(listTools("http://localhost:8787", tokens.access_token))).status).toBe(401);
  });

  it("an API key works on every hostname the deployment serves, whichever it was used on first", async () => {
    const orgId = await seedOrg();
    const person = await seedUser(orgId, "member");
    const { key: apiKey } = await seedApiKey(orgId, person.userId);
    // Alternating hostnames within the isolate's memory window of verified callers.
    for (const origin of [A, B, A, B, A]) expect((await derived(listTools(origin, apiKey))).status, origin).toBe(200);
  });

  it("a resource naming another hostname is refused at authorization", async () => {
    const orgId = await seedOrg();
    const person = await seedUser(orgId, "member");
    await expect(obtainTokens(derived, A, { email: person.email, password: person.password, resource: B })).rejects.toThrow();
  });
});

describe("one deployment, two hostnames (localhost and 127.0.0.1 in development; a custom domain and workers.dev in production)", () => {
  const configured = "http://localhost:8787";
  const alias = "http://127.0.0.1:8787";
  const pinned = workerWith({ PUBLIC_URL: configured, CAIRN_ENV: "development" });
  const restPlans = (origin: string, token: string) => new Request(`${origin}/api/v1/plans`, { headers: { authorization: `Bearer ${token}` } });

  it("an API key works on both, over MCP and REST, in any order: the isolate's memory of it never decides", async () => {
    const orgId = await seedOrg();
    const person = await seedUser(orgId, "member");
    const { key } = await seedApiKey(orgId, person.userId);
    for (const origin of [alias, configured, alias, configured]) {
      expect((await pinned(listTools(origin, key))).status, `MCP on ${origin}`).toBe(200);
      expect((await pinned(restPlans(origin, key))).status, `REST on ${origin}`).toBe(200);
    }
  });

  it("an OAuth token stays bound to its resource: refused on the other hostname even just after it was verified", async () => {
    const orgId = await seedOrg();
    const person = await seedUser(orgId, "member");
    const { tokens } = await obtainTokens(pinned, configured, { email: person.email, password: person.password });
    for (let round = 0; round < 2; round++) {
      expect((await pinned(listTools(configured, tokens.access_token))).status).toBe(200);
      expect((await pinned(listTools(alias, tokens.access_token))).status).toBe(401);
      expect((await pinned(restPlans(alias, tokens.access_token))).status).toBe(401);
    }
  });
});

describe("production", () => {
  it("/mcp accepts only the deployment's hostname, not localhost; development also accepts localhost", async () => {
    const orgId = await seedOrg();
    const person = await seedUser(orgId, "member");
    const origin = "https://research.example.org";
    const production = workerWith({ PUBLIC_URL: origin, CAIRN_ENV: "production" });
    const development = workerWith({ PUBLIC_URL: origin, CAIRN_ENV: "development" });
    const { tokens } = await obtainTokens(production, origin, { email: person.email, password: person.password });
    expect((await production(listTools(origin, tokens.access_token, { origin }))).status).toBe(200);
    expect((await production(listTools(origin, tokens.access_token, { origin: "http://localhost:5173" }))).status).toBe(403);
    expect((await development(listTools(origin, tokens.access_token, { origin: "http://localhost:5173" }))).status).toBe(200);
    // Only exactly "development" opens localhost: unset, misspelt or another environment is a deployment (fails closed).
    for (const CAIRN_ENV of [undefined, "", "Development", "dev", "staging", "prod"]) {
      const other = workerWith({ PUBLIC_URL: origin, CAIRN_ENV });
      expect((await other(listTools(origin, tokens.access_token, { origin: "http://localhost:5173" }))).status, String(CAIRN_ENV)).toBe(403);
    }
  });
});
