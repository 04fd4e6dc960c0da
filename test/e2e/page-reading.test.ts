/**
 * What a reader of the page sees, end to end: on the real local server, an assistant records quotes of real
 * loopback pages, and Cairn fetches and reads each page itself.
 * - Text hidden by an inline style or the `hidden` attribute (an upgrade notice, a breaking-news slot, a cookie
 *   banner) is not what a reader sees: quoted, it is not found; the visible paragraph beside it is verified.
 * - A page in windows-1252 that says so only in its `<meta charset>` is decoded as windows-1252, so its accented
 *   words verify.
 * - A quote that is wholly a bracketed caption is judged on its words.
 * - An ellipsis joining the start of one paragraph to the end of another far below is not one quote: partial,
 *   saying the parts are too far apart.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { restCaller, settledVerdicts } from "../support/e2e-rest";

const server = inject("server");

const HIDDEN = `<!doctype html><html><head><title>Harbour report</title></head><body>
<div style="display: none !important">Please upgrade your browser to read this article in full.</div>
<p>The harbour handled 4.2 million containers last year, a record for the port.</p>
<aside style="visibility:hidden">Breaking news: the central bank cut its main rate by half a point today.</aside>
<div hidden>We use cookies to measure how visitors read our harbour coverage.</div>
</body></html>`;

/** Bytes of windows-1252 (é is 0xE9), declared only by the page's own meta tag. */
const LEGACY = Buffer.from(
  `<!doctype html><html><head><meta charset="windows-1252"><title>La gare</title></head><body>
<p>Le café de la gare a rouvert après deux années de travaux sur le quai.</p></body></html>`,
  "latin1",
);

const CAPTION = `<!doctype html><html><head><title>Exports</title></head><body>
<figure><img alt="" src="x.png"><figcaption>Figure 9: Exports by region and year, in billions of euros</figcaption></figure>
</body></html>`;

const FILLER = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} talks about shipping schedules, cranes, tides and weather at length.`).join("</p>\n<p>");
const ESSAY = `<!doctype html><html><head><title>Essay</title></head><body>
<p>The port authority announced a new plan for the northern quay on Tuesday morning.</p>
<p>${FILLER}</p>
<p>Critics said the budget would run out before the second phase could begin.</p>
</body></html>`;

const PAGES: Record<string, { type: string; body: string | Buffer }> = {
  "/hidden.html": { type: "text/html; charset=utf-8", body: HIDDEN },
  "/legacy.html": { type: "text/html", body: LEGACY },
  "/caption.html": { type: "text/html; charset=utf-8", body: CAPTION },
  "/essay.html": { type: "text/html; charset=utf-8", body: ESSAY },
};

const call = restCaller(server);

let pages: Server;
let origin = "";
beforeAll(async () => {
  pages = createServer((request, response) => {
    const page = PAGES[new URL(request.url ?? "/", "http://x").pathname];
    if (!page) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": page.type }).end(page.body);
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => pages?.close(resolve));
});

describe("quotes judged on what a reader of the page sees", () => {
  it("finds no hidden text, decodes a meta-declared charset, judges a bracketed caption on its words, and keeps an ellipsis within one passage", async () => {
    const created = await call("POST", "/plans", {
      name: "[Deep] Harbour",
      researchQuestion: "How is the harbour doing?",
      steps: [{ stepType: "search", instructions: "Find sources" }, { stepType: "synthesize", instructions: "Write the answer" }],
      planDesignRationale: "Find, then write",
      citationPolicy: "report",
    });
    expect(created.status).toBe(201);
    const planId = created.body.planId as string;
    const run = crypto.randomUUID().slice(0, 8);
    const at = (path: string, n: number) => `${origin}${path}?run=${run}&n=${n}`;
    const source = (path: string, n: number, quote: string) => ({ url: at(path, n), title: "Page", facts: "What the page says", subtopic: "Harbour", quote });
    const quotes = [
      source("/hidden.html", 1, "The harbour handled 4.2 million containers last year"),
      source("/hidden.html", 2, "Please upgrade your browser to read this article in full."),
      source("/hidden.html", 3, "the central bank cut its main rate by half a point today"),
      source("/hidden.html", 4, "We use cookies to measure how visitors read our harbour coverage."),
      source("/legacy.html", 5, "Le café de la gare a rouvert après deux années de travaux"),
      source("/caption.html", 6, "[Figure 9: Exports by region and year, in billions of euros]"),
      source("/essay.html", 7, "The port authority announced a new plan … before the second phase could begin."),
    ];
    expect((await call("POST", `/plans/${planId}/evidence`, { evidence: quotes })).status).toBe(201);

    const verdicts = await settledVerdicts(call, planId, quotes.length, 120);
    expect(verdicts).toEqual(["verified", "not_found", "not_found", "not_found", "verified", "verified", "partial"]);

    const one = async (ref: string) => ((await call("GET", `/plans/${planId}/ledger?ref=${ref}`)).body.evidence as { verification: { status: string; passage?: string; reason?: string } }[])[0]?.verification;
    expect((await one("E5"))?.passage).toBe("Le café de la gare a rouvert après deux années de travaux");
    expect((await one("E6"))?.passage).toBe("Figure 9: Exports by region and year, in billions of euros");
    expect((await one("E7"))?.reason).toMatch(/too far apart/);
  });
});
