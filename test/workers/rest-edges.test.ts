import { describe, expect, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { rest, seedTenant } from "../support/worker";

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
