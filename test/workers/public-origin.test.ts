import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { type FetchLike, obtainTokens } from "../support/oauth-flow";
import { seedOrg, seedUser } from "../support/worker";

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

  it("a resource naming another hostname is refused at authorization", async () => {
    const orgId = await seedOrg();
    const person = await seedUser(orgId, "member");
    await expect(obtainTokens(derived, A, { email: person.email, password: person.password, resource: B })).rejects.toThrow();
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
  });
});
