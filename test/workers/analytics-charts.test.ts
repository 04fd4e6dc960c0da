import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { seedTenant } from "../support/worker";

const DAY = 86_400_000;

describe("analytics charts", () => {
  it("draws calls and errors, plans and stalls per day for the window, and satisfaction by route, as inline SVG", async () => {
    const { orgId, admin } = await seedTenant();
    const today = Math.floor(Date.now() / DAY) * DAY;
    const call = (when: number, outcome: "ok" | "error") =>
      env.DB.prepare(
        "INSERT INTO tool_call_log (id, org_id, user_id, face, operation, duration_ms, outcome, error_code, correlation_id, created_at) VALUES (?, ?, ?, 'mcp', 'get_plan_status', 5, ?, ?, ?, ?)",
      ).bind(`call_${crypto.randomUUID()}`, orgId, admin.userId, outcome, outcome === "error" ? "not_found" : null, crypto.randomUUID(), when);
    const plan = (when: number, stalled: number) =>
      env.DB.prepare(
        `INSERT INTO plans (plan_id, org_id, name, status, derived_status, progress, stalled, total_steps, completed_steps, failed_steps, created_by, created_at, updated_at, index_seq)
         VALUES (?, ?, 'Charted', 'active', 'active', 0, ?, 1, 0, 0, ?, ?, ?, 1)`,
      ).bind(`pln_${crypto.randomUUID().replaceAll("-", "")}`, orgId, stalled, admin.userId, when, when);
    await env.DB.batch([
      call(today - 2 * DAY + 1000, "ok"),
      call(today - 2 * DAY + 2000, "ok"),
      call(today - 2 * DAY + 3000, "error"),
      call(today + 1000, "ok"),
      // Outside the 7-day window: not drawn.
      call(today - 20 * DAY, "error"),
      plan(today - DAY + 5000, 1),
      plan(today - DAY + 6000, 0),
    ]);

    const visitor = new Visitor();
    expect((await visitor.signIn(admin.email, admin.password)).status).toBe(303);
    const page = await (await visitor.get("/dashboard/analytics?window=7d")).text();
    const chart = (id: string) => page.slice(page.indexOf(`<svg id="${id}"`), page.indexOf("</svg>", page.indexOf(`<svg id="${id}"`)));
    const days = (svg: string) => [...svg.matchAll(/<g class="day" data-day="([\d-]+)" data-values="(\d+),(\d+)"/g)].map((m) => [m[1], Number(m[2]), Number(m[3])]);
    const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

    const calls = days(chart("calls-chart"));
    expect(calls.length).toBeGreaterThanOrEqual(7);
    expect(calls.length).toBeLessThanOrEqual(8);
    expect(calls).toContainEqual([iso(today - 2 * DAY), 3, 1]);
    expect(calls.at(-1)).toEqual([iso(today), 1, 0]);
    expect(calls.reduce((n, d) => n + Number(d[1]), 0)).toBe(4);
    expect(chart("calls-chart")).toContain("<title id=\"calls-chart-title\">Tool calls and errors per day</title>");
    expect(chart("calls-chart")).toContain("4 calls and 1 errors");

    expect(days(chart("stalls-chart"))).toContainEqual([iso(today - DAY), 2, 1]);
    expect(page).toContain('id="satisfaction-chart"');
    // No inline style anywhere in the charts: the dashboard's CSP forbids it.
    expect(chart("calls-chart") + chart("stalls-chart") + chart("satisfaction-chart")).not.toMatch(/\sstyle=/);
  });
});
