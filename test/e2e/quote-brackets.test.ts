/**
 * A quote's brackets, end to end: on the real local server, an assistant records two quotes of a real loopback
 * page that says "she said exports had grown". Cairn fetches the page itself; a bracket standing for the page's
 * "she" (`[the minister]`) is verified with the bracket and the words it stands for shown beside the passage, and a
 * bracket adding a negation (`[not]`) is not verified: partial, with the page's own passage.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { restCaller, settledVerdicts } from "../support/e2e-rest";

const server = inject("server");

const PAGE = `<!doctype html><html><head><title>Trade figures</title></head><body>
<p>Asked about trade on Monday, she said exports had grown by 5 percent in 2024.</p>
</body></html>`;

const call = restCaller(server);

let page: Server;
let origin = "";
beforeAll(async () => {
  page = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
  });
  await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => page?.close(resolve));
});

interface Verification {
  status: string;
  passage?: string;
  reason?: string;
  edits?: { bracket: string; replaces: string }[];
}

describe("a quote's brackets against what the cited page says", () => {
  it("verifies a bracket that stands for the page's words, showing them, and never one that adds a negation", async () => {
    const created = await call("POST", "/plans", {
      name: "[Deep] Trade figures",
      researchQuestion: "Did exports grow?",
      steps: [{ stepType: "search", instructions: "Find the figures" }, { stepType: "synthesize", instructions: "Write the answer" }],
      planDesignRationale: "Find, then write",
      citationPolicy: "report",
    });
    expect(created.status).toBe(201);
    const planId = created.body.planId as string;
    const url = `${origin}/trade.html?run=${crypto.randomUUID().slice(0, 8)}`;
    const recorded = await call("POST", `/plans/${planId}/evidence`, {
      evidence: [
        { url, title: "Trade figures", facts: "Exports grew 5 percent", subtopic: "Trade", quote: "[the minister] said exports had grown by 5 percent in 2024" },
        { url: `${url}&added`, title: "Trade figures", facts: "Exports did not grow", subtopic: "Trade", quote: "she said exports had [not] grown by 5 percent" },
      ],
    });
    expect(recorded.status).toBe(201);

    const verdicts = await settledVerdicts(call, planId, 2, 90);
    expect(verdicts).toEqual(["verified", "partial"]);

    const one = async (ref: string) => ((await call("GET", `/plans/${planId}/ledger?ref=${ref}`)).body.evidence as { verification: Verification }[])[0]?.verification;
    expect(await one("E1")).toMatchObject({
      status: "verified",
      passage: "she said exports had grown by 5 percent in 2024",
      edits: [{ bracket: "[the minister]", replaces: "she" }],
    });
    const added = await one("E2");
    expect(added).toMatchObject({ status: "partial", passage: "she said exports had grown by 5 percent", edits: [{ bracket: "[not]", replaces: "" }] });
    expect(added?.reason).toContain('the bracket "[not]" adds a negation');
  });
});
