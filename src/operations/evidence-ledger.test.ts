import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SEPARATOR } from "../domain/research/search-text";
import type { Env } from "../env";
import { indexPendingEverywhere } from "../platform/search-reindex";
import { createPlan, ok, sourceChecksSettled, steps } from "../../test/support/plans";
import { callTool, countRows, rest, seedTenant } from "../../test/support/worker";

const source = (n: number, subtopic: string, extra: Record<string, unknown> = {}) => ({
  url: `https://example.org/source-${n}`,
  title: `Source ${n}`,
  facts: `Fact ${n} about ${subtopic}: batteries with solid electrolytes reached ${n * 100} Wh/kg in lab cells.`,
  fetchedAt: "2026-11-20T10:00:00Z",
  subtopic,
  query: `${subtopic} energy density`,
  ...extra,
});

async function deepPlan(key: string, citationPolicy: "strict" | "report" = "strict") {
  return createPlan(key, { name: "[Deep] Solid-state batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy });
}

/** A ledger with two subtopics: Density grounded by C1 (E1), Cost with only an unsupported claim C2 (E2). */
async function groundedLedger(key: string, planId: string) {
  await ok(key, "record_evidence", { planId, subtopics: ["Density", "Cost", "Safety"], evidence: [source(1, "Density"), source(2, "Cost")] });
  // A claim is grounded once a source of it is checked and holds (these pages are not fetched here: unreachable, refused).
  await sourceChecksSettled(key, planId);
  await ok(key, "record_claims", {
    planId,
    claims: [
      { subtopic: "Density", text: "Lab cells reached 100 Wh/kg with solid electrolytes", evidenceRefs: ["E1"], workerId: "worker-1", confidence: 0.8, highStakes: true },
      { subtopic: "Cost", text: "Solid-state cells already cost less than lithium-ion cells", evidenceRefs: ["E2"], workerId: "worker-2", confidence: 0.6 },
    ],
  });
  await ok(key, "record_verdicts", {
    planId,
    verdicts: [
      { claim: "C1", kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED", confidence: 0.85 },
      { claim: "C2", kind: "reviewer", judge: "reviewer-2", shard: 2, verdict: "UNSUPPORTED", reasoning: "E2 says nothing about cost parity" },
      { claim: "C1", kind: "critic", judge: "critic", verdict: "SURVIVES", reasoning: "Two independent lab results agree", confidence: 0.8 },
    ],
  });
}

describe("evidence ledger", () => {
  it("numbers evidence E1, E2… plan-wide, keeps a recorded source's ref, and declares subtopics", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey);
    const first = await ok(apiKey, "record_evidence", { planId, subtopics: ["Density", "density ", "Cost"], evidence: [source(1, "Density"), source(2, "Cost")] });
    expect(first).toMatchObject({
      evidence: [
        { ref: "E1", duplicate: false },
        { ref: "E2", duplicate: false },
      ],
      totalSubtopics: 2,
      totalEvidence: 2,
    });
    const again = await ok(apiKey, "record_evidence", { planId, evidence: [source(2, "Cost"), source(3, "Safety")] });
    expect(again).toMatchObject({ evidence: [{ ref: "E2", duplicate: true }, { ref: "E3", duplicate: false }], totalSubtopics: 3, totalEvidence: 3 });
    // "density " was the same subtopic as "Density": declared once, under the first spelling.
    expect(((await ok(apiKey, "get_evidence_ledger", { planId })).subtopics as { subtopic: string }[]).map((s) => s.subtopic)).toEqual(["Density", "Cost", "Safety"]);
    // The same URL with different content is a different piece of evidence.
    const changed = await ok(apiKey, "record_evidence", { planId, evidence: [source(1, "Density", { facts: "A revised page says 120 Wh/kg." })] });
    expect(changed).toMatchObject({ evidence: [{ ref: "E4", duplicate: false }] });
  });

  it("hands out unique refs to concurrent writers", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => ok(apiKey, "record_evidence", { planId, evidence: [source(i + 1, "Density"), source(i + 101, "Cost")] })));
    const refs = results.flatMap((r) => (r.evidence as { ref: string }[]).map((e) => e.ref));
    expect(new Set(refs).size).toBe(16);
    expect(refs.map((r) => Number(r.slice(1))).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  });

  it("refuses claims citing unknown refs and stores none of the call", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey);
    await ok(apiKey, "record_evidence", { planId, evidence: [source(1, "Density")] });
    const before = await countRows("ledger_claims");
    const refused = await callTool(apiKey, "record_claims", {
      planId,
      claims: [
        { subtopic: "Density", text: "Valid claim", evidenceRefs: ["E1"] },
        { subtopic: "Density", text: "Invented claim", evidenceRefs: ["E1", "E7"] },
      ],
    });
    expect(refused.isError).toBe(true);
    expect(refused.body.error).toMatchObject({ code: "validation", issues: [{ path: "claims.1.evidenceRefs.1", message: "E7 is not in this plan's evidence ledger" }] });
    expect(await countRows("ledger_claims")).toBe(before);
  });

  it("merges duplicate claims, uniting their evidence and workers", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey);
    await ok(apiKey, "record_evidence", { planId, evidence: [source(1, "Density"), source(2, "Density"), source(3, "Density")] });
    const first = await ok(apiKey, "record_claims", { planId, claims: [{ subtopic: "Density", text: "Cells reached 100 Wh/kg.", evidenceRefs: ["E2", "E1"], workerId: "worker-1" }] });
    const second = await ok(apiKey, "record_claims", {
      planId,
      claims: [
        { subtopic: "density", text: "cells   reached 100 Wh/kg", evidenceRefs: ["E3"], workerId: "worker-2" },
        { subtopic: "Density", text: "A different claim", evidenceRefs: ["E1"] },
      ],
    });
    const [merged, fresh] = second.claims as { ref: string; claimId: string; merged: boolean }[];
    expect(merged).toMatchObject({ ref: "C1", merged: true, claimId: (first.claims as { claimId: string }[])[0]?.claimId });
    expect(fresh).toMatchObject({ ref: "C2", merged: false });
    const ledger = await ok(apiKey, "get_evidence_ledger", { planId, detail: "full" });
    expect((ledger.claims as { evidenceRefs: string[]; workerIds: string[] }[])[0]).toMatchObject({ evidenceRefs: ["E1", "E2", "E3"], workerIds: ["worker-1", "worker-2"] });
  });

  it("records verdicts, replaces a judge's earlier verdict, and refuses invalid ones whole", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey);
    await groundedLedger(apiKey, planId);
    const invalid = await callTool(apiKey, "record_verdicts", {
      planId,
      verdicts: [
        { claim: "C2", kind: "reviewer", judge: "reviewer-2", shard: 2, verdict: "SUPPORTED" },
        { claim: "C9", kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" },
        { claim: "C1", kind: "reviewer", judge: "reviewer-1", verdict: "SURVIVES" },
        { claim: "C1", kind: "critic", judge: "critic", verdict: "REJECT" },
      ],
    });
    expect(invalid.isError).toBe(true);
    expect((invalid.body.error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      "verdicts.1.claim",
      "verdicts.2.verdict",
      "verdicts.2.shard",
      "verdicts.3.reasoning",
    ]);
    // Nothing of the refused call landed: C2 is still UNSUPPORTED.
    const unchanged = await ok(apiKey, "get_evidence_ledger", { planId, status: "UNSUPPORTED" });
    expect((unchanged.claims as { ref: string }[]).map((c) => c.ref)).toEqual(["C2"]);

    const tooMany = await callTool(apiKey, "record_verdicts", {
      planId,
      verdicts: Array.from({ length: 6 }, (_, n) => ({ claim: "C2", kind: "reviewer", judge: `extra-${n}`, shard: 1, verdict: "SUPPORTED" })),
    });
    expect((tooMany.body.error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(["verdicts.5.judge"]);

    const changed = await ok(apiKey, "record_verdicts", { planId, verdicts: [{ claim: "C1", kind: "critic", judge: "critic", verdict: "DOWNGRADE", reasoning: "Only lab cells", confidence: 0.5 }] });
    expect(changed.claims).toEqual([{ ref: "C1", status: "DOWNGRADE", grounded: true, finalConfidence: 0.5 }]);
    expect(await countRows("ledger_verdicts")).toBeGreaterThanOrEqual(3);
  });

  it("reads the ledger by subtopic and status, with UNVERIFIED subtopics", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey);
    await groundedLedger(apiKey, planId);
    const all = await ok(apiKey, "get_evidence_ledger", { planId, detail: "full" });
    expect(all).toMatchObject({ citationPolicy: "strict", totalEvidence: 2, totalClaims: 2, nextOffset: null, trust: "untrusted-external-content" });
    expect(all.subtopics).toEqual([
      { subtopic: "Density", status: "GROUNDED", evidence: 1, claims: 1, groundedClaims: 1 },
      { subtopic: "Cost", status: "UNVERIFIED", evidence: 1, claims: 1, groundedClaims: 0 },
      { subtopic: "Safety", status: "UNVERIFIED", evidence: 0, claims: 0, groundedClaims: 0 },
    ]);
    const c1 = (all.claims as Record<string, unknown>[])[0];
    expect(c1).toMatchObject({ ref: "C1", status: "SURVIVES", reviewerVerdict: "SUPPORTED", criticVerdict: "SURVIVES", grounded: true, finalConfidence: 0.8, highStakes: true });
    const cost = await ok(apiKey, "get_evidence_ledger", { planId, subtopic: "cost" });
    expect((cost.claims as { ref: string }[]).map((c) => c.ref)).toEqual(["C2"]);
    expect((cost.evidence as { ref: string }[]).map((e) => e.ref)).toEqual(["E2"]);
    const grounded = await ok(apiKey, "get_evidence_ledger", { planId, status: "GROUNDED" });
    expect((grounded.claims as { ref: string }[]).map((c) => c.ref)).toEqual(["C1"]);
    expect((grounded.evidence as { ref: string }[]).map((e) => e.ref)).toEqual(["E1"]);
    // One item, whole: a listing clips texts, a read by ref does not.
    const whole = await ok(apiKey, "get_evidence_ledger", { planId, ref: "E1" });
    expect(whole).toMatchObject({ evidence: [{ ref: "E1", facts: source(1, "Density").facts, quote: null }], claims: [], subtopics: [] });
    const claimWhole = await ok(apiKey, "get_evidence_ledger", { planId, ref: "C2" });
    expect((claimWhole.claims as { verdicts: { reasoning: string }[] }[])[0]?.verdicts[0]?.reasoning).toBe("E2 says nothing about cost parity");
    const missing = await callTool(apiKey, "get_evidence_ledger", { planId, ref: "E99" });
    expect(missing.body.error).toMatchObject({ code: "not_found" });
    const paged = await ok(apiKey, "get_evidence_ledger", { planId, limit: 1 });
    expect(paged).toMatchObject({ nextOffset: 1 });
    expect(paged.claims).toHaveLength(1);
  });

  it("lists compactly by default, each read fitting its use, with shard and changed-since filters", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey);
    await groundedLedger(apiKey, planId);
    // Assess: the subtopic table, the sources named, the claims with their status; nothing the model does not use.
    const all = await ok(apiKey, "get_evidence_ledger", { planId });
    expect(all).not.toHaveProperty("planId");
    expect(all).not.toHaveProperty("citationPolicy");
    expect((all.subtopics as unknown[]).length).toBe(3);
    // Each source with its check's status (pending or done, as the queue has got to it), and nothing else.
    expect(all.evidence).toMatchObject([
      { ref: "E1", title: "Source 1", subtopic: "Density", verification: expect.any(String) },
      { ref: "E2", title: "Source 2", subtopic: "Cost", verification: expect.any(String) },
    ]);
    for (const item of all.evidence as Record<string, unknown>[]) expect(Object.keys(item).sort()).toEqual(["ref", "subtopic", "title", "verification"]);
    expect((all.claims as unknown[])[0]).toEqual({
      ref: "C1",
      subtopic: "Density",
      text: "Lab cells reached 100 Wh/kg with solid electrolytes",
      evidenceRefs: ["E1"],
      status: "SURVIVES",
      grounded: true,
      finalConfidence: 0.8,
      highStakes: true,
      verdicts: "reviewer-1 SUPPORTED; critic SURVIVES",
      // E1 was recorded without a quote: no quote states the claim's number.
      numbersNotInQuotes: ["100"],
    });
    // A synthesis worker's read: one subtopic's facts.
    const cost = await ok(apiKey, "get_evidence_ledger", { planId, subtopic: "Cost" });
    expect(cost.evidence).toMatchObject([{ ref: "E2", title: "Source 2", facts: source(2, "Cost").facts, verification: expect.any(String) }]);
    expect(Object.keys((cost.evidence as object[])[0] ?? {}).sort()).toEqual(["facts", "ref", "title", "verification"]);
    // A reviewer's read: its shard's claims and the facts they cite, no subtopic table.
    const shard2 = await ok(apiKey, "get_evidence_ledger", { planId, shard: 2 });
    expect((shard2.claims as { ref: string }[]).map((c) => c.ref)).toEqual(["C2"]);
    expect(shard2.evidence).toMatchObject([{ ref: "E2", title: "Source 2", subtopic: "Cost", facts: source(2, "Cost").facts, verification: expect.any(String) }]);
    expect(shard2).not.toHaveProperty("subtopics");
    // The critic's read: the high-stakes supported claims only, with what they cite.
    const critic = await ok(apiKey, "get_evidence_ledger", { planId, status: "SURVIVES", highStakes: true });
    expect((critic.claims as { ref: string }[]).map((c) => c.ref)).toEqual(["C1"]);
    expect((await ok(apiKey, "get_evidence_ledger", { planId, highStakes: false })).claims).toMatchObject([{ ref: "C2" }]);
    const overRest = await rest(apiKey, `/plans/${planId}/ledger?highStakes=true&shard=1`);
    expect(((await overRest.json()) as { claims: { ref: string }[] }).claims.map((c) => c.ref)).toEqual(["C1"]);
    // The report's read: grounded claims with the urls to cite, and the table that names UNVERIFIED subtopics.
    const grounded = await ok(apiKey, "get_evidence_ledger", { planId, status: "GROUNDED" });
    expect(grounded.evidence).toMatchObject([{ ref: "E1", title: "Source 1", subtopic: "Density", url: "https://example.org/source-1", verification: expect.any(String) }]);
    expect((grounded.subtopics as { status: string }[]).map((s) => s.status)).toEqual(["GROUNDED", "UNVERIFIED", "UNVERIFIED"]);
    // Changed since the cursor: only the claim judged afterwards.
    await ok(apiKey, "record_verdicts", { planId, verdicts: [{ claim: "C2", kind: "reviewer", judge: "reviewer-1", shard: 2, verdict: "CONTRADICTED", reasoning: "E2 says otherwise" }] });
    const changed = await ok(apiKey, "get_evidence_ledger", { planId, since: all.cursor });
    expect((changed.claims as { ref: string }[]).map((c) => c.ref)).toEqual(["C2"]);
    expect(changed.evidence).toEqual([]);
    expect(Number(changed.cursor)).toBeGreaterThan(Number(all.cursor));
    const bad = await callTool(apiKey, "get_evidence_ledger", { planId, shard: 3 });
    expect(bad.body).toMatchObject({ error: { code: "validation", issues: [{ path: "shard" }] } });
  });

  it("keeps what the search tool said about each source: its evidenceRef in listings, the time handling in a read of the one item", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey);
    const searched = { evidenceRef: "ws_7f3a:2", temporalIntent: "recent", freshness: "auto", removedStaleYears: [2023, 2024] };
    await ok(apiKey, "record_evidence", { planId, subtopics: ["Density"], evidence: [source(1, "Density", searched), source(2, "Density")] });
    const listing = await ok(apiKey, "get_evidence_ledger", { planId, detail: "full" });
    expect(listing.evidence).toMatchObject([{ ref: "E1", evidenceRef: "ws_7f3a:2" }, { ref: "E2", evidenceRef: null }]);
    expect((listing.evidence as Record<string, unknown>[])[0]).not.toHaveProperty("temporalIntent");
    const whole = await ok(apiKey, "get_evidence_ledger", { planId, ref: "E1" });
    expect((whole.evidence as Record<string, unknown>[])[0]).toMatchObject(searched);
    const plain = await ok(apiKey, "get_evidence_ledger", { planId, ref: "E2" });
    expect((plain.evidence as Record<string, unknown>[])[0]).toMatchObject({ evidenceRef: null, temporalIntent: null, freshness: null, removedStaleYears: [] });
    const bad = await callTool(apiKey, "record_evidence", { planId, evidence: [source(3, "Density", { removedStaleYears: ["last year"] })] });
    expect(bad.isError).toBe(true);
  });

  it("reuses a grounded claim of another plan: copied with its evidence and verdicts, cited like its own, untouched by later changes", async () => {
    const { apiKey } = await seedTenant();
    const source = await deepPlan(apiKey);
    await groundedLedger(apiKey, source.planId);
    const hits = (await ok(apiKey, "search_sources", { query: "solid electrolytes" })).results as { kind: string; id: string }[];
    const grounded = hits.find((hit) => hit.kind === "claim");
    expect(grounded).toBeDefined();
    const target = await deepPlan(apiKey);
    const reused = await ok(apiKey, "record_claims", { planId: target.planId, reuse: [{ claimId: grounded?.id }] });
    expect(reused).toMatchObject({ claims: [{ ref: "C1", merged: false, reusedFrom: grounded?.id, needsReverification: false }], totalClaims: 1 });

    // The copy's sources are checked again in this plan; it is grounded here once they hold.
    await sourceChecksSettled(apiKey, target.planId);
    const ledger = await ok(apiKey, "get_evidence_ledger", { planId: target.planId, detail: "full" });
    expect(ledger.evidence).toMatchObject([{ ref: "E1", url: "https://example.org/source-1" }]);
    expect((ledger.claims as Record<string, unknown>[])[0]).toMatchObject({
      ref: "C1",
      evidenceRefs: ["E1"],
      status: "SURVIVES",
      grounded: true,
      reusedFrom: { planId: source.planId, claimId: grounded?.id, ref: "C1", status: "SURVIVES" },
      needsReverification: false,
    });
    // Cited like the plan's own: the strict check passes on it.
    const stored = await ok(apiKey, "store_research_output", {
      planId: target.planId,
      title: "Density",
      mediaType: "markdown",
      content: "Lab cells reached 100 Wh/kg with solid electrolytes [E1].\n\nCost: UNVERIFIED.\n\nSafety: UNVERIFIED.",
    });
    expect(stored.verification).toMatchObject({ passed: true });

    // The source changing later does not rewrite the copy.
    await ok(apiKey, "record_verdicts", { planId: source.planId, verdicts: [{ claim: "C1", kind: "critic", judge: "critic", verdict: "REJECT", reasoning: "New data" }] });
    const copy = (await ok(apiKey, "get_evidence_ledger", { planId: target.planId, ref: "C1" })).claims as { status: string }[];
    expect(copy[0]?.status).toBe("SURVIVES");

    // Only grounded claims of another plan of this org.
    const ungrounded = await callTool(apiKey, "record_claims", { planId: target.planId, reuse: [{ claimId: grounded?.id }] });
    expect(JSON.stringify(ungrounded.body)).toContain("not grounded");
    // The message itself gives the real reason (the critic rejected it), not a rule about evidence it did not break.
    const refusal = String((ungrounded.body.error as { message?: string }).message);
    expect(refusal).toMatch(/^Cannot reuse clm_\S+: C1 of its plan is REJECT\S*, not grounded/);
    expect(refusal).not.toContain("may cite only evidence");
    const other = await seedTenant();
    const otherPlan = await deepPlan(other.apiKey);
    const foreign = await callTool(other.apiKey, "record_claims", { planId: otherPlan.planId, reuse: [{ claimId: grounded?.id }] });
    expect(JSON.stringify(foreign.body)).toContain("No claim with id");
    expect(await countRows("ledger_claims")).toBeGreaterThan(0);
  });

  it("a plan without a ledger answers not_found, and a plan of another org looks missing everywhere", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const plain = await createPlan(a.apiKey);
    const noLedger = await callTool(a.apiKey, "get_evidence_ledger", { planId: plain.planId });
    expect(noLedger.body.error).toMatchObject({ code: "not_found" });

    const { planId } = await deepPlan(a.apiKey);
    await groundedLedger(a.apiKey, planId);
    for (const [name, args] of [
      ["get_evidence_ledger", { planId }],
      ["record_evidence", { planId, evidence: [source(9, "Density")] }],
      ["record_claims", { planId, claims: [{ subtopic: "Density", text: "x", evidenceRefs: ["E1"] }] }],
      ["record_verdicts", { planId, verdicts: [{ claim: "C1", kind: "critic", judge: "critic", verdict: "REJECT", reasoning: "r" }] }],
    ] as const) {
      const result = await callTool(b.apiKey, name, args);
      expect(result.body.error, name).toMatchObject({ code: "not_found" });
    }
    const search = await ok(b.apiKey, "search_sources", { query: "solid electrolytes" });
    expect(search.results).toEqual([]);
    const fetched = await callTool(b.apiKey, "fetch", { id: ((await ok(a.apiKey, "get_evidence_ledger", { planId, detail: "full" })).claims as { claimId: string }[])[0]?.claimId });
    expect(fetched.body.error).toMatchObject({ code: "not_found" });
  });

  it("makes grounded claims searchable org-wide, with their evidence through fetch", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey);
    await groundedLedger(apiKey, planId);
    const found = await ok(apiKey, "search_sources", { query: "solid electrolytes" });
    const claims = (found.results as { kind: string; type: string; planId: string; id: string; title: string }[]).filter((r) => r.kind === "claim");
    // C2 also matches "solid-state" text but is UNSUPPORTED: only the grounded claim is offered for reuse.
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({ type: "SURVIVES", planId });
    expect(claims[0]?.title).toContain("C1 (Density)");
    const costSearch = await ok(apiKey, "search_sources", { query: "cost parity lithium" });
    expect((costSearch.results as { kind: string }[]).filter((r) => r.kind === "claim")).toEqual([]);

    const chatgpt = await callTool(apiKey, "search", { query: "solid electrolytes" });
    const hit = (chatgpt.body.results as { id: string; url: string }[]).find((r) => r.id === claims[0]?.id);
    expect(hit?.url).toBe(`http://localhost:8787/dashboard/plans/${planId}`);
    const fetched = await ok(apiKey, "fetch", { id: claims[0]?.id });
    expect(fetched.text).toContain("Status: SURVIVES");
    expect(fetched.text).toContain("[E1] Source 1 — https://example.org/source-1");
    expect(fetched.metadata).toMatchObject({ kind: "claim", grounded: "true", trust: "untrusted-external-content" });
  });
});

describe("claims in every script", () => {
  it("finds a word inside a Japanese claim (the snippet without the index's separators), and a claim stored before migration 0042 once the cron's sweep gave it its indexed form", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await deepPlan(apiKey);
    await ok(apiKey, "record_evidence", { planId, subtopics: ["エネルギー密度"], evidence: [source(1, "エネルギー密度")] });
    await sourceChecksSettled(apiKey, planId);
    await ok(apiKey, "record_claims", { planId, claims: [{ subtopic: "エネルギー密度", text: "固体電解質の試作セルは一キロあたり百ワット時に達した", evidenceRefs: ["E1"], workerId: "worker-1", confidence: 0.8 }] });
    // Stored as before 0042: a claim row without its indexed form, indexed as its text (one clause, one word).
    const now = Date.now();
    await env.DB.prepare(
      `INSERT INTO ledger_claims (id, org_id, plan_id, n, subtopic, subtopic_key, text, normalized, evidence_refs, worker_ids, confidence, high_stakes, created_at, updated_at)
       VALUES ('clm_beforeindexforms000000001', ?1, ?2, 2, 'エネルギー密度', 'エネルギー密度', '硫化物系の電解質は水分に弱い', '硫化物系の電解質は水分に弱い', '["E1"]', '[]', 0.7, 0, ?3, ?3)`,
    )
      .bind(orgId, planId, now)
      .run();
    const judged = (claim: string) => [
      { claim, kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED", confidence: 0.85 },
      { claim, kind: "critic", judge: "critic", verdict: "SURVIVES", reasoning: "Two lab results agree", confidence: 0.8 },
    ];
    await ok(apiKey, "record_verdicts", { planId, verdicts: [...judged("C1"), ...judged("C2")] });
    const claimsFound = async (query: string) =>
      ((await ok(apiKey, "search_sources", { query })).results as { kind: string; title: string; snippet: string }[]).filter((hit) => hit.kind === "claim");

    const found = await claimsFound("電解質");
    expect(found.map((hit) => hit.title)).toEqual(["C1 (エネルギー密度): 固体電解質の試作セルは一キロあたり百ワット時に達した"]);
    // Cut at 24 pieces of the index (a character each in such runs), then read without the separators.
    expect(found[0]?.snippet).toBe("固体«電解質»の試作セルは一キロあたり百ワット時に達…");
    expect(found[0]?.snippet).not.toContain(SEPARATOR);
    expect(await claimsFound("水分")).toEqual([]);

    // The migration's own statements list what holds those scripts (run again here: the test database was migrated empty).
    const listing = (env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0042"))?.queries ?? []).filter((sql) => sql.includes("ledger_claims_fts_words"));
    expect(listing.length).toBeGreaterThan(2);
    for (const sql of listing) await env.DB.prepare(sql).run();
    await indexPendingEverywhere(env as unknown as Env);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_claims_index_pending").first<number>("n")).toBe(0);
    const old = await claimsFound("水分");
    expect(old.map((hit) => hit.title)).toEqual(["C2 (エネルギー密度): 硫化物系の電解質は水分に弱い"]);
    expect(old[0]?.snippet).toBe("硫化物系の電解質は«水分»に弱い");
    expect((await claimsFound("電解質")).length).toBe(2);
    await env.DB.prepare("INSERT INTO ledger_claims_fts(ledger_claims_fts) VALUES ('integrity-check')").run();
  });
});

describe("citation integrity on deliverables", () => {
  const passing = "Lab cells reached 100 Wh/kg [E1].\n\nCost: UNVERIFIED — sources did not establish it.\nSafety: UNVERIFIED.";

  it("refuses, in strict mode, a deliverable that fails the check and stores nothing", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "strict");
    await groundedLedger(apiKey, planId);
    const before = await countRows("research_outputs");
    const refused = await callTool(apiKey, "store_research_output", {
      planId,
      title: "Report",
      mediaType: "markdown",
      content: "Solid-state cells already cost less than lithium-ion cells [E2]. Density is high [E1] [E5].",
    });
    expect(refused.isError).toBe(true);
    const error = refused.body.error as { code: string; message: string; issues: { message: string }[] };
    expect(error.code).toBe("validation");
    expect(error.message).toContain("strict citation check");
    const problems = error.issues.map((i) => i.message).join("\n");
    expect(problems).toContain("E5");
    expect(problems).toMatch(/no grounded claim rests on \(.*\): E2\./);
    expect(problems).toContain("rejected: C2");
    expect(problems).toContain("Cost; Safety");
    expect(await countRows("research_outputs")).toBe(before);
  });

  it("stores a deliverable that passes, with the verification report", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "strict");
    await groundedLedger(apiKey, planId);
    await sourceChecksSettled(apiKey, planId);
    const stored = await ok(apiKey, "store_research_output", {
      planId,
      title: "Report",
      mediaType: "markdown",
      content: passing,
      citations: [{ ref: "E1", title: "Source 1", url: "https://example.org/source-1" }],
    });
    // Only the lists with something in them: nothing to act on is left out.
    // The cited source could not be read here (the tests fetch only from loopback): it passes, and is named.
    expect(stored.verification).toEqual({
      policy: "strict",
      passed: true,
      citedRefs: ["E1"],
      unverifiedSubtopics: ["Cost", "Safety"],
      sources: { unchecked: [{ ref: "E1", status: "unreachable", reason: expect.stringMatching(/^refused: /) }], trust: "untrusted-external-content" },
      // Named, not refused: the claim's number is in no quote (E1 has none).
      numbersNotInQuotes: [{ claim: "C1", numbers: ["100"] }],
    });
    // A new version is checked too (the plan comes from the stored output).
    const failing = await callTool(apiKey, "store_research_output", { outputId: stored.outputId, title: "Report v2", mediaType: "markdown", content: "No citations now." });
    expect(failing.body.error).toMatchObject({ code: "validation" });
  });

  it("stores with a failing report when the plan's policy is report", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "report");
    await groundedLedger(apiKey, planId);
    const stored = await ok(apiKey, "store_research_output", { planId, title: "Draft", mediaType: "markdown", content: "Cheap already [E2]." });
    expect(stored.verification).toMatchObject({ policy: "report", passed: false, ungroundedRefs: ["E2"] });
  });

  it("does not check deliverables of plans without a ledger", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    const stored = await ok(apiKey, "store_research_output", { planId, title: "Scan", mediaType: "markdown", content: "Anything [E9]." });
    expect(stored.verification).toBeNull();
  });

  it("serves the ledger over REST with the same rules", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "strict");
    const created = await rest(apiKey, `/plans/${planId}/evidence`, { method: "POST", body: JSON.stringify({ evidence: [source(1, "Density")] }) });
    expect(created.status).toBe(201);
    const refused = await rest(apiKey, `/plans/${planId}/claims`, { method: "POST", body: JSON.stringify({ claims: [{ subtopic: "Density", text: "x", evidenceRefs: ["E2"] }] }) });
    expect(refused.status).toBe(400);
    const read = await rest(apiKey, `/plans/${planId}/ledger?subtopic=Density`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { evidence: unknown[] }).evidence).toHaveLength(1);
  });
});

describe("get_plan_templates", () => {
  it("serves templates whose arguments create working plans, the deep one with a strict ledger", async () => {
    const { apiKey } = await seedTenant();
    const served = await ok(apiKey, "get_plan_templates", { topic: "heat pumps in cold climates", maxResearchers: 2, rounds: 1 });
    const templates = served.templates as { templateId: string; createPlanArguments: Record<string, unknown> }[];
    expect(templates).toHaveLength(6);
    for (const template of templates) {
      const plan = await ok(apiKey, "create_research_plan", template.createPlanArguments);
      expect((await ok(apiKey, "get_plan_status", { planId: plan.planId })).status, template.templateId).toBe("active");
      const ledger = await callTool(apiKey, "get_evidence_ledger", { planId: plan.planId, detail: "full" });
      if (template.templateId.startsWith("deep.")) expect(ledger.body).toMatchObject({ citationPolicy: "strict" });
      else expect(ledger.body.error).toMatchObject({ code: "not_found" });
    }
    const rested = await rest(apiKey, "/plan-templates?mode=deep&researchType=decision_support&depth=exhaustive");
    const body = (await rested.json()) as { templates: { parameters: unknown }[] };
    expect(body.templates).toHaveLength(1);
    expect(body.templates[0]?.parameters).toEqual({ depth: "exhaustive", maxResearchers: 5, rounds: 3, output: "report" });
  });

  it("builds the plan from a template on the server: the same plan as the round trip, overrides taking the template's place", async () => {
    const { apiKey } = await seedTenant();
    const topic = "heat pumps in cold climates";
    const served = await ok(apiKey, "get_plan_templates", { researchType: "decision_support", mode: "deep", topic, rounds: 1 });
    const roundTrip = await ok(apiKey, "create_research_plan", (served.templates as { createPlanArguments: Record<string, unknown> }[])[0]?.createPlanArguments ?? {});
    const built = await ok(apiKey, "create_research_plan", { template: { researchType: "decision_support", mode: "deep", rounds: 1 }, topic });
    // Only what was created comes back: no name or status the caller already knows, and (built from a template)
    // no step list: get_next_step hands the steps out.
    expect(Object.keys(built).sort()).toEqual(["linkedExecutionId", "planId", "totalSteps"]);
    const context = async (planId: unknown) => (await ok(apiKey, "get_research_context", { planId, detail: "full" })) as { plan: Record<string, unknown>; steps: Record<string, unknown>[] };
    const [a, b] = [await context(roundTrip.planId), await context(built.planId)];
    const shape = (c: typeof a) => ({
      name: c.plan.name,
      question: c.plan.researchQuestion,
      steps: c.steps.map((step) => [step.stepType, step.instructions, step.parallelGroup ?? null]),
    });
    expect(shape(b)).toEqual(shape(a));
    expect(b.plan.name).toBe(`[Deep] ${topic}`);
    expect(await ok(apiKey, "get_evidence_ledger", { planId: built.planId, detail: "full" })).toMatchObject({ citationPolicy: "strict" });

    const overridden = await ok(apiKey, "create_research_plan", {
      template: { researchType: "general_topic", mode: "scan" },
      topic,
      researchQuestion: "Which heat pumps work below -20 C?",
      steps: [{ stepType: "search", instructions: "Only this step" }],
    });
    expect(overridden).toMatchObject({ totalSteps: 1, steps: [{ stepOrder: 1, stepType: "search" }] });
    const own = await context(overridden.planId);
    expect(own.plan).toMatchObject({ name: `[Scan] ${topic}`, researchQuestion: "Which heat pumps work below -20 C?" });

    const noTopic = await callTool(apiKey, "create_research_plan", { template: { researchType: "general_topic", mode: "scan" } });
    expect(noTopic.body).toMatchObject({ error: { code: "validation", issues: [{ path: "topic" }] } });
    const bare = await callTool(apiKey, "create_research_plan", { name: "[Scan] Missing parts" });
    expect(bare.body).toMatchObject({ error: { code: "validation", issues: [{ path: "researchQuestion" }, { path: "steps" }, { path: "planDesignRationale" }] } });
    const badTemplate = await callTool(apiKey, "create_research_plan", { template: { researchType: "gossip", mode: "scan" }, topic });
    expect(badTemplate.body).toMatchObject({ error: { code: "validation" } });
  });
});
