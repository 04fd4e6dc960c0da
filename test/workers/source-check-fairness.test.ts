import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { SOURCE_CHECK_CONCURRENCY } from "../../src/domain/sources/check-scheduling";
import { createPlan, ok, steps } from "../support/plans";
import { pause, waitFor } from "../support/webhooks";
import { seedTenant } from "../support/worker";

/**
 * One org's slow pages never hold another's verdicts, on workerd with Miniflare's real source-check queue, D1 and
 * R2, the pages served by the loopback fixtures (test/support/source-pages.global.ts; `/slow` never finishes, so its
 * check runs the fetch's whole 15 s): a batch's pages are fetched at once, an org's checks in flight are capped (the
 * rest wait their turn, never dropped), and the checks of one page of one org share one fetch.
 */
const origin = inject("sourcePagesOrigin");
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";
const source = (url: string, quote = QUOTE, facts = "Cells reached 500 Wh/kg") => ({ url, title: "Solid-state batteries reach 500 Wh/kg", facts, subtopic: "Density", quote });

async function tenantWithPlan() {
  const tenant = await seedTenant();
  const { planId } = await createPlan(tenant.apiKey, { name: "[Deep] Solid-state batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
  return { ...tenant, planId: String(planId) };
}

const statuses = async (orgId: string, planId: string) =>
  (await env.DB.prepare("SELECT n, verification_status AS status FROM ledger_evidence WHERE org_id = ? AND plan_id = ? ORDER BY n").bind(orgId, planId).all<{ n: number; status: string }>()).results;

const hits = async () => ((await (await fetch(`${origin}/hits`)).json()) as { hits: Record<string, number> }).hits;

describe("source checks are fair between orgs", () => {
  it("an org's six slow pages do not hold another org's fast page", async () => {
    const b = await tenantWithPlan();
    const a = await tenantWithPlan();
    const tag = crypto.randomUUID().slice(0, 8);
    await ok(b.apiKey, "record_evidence", { planId: b.planId, evidence: Array.from({ length: 6 }, (_, i) => source(`${origin}/slow?${tag}-${i}`, QUOTE, `Slow page ${i}`)) });
    await pause(500);
    const recordedAt = Date.now();
    await ok(a.apiKey, "record_evidence", { planId: a.planId, evidence: [source(`${origin}/article.html?${tag}`)] });
    // One at a time, A's verdict came after B's six fetches had each run their 15 s (91 s).
    await waitFor("org A's verdict", async () => (await statuses(a.orgId, a.planId))[0]?.status === "verified", 12_000);
    expect(Date.now() - recordedAt).toBeLessThan(10_000);
    // B's slow pages still end in a verdict of their own (the fetch's deadline).
    const bDone = await waitFor("org B's verdicts", async () => {
      const rows = await statuses(b.orgId, b.planId);
      return rows.every((row) => row.status !== "pending") ? rows : null;
    }, 25_000);
    expect(bDone.map((row) => row.status)).toEqual(Array(6).fill("unreachable"));
  }, 60_000);

  it("an org past its checks in flight waits its turn (sent again later, never dropped)", async () => {
    const c = await tenantWithPlan();
    const cap = SOURCE_CHECK_CONCURRENCY.perOrgInFlight;
    const tag = crypto.randomUUID().slice(0, 8);
    await ok(c.apiKey, "record_evidence", { planId: c.planId, evidence: Array.from({ length: cap }, (_, i) => source(`${origin}/article.html?${tag}-${i}`, QUOTE, `Fact ${i}`)) });
    await waitFor("the first checks", async () => (await statuses(c.orgId, c.planId)).every((row) => row.status !== "pending"), 20_000);
    // The org's cap taken: its checks started just now and not answered yet (as while their pages are fetched).
    await env.DB.prepare("UPDATE ledger_evidence SET verification_started_at = ?, verification_checked_at = NULL WHERE org_id = ? AND plan_id = ?").bind(Date.now(), c.orgId, c.planId).run();
    const waiting = `${origin}/article.html?${tag}-waiting`;
    await ok(c.apiKey, "record_evidence", { planId: c.planId, evidence: [source(waiting, QUOTE, "The one over the cap")] });
    await pause(3_000);
    const [last] = (await statuses(c.orgId, c.planId)).slice(-1);
    expect(last?.status).toBe("pending");
    expect((await hits())[waiting.slice(origin.length)]).toBeUndefined();
    // Its slots free again: the check it was sent again as runs.
    await env.DB.prepare("UPDATE ledger_evidence SET verification_started_at = NULL WHERE org_id = ? AND plan_id = ?").bind(c.orgId, c.planId).run();
    await waitFor("the waiting check", async () => (await statuses(c.orgId, c.planId)).slice(-1)[0]?.status === "verified", SOURCE_CHECK_CONCURRENCY.deferSeconds * 1000 + 15_000);
  }, 60_000);

  it("quotes on one page of one org share one fetch", async () => {
    const d = await tenantWithPlan();
    const url = `${origin}/counted.html?${crypto.randomUUID().slice(0, 8)}`;
    await ok(d.apiKey, "record_evidence", {
      planId: d.planId,
      evidence: [source(url), source(url, "Costs remain higher than lithium-ion cells", "Costs"), source(url, "no such words on the page at all here", "Missing")],
    });
    const rows = await waitFor("the checks", async () => {
      const r = await statuses(d.orgId, d.planId);
      return r.every((row) => row.status !== "pending") ? r : null;
    });
    expect(rows).toHaveLength(3);
    expect((await hits())[url.slice(origin.length)]).toBe(1);
  });
});
