import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Env } from "../../src/env";
import { eraseOrg } from "../../src/platform/org-data/erase";
import { fetchPage } from "../../src/platform/sources/fetch-page";
import { createPlan, ok, sourceChecksSettled, steps } from "../support/plans";
import { callTool, seedTenant } from "../support/worker";
import { waitFor } from "../support/webhooks";

/**
 * Verified sources on workerd: record_evidence queues a check on Miniflare's real queue, the Worker's consumer
 * fetches the cited page from a real HTTP server on loopback (test/support/source-pages.global.ts; development
 * allows loopback, as for webhooks), keeps a snapshot in the local R2 bucket and writes the verdict on the row.
 */
const origin = inject("sourcePagesOrigin");
const page = (path: string) => `${origin}${path}`;

interface Verification {
  status: string;
  score?: number | null;
  passage?: string;
  reason?: string;
  titleMismatch?: boolean;
}
interface EvidenceOut {
  ref: string;
  verification: Verification;
}

async function deepPlan(key: string, citationPolicy: "strict" | "report" = "strict") {
  return createPlan(key, { name: "[Deep] Solid-state batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy });
}

const source = (url: string, quote: string | undefined, title = "Solid-state batteries reach 500 Wh/kg") => ({
  url,
  title,
  facts: `What ${url} says`,
  subtopic: "Density",
  ...(quote === undefined ? {} : { quote }),
});

/** The ledger's sources with their verification in full (the compact default listing keeps only what a step acts on). */
async function ledger(key: string, planId: string, ref?: string) {
  return (await ok(key, "get_evidence_ledger", { planId, limit: 50, ...(ref ? { ref } : { detail: "full" }) })) as { evidence: EvidenceOut[]; trust: string };
}

/** Waits until no listed source is pending, and returns the ledger's evidence. */
async function settled(key: string, planId: string): Promise<EvidenceOut[]> {
  return waitFor("the source checks", async () => {
    const { evidence } = await ledger(key, planId);
    return evidence.every((e) => e.verification.status !== "pending") ? evidence : null;
  });
}

const hits = async () => (await (await fetch(`${origin}/hits`)).json()) as { hits: Record<string, number>; userAgent: string };

describe("verified sources", () => {
  it("answers at once with the source pending, then verifies the quote against the page's visible text", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await deepPlan(apiKey);
    const quote = "solid-state cells reached 500 Wh/kg in the lab";
    await ok(apiKey, "record_evidence", { planId, evidence: [source(page("/article.html"), quote)] });
    const row = await env.DB.prepare("SELECT verification_status, verification_requested_at FROM ledger_evidence WHERE org_id = ? AND plan_id = ?")
      .bind(orgId, planId)
      .first<{ verification_status: string; verification_requested_at: number }>();
    // Recorded pending (the check runs after the answer); whatever the consumer has done since, it was requested now.
    expect(["pending", "verified"]).toContain(row?.verification_status);
    expect(row?.verification_requested_at).toBeGreaterThan(Date.now() - 60_000);

    const [e1] = await settled(apiKey, planId);
    expect(e1?.verification).toEqual({ status: "verified", score: 1 });
    const whole = await ledger(apiKey, planId, "E1");
    expect(whole.trust).toBe("untrusted-external-content");
    expect(whole.evidence[0]?.verification).toMatchObject({ status: "verified", score: 1, passage: quote.replace("solid-state", "solid-state") });
    expect((await hits()).userAgent).toMatch(/^Cairn-SourceCheck\/1 \(\+http:\/\/localhost:8787/);

    // The snapshot is in R2 under the org, addressed by the SHA-256 of its text.
    const stored = await env.DB.prepare("SELECT verification_snapshot AS sha FROM ledger_evidence WHERE org_id = ? AND plan_id = ?").bind(orgId, planId).first<{ sha: string }>();
    const object = await env.SOURCE_SNAPSHOTS.get(`orgs/${orgId}/snapshots/${stored?.sha}.json`);
    const snapshot = (await object?.json()) as Record<string, unknown>;
    expect(snapshot).toMatchObject({ url: page("/article.html"), finalUrl: page("/article.html"), status: 200, contentType: "text/html; charset=utf-8", title: "Solid-state batteries reach 500 Wh/kg | Lab News", sha256: stored?.sha, truncated: false });
    expect(typeof snapshot.fetchedAt).toBe("number");
    const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(String(snapshot.text))))].map((b) => b.toString(16).padStart(2, "0")).join("");
    expect(digest).toBe(stored?.sha);
  });

  it("reads only what a reader sees: scripts, styles, comments, templates, hidden, stylesheet-hidden and noscript text is not found", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "report");
    const unseen = [
      "the script says cells reached nine thousand Wh/kg",
      "styled words must stay unseen",
      "a comment says cells reached seven thousand Wh/kg",
      "Hidden text claims the cells reached eight thousand Wh/kg today",
      "Decorative text says cells reached six thousand Wh/kg",
      "Template text says cells reached five thousand Wh/kg",
      "Noscript text says cells reached four thousand Wh/kg",
    ];
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [
        ...unseen.map((quote, i) => ({ ...source(page(`/article.html?v=${i}`), quote), facts: `variant ${i}` })),
        source(page("/article.html?v=seen"), "Costs remain higher than lithium-ion cells & scaling production is still years away"),
      ],
    });
    const evidence = await settled(apiKey, planId);
    expect(evidence.slice(0, unseen.length).map((e) => e.verification.status)).toEqual(unseen.map(() => "not_found"));
    expect(evidence[unseen.length]?.verification.status).toBe("verified");
  });

  it("reads text, Markdown, JSON and a PDF's text layer; flags a title that does not match", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "report");
    const quote = "The survey covered 1,204 households in 2025.";
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [
        source(page("/plain.txt"), quote, "Plain text notes"),
        source(page("/notes.md"), quote, "Field notes"),
        source(page("/data.json"), quote, "Survey data"),
        source(page("/paper.pdf"), quote, "Survey paper"),
        source(page("/article.html?title"), "solid-state cells reached 500 Wh/kg in the lab", "Quarterly tax guidance for freelancers"),
        source(page("/blob"), quote, "Survey chart"),
      ],
    });
    const evidence = await settled(apiKey, planId);
    expect(evidence.map((e) => e.verification.status)).toEqual(["verified", "verified", "verified", "verified", "verified", "unchecked"]);
    expect(evidence[5]?.verification.reason).toBe("binary content without a content type");
    expect(evidence[4]?.verification.titleMismatch).toBe(true);
    expect(evidence[0]?.verification.titleMismatch).toBeUndefined();
  });

  it("reports a reworded quote as partial with the closest passage, and an absent one as not_found", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "report");
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [
        source(page("/article.html?p"), "the team said solid-state cells had reached 500 Wh/kg in lab tests, a record"),
        source(page("/article.html?n"), "sodium batteries now power most electric buses in Europe"),
      ],
    });
    const [partial, absent] = await settled(apiKey, planId);
    expect(partial?.verification.status).toBe("partial");
    expect(partial?.verification.passage).toContain("500 Wh/kg");
    expect(partial?.verification.score).toBeGreaterThan(0.5);
    expect(absent?.verification.status).toBe("not_found");
  });

  it("names why a page could not be read by its code: walled, dead, a redirect refused (to a private address), too many redirects", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "report");
    const quote = "solid-state cells reached 500 Wh/kg in the lab";
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [source(page("/forbidden"), quote), source(page("/gone"), quote), source(page("/to-private"), quote), source(page("/hop/6"), quote), source(page("/hop/4"), quote)],
    });
    const evidence = await settled(apiKey, planId);
    expect(evidence.map((e) => e.verification.status)).toEqual(["unreachable", "unreachable", "unreachable", "unreachable", "verified"]);
    expect(evidence[0]?.verification.reason).toBe("walled: HTTP 403 (a bot wall, paywall or rate limit)");
    expect(evidence[1]?.verification.reason).toBe("dead: HTTP 404 (the page does not exist)");
    expect(evidence[2]?.verification.reason).toBe("refused: a redirect was refused (private addresses are not allowed)");
    expect(evidence[3]?.verification.reason).toBe("http_error: more than 5 redirects");
  });

  it("reuses a fresh snapshot of the same URL instead of fetching it again", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "report");
    const before = (await hits()).hits["/counted.html"] ?? 0;
    await ok(apiKey, "record_evidence", { planId, evidence: [source(page("/counted.html"), "solid-state cells reached 500 Wh/kg in the lab")] });
    await settled(apiKey, planId);
    await ok(apiKey, "record_evidence", { planId, evidence: [{ ...source(page("/counted.html"), "Costs remain higher than lithium-ion cells"), facts: "second" }] });
    const evidence = await settled(apiKey, planId);
    expect(evidence.map((e) => e.verification.status)).toEqual(["verified", "verified"]);
    expect((await hits()).hits["/counted.html"]).toBe(before + 1);
  });

  it("bounds a fetch in time and in bytes", async () => {
    const development = { outbound: { allowLoopback: true }, allowedHosts: null, blockedDomains: [] };
    const slow = await fetchPage(page("/slow"), development, "test", { maxRedirects: 5, timeoutMs: 500, maxBytes: 1024 });
    expect(slow).toEqual({ ok: false, reason: "timeout: no complete answer within 0.5 s" });
    const huge = await fetchPage(page("/huge.txt"), development, "test", { maxRedirects: 5, timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 });
    expect(huge).toMatchObject({ ok: true, truncated: true });
    if (huge.ok) expect(huge.body.byteLength).toBe(2 * 1024 * 1024);
    // Production: loopback (and plain http) is refused before any request.
    expect(await fetchPage(page("/article.html"), { ...development, outbound: { allowLoopback: false } }, "test")).toEqual({ ok: false, reason: "refused: the address was refused (loopback addresses are not allowed)" });
  });

  it("refuses past the org's per-minute limit with rate_limited, and records nothing", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "report");
    // One page (fetched once, its snapshot reused), many sources: 300 a minute pass, the 301st is refused.
    const many = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ ...source(page("/article.html?many"), "solid-state cells reached 500 Wh/kg in the lab"), facts: `m${from + i}` }));
    for (let call = 0; call < 6; call++) await ok(apiKey, "record_evidence", { planId, evidence: many(call * 50, 50) });
    const refused = await callTool(apiKey, "record_evidence", { planId, evidence: many(300, 1) });
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject({ error: { code: "rate_limited", retryAfterSeconds: 60 } });
    expect(JSON.stringify(refused.body)).toMatch(/at most 300 sources a minute/);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_evidence WHERE org_id = ?").bind(orgId).first<{ n: number }>();
    expect(count?.n).toBe(300);
  });

  it("fetches only the hosts SOURCE_CHECK_HOSTS lists, where a deployment sets it", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "report");
    await ok(apiKey, "record_evidence", { planId, evidence: [source("https://example.org/a-page", "solid-state cells reached 500 Wh/kg in the lab")] });
    const [e1] = await settled(apiKey, planId);
    expect(e1?.verification).toEqual({ status: "unreachable", reason: "refused: the address was refused (this deployment fetches only from the hosts SOURCE_CHECK_HOSTS lists)" });
  });

  it("erasing an org deletes its snapshots, and only its own", async () => {
    const erased = await seedTenant();
    const kept = await seedTenant();
    for (const tenant of [erased, kept]) {
      const { planId } = await deepPlan(tenant.apiKey, "report");
      await ok(tenant.apiKey, "record_evidence", { planId, evidence: [source(page("/article.html?erase"), "solid-state cells reached 500 Wh/kg in the lab")] });
      await settled(tenant.apiKey, planId);
    }
    const under = async (orgId: string) => (await env.SOURCE_SNAPSHOTS.list({ prefix: `orgs/${orgId}/` })).objects.length;
    expect(await under(erased.orgId)).toBe(2); // the snapshot and the URL's pointer to it
    await eraseOrg(env as unknown as Env, erased.orgId);
    expect(await under(erased.orgId)).toBe(0);
    expect(await under(kept.orgId)).toBe(2);
  });

  describe("citation integrity under a strict policy", () => {
    const quote = "solid-state cells reached 500 Wh/kg in the lab";
    /** E1 verified, E2 not_found, E3 partial, E4 dead (404), E5 walled (403); C1…C5 each rest on one of them, all SUPPORTED. */
    async function checkedLedger(key: string, planId: string) {
      await ok(key, "record_evidence", {
        planId,
        evidence: [
          source(page("/article.html?s1"), quote),
          source(page("/article.html?s2"), "sodium batteries now power most electric buses in Europe"),
          source(page("/article.html?s3"), "the team said solid-state cells had reached 500 Wh/kg in lab tests, a record"),
          source(page("/gone?s4"), quote),
          source(page("/forbidden?s5"), quote),
        ],
      });
      await ok(key, "record_claims", {
        planId,
        claims: [1, 2, 3, 4, 5].map((n) => ({ subtopic: "Density", text: `Claim number ${n} about density`, evidenceRefs: [`E${n}`] })),
      });
      await ok(key, "record_verdicts", {
        planId,
        verdicts: [1, 2, 3, 4, 5].map((n) => ({ claim: `C${n}`, kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" })),
      });
    }
    const store = (key: string, planId: string, content: string) => callTool(key, "store_research_output", { planId, title: "Report", mediaType: "markdown", content });

    it("refuses a paragraph or claim resting only on sources whose quote was not found or only partly found, naming each E#", async () => {
      const { apiKey } = await seedTenant();
      const { planId } = await deepPlan(apiKey);
      await checkedLedger(apiKey, planId);
      await settled(apiKey, planId);

      const refused = await store(apiKey, planId, "Cells reached 500 Wh/kg [E1].\n\nSodium batteries power buses [E2].\n\nA record for the chemistry [E3].");
      expect(refused.body).toMatchObject({ error: { code: "validation" } });
      const message = String((refused.body.error as { message: string }).message);
      expect(message).toContain('paragraph 2 ("Sodium batteries power buses [E2].") on E2 (not_found');
      expect(message).toMatch(/paragraph 3 \("A record for the chemistry \[E3\]\."\) on E3 \(partial, score 0\.\d+\)/);
      expect(message).not.toContain("paragraph 1");

      const viaClaim = await store(apiKey, planId, "Cells reached 500 Wh/kg [E1].\n\nAs found before [C2].");
      expect(String((viaClaim.body.error as { message: string }).message)).toContain("claim C2 on E2 (not_found");

      // A page that does not exist (404) fails like a quote not found: named with its status and reason.
      const dead = await store(apiKey, planId, "Cells reached 500 Wh/kg [E1].\n\nMore on density [E4].");
      expect(String((dead.body.error as { message: string }).message)).toMatch(/paragraph 2 \("More on density \[E4\]\."\) on E4 \(unreachable: dead: HTTP 404/);

      // A verified source beside a failed one carries the paragraph (its claim grounded elsewhere: C1 cites both);
      // a walled page (403) may be live: it passes and is named.
      await ok(apiKey, "record_claims", { planId, claims: [{ subtopic: "Density", text: "Cells reached 500 Wh/kg, a record", evidenceRefs: ["E1", "E3"] }] });
      await ok(apiKey, "record_verdicts", { planId, verdicts: [{ claim: "C6", kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" }] });
      const stored = await ok(apiKey, "store_research_output", { planId, title: "Report", mediaType: "markdown", content: "Cells reached 500 Wh/kg [E1, E3].\n\nMore on density [E5]." });
      expect(stored.verification).toMatchObject({
        passed: true,
        sources: {
          notVerified: [{ ref: "E3", status: "partial" }],
          unchecked: [{ ref: "E5", status: "unreachable", reason: "walled: HTTP 403 (a bot wall, paywall or rate limit)" }],
          trust: "untrusted-external-content",
        },
      });
      // An acknowledgement names only what the caller must act on: no empty lists.
      expect(Object.keys((stored.verification as { sources: object }).sources).sort()).toEqual(["notVerified", "trust", "unchecked"]);
      const partial = (stored.verification as { sources: { notVerified: { passage: string }[] } }).sources.notVerified[0];
      expect(partial?.passage).toContain("500 Wh/kg");
    });

    it("refuses, retryably, a deliverable citing a source still being checked: never a silent pass", async () => {
      const { apiKey } = await seedTenant();
      const { planId } = await deepPlan(apiKey);
      await ok(apiKey, "record_evidence", { planId, evidence: [source(page("/slow?pending"), quote)] });
      await ok(apiKey, "record_claims", { planId, claims: [{ subtopic: "Density", text: "Cells reached 500 Wh/kg", evidenceRefs: ["E1"] }] });
      await ok(apiKey, "record_verdicts", { planId, verdicts: [{ claim: "C1", kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" }] });
      const waiting = await store(apiKey, planId, "Cells reached 500 Wh/kg [E1].");
      expect(waiting.body).toMatchObject({ error: { code: "sources_pending", retryAfterSeconds: 30 } });
      expect((waiting.body.error as { message: string }).message).toMatch(/still checking source E1 .* store it again in 30 s/);
      // Over REST: 409 with Retry-After.
      const { rest } = await import("../support/worker");
      const overRest = await rest(apiKey, "/outputs", { method: "POST", body: JSON.stringify({ planId, title: "Report", mediaType: "markdown", content: "Cells reached 500 Wh/kg [E1]." }) });
      expect(overRest.status).toBe(409);
      expect(overRest.headers.get("retry-after")).toBe("30");
      // Under the report policy the same deliverable is stored, the source named as pending.
      const { planId: reportPlan } = await deepPlan(apiKey, "report");
      await ok(apiKey, "record_evidence", { planId: reportPlan, evidence: [source(page("/slow?pending-report"), quote)] });
      const stored = await ok(apiKey, "store_research_output", { planId: reportPlan, title: "Draft", mediaType: "markdown", content: "Cells reached 500 Wh/kg [E1]." });
      expect(stored.verification).toMatchObject({ sources: { pending: ["E1"] } });
    });
  });
});

describe("grounded claims and their sources' checks", () => {
  it("flags a reused claim whose source fails its check in the new plan, and stops calling it grounded there", async () => {
    const { apiKey } = await seedTenant();
    const name = `reuse-${crypto.randomUUID().slice(0, 8)}`;
    const control = (init: RequestInit) => fetch(`${origin}/control/changing/${name}`, init).then((r) => expect(r.status).toBe(204));
    // The original plan reads the page walled (403): it may be live, so its claim is grounded there.
    await control({ method: "PUT", body: JSON.stringify({ status: 403, type: "text/html", body: "<p>Are you a robot?</p>" }) });
    const original = await deepPlan(apiKey);
    await ok(apiKey, "record_evidence", { planId: original.planId, evidence: [source(page(`/changing/${name}`), "solid-state cells reached 500 Wh/kg in the lab")] });
    // The queue is shared with the file's earlier tests, whose checks may still be ahead of these on a loaded machine.
    await sourceChecksSettled(apiKey, original.planId, 90_000);
    await ok(apiKey, "record_claims", { planId: original.planId, claims: [{ subtopic: "Density", text: "Walled cells reached 500 Wh/kg", evidenceRefs: ["E1"] }] });
    const judged = await ok(apiKey, "record_verdicts", { planId: original.planId, verdicts: [{ claim: "C1", kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" }] });
    expect(judged.claims).toEqual([{ ref: "C1", status: "SUPPORTED", grounded: true, finalConfidence: null }]);
    const claimId = ((await ok(apiKey, "get_evidence_ledger", { planId: original.planId, ref: "C1" })).claims as { claimId: string }[])[0]?.claimId;

    // Then the page is gone (404): the copy's source, checked again in the new plan, is dead.
    await control({ method: "PUT", body: JSON.stringify({ status: 404, type: "text/html", body: "<p>Not here</p>" }) });
    const target = await deepPlan(apiKey);
    const reused = await ok(apiKey, "record_claims", { planId: target.planId, reuse: [{ claimId }] });
    expect(reused.claims).toMatchObject([{ ref: "C1", needsReverification: false }]);
    await sourceChecksSettled(apiKey, target.planId, 90_000);
    const copy = ((await ok(apiKey, "get_evidence_ledger", { planId: target.planId, ref: "C1" })).claims as { grounded: boolean; needsReverification: boolean }[])[0];
    expect(copy).toMatchObject({ grounded: false, needsReverification: true });
    const compact = ((await ok(apiKey, "get_evidence_ledger", { planId: target.planId })).claims as Record<string, unknown>[])[0];
    expect(compact).toMatchObject({ needsReverification: true });
    expect(compact).not.toHaveProperty("grounded");
    // get_research_context counts it among the claims, not the grounded ones, and lists the dead source.
    const context = (await ok(apiKey, "get_research_context", { planId: target.planId })) as { sources: { claims: unknown; needWork: { ref: string; status: string; reason?: string }[] } };
    expect(context.sources.claims).toEqual({ total: 1, grounded: 0 });
    expect(context.sources.needWork).toMatchObject([{ ref: "E1", status: "unreachable", reason: expect.stringMatching(/404/) }]);
    await control({ method: "DELETE" });
  });
});

describe("resuming a plan: where its sources stand", () => {
  it("get_research_context counts the sources by check status and lists those that cannot carry a paragraph, first page only", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await deepPlan(apiKey, "report");
    const before = (await ok(apiKey, "get_research_context", { planId })) as { sources?: unknown };
    expect(before.sources).toBeUndefined();
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [
        source(page("/article.html?ctx=1"), "solid-state cells reached 500 Wh/kg in the lab"),
        source(page("/article.html?ctx=2"), "solid-state cells reached 900 Wh/kg in the lab"),
        source(page("/article.html?ctx=3"), "every new car sold in Europe will carry these cells by 2027"),
      ],
    });
    // The queue is shared with the file's earlier tests, whose checks may still be ahead of these on a loaded machine.
    await sourceChecksSettled(apiKey, planId, 90_000);
    const context = (await ok(apiKey, "get_research_context", { planId })) as {
      sources: { counts: Record<string, number>; needWork: { ref: string; status: string; score?: number; closest?: string }[]; trust?: string };
    };
    expect(context.sources.counts).toEqual({ verified: 1, partial: 1, not_found: 1 });
    expect(context.sources.needWork.map(({ ref, status }) => ({ ref, status }))).toEqual([
      { ref: "E2", status: "partial" },
      { ref: "E3", status: "not_found" },
    ]);
    // The closest passage is the page's own words, to quote exactly instead; page text carries the trust marker.
    expect(context.sources.needWork[0]?.closest).toContain("500 Wh/kg in the lab");
    expect(context.sources.trust).toBe("untrusted-external-content");
    const second = (await ok(apiKey, "get_research_context", { planId, cursor: "1" })) as { sources?: unknown };
    expect(second.sources).toBeUndefined();
  }, 120_000);
});
