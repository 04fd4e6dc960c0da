import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { createPlan, ok, sourceChecksSettled, steps } from "../support/plans";
import { seedTenant } from "../support/worker";

/**
 * The dashboard's source page marks the passage by the domain's one locator (src/domain/sources/passage-context.ts),
 * as get_evidence_ledger places it: the stored passage's words first, the quote check only when they are not there.
 */
const origin = inject("sourcePagesOrigin");
const QUOTE = "ground-source heat pumps cut heating bills by 38 percent";
const markOf = (html: string) => /<mark id="snapshot-passage">([^<]*)<\/mark>/.exec(html)?.[1] ?? null;

describe("the passage marked on a source's page", () => {
  it("is the stored passage where the reading holds it, and the quote's place otherwise", async () => {
    const { admin, apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Heat pumps", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    const url = `${origin}/untrusted.html`;
    await ok(apiKey, "record_evidence", { planId, evidence: [{ url, title: "Heat pump field trial", facts: "Bills", subtopic: "Bills", quote: QUOTE }] });
    await sourceChecksSettled(apiKey, planId);
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const page = async () => (await visitor.get(`/dashboard/plans/${planId}/sources/E1`)).text();
    expect(markOf(await page())).toBe(QUOTE);

    // The verdict's stored passage is the one to mark (a verdict reached by an earlier matcher, or imported):
    // the same words get_evidence_ledger's context places, not what the quote check would pick today.
    const stored = "over two winters";
    const set = (passage: string) =>
      env.DB.prepare("UPDATE ledger_evidence SET verification_passage = ? WHERE org_id = ? AND plan_id = ?").bind(passage, orgId, planId).run();
    await set(stored);
    expect(markOf(await page())).toBe(stored);
    const ledger = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "E1" })) as { evidence: { verification: { context?: { before: string } } }[] };
    expect(ledger.evidence[0]?.verification.context?.before).toMatch(/38 percent $/);

    // Words the reading does not hold: the quote is placed again.
    await set("words that are nowhere on the page");
    expect(markOf(await page())).toBe(QUOTE);
  });
});
