import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { createPlan, ok, steps } from "../support/plans";
import { waitFor } from "../support/webhooks";
import { callTool, seedTenant } from "../support/worker";

/**
 * Links in a deliverable against the plan's ledger, through the real store_research_output on workerd: a strict plan
 * refuses a deliverable linking a page that is not one of its sources (naming each address), a report plan stores it
 * and lists them. The ledger's source is a real page on the loopback fixture server, checked by the real queue.
 */
const origin = inject("sourcePagesOrigin");
const quote = "solid-state cells reached 500 Wh/kg in the lab";

async function groundedPlan(key: string, citationPolicy: "strict" | "report") {
  const { planId } = await createPlan(key, { name: "[Deep] Solid-state batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy });
  const url = `${origin}/article.html?links-${citationPolicy}`;
  await ok(key, "record_evidence", { planId, evidence: [{ url, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg in the lab", subtopic: "Density", quote }] });
  await ok(key, "record_claims", { planId, claims: [{ subtopic: "Density", text: "Cells reached 500 Wh/kg", evidenceRefs: ["E1"] }] });
  await ok(key, "record_verdicts", { planId, verdicts: [{ claim: "C1", kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" }] });
  await waitFor("the source check", async () => {
    const { evidence } = (await ok(key, "get_evidence_ledger", { planId, detail: "full" })) as { evidence: { verification: { status: string } }[] };
    return evidence[0]?.verification.status === "verified" ? true : null;
  });
  return { planId, url };
}

const outputs = async (orgId: string) => (await env.DB.prepare("SELECT COUNT(*) AS n FROM research_outputs WHERE org_id = ?").bind(orgId).first<{ n: number }>())?.n;

describe("links in a deliverable", () => {
  it("under strict, refuses links to pages that are not sources in the ledger, naming each, and stores nothing", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId, url } = await groundedPlan(apiKey, "strict");
    const made = Array.from({ length: 12 }, (_, i) => `https://research.example.org/source-${i + 1}`);
    const content = `Cells reached 500 Wh/kg [E1] ([the article](${url})).\n\nSee ${made.map((u) => `<${u}>`).join(", ")}.`;
    const refused = await callTool(apiKey, "store_research_output", { planId, title: "Report", mediaType: "markdown", content });
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject({ error: { code: "validation" } });
    const message = String((refused.body.error as { message: string }).message);
    expect(message).toContain("not sources in the plan's evidence ledger: https://research.example.org/source-1, ");
    expect(message).toContain("https://research.example.org/source-10; and 2 more");
    expect(message).not.toContain(url);
    expect(await outputs(orgId)).toBe(0);

    // The ledger's own page written another way (scheme in capitals, a fragment) passes, and so does an address in code.
    const sameSource = url.replace("http://127.0.0.1", "HTTP://127.0.0.1").concat("#results");
    const stored = await ok(apiKey, "store_research_output", {
      planId,
      title: "Report",
      mediaType: "markdown",
      content: `Cells reached 500 Wh/kg [E1] (${sameSource}).\n\n## Method\n\n\`\`\`\ncurl https://research.example.org/source-1\n\`\`\``,
    });
    expect(stored.verification).toMatchObject({ policy: "strict", passed: true });
    expect(stored.verification).not.toHaveProperty("unlistedLinks");
    expect(await outputs(orgId)).toBe(1);
  });

  it("under report, stores the deliverable and lists the links that are not sources", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await groundedPlan(apiKey, "report");
    const stored = await ok(apiKey, "store_research_output", {
      planId,
      title: "Draft",
      mediaType: "markdown",
      content: "Cells reached 500 Wh/kg [E1], per [a blog](https://blog.example/post) and https://en.wikipedia.org/wiki/Battery_(electricity).",
    });
    expect(stored.verification).toMatchObject({ policy: "report", passed: false, unlistedLinks: ["https://blog.example/post", "https://en.wikipedia.org/wiki/Battery_(electricity)"] });
  });

  it("under strict, refuses a citation whose url is no source, or whose ref names a source at another page, and stores nothing", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId, url } = await groundedPlan(apiKey, "strict");
    // A second source in the ledger: its page is real, but it is not what E1 says.
    const other = `${origin}/article.html?other-source`;
    await ok(apiKey, "record_evidence", { planId, evidence: [{ url: other, title: "Another page", facts: "other", subtopic: "Density" }] });
    const content = "Cells reached 500 Wh/kg [E1].";
    const store = (citations: object[], mediaType = "markdown") => callTool(apiKey, "store_research_output", { planId, title: "Report", mediaType, content, citations });

    const madeUp = await store([{ ref: "E1", title: "Solid-state batteries", url }, { title: "A paper", url: "https://research.example.org/paper-1" }]);
    expect(madeUp.isError).toBe(true);
    expect(String((madeUp.body.error as { message: string }).message)).toContain("not sources in the plan's evidence ledger: https://research.example.org/paper-1.");

    const paired = await store([{ ref: "E1", title: "Solid-state batteries", url: other }]);
    expect(paired.isError).toBe(true);
    const message = String((paired.body.error as { message: string }).message);
    expect(message).toContain(`pair a source's ref with another page's URL: E1 with ${other} (E1 is ${url})`);
    expect(message).not.toContain("not sources in the plan's evidence ledger");
    expect(await outputs(orgId)).toBe(0);

    // The source's own URL, written another way, passes, and the acknowledgement carries nothing about links.
    const stored = await ok(apiKey, "store_research_output", { planId, title: "Report", mediaType: "markdown", content, citations: [{ ref: "E1", title: "Solid-state batteries", url: `${url}#abstract` }] });
    expect(stored.verification).toEqual({ policy: "strict", passed: true, citedRefs: ["E1"] });
    expect(await outputs(orgId)).toBe(1);
  });

  it("under strict, reads an HTML deliverable's links, attributes and all", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId, url } = await groundedPlan(apiKey, "strict");
    const content = `<p>Cells reached 500 Wh/kg [E1] (<a href="${url}">article</a>).</p>\n\n    <p><a href="https://research.example.org/source-1">more</a></p>`;
    const refused = await callTool(apiKey, "store_research_output", { planId, title: "Report", mediaType: "html", content });
    expect(refused.isError).toBe(true);
    expect(String((refused.body.error as { message: string }).message)).toContain("not sources in the plan's evidence ledger: https://research.example.org/source-1.");
    expect(await outputs(orgId)).toBe(0);
  });

  it("under report, stores the deliverable and lists citations' unlisted URLs with the content's, and the mismatched pairs", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await groundedPlan(apiKey, "report");
    const stored = await ok(apiKey, "store_research_output", {
      planId,
      title: "Draft",
      mediaType: "markdown",
      content: "Cells reached 500 Wh/kg [E1], per https://blog.example/post.",
      citations: [{ ref: "E1", title: "Solid-state batteries", url: "https://blog.example/post/" }, { title: "Made up", url: "https://research.example.org/source-1" }],
    });
    expect(stored.verification).toMatchObject({
      policy: "report",
      passed: false,
      unlistedLinks: ["https://blog.example/post", "https://research.example.org/source-1"],
      mismatchedCitationUrls: [{ ref: "E1", url: "https://blog.example/post/" }],
    });
  });
});
