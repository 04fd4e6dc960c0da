import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { createPlan, ok, steps } from "../support/plans";
import { seedTenant } from "../support/worker";
import { waitFor } from "../support/webhooks";

/**
 * A quote's brackets on workerd: the Worker's consumer fetches a real loopback page (test/support/source-pages.global.ts
 * serves what a test puts under /changing/NAME), judges each bracket against the page words it stands for, stores the
 * brackets with the verdict, and the ledger shows them beside the passage.
 */
const origin = inject("sourcePagesOrigin");

const PAGE = `<!doctype html><html><head><title>Trade figures</title></head><body>
<p>The minister said exports had grown.</p>
<p>Asked about trade, she said exports had grown by 5 percent in 2024.</p>
</body></html>`;

interface Edit {
  bracket: string;
  replaces: string;
}
interface Verification {
  status: string;
  passage?: string;
  reason?: string;
  edits?: Edit[];
}

async function servedPage(): Promise<string> {
  const name = `trade-${crypto.randomUUID().slice(0, 8)}`;
  const put = await fetch(`${origin}/control/changing/${name}`, { method: "PUT", body: JSON.stringify({ type: "text/html; charset=utf-8", body: PAGE }) });
  expect(put.status).toBe(204);
  return `${origin}/changing/${name}`;
}

const source = (url: string, quote: string) => ({ url, title: "Trade figures", facts: `What ${url} says`, subtopic: "Trade", quote });

describe("a quote's brackets", () => {
  it("verifies a bracket that stands for the page's words and refuses one that adds a negation, storing and showing each bracket", async () => {
    const { admin, apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Trade", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    const url = await servedPage();
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [
        source(`${url}?a`, "the minister said exports had [not] grown"),
        source(`${url}?b`, "[the minister] said exports had grown by 5 percent in 2024"),
        source(`${url}?c`, "the minister said exports had grown"),
      ],
    });
    await ok(apiKey, "record_claims", { planId, claims: [{ subtopic: "Trade", text: "Exports grew", evidenceRefs: ["E1", "E2"], confidence: 0.6 }] });
    await waitFor("the source checks", async () => {
      const { evidence } = (await ok(apiKey, "get_evidence_ledger", { planId, detail: "full" })) as { evidence: { verification: { status: string } }[] };
      return evidence.every((e) => e.verification.status !== "pending") ? evidence : null;
    });
    const one = async (ref: string) => ((await ok(apiKey, "get_evidence_ledger", { planId, ref })) as { evidence: { verification: Verification }[] }).evidence[0]?.verification;

    const added = await one("E1");
    expect(added).toMatchObject({ status: "partial", passage: "The minister said exports had grown", edits: [{ bracket: "[not]", replaces: "" }] });
    expect(added?.reason).toContain('the bracket "[not]" adds a negation');
    const clarified = await one("E2");
    expect(clarified).toMatchObject({ status: "verified", passage: "she said exports had grown by 5 percent in 2024", edits: [{ bracket: "[the minister]", replaces: "she" }] });
    // No brackets, nothing listed.
    expect(await one("E3")).not.toHaveProperty("edits");

    // The full listing shows a partial source's reason and brackets, as a read of it does.
    const full = (await ok(apiKey, "get_evidence_ledger", { planId, detail: "full" })) as { evidence: { ref: string; verification: Verification }[] };
    const fullE1 = full.evidence.find((e) => e.ref === "E1")?.verification;
    expect(fullE1).toMatchObject({ status: "partial", edits: [{ bracket: "[not]", replaces: "" }] });
    expect(fullE1?.reason).toContain('the bracket "[not]" adds a negation');
    // The listing shows a partial match's brackets beside its closest passage.
    const listed = (await ok(apiKey, "get_evidence_ledger", { planId })) as { evidence: { ref: string; closest?: { edits?: Edit[] } }[] };
    expect(listed.evidence.find((e) => e.ref === "E1")?.closest?.edits).toEqual([{ bracket: "[not]", replaces: "" }]);
    // A claim read shows them beside each located passage.
    const claim = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "C1" })) as { claims: { sourcePassages?: { ref: string; edits?: Edit[] }[] }[] };
    expect(claim.claims[0]?.sourcePassages?.map((p) => [p.ref, p.edits])).toEqual([
      ["E1", [{ bracket: "[not]", replaces: "" }]],
      ["E2", [{ bracket: "[the minister]", replaces: "she" }]],
    ]);

    // The dashboard shows them too: on the plan's ledger and on the source's page, the page's words escaped.
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const ledgerPage = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    expect(ledgerPage).toContain("<code>[not]</code> stands for <span class=\"muted\">no words of the page</span>");
    expect(ledgerPage).toContain("<code>[the minister]</code> stands for <q>she</q>");
    const sourcePage = await (await visitor.get(`/dashboard/plans/${planId}/sources/E2`)).text();
    expect(sourcePage).toMatch(/<ul class="quote-edits" id="quote-edits"[^>]*><li><code>\[the minister\]<\/code> stands for <q>she<\/q><\/li><\/ul>/);

    // Stored on the evidence row as JSON; a verdict without brackets stores an empty list.
    const { results } = await env.DB.prepare("SELECT n, verification_edits FROM ledger_evidence WHERE org_id = ? AND plan_id = ? ORDER BY n")
      .bind(orgId, planId)
      .all<{ n: number; verification_edits: string | null }>();
    expect(results.map((row) => JSON.parse(row.verification_edits ?? "null"))).toEqual([[{ bracket: "[not]", replaces: "" }], [{ bracket: "[the minister]", replaces: "she" }], []]);
  });

  it("reads a verdict stored before brackets were listed (no edits) as before", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Trade", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    const url = await servedPage();
    await ok(apiKey, "record_evidence", { planId, evidence: [source(url, "[the minister] said exports had grown by 5 percent")] });
    await waitFor("the source check", async () => {
      const { evidence } = (await ok(apiKey, "get_evidence_ledger", { planId, detail: "full" })) as { evidence: { verification: { status: string } }[] };
      return evidence.every((e) => e.verification.status !== "pending") ? evidence : null;
    });
    await env.DB.prepare("UPDATE ledger_evidence SET verification_edits = NULL WHERE org_id = ? AND plan_id = ?").bind(orgId, planId).run();
    const read = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "E1" })) as { evidence: { verification: Verification }[] };
    expect(read.evidence[0]?.verification).toMatchObject({ status: "verified", passage: "she said exports had grown by 5 percent" });
    expect(read.evidence[0]?.verification).not.toHaveProperty("edits");
  });
});
