import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { createPlan, ok, sourceChecksSettled, steps } from "../support/plans";
import { adminOf, waitFor } from "../support/webhooks";
import { rest } from "../support/worker";

/**
 * What the dashboard shows a person, on workerd: re-checks after delivery run on Miniflare's real source-check
 * queue against the loopback fixture pages (test/support/source-pages.global.ts: `/changing/NAME` serves one article
 * until a test changes it), so every page below is the one a browser gets.
 */
const origin = inject("sourcePagesOrigin");
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";

/** A page of this test's own, serving the shared article until the test changes it. */
function page() {
  const name = `r-${crypto.randomUUID().slice(0, 8)}`;
  const control = (init: RequestInit) => fetch(`${origin}/control/changing/${name}`, init).then((r) => expect(r.status).toBe(204));
  return {
    url: `${origin}/changing/${name}`,
    edit: () => control({ method: "PUT", body: JSON.stringify({ type: "text/html", body: "<title>Solid-state batteries</title><p>The article was rewritten; no figures remain.</p>" }) }),
    remove: () => control({ method: "PUT", body: JSON.stringify({ status: 404, type: "text/html", body: "<p>Not here</p>" }) }),
  };
}

const source = (url: string) => ({ url, title: "Solid-state batteries reach 500 Wh/kg", facts: `What ${url} says`, subtopic: "Density", quote: QUOTE });

async function checkedAt(orgId: string, planId: string, n: number): Promise<number> {
  const row = await env.DB.prepare("SELECT verification_checked_at AS at FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = ?").bind(orgId, planId, n).first<{ at: number | null }>();
  return row?.at ?? 0;
}

/** The slice of a page from the element with this id to the end of its section (the next `<section`, or the end). */
function sectionOf(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  expect(start, `${id} on the page`).toBeGreaterThan(-1);
  const end = html.indexOf("<section", start);
  return html.slice(start, end === -1 ? undefined : end);
}

describe("re-checked sources, as the dashboard shows them", () => {
  it("labels each reading with its own source's URL (two pages with the same text share one snapshot), and the ledger shows changed, gone and needs re-verification", async () => {
    const { apiKey, adminKey, orgId, admin } = await adminOf();
    const [own, twin, removed] = [page(), page(), page()];
    const { planId } = await createPlan(apiKey, { name: "[Deep] Solid-state batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    // E1 is read first; E2 and E3 serve the same text later, so the one stored snapshot of that text now names their URL.
    await ok(apiKey, "record_evidence", { planId, evidence: [source(own.url)] });
    await sourceChecksSettled(apiKey, planId);
    await ok(apiKey, "record_evidence", { planId, evidence: [source(twin.url), source(removed.url)] });
    await sourceChecksSettled(apiKey, planId);
    await ok(apiKey, "record_claims", { planId, claims: [{ subtopic: "Density", text: "Solid-state cells reached 500 Wh/kg", evidenceRefs: ["E1"], workerId: "w1", confidence: 0.8 }] });
    await ok(apiKey, "record_verdicts", { planId, verdicts: [{ claim: "C1", kind: "reviewer", judge: "r1", shard: 1, verdict: "SUPPORTED" }] });
    await ok(apiKey, "store_research_output", { planId, title: "Solid-state batteries", mediaType: "markdown", content: "Cells reached 500 Wh/kg [C1] [E2] [E3]." });

    // E1's page is rewritten without the quote, E3's taken down; a re-check finds both.
    await own.edit();
    await removed.remove();
    const before = [await checkedAt(orgId, planId, 1), await checkedAt(orgId, planId, 3)];
    expect((await rest(adminKey, "/sources/recheck", { method: "POST" })).status).toBe(202);
    await waitFor("E1 and E3 re-checked", async () => (await checkedAt(orgId, planId, 1)) > (before[0] ?? 0) && (await checkedAt(orgId, planId, 3)) > (before[1] ?? 0), 25_000);

    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const sourcePage = await (await visitor.get(`/dashboard/plans/${planId}/sources/E1`)).text();
    const previous = sectionOf(sourcePage, "previous-reading");
    expect(previous).toContain("<mark");
    // The previous reading is E1's own page, whatever other source's page had the same text.
    expect(previous).toContain(own.url);
    expect(previous).not.toContain(twin.url);
    expect(previous).not.toContain(removed.url);

    const plan = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    const ledger = sectionOf(plan, "evidence-ledger");
    expect(ledger).toMatch(/id="source-E1"[\s\S]*?data-recheck="changed"[\s\S]*?changed since verified/);
    expect(ledger).toMatch(/id="source-E3"[\s\S]*?data-recheck="gone"[\s\S]*?gone since verified/);
    expect(ledger.slice(ledger.indexOf('id="source-E2"'), ledger.indexOf('id="source-E3"'))).not.toContain("data-recheck");
    expect(ledger).toMatch(/id="claim-C1"[\s\S]*?data-needs-reverification[\s\S]*?needs re-verification[\s\S]*?E1/);
  });
});
