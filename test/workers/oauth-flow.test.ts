import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { authorizeInBrowser, pkcePair, registerClient } from "../support/oauth-flow";
import { addMembership, callTool, fetchWorker, mcpRequest, ORIGIN, seedOrg, seedTenant, seedUser, tokensFor } from "../support/worker";

describe("OAuth discovery", () => {
  it("answers an unauthenticated /mcp with a challenge naming the path's own resource metadata (RFC 9728 §3.3) and baseline scopes", async () => {
    const response = await fetchWorker(mcpRequest(null, "tools/list"));
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('scope="research:read research:write"');
    expect(response.headers.get("mcp-session-id")).toBeNull();
    // The document named is the one whose resource is what the client asked for: a strict client keeps it.
    const named = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? "";
    expect(await (await fetchWorker(new Request(named))).json()).toMatchObject({ resource: `${ORIGIN}/mcp` });
    // The core profile names its own, and an invalid token gets the same.
    const core = await fetchWorker(new Request(`${ORIGIN}/mcp/core`, mcpRequest(null, "tools/list")));
    expect(core.headers.get("www-authenticate")).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp/core"`);
    const invalid = await fetchWorker(mcpRequest("not-a-token", "tools/list"));
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get("www-authenticate")).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
  });

  it("publishes protected resource metadata for the origin and the connect paths", async () => {
    const root = await (await fetchWorker(new Request(`${ORIGIN}/.well-known/oauth-protected-resource`))).json();
    expect(root).toMatchObject({ resource: ORIGIN, authorization_servers: [ORIGIN] });
    for (const path of ["/mcp", "/api/v1"]) {
      const doc = await (await fetchWorker(new Request(`${ORIGIN}/.well-known/oauth-protected-resource${path}`))).json();
      expect(doc).toMatchObject({ resource: `${ORIGIN}${path}`, authorization_servers: [ORIGIN] });
    }
  });

  it("publishes authorization server metadata with PKCE S256, iss, DCR and CIMD", async () => {
    const metadata = (await (await fetchWorker(new Request(`${ORIGIN}/.well-known/oauth-authorization-server`))).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      scopes_supported: ["research:read", "research:write", "org:admin"],
    });
    expect(metadata.token_endpoint_auth_methods_supported).toContain("none");
  });
});

describe("authorization code flow", () => {
  it("signs in, consents, redirects with code, state and iss, and issues a working token", async () => {
    const { admin } = await seedTenant();
    const flow = await tokensFor({ email: admin.email, password: admin.password });
    expect(flow.redirect.searchParams.get("state")).toBe("state-123");
    expect(flow.redirect.searchParams.get("iss")).toBe(ORIGIN);
    expect(flow.tokens.scope?.split(" ").sort()).toEqual(["research:read", "research:write"]);
    expect(flow.tokens.resource).toBe(ORIGIN);
    const created = await callTool(flow.tokens.access_token, "log_skill_execution", { skillName: "research" });
    expect(created.isError).toBe(false);
    const stored = await callTool(flow.tokens.access_token, "get_skill_execution", { executionId: created.body.executionId });
    expect(stored.body).toMatchObject({ userId: admin.userId, status: "started" });
    const logged = await env.DB.prepare("SELECT client_id, api_key_id FROM tool_call_log WHERE user_id = ? LIMIT 1").bind(admin.userId).first();
    expect(logged).toEqual({ client_id: flow.clientId, api_key_id: null });
  });

  it.each([
    ["the origin", ORIGIN],
    ["the origin with a trailing slash", `${ORIGIN}/`],
    ["the connector URL", `${ORIGIN}/mcp`],
    ["the connector URL with a trailing slash", `${ORIGIN}/mcp/`],
    ["the REST base", `${ORIGIN}/api/v1`],
    ["no resource at all", null],
  ])("accepts %s as the resource and the token works at /mcp", async (_label, resource) => {
    const { admin } = await seedTenant();
    const flow = await tokensFor({ email: admin.email, password: admin.password, resource });
    expect(flow.tokens.resource).toBe(ORIGIN);
    const response = await fetchWorker(mcpRequest(flow.tokens.access_token, "tools/list"));
    expect(response.status).toBe(200);
  });

  it("refuses a resource that is not this server, redirecting invalid_target to the verified client", async () => {
    const redirectUri = "http://localhost:9999/callback";
    const clientId = await registerClient(fetchWorker, ORIGIN, { redirectUri });
    const { challenge } = await pkcePair();
    for (const resource of ["https://other.example.com/mcp", `${ORIGIN}/mcpx`, `${ORIGIN}/mcp?x=1`]) {
      const query = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s", resource });
      const response = await fetchWorker(new Request(`${ORIGIN}/authorize?${query}`, { redirect: "manual" }));
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get("location") ?? "");
      expect(location.searchParams.get("error")).toBe("invalid_target");
      expect(location.searchParams.get("code")).toBeNull();
    }
  });

  it("rotates refresh tokens: the new one works, the old one dies once the new one is used", async () => {
    const { admin } = await seedTenant();
    const { clientId, tokens } = await tokensFor({ email: admin.email, password: admin.password });
    const refresh = (token: string) =>
      fetchWorker(
        new Request(`${ORIGIN}/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: clientId }),
        }),
      );
    const first = await refresh(tokens.refresh_token ?? "");
    expect(first.status).toBe(200);
    const rotated = (await first.json()) as { access_token: string; refresh_token: string };
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect((await fetchWorker(mcpRequest(rotated.access_token, "tools/list"))).status).toBe(200);
    const second = await refresh(rotated.refresh_token);
    expect(second.status).toBe(200);
    const stale = await refresh(tokens.refresh_token ?? "");
    expect(stale.status).toBe(400);
    expect(((await stale.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("ends a grant at its next refresh once the user has left the organization", async () => {
    const { orgId, admin } = await seedTenant();
    const { clientId, tokens } = await tokensFor({ email: admin.email, password: admin.password });
    await env.DB.prepare("DELETE FROM api_keys WHERE org_id = ?").bind(orgId).run();
    await env.DB.prepare("DELETE FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, admin.userId).run();
    const response = await fetchWorker(
      new Request(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token ?? "", client_id: clientId }),
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("lets a member of several organizations choose one, and scopes the token to it", async () => {
    const first = await seedOrg();
    const second = await seedOrg();
    const person = await seedUser(first, "member");
    await addMembership(second, person.userId, "member");
    const flow = await tokensFor({ email: person.email, password: person.password, orgId: second });
    const created = await callTool(flow.tokens.access_token, "log_skill_execution", { skillName: "research" });
    const row = await env.DB.prepare("SELECT org_id FROM skill_executions WHERE id = ?").bind(created.body.executionId).first<{ org_id: string }>();
    expect(row?.org_id).toBe(second);
  });

  it("never grants org:admin to a member, even when asked", async () => {
    const orgId = await seedOrg();
    const member = await seedUser(orgId, "member");
    await expect(
      tokensFor({ email: member.email, password: member.password, requestScope: "research:read org:admin", scopes: ["research:read", "org:admin"] }),
    ).rejects.toThrow(/403|not an admin/);
    const flow = await tokensFor({ email: member.email, password: member.password, requestScope: "research:read org:admin" });
    expect(flow.tokens.scope).toBe("research:read");
  });

  it("defaults to the research scopes when the client asks for none", async () => {
    const { admin } = await seedTenant();
    const flow = await tokensFor({ email: admin.email, password: admin.password, requestScope: "" });
    expect(flow.tokens.scope?.split(" ").sort()).toEqual(["research:read", "research:write"]);
  });

  it("redirects with access_denied when the person declines", async () => {
    const { admin } = await seedTenant();
    const redirectUri = "http://localhost:9999/callback";
    const clientId = await registerClient(fetchWorker, ORIGIN, { redirectUri });
    const { challenge } = await pkcePair();
    const query = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s" });
    const redirect = await authorizeInBrowser(fetchWorker, `${ORIGIN}/authorize?${query}`, { email: admin.email, password: admin.password, decision: "deny" });
    expect(redirect.searchParams.get("error")).toBe("access_denied");
    expect(redirect.searchParams.get("code")).toBeNull();
  });
});

describe("sign-in and consent pages", () => {
  async function openAuthorize(clientName: string) {
    const redirectUri = "http://localhost:9999/callback";
    const clientId = await registerClient(fetchWorker, ORIGIN, { redirectUri, clientName });
    const { challenge } = await pkcePair();
    const query = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s" });
    return `${ORIGIN}/authorize?${query}`;
  }

  /** Opens the sign-in page and posts it with the page's own CSRF cookie: the consent page comes back. */
  async function signInForConsent(url: string, person: { email: string; password: string }) {
    const page = await fetchWorker(new Request(url));
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    return fetchWorker(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ step: "signin", csrf, email: person.email, password: person.password }),
      }),
    );
  }

  it("escapes the client name, forbids framing and sends no CORS headers", async () => {
    const url = await openAuthorize('<script>alert("x")</script>');
    const response = await fetchWorker(new Request(url, { headers: { origin: "https://evil.example" } }));
    const html = await response.text();
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^__Host-cairn-csrf=/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Secure");
  });

  it("refuses a sign-in post without the CSRF cookie", async () => {
    const { admin } = await seedTenant();
    const url = await openAuthorize("App");
    const page = await (await fetchWorker(new Request(url))).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const response = await fetchWorker(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ step: "signin", csrf, email: admin.email, password: admin.password }),
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.text()).not.toContain('name="handle"');
  });

  it("refuses a wrong password without saying whether the account exists", async () => {
    const { admin } = await seedTenant();
    const url = await openAuthorize("App");
    const attempt = async (email: string) => {
      const page = await fetchWorker(new Request(url));
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
      const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      return fetchWorker(
        new Request(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie },
          body: new URLSearchParams({ step: "signin", csrf, email, password: "not-the-password" }),
        }),
      );
    };
    const wrong = await attempt(admin.email);
    const unknown = await attempt("nobody@example.com");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.text()).toContain("Wrong e-mail or password.");
    expect(await unknown.text()).toContain("Wrong e-mail or password.");
  });

  it("keeps the page's strict CSP on the consent page, merged with the provider's frame-ancestors", async () => {
    const { admin } = await seedTenant();
    const url = await openAuthorize("App");
    const consentPage = await signInForConsent(url, admin);
    expect(await consentPage.text()).toContain('name="handle"');
    const policy = consentPage.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(policy.match(/frame-ancestors/g)).toHaveLength(1);
  });

  it("refuses a consent post replayed without the browser's consent cookie", async () => {
    const { admin } = await seedTenant();
    const url = await openAuthorize("App");
    const consentPage = await signInForConsent(url, admin);
    const html = await consentPage.text();
    const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const orgId = /name="orgId" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const forged = await fetchWorker(
      new Request(url, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ step: "consent", handle, decision: "approve", orgId, scope: "research:read" }),
      }),
    );
    expect(forged.status).toBe(400);
    expect(forged.headers.get("location")).toBeNull();
  });
});
