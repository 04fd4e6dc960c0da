import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Env } from "../../src/env";
import { invoke } from "../../src/operations/invoke";
import type { OperationContext } from "../../src/operations/operation";
import { findOperation } from "../../src/operations/registry";
import { eraseOrg } from "../../src/platform/org-data/erase";
import { webServices } from "../../src/platform/runtime";
import { hookedD1 } from "../support/d1-hooks";
import { createPlan, ok, steps } from "../support/plans";
import { waitFor } from "../support/webhooks";
import { callTool, seedTenant } from "../support/worker";

/**
 * Text the assistant read (sourceText) for pages Cairn cannot reach, on workerd with the real queue, R2 and the
 * loopback page fixtures (test/support/source-pages.global.ts): Cairn still fetches first and its own reading
 * decides; only a page it could not read is judged on the assistant's text, and the verdict says so.
 */
const origin = inject("sourcePagesOrigin");
const page = (path: string) => `${origin}${path}`;
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";
const PAYWALLED_TEXT = `Subscribers only.\n\nIn March, the team reported that ${QUOTE}, a record for the chemistry.`;

interface Verification {
  status: string;
  reason?: string;
  basis?: string;
  passage?: string;
  snapshot?: string;
}

const source = (url: string, extra: Record<string, unknown> = {}) => ({
  url,
  title: "Solid-state batteries reach 500 Wh/kg",
  facts: `What ${url} says`,
  subtopic: "Density",
  quote: QUOTE,
  ...extra,
});

async function fullLedger(key: string, planId: string) {
  return (await ok(key, "get_evidence_ledger", { planId, limit: 50, detail: "full" })) as {
    evidence: { ref: string; verification: Verification }[];
    claims: Record<string, unknown>[];
  };
}

async function settled(key: string, planId: string) {
  return waitFor("the source checks", async () => {
    const { evidence } = await fullLedger(key, planId);
    return evidence.every((e) => e.verification.status !== "pending") ? evidence : null;
  });
}

const clientTexts = async (orgId: string) => (await env.SOURCE_SNAPSHOTS.list({ prefix: `orgs/${orgId}/client-texts/` })).objects;

describe("text the assistant read, for pages Cairn cannot reach", () => {
  it("checks the quote against the assistant's text only where Cairn's fetch was blocked, and says so (basis client_text)", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Paywalls", steps: steps("search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [
        // A bot wall (403), the quote in the text the assistant read.
        source(page("/forbidden?with-quote"), { sourceText: PAYWALLED_TEXT }),
        // A bot wall, the quote not in the assistant's text.
        source(page("/forbidden?without-quote"), { sourceText: "Subscribers only. Nothing about cells here, only a login form." }),
        // Cairn reads this page and the quote is not on it: its own reading wins, whatever the assistant's text says.
        source(page("/article.html?own-reading"), { quote: "sodium batteries now power most electric buses in Europe", sourceText: "sodium batteries now power most electric buses in Europe" }),
        // A bot wall and no text sent: unreachable, as before.
        source(page("/forbidden?no-text")),
        // A page that is not there (404, as a made-up URL would be): the assistant's text verifies nothing.
        source(page("/gone?made-up"), { sourceText: PAYWALLED_TEXT }),
      ],
    });
    const [blocked, absent, ownReading, plain, missing] = await settled(apiKey, planId);
    expect(blocked?.verification).toMatchObject({ status: "verified", basis: "client_text" });
    expect(absent?.verification).toMatchObject({ status: "not_found", basis: "client_text" });
    // A read of the one source gives the passage located in the assistant's text and the reason saying whose text it was.
    const whole = async (ref: string) => ((await ok(apiKey, "get_evidence_ledger", { planId, ref })) as { evidence: { verification: Verification }[] }).evidence[0]?.verification;
    expect(await whole("E1")).toMatchObject({ status: "verified", basis: "client_text", passage: QUOTE });
    expect((await whole("E1"))?.reason).toMatch(/^checked against text the assistant supplied, not a page Cairn read \(Cairn's fetch: walled: HTTP 403 \(a bot wall, paywall or rate limit\)\)/);
    expect((await whole("E2"))?.reason).toMatch(/^checked against text the assistant supplied/);
    expect(ownReading?.verification.status).toBe("not_found");
    expect(ownReading?.verification.basis).toBeUndefined(); // a listing names the basis only where it is the assistant's text
    expect(plain?.verification).toMatchObject({ status: "unreachable" });
    expect(plain?.verification.basis).toBeUndefined();
    expect(missing?.verification).toMatchObject({ status: "unreachable", reason: "dead: HTTP 404 (the page does not exist)" });
    expect(missing?.verification.basis).toBeUndefined();

    // A read of the one source names the basis either way; the compact listing only where it is client_text.
    const one = (await ok(apiKey, "get_evidence_ledger", { planId, ref: "E3" })) as { evidence: { verification: Verification }[] };
    expect(one.evidence[0]?.verification.basis).toBe("fetched");
    const compact = (await ok(apiKey, "get_evidence_ledger", { planId })) as { evidence: Record<string, unknown>[] };
    expect(compact.evidence.map((e) => e.basis)).toEqual(["client_text", "client_text", undefined, undefined, undefined]);

    // The texts are kept under the org, addressed by their SHA-256 (the same text once); the row names it, not Cairn's snapshot.
    expect(await clientTexts(orgId)).toHaveLength(3);
    const row = await env.DB.prepare("SELECT client_text_sha256, verification_snapshot, verification_basis FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = 1")
      .bind(orgId, planId)
      .first<{ client_text_sha256: string; verification_snapshot: string | null; verification_basis: string }>();
    expect(row).toMatchObject({ verification_snapshot: null, verification_basis: "client_text" });
    expect(await (await env.SOURCE_SNAPSHOTS.get(`orgs/${orgId}/client-texts/${row?.client_text_sha256}.txt`))?.text()).toBe(PAYWALLED_TEXT);
  });

  it("checks a source again when it is recorded again with the text the assistant read after it came back unreachable", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Paywalls", steps: steps("search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_evidence", { planId, evidence: [source(page("/forbidden?later"))] });
    expect((await settled(apiKey, planId))[0]?.verification.status).toBe("unreachable");
    const again = await ok(apiKey, "record_evidence", { planId, evidence: [source(page("/forbidden?later"), { sourceText: PAYWALLED_TEXT })] });
    expect(again.evidence).toEqual([{ ref: "E1", duplicate: true }]);
    const [e1] = await settled(apiKey, planId);
    expect(e1?.verification).toMatchObject({ status: "verified", basis: "client_text" });
  });

  it("carries the assistant's text with a reused claim's source, so the copy is judged on it as the original was", async () => {
    const { apiKey } = await seedTenant();
    const first = await createPlan(apiKey, { name: "[Deep] Paywalls", steps: steps("search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_evidence", { planId: first.planId, evidence: [source(page("/forbidden?reused"), { sourceText: PAYWALLED_TEXT })] });
    await settled(apiKey, first.planId);
    const recorded = (await ok(apiKey, "record_claims", { planId: first.planId, claims: [{ subtopic: "Density", text: "Cells reached 500 Wh/kg in the lab", evidenceRefs: ["E1"] }] })) as {
      claims: { claimId: string }[];
    };
    await ok(apiKey, "record_verdicts", { planId: first.planId, verdicts: [{ claim: "C1", kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" }] });
    const second = await createPlan(apiKey, { name: "[Deep] Paywalls again", steps: steps("search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_claims", { planId: second.planId, reuse: [{ claimId: recorded.claims[0]?.claimId }] });
    const [copy] = await settled(apiKey, second.planId);
    expect(copy?.verification).toMatchObject({ status: "verified", basis: "client_text" });
  });

  it("refuses a sourceText over 100,000 characters with a clear error, and stores nothing", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Paywalls", steps: steps("search", "synthesize"), citationPolicy: "report" });
    const refused = await callTool(apiKey, "record_evidence", { planId, evidence: [source(page("/forbidden?huge"), { sourceText: "x".repeat(100_001) })] });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.body)).toContain("sourceText is at most 100,000 characters");
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_evidence WHERE org_id = ?").bind(orgId).first<{ n: number }>();
    expect(rows?.n).toBe(0);
    expect(await clientTexts(orgId)).toHaveLength(0);
    // At the bound it is taken.
    await ok(apiKey, "record_evidence", { planId, evidence: [source(page("/forbidden?at-bound"), { sourceText: `${PAYWALLED_TEXT} ${"y".repeat(100_000 - PAYWALLED_TEXT.length - 1)}` })] });
    expect(await clientTexts(orgId)).toHaveLength(1);
  });

  it("erasing the org leaves nothing of the texts its assistants sent, and another org's stay", async () => {
    const erased = await seedTenant();
    const kept = await seedTenant();
    for (const tenant of [erased, kept]) {
      const { planId } = await createPlan(tenant.apiKey, { name: "[Deep] Paywalls", steps: steps("search", "synthesize"), citationPolicy: "report" });
      await ok(tenant.apiKey, "record_evidence", { planId, evidence: [source(page("/forbidden?erase"), { sourceText: PAYWALLED_TEXT })] });
      await settled(tenant.apiKey, planId);
    }
    expect(await clientTexts(erased.orgId)).toHaveLength(1);
    await eraseOrg(env as unknown as Env, erased.orgId);
    expect((await env.SOURCE_SNAPSHOTS.list({ prefix: `orgs/${erased.orgId}/` })).objects).toHaveLength(0);
    expect(await clientTexts(kept.orgId)).toHaveLength(1);
  });

  it("a call admitted before its org's erasure began, landing after, leaves none of its text behind", async () => {
    const { apiKey, orgId, admin } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Paywalls", steps: steps("search", "synthesize"), citationPolicy: "report" });
    // The erasure runs whole after the call's last check, before it stores the text: the text lands in a bucket
    // already emptied, and the ledger's write that follows is refused by the database.
    let erased = false;
    const racing = hookedD1(env.DB, {
      after: async (sql) => {
        if (!erased && sql.includes("SUM(verification_requested_at >= ?)")) {
          erased = true;
          await eraseOrg(env as unknown as Env, orgId);
        }
      },
    });
    const { services, origin, now } = await webServices({ ...(env as unknown as Env), DB: racing }, orgId);
    const context: OperationContext = { principal: { orgId, userId: admin.userId, role: "admin", scopes: ["research:read", "research:write"] }, services, correlationId: crypto.randomUUID(), origin, now };
    const operation = findOperation("record_evidence");
    if (!operation) throw new Error("no record_evidence");
    const result = await invoke(operation, { planId, evidence: [source(page("/forbidden?late"), { sourceText: PAYWALLED_TEXT })] }, context, "rest", () => {});
    expect(erased).toBe(true);
    expect(result.ok ? "written" : result.error.code).toBe("org_erasing");
    expect((await env.SOURCE_SNAPSHOTS.list({ prefix: `orgs/${orgId}/` })).objects).toHaveLength(0);
  });
});

describe("what a claim's sources say about it", () => {
  it("counts syndicated copies once, flags numbers no quote states, and names both in a strict report without refusing", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Density", steps: steps("search", "synthesize"), citationPolicy: "strict" });
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [
        source(page("/article.html?wire")),
        // The same paragraph on another site: located passage the same text.
        source(page("/syndicated.html"), { title: "Batteries: a record" }),
        source(page("/plain.txt"), { title: "Plain text notes", quote: "the survey covered 1,204 households in 2025" }),
        source(page("/forbidden?paywalled"), { sourceText: PAYWALLED_TEXT }),
      ],
    });
    await settled(apiKey, planId);
    await ok(apiKey, "record_claims", {
      planId,
      claims: [
        { subtopic: "Density", text: "Solid-state cells reached 500 Wh/kg in the lab", evidenceRefs: ["E1", "E2", "E3"] },
        { subtopic: "Density", text: "Solid-state cells reached 550 Wh/kg in 2024", evidenceRefs: ["E1"] },
        { subtopic: "Density", text: "A paywalled report says cells reached 500 Wh/kg", evidenceRefs: ["E4"] },
      ],
    });
    await ok(apiKey, "record_verdicts", {
      planId,
      verdicts: [1, 2, 3].map((n) => ({ claim: `C${n}`, kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" })),
    });

    const compact = (await ok(apiKey, "get_evidence_ledger", { planId })) as { claims: Record<string, unknown>[] };
    // Three sources cited, two independent: E1 and E2 are one text.
    expect(compact.claims[0]).toMatchObject({ ref: "C1", independentSources: 2 });
    expect(compact.claims[0]?.numbersNotInQuotes).toBeUndefined();
    expect(compact.claims[1]).toMatchObject({ ref: "C2", numbersNotInQuotes: ["550", "2024"] });
    expect(compact.claims[1]?.independentSources).toBeUndefined(); // compact: only when copies make it fewer
    const full = await fullLedger(apiKey, planId);
    expect(full.claims[0]).toMatchObject({ independentSources: 2, sameText: [["E1", "E2"]] });
    expect(full.claims[2]).toMatchObject({ independentSources: 1 });

    const stored = await ok(apiKey, "store_research_output", {
      planId,
      title: "Report",
      mediaType: "markdown",
      content: "Cells reached 500 Wh/kg [E1] [C1].\n\nA later figure [E1] [C2].\n\nBehind a paywall [E4].",
    });
    expect(stored.verification).toMatchObject({
      passed: true,
      numbersNotInQuotes: [{ claim: "C2", numbers: ["550", "2024"] }],
      sources: { clientText: ["E4"] },
    });
  });
});
