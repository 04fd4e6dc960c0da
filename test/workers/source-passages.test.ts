import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { createPlan, ok, steps } from "../support/plans";
import { callTool, seedTenant } from "../support/worker";
import { waitFor } from "../support/webhooks";

/**
 * A reviewer reads a claim (`ref: "C1"`) and gets each cited source's located passage with the page's text around
 * it, found again in the snapshot Cairn kept (test/support/source-pages.global.ts serves the pages on loopback).
 */
const origin = inject("sourcePagesOrigin");
const page = (path: string) => `${origin}${path}`;

interface SourcePassage {
  ref: string;
  status: string;
  passage?: string;
  context?: { before: string; after: string };
}

const source = (url: string, quote: string) => ({ url, title: "Solid-state batteries reach 500 Wh/kg", facts: `What ${url} says`, subtopic: "Density", quote });

async function checkedPlan(apiKey: string) {
  const { planId } = await createPlan(apiKey, { name: "[Deep] Solid-state batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
  await ok(apiKey, "record_evidence", {
    planId,
    evidence: [
      source(page("/article.html"), "solid-state cells reached 500 Wh/kg in the lab"),
      source(page("/gone"), "solid-state cells reached 500 Wh/kg in the lab"),
      source(page("/article.html?p"), "solid-state cells reached 450 Wh/kg in the lab"),
      source(page("/article.html?n"), "sodium batteries now power most electric buses in Europe"),
    ],
  });
  await ok(apiKey, "record_claims", {
    planId,
    claims: [{ subtopic: "Density", text: "Lab cells reach 500 Wh/kg", evidenceRefs: ["E1", "E2", "E3", "E4"], confidence: 0.7 }],
  });
  await waitFor("the source checks", async () => {
    const { evidence } = (await ok(apiKey, "get_evidence_ledger", { planId, detail: "full" })) as { evidence: { verification: { status: string } }[] };
    return evidence.every((e) => e.verification.status !== "pending") ? evidence : null;
  });
  return planId;
}

describe("a claim's sources in context", () => {
  it("shows each cited source's located passage with the page's text before and after, and none for a source never read", async () => {
    const { apiKey } = await seedTenant();
    const planId = await checkedPlan(apiKey);

    const read = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "C1" })) as { claims: { sourcePassages?: SourcePassage[] }[]; trust: string };
    expect(read.trust).toBe("untrusted-external-content");
    const passages = read.claims[0]?.sourcePassages ?? [];
    // E2 (unreachable) has no snapshot: no entry, no error. E4 was read but the quote is not in it: its status only.
    expect(passages.map((p) => [p.ref, p.status])).toEqual([
      ["E1", "verified"],
      ["E3", "partial"],
      ["E4", "not_found"],
    ]);
    const [e1, e3, e4] = passages;
    expect(e1).toEqual({
      ref: "E1",
      status: "verified",
      passage: "solid-state cells reached 500 Wh/kg in the lab",
      context: { before: expect.stringMatching(/Home · News\s+In March, the team reported that $/), after: expect.stringMatching(/^, a record for the chemistry\.\s+Costs remain higher/) },
    });
    // The page's hidden, script and comment text is not part of what it says.
    expect(JSON.stringify(e1)).not.toMatch(/thousand Wh\/kg|styled words/);
    // The closest passage of a partial match, in the page's own words, with its context.
    expect(e3?.passage).toContain("500 Wh/kg");
    expect(`${e3?.context?.before}${e3?.passage}${e3?.context?.after}`).toContain("In March, the team reported that solid-state cells reached 500 Wh/kg in the lab");
    expect(e4).toEqual({ ref: "E4", status: "not_found" });

    // A read of the one source carries the same context beside its passage.
    const one = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "E1" })) as { evidence: { verification: { passage?: string; context?: unknown } }[] };
    expect(one.evidence[0]?.verification).toMatchObject({ passage: e1?.passage, context: e1?.context });
    const gone = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "E2" })) as { evidence: { verification: Record<string, unknown> }[] };
    expect(gone.evidence[0]?.verification).toMatchObject({ status: "unreachable" });
    expect(gone.evidence[0]?.verification).not.toHaveProperty("context");

    // Listings stay as they were: no context, no source passages.
    const full = JSON.stringify(await ok(apiKey, "get_evidence_ledger", { planId, detail: "full" }));
    const compact = JSON.stringify(await ok(apiKey, "get_evidence_ledger", { planId, status: "PENDING_REVIEW" }));
    for (const listing of [full, compact]) expect(listing).not.toMatch(/"context"|"sourcePassages"/);
  });

  it("shows no passages, and no error, once the snapshot is no longer stored", async () => {
    const { apiKey, orgId } = await seedTenant();
    const planId = await checkedPlan(apiKey);
    // The article's variants share one snapshot (the same text, the same SHA-256): remove it from the bucket.
    const listed = await env.SOURCE_SNAPSHOTS.list({ prefix: `orgs/${orgId}/snapshots/` });
    expect(listed.objects).toHaveLength(1);
    await env.SOURCE_SNAPSHOTS.delete(listed.objects.map((o) => o.key));
    const claim = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "C1" })) as { claims: Record<string, unknown>[] };
    expect(claim.claims[0]).toMatchObject({ ref: "C1", evidenceRefs: ["E1", "E2", "E3", "E4"] });
    expect(claim.claims[0]).not.toHaveProperty("sourcePassages");
    const one = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "E1" })) as { evidence: { verification: Record<string, unknown> }[] };
    expect(one.evidence[0]?.verification).toMatchObject({ status: "verified", passage: "solid-state cells reached 500 Wh/kg in the lab" });
    expect(one.evidence[0]?.verification).not.toHaveProperty("context");
  });

  it("answers not_found for another org's plan, showing nothing of its sources", async () => {
    const owner = await seedTenant();
    const planId = await checkedPlan(owner.apiKey);
    const other = await seedTenant();
    for (const ref of ["C1", "E1"]) {
      const result = await callTool(other.apiKey, "get_evidence_ledger", { planId, ref });
      expect(result.isError).toBe(true);
      expect(result.body).toMatchObject({ error: { code: "not_found" } });
      expect(JSON.stringify(result.body)).not.toMatch(/Wh\/kg|In March/);
    }
  });
});
