import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { SOURCE_CHECK_CONCURRENCY } from "../../src/domain/sources/check-scheduling";
import { createPlan, ok, steps } from "../support/plans";
import { pause, waitFor } from "../support/webhooks";
import { seedTenant } from "../support/worker";

/**
 * One org's slow pages never hold another's verdicts, on workerd with Miniflare's real source-check queue, D1 and
 * R2, the pages served by the loopback fixtures (test/support/source-pages.global.ts; `/slow` never finishes, so its
 * check runs the fetch's whole 15 s): the queue's consumer hands each org's checks to that org's checker (a Durable
 * Object), so no batch waits on a page; an org's checks in flight are capped (the rest wait their turn, never
 * dropped), and the checks of one page of one org share one fetch.
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
    await ok(a.apiKey, "record_evidence", { planId: a.planId, evidence: [source(`${origin}/article.html?${tag}`)] });
    // One at a time, A's verdict came after B's six fetches had each run their 15 s (91 s). Fair, it comes while every
    // one of B's is still fetching: an order of events, which a busy machine does not change as it would a stopwatch.
    const bWhenADone = await waitFor("org A's verdict", async () => ((await statuses(a.orgId, a.planId))[0]?.status === "verified" ? statuses(b.orgId, b.planId) : null));
    expect(bWhenADone.map((row) => row.status)).toEqual(Array(6).fill("pending"));
    // B's slow pages still end in a verdict of their own (the fetch's deadline).
    const bDone = await waitFor("org B's verdicts", async () => {
      const rows = await statuses(b.orgId, b.planId);
      return rows.every((row) => row.status !== "pending") ? rows : null;
    });
    expect(bDone.map((row) => row.status)).toEqual(Array(6).fill("unreachable"));
  });

  it("an org's slow pages in earlier batches do not hold another org's page", async () => {
    const b = await tenantWithPlan();
    const a = await tenantWithPlan();
    const tag = crypto.randomUUID().slice(0, 8);
    // Thirty slow pages: three batches of B's, each holding fetches that run their whole 15 s, ahead of A's.
    await ok(b.apiKey, "record_evidence", { planId: b.planId, evidence: Array.from({ length: 30 }, (_, i) => source(`${origin}/slow?${tag}-early-${i}`, QUOTE, `Slow page ${i}`)) });
    await waitFor("B's first slow fetches", async () => Object.keys(await hits()).filter((path) => path.includes(`${tag}-early-`)).length >= 10);
    await ok(a.apiKey, "record_evidence", { planId: a.planId, evidence: [source(`${origin}/article.html?${tag}-early`)] });
    // Checked inside the queue's batches, A's verdict waited for B's batches before it (15 s each): fair, it comes
    // before any of B's slow fetches has ended.
    const bWhenADone = await waitFor("org A's verdict", async () => ((await statuses(a.orgId, a.planId))[0]?.status === "verified" ? statuses(b.orgId, b.planId) : null));
    expect(bWhenADone.filter((row) => row.status !== "pending")).toEqual([]);
  });

  it("an org's checks run at most its cap at once; the rest wait their turn in its checker, never dropped", async () => {
    const c = await tenantWithPlan();
    const cap = SOURCE_CHECK_CONCURRENCY.perOrgInFlight;
    const tag = crypto.randomUUID().slice(0, 8);
    const slowOnes = async () => Object.keys(await hits()).filter((path) => path.includes(`${tag}-cap-`));
    await ok(c.apiKey, "record_evidence", { planId: c.planId, evidence: Array.from({ length: cap + 2 }, (_, i) => source(`${origin}/slow?${tag}-cap-${i}`, QUOTE, `Slow page ${i}`)) });
    await waitFor("the org's cap of fetches", async () => (await slowOnes()).length >= cap);
    // Its slots all held by pages that take 15 s: the two over the cap are not fetched meanwhile.
    await pause(3_000);
    expect((await slowOnes()).length).toBe(cap);
    expect((await statuses(c.orgId, c.planId)).filter((row) => row.status === "pending")).toHaveLength(cap + 2);
    // As slots free, the two waiting are fetched, and every page ends in a verdict of its own (the fetch's deadline).
    const done = await waitFor("every verdict", async () => {
      const rows = await statuses(c.orgId, c.planId);
      return rows.every((row) => row.status !== "pending") ? rows : null;
    });
    expect(done.map((row) => row.status)).toEqual(Array(cap + 2).fill("unreachable"));
    expect((await slowOnes()).length).toBe(cap + 2);
  });

  it("a check handed over twice (the queue delivers at least once) is stored and fetched once", async () => {
    const e = await tenantWithPlan();
    const url = `${origin}/slow?${crypto.randomUUID().slice(0, 8)}-twice`;
    await ok(e.apiKey, "record_evidence", { planId: e.planId, evidence: [source(url)] });
    await waitFor("the page's fetch", async () => (await hits())[url.slice(origin.length)] === 1);
    // The same message again, while the first is being checked: the checker keeps one.
    const checker = env.SOURCE_CHECKER.get(env.SOURCE_CHECKER.idFromName(e.orgId));
    await checker.accept([{ orgId: e.orgId, planId: e.planId, n: 1 }]);
    expect(await checker.pending()).toBe(1);
    await waitFor("the verdict", async () => (await statuses(e.orgId, e.planId))[0]?.status === "unreachable");
    await waitFor("the checker emptied", async () => (await checker.pending()) === 0);
    expect((await hits())[url.slice(origin.length)]).toBe(1);
  });

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
