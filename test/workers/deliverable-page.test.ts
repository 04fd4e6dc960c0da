import { describe, expect, inject, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { createPlan, ok, sourceChecksSettled, steps } from "../support/plans";
import { seedTenant } from "../support/worker";

const sourcePages = inject("sourcePagesOrigin");

describe("the dashboard page of a deliverable (where ChatGPT's links lead)", () => {
  it("shows the deliverable to a signed-in member as text, with its citations; another org sees nothing; a visitor is sent to sign in", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Scan] Heat pumps" });
    const content = "# Heat pumps\n\nChoose ground-source. <script>alert(1)</script>";
    const { outputId } = (await ok(apiKey, "store_research_output", {
      planId,
      title: "Heat pump report",
      mediaType: "markdown",
      content,
      citations: [{ ref: "E1", title: "NREL study", url: "https://nrel.gov/x" }, { title: "A book without a URL" }],
    })) as { outputId: string };
    const { url } = (await ok(apiKey, "fetch", { id: outputId })) as { url: string };
    const path = new URL(url).pathname;
    expect(path).toBe(`/dashboard/outputs/${outputId}`);

    const stranger = new Visitor();
    const redirected = await stranger.get(path);
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get("location")).toContain("/dashboard/sign-in");

    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const page = await visitor.get(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Heat pump report");
    expect(html).toContain("← [Scan] Heat pumps</a>");
    expect(html).toContain("Choose ground-source. &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain('href="https://nrel.gov/x"');
    expect(html).toContain("A book without a URL");
    expect(html).toContain(`href="/dashboard/plans/${planId}"`);

    const other = await seedTenant();
    const outsider = new Visitor();
    await outsider.signIn(other.admin.email, other.admin.password);
    expect((await outsider.get(path)).status).toBe(404);
  });

  it("renders Markdown (headings, lists, tables, links) with raw HTML escaped and unsafe links dropped, each [E#] linked to its source and the sources listed with their statuses", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [
        { url: `${sourcePages}/article.html`, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg", subtopic: "Density", quote: "solid-state cells reached 500 Wh/kg in the lab" },
        { url: `${sourcePages}/gone`, title: "A page that is gone", facts: "nothing", subtopic: "Density", quote: "the page that is not there says this" },
      ],
    });
    await ok(apiKey, "record_claims", { planId, claims: [{ subtopic: "Density", text: "Lab cells reach 500 Wh/kg", evidenceRefs: ["E1"], confidence: 0.7 }] });
    await sourceChecksSettled(apiKey, planId);
    const content = [
      "# Solid-state batteries",
      "",
      "## Density",
      "",
      "- Lab cells reached 500 Wh/kg [E1] (claim [C1]).",
      "- A second source is gone [E2]; a third was never recorded [E9].",
      "",
      "| Source | Finding |",
      "| --- | --- |",
      "| [E1, E2] | 500 Wh/kg |",
      "",
      "See [the lab](https://lab.example.org/news) and `[E1]` in code.",
      "",
      "<script>alert(1)</script>",
      "",
      'Inline <img src=x onerror="alert(2)"> markup.',
      "",
      "[click me](javascript:alert(3)) [me too](JaVaScRiPt:alert(4)) <javascript:alert(5)>",
      "",
      "[ref link][bad]",
      "",
      "[bad]: javascript:alert(6)",
    ].join("\n");
    const { outputId } = (await ok(apiKey, "store_research_output", { planId, title: "Battery report", mediaType: "markdown", content })) as { outputId: string };
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const response = await visitor.get(`/dashboard/outputs/${outputId}`);
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'nonce-[^']+'(;|$)/);
    expect(csp).toContain("img-src 'self'");
    const html = await response.text();
    const body = html.slice(html.indexOf('id="deliverable-content"'), html.indexOf("Sources it rests on"));

    expect(body).toContain("<h1>Solid-state batteries</h1>");
    expect(body).toContain("<h2>Density</h2>");
    expect(body).toMatch(/<ul>\s*<li>Lab cells reached 500 Wh\/kg/);
    expect(body).toMatch(/<table>[\s\S]*<th>Source<\/th>[\s\S]*<td>500 Wh\/kg<\/td>/);
    expect(body).toContain('<a href="https://lab.example.org/news" rel="nofollow noopener noreferrer">the lab</a>');

    // Each ref the ledger holds leads to its page; one it does not hold stays text; code is left alone.
    expect(body).toContain(`[<a class="ref" href="/dashboard/plans/${planId}/sources/E1">E1</a>]`);
    expect(body).toContain(`(claim [<a class="ref" href="/dashboard/plans/${planId}#claim-C1">C1</a>])`);
    expect(body).toContain(`[<a class="ref" href="/dashboard/plans/${planId}/sources/E1">E1</a>, <a class="ref" href="/dashboard/plans/${planId}/sources/E2">E2</a>]`);
    expect(body).toContain("never recorded [E9]");
    expect(body).toContain("<code>[E1]</code>");

    // Raw HTML is text; script-bearing link protocols lose their URL.
    expect(body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(body).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
    expect(html).not.toMatch(/<script>alert|<img src=x|onerror="|href="javascript:/i);
    expect(html.toLowerCase()).not.toContain('href="javascript');
    for (const text of ["click me", "me too", "ref link"]) expect(body).toContain(`<a href="">${text}</a>`);

    // The sources it rests on, each with what Cairn found and a link to its page.
    const sources = html.slice(html.indexOf('id="cited-sources"'));
    expect(sources).toMatch(new RegExp(`href="/dashboard/plans/${planId}/sources/E1"><strong>E1</strong> Solid-state batteries reach 500 Wh/kg</a>[\\s\\S]*?source-verified`));
    expect(sources).toMatch(/<strong>E2<\/strong> A page that is gone<\/a>[\s\S]*?source-unreachable/);
    expect(sources).not.toContain("<strong>E9</strong>");
    // How its cited sources stand against delivery (re-checked after it): one verified, one unreachable at delivery.
    expect(html).toContain("2 sources: 1 verified, 0 changed since delivery, 0 gone, 1 unverified");
  });

  it("shows a deliverable other than Markdown as its text, refs linked, markup escaped", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Plain", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_evidence", { planId, evidence: [{ url: `${sourcePages}/plain.txt`, title: "Survey notes", facts: "1,204 households", subtopic: "Survey", quote: "the survey covered 1,204 households in 2025" }] });
    await sourceChecksSettled(apiKey, planId);
    const content = "# Not a heading here\nThe survey covered 1,204 households [E1]. <b>bold?</b>";
    const { outputId } = (await ok(apiKey, "store_research_output", { planId, title: "Plain notes", mediaType: "text", content })) as { outputId: string };
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const html = await (await visitor.get(`/dashboard/outputs/${outputId}`)).text();
    expect(html).toContain('<pre class="deliverable" id="deliverable-content"># Not a heading here');
    expect(html).toContain(`households [<a class="ref" href="/dashboard/plans/${planId}/sources/E1">E1</a>]. &lt;b&gt;bold?&lt;/b&gt;`);
    expect(html).toMatch(/<strong>E1<\/strong> Survey notes<\/a>[\s\S]*?source-verified/);
  });

  it("shows Markdown whose shape would take minutes to render (deep emphasis, nesting) as its text, at once", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Scan] Pathological" });
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    for (const content of ["*_".repeat(50_000), "> ".repeat(50_000), `${"[a](".repeat(20_000)}`]) {
      const { outputId } = (await ok(apiKey, "store_research_output", { planId, title: "Hostile shape", mediaType: "markdown", content })) as { outputId: string };
      const started = Date.now();
      const page = await visitor.get(`/dashboard/outputs/${outputId}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('id="not-rendered"');
      expect(html).toContain('<pre class="deliverable" id="deliverable-content">');
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });
});
