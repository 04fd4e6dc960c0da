import { describe, expect, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { rest, seedApiKey, seedTenant } from "../support/worker";

interface Problem {
  status: number;
  code: string;
  detail: string;
  correlationId: string;
}

describe("REST edges answer as problems, never with internals", () => {
  it("answers malformed percent-encoding in a path with 400 naming the parameter", async () => {
    const { apiKey } = await seedTenant();
    for (const path of ["/artifacts/%ZZ", "/artifacts/%E0%A4%A", "/skill-executions/%"]) {
      const response = await rest(apiKey, path);
      expect(response.status, path).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      const text = await response.text();
      expect(text).not.toMatch(/\.ts:|\.js:|at |URIError|node_modules|\/work\//);
      const problem = JSON.parse(text) as Problem;
      expect(problem).toMatchObject({ status: 400, code: "validation" });
      expect(problem.detail).toContain("percent-encoding");
    }
  });

  it("answers a method the resource does not take with 405, an Allow header, and a body that says 405", async () => {
    const { apiKey } = await seedTenant();
    const response = await rest(apiKey, "/artifacts/art_x", { method: "PUT", body: "{}" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toMatch(/GET/);
    expect(response.headers.get("allow")).toMatch(/DELETE/);
    const problem = (await response.json()) as Problem;
    expect(problem).toMatchObject({ status: 405, code: "method_not_allowed" });
    const missing = await rest(apiKey, "/no-such-thing");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Problem).status).toBe(404);
  });

  it("answers a credential without the scope with 403: the step-up challenge in WWW-Authenticate, a problem body with a correlation id", async () => {
    const { orgId, admin } = await seedTenant();
    const readOnly = (await seedApiKey(orgId, admin.userId, ["research:read"])).key;
    const adminOnly = (await seedApiKey(orgId, admin.userId, ["org:admin"])).key;
    const refusals = [
      { key: readOnly, path: "/skill-executions", init: { method: "POST", body: JSON.stringify({ skillName: "research" }) }, scope: "research:write" },
      { key: readOnly, path: "/org/export", init: {}, scope: "org:admin" },
      { key: readOnly, path: "/webhooks", init: {}, scope: "org:admin" },
      { key: adminOnly, path: "/prompts", init: {}, scope: "research:read" },
    ];
    const ids = new Set<string>();
    for (const { key, path, init, scope } of refusals) {
      const response = await rest(key, path, init);
      expect(response.status, path).toBe(403);
      const challenge = response.headers.get("www-authenticate") ?? "";
      expect(challenge, path).toContain('error="insufficient_scope"');
      expect(challenge, path).toContain(`scope="${scope}"`);
      expect(challenge, path).toContain("resource_metadata=");
      expect(response.headers.get("content-type"), path).toBe("application/problem+json");
      const problem = (await response.json()) as Problem & { requiredScopes: string[] };
      expect(problem, path).toMatchObject({ status: 403, code: "insufficient_scope", requiredScopes: [scope] });
      expect(problem.detail, path).toContain(scope);
      expect(problem.correlationId, path).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(problem.correlationId);
    }
    expect(ids.size).toBe(refusals.length);
  });
});

describe("dashboard query and path values", () => {
  it("takes only its own analytics windows (not Object.prototype's keys) and survives malformed paths", async () => {
    const { admin } = await seedTenant();
    const visitor = new Visitor();
    expect((await visitor.signIn(admin.email, admin.password)).status).toBe(303);
    const tricked = await visitor.get("/dashboard/analytics?window=toString");
    expect(tricked.status).toBe(200);
    const html = await tricked.text();
    // Falls back to the default window rather than computing with a function as a number of days.
    expect(html).not.toContain("NaN");
    expect(html).toMatch(/<option value="7d" selected/);
    for (const path of ["/dashboard/plans/%ZZ", "/dashboard/plans/%E0%A4%A"]) {
      const response = await visitor.get(path);
      expect(response.status, path).toBeLessThan(500);
      expect(await response.text()).not.toMatch(/URIError|node_modules|\.ts:\d/);
    }
  });
});
