import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, inject, it } from "vitest";
import worker from "../../src/index";
import { Visitor } from "../support/dashboard";
import { createPlan, ok, steps } from "../support/plans";
import { adminOf, at, pause, subscribe, useStandInReceivers, waitFor } from "../support/webhooks";
import { callTool, rest, seedApiKey, seedTenant, seedUser } from "../support/worker";

/**
 * Keep checking after delivery, on workerd: a deliverable records the sources it cites with their verdicts;
 * a re-check (REST, cron) queues them on Miniflare's real source-check queue, the Worker's consumer reads the
 * page again from the loopback fixtures (test/support/source-pages.global.ts: `/changing/NAME`, changed by
 * `PUT /control/changing/NAME`), and a change is announced once by webhook (stand-in receivers at their edge).
 */

useStandInReceivers();

const origin = inject("sourcePagesOrigin");
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";
const OTHER_QUOTE = "Costs remain higher than lithium-ion cells & scaling production is still years away";

interface Counts {
  total: number;
  verified: number;
  changed: number;
  gone: number;
  unverified: number;
}

/** A page of this test's own, served as the article until the test changes it. */
function page() {
  const name = `p-${crypto.randomUUID().slice(0, 8)}`;
  const control = (init: RequestInit) => fetch(`${origin}/control/changing/${name}`, init).then((r) => expect(r.status).toBe(204));
  return {
    url: `${origin}/changing/${name}`,
    /** The page without the quote (an edited article). */
    edit: () => control({ method: "PUT", body: JSON.stringify({ type: "text/html", body: "<title>Solid-state batteries reach 500 Wh/kg</title><p>The article was rewritten; no figures remain.</p>" }) }),
    remove: () => control({ method: "PUT", body: JSON.stringify({ status: 404, type: "text/html", body: "<p>Not here</p>" }) }),
    restore: () => control({ method: "DELETE" }),
  };
}

const source = (url: string, quote: string, facts = `What ${url} says`) => ({ url, title: "Solid-state batteries reach 500 Wh/kg", facts, subtopic: "Density", quote });

async function settled(key: string, planId: string) {
  return waitFor("the source checks", async () => {
    const { evidence } = (await ok(key, "get_evidence_ledger", { planId, limit: 50 })) as { evidence: { ref: string; verification: string }[] };
    return evidence.every((e) => e.verification !== "pending") ? evidence : null;
  });
}

/** A plan whose deliverable cites E1 directly and E2 through claim C1, both verified at delivery. */
async function delivered(key: string, pages: { url: string }[]) {
  const { planId } = await createPlan(key, { name: "[Deep] Solid-state batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
  await ok(key, "record_evidence", { planId, evidence: pages.map((p, i) => source(p.url, i % 2 === 0 ? QUOTE : OTHER_QUOTE, `facts ${i}`)) });
  expect((await settled(key, planId)).map((e) => e.verification)).toEqual(pages.map(() => "verified"));
  await ok(key, "record_claims", { planId, claims: [{ subtopic: "Density", text: "Solid-state cells reached 500 Wh/kg", evidenceRefs: ["E2"], workerId: "w1", confidence: 0.8 }] });
  await ok(key, "record_verdicts", { planId, verdicts: [{ claim: "C1", kind: "reviewer", judge: "r1", shard: 1, verdict: "SUPPORTED" }] });
  const cited = pages.length > 2 ? pages.slice(2).map((_, i) => ` [E${i + 3}]`).join("") : "";
  const { outputId } = (await ok(key, "store_research_output", {
    planId,
    title: "Solid-state batteries",
    mediaType: "markdown",
    content: `Cells reached 500 Wh/kg [E1].\n\nCosts stay high [C1].${cited}`,
  })) as { outputId: string };
  return { planId, outputId };
}

const sourcesOf = async (key: string, outputId: string) => ((await ok(key, "get_research_output", { outputId })) as { sources?: Counts }).sources;

const recheck = (key: string, init: RequestInit = {}) => rest(key, "/sources/recheck", { method: "POST", ...init });

async function checkedAt(orgId: string, planId: string, n: number): Promise<number | null> {
  const row = await env.DB.prepare("SELECT verification_checked_at AS at FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = ?").bind(orgId, planId, n).first<{ at: number | null }>();
  return row?.at ?? null;
}

/** Waits until E<n> has a verdict newer than `after`. */
const recheckedAfter = (orgId: string, planId: string, n: number, after: number) =>
  waitFor(`E${n} re-checked`, async () => ((await checkedAt(orgId, planId, n)) ?? 0) > after, 25_000);

describe("re-checks after delivery", () => {
  it("records the sources a deliverable cites, directly and through claims, with their verdicts at delivery", async () => {
    const { apiKey, orgId } = await seedTenant();
    const pages = [page(), page()];
    const { outputId, planId } = await delivered(apiKey, pages);
    expect(await sourcesOf(apiKey, outputId)).toEqual({ total: 2, verified: 2, changed: 0, gone: 0, unverified: 0 });
    const { results } = await env.DB.prepare("SELECT plan_id, n, version, delivered_status, delivered_snapshot FROM research_output_sources WHERE org_id = ? AND output_id = ? ORDER BY n")
      .bind(orgId, outputId)
      .all<{ plan_id: string; n: number; version: number; delivered_status: string; delivered_snapshot: string | null }>();
    expect(results.map((r) => [r.plan_id, r.n, r.version, r.delivered_status])).toEqual([
      [planId, 1, 1, "verified"],
      [planId, 2, 1, "verified"],
    ]);
    expect(results.every((r) => /^[0-9a-f]{64}$/.test(r.delivered_snapshot ?? ""))).toBe(true);
    // ChatGPT's fetch reports the same counts.
    expect(((await ok(apiKey, "fetch", { id: outputId })) as { sources?: Counts }).sources).toEqual({ total: 2, verified: 2, changed: 0, gone: 0, unverified: 0 });

    // A new version records its own sources (here only E1): the old version's are replaced, an old version reports none.
    await ok(apiKey, "store_research_output", { outputId, planId, title: "Solid-state batteries", mediaType: "markdown", content: "Cells reached 500 Wh/kg [E1]." });
    expect(await sourcesOf(apiKey, outputId)).toEqual({ total: 1, verified: 1, changed: 0, gone: 0, unverified: 0 });
    expect(((await ok(apiKey, "get_research_output", { outputId, version: 1 })) as { sources?: Counts }).sources).toBeUndefined();
  });

  it("a changed page makes the source changed, fires research_output.sources_changed once, flags the claim and a reuse of it; gone, then verified again", async () => {
    const { apiKey, adminKey, orgId, admin } = await adminOf();
    const { secret } = await subscribe(adminKey, "/sources-changed", ["research_output.sources_changed"]);
    const first = page();
    const second = page();
    const { planId, outputId } = await delivered(apiKey, [first, second]);
    const deliveredSnapshot = (await env.DB.prepare("SELECT verification_snapshot AS s FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = 2").bind(orgId, planId).first<{ s: string }>())?.s;

    // The page under claim C1 (E2) is rewritten without the quote.
    await second.edit();
    const before = (await checkedAt(orgId, planId, 2)) ?? 0;
    const response = await recheck(adminKey);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ queued: 2, batchLimit: 100 });
    // The admin's request is in the audit log, with what it queued (written with the re-checks' mark).
    const audited = await env.DB.prepare("SELECT actor_user_id, detail FROM audit_log WHERE org_id = ? AND action = 'sources.recheck_requested'")
      .bind(orgId)
      .all<{ actor_user_id: string; detail: string }>();
    expect(audited.results).toEqual([{ actor_user_id: admin.userId, detail: JSON.stringify({ queued: 2 }) }]);
    await recheckedAfter(orgId, planId, 2, before);
    expect(await sourcesOf(apiKey, outputId)).toEqual({ total: 2, verified: 1, changed: 1, gone: 0, unverified: 0 });

    const delivery = await waitFor("the sources_changed delivery", async () => at("/sources-changed")[0]);
    const payload = new Webhook(secret).verify(delivery.body, delivery.headers) as { type: string; data: Record<string, unknown> };
    expect(payload.type).toBe("research_output.sources_changed");
    expect(payload.data).toMatchObject({
      outputId,
      planId,
      source: { ref: "E2", url: second.url, change: "changed", status: "not_found", previousSnapshot: deliveredSnapshot },
      sources: { total: 2, verified: 1, changed: 1, gone: 0, unverified: 0 },
    });

    // The ledger: the source says what a re-check found, with the snapshot it replaced; the claim resting on it is flagged.
    const e2 = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "E2" })) as { evidence: { verification: Record<string, unknown> }[] };
    expect(e2.evidence[0]?.verification).toMatchObject({ status: "not_found", change: "changed", previousSnapshot: deliveredSnapshot });
    // A person compares in the dashboard: the source's page shows the reading now and the one it replaced.
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const sourcePage = await (await visitor.get(`/dashboard/plans/${planId}/sources/E2`)).text();
    expect(sourcePage).toContain("The previous reading");
    expect(sourcePage.slice(sourcePage.indexOf('id="previous-reading"'))).toContain("<mark");
    const c1 = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "C1" })) as { claims: { needsReverification: boolean; sourcesChanged?: string[] }[] };
    expect(c1.claims[0]).toMatchObject({ needsReverification: true, sourcesChanged: ["E2"] });
    const compact = (await ok(apiKey, "get_evidence_ledger", { planId })) as { claims: { ref: string; needsReverification?: true; sourcesChanged?: string[] }[]; evidence: { ref: string; change?: string }[] };
    expect(compact.claims.find((c) => c.ref === "C1")).toMatchObject({ needsReverification: true, sourcesChanged: ["E2"] });
    expect(compact.evidence.map((e) => [e.ref, e.change])).toEqual([
      ["E1", undefined],
      ["E2", "changed"],
    ]);

    // C1's only source no longer says its quote: C1 is not grounded now, and reusing it is refused, naming the source.
    const claimId = ((await ok(apiKey, "get_evidence_ledger", { planId, ref: "C1" })) as { claims: { claimId: string }[] }).claims[0]?.claimId;
    const { planId: otherPlan } = await createPlan(apiKey, { name: "[Deep] Follow-up", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    const refused = await callTool(apiKey, "record_claims", { planId: otherPlan, reuse: [{ claimId }] });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.body)).toContain("every source it cites failed Cairn's check (E2 (not_found))");
    // A claim that also rests on a source still saying its quote (E1) is reused; the copy says which source changed, and stays flagged there.
    await ok(apiKey, "record_claims", { planId, claims: [{ subtopic: "Density", text: "Cells reached 500 Wh/kg, and costs stay high", evidenceRefs: ["E1", "E2"] }] });
    await ok(apiKey, "record_verdicts", { planId, verdicts: [{ claim: "C2", kind: "reviewer", judge: "r1", shard: 1, verdict: "SUPPORTED" }] });
    const bothId = ((await ok(apiKey, "get_evidence_ledger", { planId, ref: "C2" })) as { claims: { claimId: string }[] }).claims[0]?.claimId;
    const reused = (await ok(apiKey, "record_claims", { planId: otherPlan, reuse: [{ claimId: bothId }] })) as { claims: { ref: string; needsReverification?: boolean; sourcesChanged?: string[] }[] };
    expect(reused.claims[0]).toMatchObject({ needsReverification: true, sourcesChanged: ["E2"] });
    const copy = (await ok(apiKey, "get_evidence_ledger", { planId: otherPlan, ref: reused.claims[0]?.ref })) as { claims: { needsReverification: boolean }[] };
    expect(copy.claims[0]?.needsReverification).toBe(true);

    // Nothing changed since: the next re-check announces nothing.
    const again = (await checkedAt(orgId, planId, 2)) ?? 0;
    expect((await recheck(adminKey)).status).toBe(202);
    await recheckedAfter(orgId, planId, 2, again);
    await pause(500);
    expect(at("/sources-changed")).toHaveLength(1);
    expect(await sourcesOf(apiKey, outputId)).toEqual({ total: 2, verified: 1, changed: 1, gone: 0, unverified: 0 });

    // The page is taken down: gone, announced once more.
    await second.remove();
    const beforeGone = (await checkedAt(orgId, planId, 2)) ?? 0;
    expect((await recheck(adminKey)).status).toBe(202);
    await recheckedAfter(orgId, planId, 2, beforeGone);
    expect(await sourcesOf(apiKey, outputId)).toEqual({ total: 2, verified: 1, changed: 0, gone: 1, unverified: 0 });
    const gone = await waitFor("the gone delivery", async () => at("/sources-changed")[1]);
    expect((JSON.parse(gone.body) as { data: { source: { change: string } } }).data.source.change).toBe("gone");

    // Restored: verified again, the flags cleared, nothing announced.
    await second.restore();
    const beforeRestore = (await checkedAt(orgId, planId, 2)) ?? 0;
    expect((await recheck(adminKey)).status).toBe(202);
    await recheckedAfter(orgId, planId, 2, beforeRestore);
    expect(await sourcesOf(apiKey, outputId)).toEqual({ total: 2, verified: 2, changed: 0, gone: 0, unverified: 0 });
    const restored = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "C1" })) as { claims: { needsReverification: boolean; sourcesChanged?: string[] }[] };
    expect(restored.claims[0]?.needsReverification).toBe(false);
    expect(restored.claims[0]?.sourcesChanged).toBeUndefined();
    await pause(500);
    expect(at("/sources-changed")).toHaveLength(2);
  });

  it("the daily cron re-checks the sources cited by stored deliverables", async () => {
    const { apiKey, orgId } = await seedTenant();
    const cited = page();
    const { planId, outputId } = await delivered(apiKey, [cited, page()]);
    await cited.edit();
    const before = (await checkedAt(orgId, planId, 1)) ?? 0;
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "23 3 * * *" }), env as never);
    await recheckedAfter(orgId, planId, 1, before);
    expect(await sourcesOf(apiKey, outputId)).toEqual({ total: 2, verified: 1, changed: 1, gone: 0, unverified: 0 });
    // The frequent cron only sweeps webhooks.
    const after = (await checkedAt(orgId, planId, 1)) ?? 0;
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), env as never);
    await pause(500);
    expect(await checkedAt(orgId, planId, 1)).toBe(after);
  });

  it("is for org admins only, takes no options, and answers 405 to other methods", async () => {
    const { apiKey, orgId } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const memberWithAdminScope = await seedApiKey(orgId, member.userId, ["research:read", "research:write", "org:admin"]);
    const { adminKey } = await adminOf();

    const noScope = await recheck(apiKey);
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get("www-authenticate")).toContain("insufficient_scope");
    // A member's key never carries org:admin, whatever it was given.
    const notAdmin = await recheck(memberWithAdminScope.key);
    expect(notAdmin.status).toBe(403);
    expect(await notAdmin.text()).toContain("needs the org:admin scope");
    const get = await rest(adminKey, "/sources/recheck");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const option = await recheck(adminKey, { body: JSON.stringify({ org: "another" }) });
    expect(option.status).toBe(400);
    expect(await option.text()).toContain("Unknown fields: org");
    expect((await recheck(adminKey, { body: "{}" })).status).toBe(202);
    // Described for integrations.
    const openApi = (await (await rest(null, "/openapi.json")).json()) as { paths: Record<string, Record<string, { "x-required-scope"?: string }>> };
    expect(openApi.paths["/api/v1/sources/recheck"]?.post?.["x-required-scope"]).toBe("org:admin");
  });

  it("never touches another org's sources", async () => {
    const a = await adminOf();
    const b = await seedTenant();
    const { planId: planA } = await delivered(a.apiKey, [page(), page()]);
    const { planId: planB } = await delivered(b.apiKey, [page(), page()]);
    const rowsOf = (orgId: string, planId: string) =>
      env.DB.prepare("SELECT n, verification_requested_at AS requested, verification_checked_at AS checked FROM ledger_evidence WHERE org_id = ? AND plan_id = ? ORDER BY n").bind(orgId, planId).all();
    const bBefore = (await rowsOf(b.orgId, planB)).results;
    const aBefore = (await checkedAt(a.orgId, planA, 1)) ?? 0;
    expect(await (await recheck(a.adminKey)).json()).toEqual({ queued: 2, batchLimit: 100 });
    await recheckedAfter(a.orgId, planA, 1, aBefore);
    await pause(300);
    expect((await rowsOf(b.orgId, planB)).results).toEqual(bBefore);
  });

  it("stays within the org's check limits: fewer when they leave less, 429 with Retry-After when they leave nothing", async () => {
    const { apiKey, adminKey, orgId } = await adminOf();
    const { planId } = await delivered(apiKey, [page(), page(), page()]);
    // Recorded and checked an hour ago, as cited sources due a re-check are.
    await env.DB.prepare("UPDATE ledger_evidence SET verification_requested_at = verification_requested_at - 3600000 WHERE org_id = ? AND plan_id = ?").bind(orgId, planId).run();
    // Other checks of the org in the last minute, up to 2 short of the per-minute limit (300).
    const used = Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_evidence WHERE org_id = ? AND verification_requested_at >= ?").bind(orgId, Date.now() - 60_000).first("n"));
    await env.DB.prepare("INSERT INTO evidence_ledgers (org_id, plan_id, citation_policy, subtopics, created_at, updated_at) VALUES (?, 'plan_filler', 'report', '[]', ?, ?)").bind(orgId, Date.now(), Date.now()).run();
    await env.DB.prepare(
      `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
       INSERT INTO ledger_evidence (org_id, plan_id, n, url, title, facts, content_hash, recorded_by, created_at, verification_status, verification_requested_at)
       SELECT ?, 'plan_filler', i, 'https://example.org/' || i, 't', 'f', 'h' || i, 'u', ?, 'verified', ? FROM k`,
    )
      .bind(300 - used - 2, orgId, Date.now(), Date.now())
      .run();
    const limited = await recheck(adminKey);
    expect(limited.status).toBe(202);
    expect(await limited.json()).toEqual({ queued: 2, batchLimit: 100 });

    const refused = await recheck(adminKey);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await refused.text()).toContain("this minute are used up (300)");
    // The third source was not marked as on its way.
    const third = await env.DB.prepare("SELECT verification_requested_at AS r, verification_checked_at AS c FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = 3").bind(orgId, planId).first<{ r: number; c: number }>();
    expect(third?.c).toBeGreaterThan(third?.r ?? Number.POSITIVE_INFINITY);
  });

  it("an import rebuilds the deliverables' cited sources, each standing as Cairn's first verdict after the import", async () => {
    const a = await adminOf();
    await delivered(a.apiKey, [page(), page()]);
    const exported = await rest(a.adminKey, "/org/export");
    expect(exported.status).toBe(200);
    const file = await exported.text();
    // Not carried by the file (a file never says what Cairn verified): rebuilt from the deliverables.
    expect(file).not.toContain("research_output_sources");
    const b = await adminOf();
    const imported = await rest(b.adminKey, "/org/import", { method: "POST", body: file, headers: { "content-type": "application/x-ndjson" } });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const outputId = String(await env.DB.prepare("SELECT id FROM research_outputs WHERE org_id = ?").bind(b.orgId).first("id"));
    const rows = await waitFor("the imported sources' first verdicts", async () => {
      const { results } = await env.DB.prepare("SELECT n, delivered_status FROM research_output_sources WHERE org_id = ? AND output_id = ? ORDER BY n").bind(b.orgId, outputId).all<{ n: number; delivered_status: string }>();
      return results.length === 2 && results.every((r) => r.delivered_status !== "pending") ? results : null;
    });
    expect(rows).toEqual([
      { n: 1, delivered_status: "verified" },
      { n: 2, delivered_status: "verified" },
    ]);
    expect(await sourcesOf(b.apiKey, outputId)).toEqual({ total: 2, verified: 2, changed: 0, gone: 0, unverified: 0 });
  });

  // Last: its slow page holds the source-check consumer for 15 s, and the daily cron above re-checks every org's sources.
  it("records sources Cairn could not check too, and a source still pending at delivery takes its first verdict as delivery's", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Solid-state batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [source(page().url, QUOTE, "verified"), source(`${origin}/gone`, QUOTE, "unreachable"), { ...source(`${origin}/plain.txt`, QUOTE, "no quote"), quote: undefined }],
    });
    await settled(apiKey, planId);
    // A page that answers slowly keeps its source pending while the deliverable is stored.
    await ok(apiKey, "record_evidence", { planId, evidence: [source(`${origin}/slow`, QUOTE, "slow")] });
    const { outputId } = (await ok(apiKey, "store_research_output", { planId, title: "Mixed", mediaType: "markdown", content: "One [E1]. Two [E2]. Three [E3]. Four [E4]." })) as { outputId: string };
    const statuses = async () =>
      (await env.DB.prepare("SELECT n, delivered_status AS s FROM research_output_sources WHERE org_id = ? AND output_id = ? ORDER BY n").bind(orgId, outputId).all<{ n: number; s: string }>()).results.map((r) => r.s);
    expect(await statuses()).toEqual(["verified", "unreachable", "unchecked", "pending"]);
    expect(await sourcesOf(apiKey, outputId)).toEqual({ total: 4, verified: 1, changed: 0, gone: 0, unverified: 3 });
    // The slow page times out (15 s): unreachable, which stands for delivery; never "gone", as it was never verified.
    await waitFor("the slow source's verdict", async () => (await statuses())[3] !== "pending", 25_000);
    expect(await statuses()).toEqual(["verified", "unreachable", "unchecked", "unreachable"]);
    expect(await sourcesOf(apiKey, outputId)).toEqual({ total: 4, verified: 1, changed: 0, gone: 0, unverified: 3 });
  });
});
