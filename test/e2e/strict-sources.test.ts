/**
 * A made-up quote does not pass strict citations, end to end: a deep plan on the real local server records two
 * sources on a real loopback page (one quoting it, one quoting words the page never says), Cairn fetches the page
 * itself, and a deliverable resting on the made-up quote is refused naming that source, while one resting on the
 * genuine quote is stored.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSourcePages } from "../support/source-pages.global";

const server = inject("server");

async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

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
    let verdicts: string[] = [];
    for (let i = 0; i < 180 && (verdicts.length < 3 || verdicts.includes("pending")); i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 500));
      const ledger = await call("GET", `/plans/${planId}/ledger`);
      verdicts = ((ledger.body.evidence ?? []) as { verification: string }[]).map((source) => source.verification);
    }
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
  });
});
