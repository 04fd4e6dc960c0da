/**
 * A made-up quote does not pass strict citations, end to end: a deep plan on the real local server records two
 * sources on a real loopback page (one quoting it, one quoting words the page never says), Cairn fetches the page
 * itself, and a deliverable resting on the made-up quote is refused naming that source, while one resting on the
 * genuine quote is stored. The same holds for a made-up URL (a 404 page), a claim resting only on a made-up quote is not
 * grounded (nor offered for reuse), and a [title](url) link to a source cites it as its [E#] does.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { restCaller, settledVerdicts } from "../support/e2e-rest";
import { startSourcePages } from "../support/source-pages.global";

const server = inject("server");

const call = restCaller(server);

let pages: Awaited<ReturnType<typeof startSourcePages>>;
beforeAll(async () => {
  pages = await startSourcePages();
});
afterAll(async () => {
  await pages?.close();
});

describe("strict citations against what the cited pages say", () => {
  it("refuses a deliverable resting on a made-up quote, naming the source; the genuine quote is stored", async () => {
    const created = await call("POST", "/plans", {
      name: "[Deep] Solid-state battery density",
      researchQuestion: "How dense are solid-state cells today?",
      steps: [{ stepType: "search", instructions: "Find the figures" }, { stepType: "synthesize", instructions: "Write the answer" }],
      planDesignRationale: "Find, then write",
      citationPolicy: "strict",
    });
    expect(created.status).toBe(201);
    const planId = created.body.planId as string;
    // Both sources cite the same real page; the second quote is invented (the page says 500 Wh/kg, in the lab).
    const article = `${pages.origin}/article.html?strict=${crypto.randomUUID().slice(0, 8)}`;
    const recorded = await call("POST", `/plans/${planId}/evidence`, {
      evidence: [
        { url: article, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg in the lab", subtopic: "Density", quote: "solid-state cells reached 500 Wh/kg in the lab" },
        // One number changed: the page has a close passage (partial), never the quote.
        { url: `${article}&altered`, title: "Solid-state batteries reach 500 Wh/kg", facts: "900 Wh/kg in the lab", subtopic: "Density", quote: "solid-state cells reached 900 Wh/kg in the lab" },
        // Made up: nothing on the page comes close.
        { url: `${article}&invented`, title: "Solid-state batteries reach 500 Wh/kg", facts: "Every car by 2027", subtopic: "Density", quote: "every new car sold in Europe will carry these cells by 2027" },
      ],
    });
    expect(recorded.status).toBe(201);

    // Cairn checks each source itself, off the call path; the deep skill waits for the verdicts.
    const verdicts = await settledVerdicts(call, planId, 3, 90);
    expect(verdicts).toEqual(["verified", "partial", "not_found"]);
    // Each source carries a claim a reviewer found SUPPORTED, so the citation check's other rules all pass: what
    // refuses a deliverable below is only what the pages say.
    const claims = await call("POST", `/plans/${planId}/claims`, {
      claims: [1, 2, 3].map((n) => ({ subtopic: "Density", text: `Solid-state density finding ${n}`, evidenceRefs: [`E${n}`] })),
    });
    expect(claims.status).toBe(201);
    const judged = await call("POST", `/plans/${planId}/verdicts`, {
      verdicts: [1, 2, 3].map((n) => ({ claim: `C${n}`, kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" })),
    });
    expect(judged.status).toBe(201);

    for (const [ref, status] of [["E2", "partial"], ["E3", "not_found"]] as const) {
      const refused = await call("POST", "/outputs", { planId, title: "Density", mediaType: "markdown", content: `Solid-state cells reach new records [${ref}].` });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      const problem = JSON.stringify(refused.body);
      expect(problem).toContain("Rests only on sources whose quoted words Cairn did not find on the page");
      expect(problem).toContain(`${ref} (${status}`);
      expect(problem).not.toContain("E1 (");
    }
    // Nothing was stored.
    const listed = await call("GET", `/outputs?planId=${planId}`);
    expect(listed.body.outputs).toEqual([]);

    const genuine = await call("POST", "/outputs", { planId, title: "Density", mediaType: "markdown", content: "Solid-state cells reached 500 Wh/kg in the lab [E1]." });
    expect(genuine.status, JSON.stringify(genuine.body)).toBe(201);

    // The deep protocol's own style: a [title](url) link to the ledger's source cites it as [E1] does, alone or mixed.
    const linked = await call("POST", "/outputs", {
      planId,
      title: "Density, linked",
      mediaType: "markdown",
      content: `Solid-state cells reached 500 Wh/kg in the lab ([Lab News](${article})).\n\nA record for the chemistry [E1].`,
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect(linked.body.verification).toMatchObject({ policy: "strict", passed: true, citedRefs: ["E1"] });
    // A link to a page that is not a source cites nothing, and is refused.
    const elsewhere = await call("POST", "/outputs", {
      planId,
      title: "Density, elsewhere",
      mediaType: "markdown",
      content: `Solid-state cells reached 500 Wh/kg in the lab ([a blog](${pages.origin}/article.html?not-a-source)).\n\nA record for the chemistry [E1].`,
    });
    expect(elsewhere.status).toBe(400);
    expect(JSON.stringify(elsewhere.body)).toContain("not sources in the plan's evidence ledger");
    expect(JSON.stringify(elsewhere.body)).toContain('paragraph 1 (\\"Solid-state cells reached 500 Wh/kg in the lab');

    // Grounded needs a source whose check holds: C3 (its only source not_found) is SUPPORTED but not grounded,
    // is not offered by ChatGPT search, and cannot be reused.
    const full = await call("GET", `/plans/${planId}/ledger?detail=full`);
    const claimsOf = full.body.claims as { ref: string; claimId: string; status: string; grounded: boolean }[];
    expect(claimsOf.map((c) => [c.ref, c.status, c.grounded])).toEqual([
      ["C1", "SUPPORTED", true],
      ["C2", "SUPPORTED", false],
      ["C3", "SUPPORTED", false],
    ]);
    const [c1, , c3] = claimsOf;
    const searched = await call("GET", `/chatgpt/search?query=${encodeURIComponent("solid-state density finding")}`);
    const offered = (searched.body.results as { id: string }[]).map((hit) => hit.id);
    expect(offered).toContain(c1?.claimId);
    expect(offered).not.toContain(c3?.claimId);
    const fetched = await call("GET", `/chatgpt/fetch/${c3?.claimId}`);
    expect(fetched.body.metadata).toMatchObject({ kind: "claim", status: "SUPPORTED", grounded: "false" });

    const other = await call("POST", "/plans", {
      name: "[Deep] Solid-state battery density, again",
      researchQuestion: "How dense are solid-state cells now?",
      steps: [{ stepType: "search", instructions: "Find the figures" }, { stepType: "synthesize", instructions: "Write the answer" }],
      planDesignRationale: "Find, then write",
      citationPolicy: "strict",
    });
    const otherId = other.body.planId as string;
    expect((await call("POST", `/plans/${otherId}/evidence`, { evidence: [{ url: `${article}&other`, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg", subtopic: "Density", quote: "solid-state cells reached 500 Wh/kg in the lab" }] })).status).toBe(201);
    const reuse = await call("POST", `/plans/${otherId}/claims`, { reuse: [{ claimId: c3?.claimId }] });
    expect(reuse.status).toBe(400);
    expect(JSON.stringify(reuse.body)).toContain("C3 of its plan is not grounded: every source it cites failed Cairn's check (E3 (not_found))");
    // Nothing changed: the other plan's ledger has no claim, and only its own source.
    const untouched = await call("GET", `/plans/${otherId}/ledger`);
    expect(untouched.body.claims).toEqual([]);
    expect((untouched.body.evidence as unknown[]).length).toBe(1);
    // The grounded one is reused.
    const reused = await call("POST", `/plans/${otherId}/claims`, { reuse: [{ claimId: c1?.claimId }] });
    expect(reused.status, JSON.stringify(reused.body)).toBe(201);
  });

  it("refuses a paragraph whose only source is a dead URL (404), naming it; a walled page (403) passes and is named", async () => {
    const created = await call("POST", "/plans", {
      name: "[Deep] Sodium-ion buses",
      researchQuestion: "Do sodium-ion batteries power buses?",
      steps: [{ stepType: "search", instructions: "Find the figures" }, { stepType: "synthesize", instructions: "Write the answer" }],
      planDesignRationale: "Find, then write",
      citationPolicy: "strict",
    });
    const planId = created.body.planId as string;
    const run = crypto.randomUUID().slice(0, 8);
    const quote = "solid-state cells reached 500 Wh/kg in the lab";
    // A made-up URL: the page does not exist. A walled page: the server refuses robots, but the page may be live.
    const recorded = await call("POST", `/plans/${planId}/evidence`, {
      evidence: [
        { url: `${pages.origin}/gone?made-up=${run}`, title: "Sodium buses report", facts: "Buses", subtopic: "Buses", quote },
        { url: `${pages.origin}/forbidden?walled=${run}`, title: "Sodium buses report", facts: "Buses", subtopic: "Buses", quote },
      ],
    });
    expect(recorded.status).toBe(201);
    expect(await settledVerdicts(call, planId, 2)).toEqual(["unreachable", "unreachable"]);
    await call("POST", `/plans/${planId}/claims`, { claims: [1, 2].map((n) => ({ subtopic: "Buses", text: `Sodium bus finding ${n}`, evidenceRefs: [`E${n}`] })) });
    await call("POST", `/plans/${planId}/verdicts`, { verdicts: [1, 2].map((n) => ({ claim: `C${n}`, kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" })) });

    const dead = await call("POST", "/outputs", { planId, title: "Buses", mediaType: "markdown", content: "Sodium-ion batteries power most buses [E1]." });
    expect(dead.status).toBe(400);
    const problem = JSON.stringify(dead.body);
    expect(problem).toMatch(/paragraph 1 \(\\"Sodium-ion batteries power most buses \[E1\]\.\\"\) on E1 \(unreachable: dead: HTTP 404/);
    expect(problem).not.toContain("E2 (");
    expect((await call("GET", `/outputs?planId=${planId}`)).body.outputs).toEqual([]);

    const walled = await call("POST", "/outputs", { planId, title: "Buses", mediaType: "markdown", content: "Sodium-ion batteries power most buses [E2]." });
    expect(walled.status, JSON.stringify(walled.body)).toBe(201);
    expect(walled.body.verification).toMatchObject({
      passed: true,
      sources: { unchecked: [{ ref: "E2", status: "unreachable", reason: expect.stringMatching(/^walled: HTTP 403/) }] },
    });
    // Under the report policy the dead source is stored, listed as dead in its own field.
    const report = await call("POST", "/plans", {
      name: "[Deep] Sodium-ion buses (draft)",
      researchQuestion: "Do sodium-ion batteries power buses?",
      steps: [{ stepType: "synthesize", instructions: "Write the answer" }],
      planDesignRationale: "Write",
      citationPolicy: "report",
    });
    const reportId = report.body.planId as string;
    await call("POST", `/plans/${reportId}/evidence`, { evidence: [{ url: `${pages.origin}/gone?made-up=${run}`, title: "Sodium buses report", facts: "Buses", subtopic: "Buses", quote }] });
    expect(await settledVerdicts(call, reportId, 1)).toEqual(["unreachable"]);
    const draft = await call("POST", "/outputs", { planId: reportId, title: "Buses", mediaType: "markdown", content: "Sodium-ion batteries power most buses [E1]." });
    expect(draft.status).toBe(201);
    expect(draft.body.verification).toMatchObject({ passed: false, sources: { dead: [{ ref: "E1", status: "unreachable", reason: expect.stringMatching(/404/) }] } });
  });
});
