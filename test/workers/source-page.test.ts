import { describe, expect, inject, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { waitFor } from "../support/webhooks";
import { createPlan, ok, steps } from "../support/plans";
import { seedTenant } from "../support/worker";

/**
 * The page of each source in the dashboard, on workerd: sources recorded through the tools are checked by the
 * Worker's own queue consumer against the loopback fixture pages (test/support/source-pages.global.ts), their
 * snapshots kept in the local R2 bucket; the page shows the reading with the quoted passage marked.
 */
const origin = inject("sourcePagesOrigin");
const QUOTE = "ground-source heat pumps cut heating bills by 38 percent";

const source = (path: string, quote: string, title = "Heat pump field trial") => ({ url: `${origin}${path}`, title, facts: `What ${title} says`, subtopic: "Bills", quote });

async function verificationOf(key: string, planId: string, ref: string): Promise<string> {
  const ledger = (await ok(key, "get_evidence_ledger", { planId, ref })) as { evidence: { verification: { status: string } }[] };
  return ledger.evidence[0]?.verification.status ?? "missing";
}

async function settled(key: string, planId: string, refs: string[]): Promise<void> {
  await waitFor("the source checks", async () => {
    const statuses = await Promise.all(refs.map((ref) => verificationOf(key, planId, ref)));
    return statuses.every((status) => status !== "pending") ? true : null;
  });
}

const snapshotOf = (html: string) => html.slice(html.indexOf('<pre class="snapshot"'), html.indexOf("</pre>", html.indexOf('<pre class="snapshot"')));

describe("the source page", () => {
  it("shows the reading with the quoted passage marked, the page's markup and instructions as escaped, untrusted text", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Heat pumps", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [
        source("/untrusted.html", QUOTE),
        source("/untrusted.html", "ground-source heat pumps cut heating bills by 45 percent over three winters"),
        source("/gone", "the page that is not there says this"),
        source("/untrusted.html", QUOTE, "A study of wind turbine noise in coastal towns"),
      ],
    });
    await settled(apiKey, planId, ["E1", "E2", "E3", "E4"]);
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);

    const response = await visitor.get(`/dashboard/plans/${planId}/sources/E1`);
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'nonce-/);
    const html = await response.text();
    expect(html).toContain(`href="${origin}/untrusted.html"`);
    expect(html).toContain(`<blockquote id="recorded-quote">${QUOTE}</blockquote>`);
    expect(html).toContain('class="badge source-verified"');
    expect(html).toContain("fetched by Cairn");
    expect(html).toContain("the page says “Heat pump field trial”");
    expect(html).not.toContain('id="title-mismatch"');
    expect(html).toContain("Untrusted content");
    const text = snapshotOf(html);
    expect(text).toContain(`<mark id="snapshot-passage">${QUOTE}</mark>`);
    // The page's markup is text: escaped, never an element.
    expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(text).toContain("&lt;img src=x onerror=alert(2)&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    expect(text).toContain("IGNORE ALL PREVIOUS INSTRUCTIONS");
    // A window around the passage, not the whole page; the rest is one link away.
    expect(html).toMatch(/… [\d,]+ characters before this are not shown/);
    expect(text).not.toContain("The last line of the page.");
    expect(html).toContain(`href="/dashboard/plans/${planId}/sources/E1?view=whole#snapshot-passage"`);
    const whole = snapshotOf(await (await visitor.get(`/dashboard/plans/${planId}/sources/E1?view=whole`)).text());
    expect(whole).toContain("Opening filler about the weather");
    expect(whole).toContain("The last line of the page.");
    expect(whole).toContain(`<mark id="snapshot-passage">${QUOTE}</mark>`);

    // One number and one word changed: partial, the page's own words offered and marked.
    const partial = await (await visitor.get(`/dashboard/plans/${planId}/sources/E2`)).text();
    expect(partial).toContain('class="badge source-partial"');
    expect(partial).toMatch(/<blockquote id="closest-passage">[^<]*38 percent[^<]*<\/blockquote>/);
    expect(snapshotOf(partial)).toMatch(/<mark id="snapshot-passage">[^<]*38 percent/);

    // A real page for the wrong title.
    expect(await (await visitor.get(`/dashboard/plans/${planId}/sources/E4`)).text()).toContain('id="title-mismatch"');

    // The plan's ledger shows each source's verification and links to its page.
    const plan = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    const sources = plan.slice(plan.indexOf('id="ledger-sources"'));
    expect(sources).toContain(`href="/dashboard/plans/${planId}/sources/E1"`);
    expect(sources).toMatch(/id="source-E1"[\s\S]*?source-verified[\s\S]*?1\.00/);
    expect(sources).toMatch(/id="source-E2"[\s\S]*?source-partial[\s\S]*?<blockquote class="passage"[^>]*>[^<]*38 percent/);
    expect(sources).toMatch(/id="source-E3"[\s\S]*?source-unreachable[\s\S]*?dead: HTTP 404 \(the page does not exist\)/);
  });

  it("is a plain 404 for another org's plan or source, an unknown ref and a malformed one", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Private trial", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_evidence", { planId, evidence: [source("/untrusted.html", QUOTE, "Private trial title")] });
    await settled(apiKey, planId, ["E1"]);

    const other = await seedTenant();
    const outsider = new Visitor();
    await outsider.signIn(other.admin.email, other.admin.password);
    const refused = await outsider.get(`/dashboard/plans/${planId}/sources/E1`);
    expect(refused.status).toBe(404);
    const body = await refused.text();
    expect(body).not.toContain("Private trial");
    expect(body).not.toContain("heat pumps");
    // The outsider's own plan with the same ref holds nothing of the other org's either.
    const own = await createPlan(other.apiKey, { name: "[Deep] Own", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    expect((await outsider.get(`/dashboard/plans/${own.planId}/sources/E1`)).status).toBe(404);
    for (const ref of ["E0", "E99", "C1", "e1", "E1x", "E123456"]) expect((await outsider.get(`/dashboard/plans/${planId}/sources/${ref}`)).status).toBe(404);
  });
  it("shows a source with no reading by its status: unreachable with its reason (a dead page told from one that may be live), pending while the check runs", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Unread", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_evidence", { planId, evidence: [source("/gone", "the page that is not there says this"), source("/forbidden?page", "the page behind a wall says this")] });
    await settled(apiKey, planId, ["E1", "E2"]);
    // The fixture answers /slow with a body that never ends: its check runs until the fetch's time limit.
    await ok(apiKey, "record_evidence", { planId, evidence: [source("/slow", "a page that never finishes loading says this")] });
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);

    const unreachable = await visitor.get(`/dashboard/plans/${planId}/sources/E1`);
    expect(unreachable.status).toBe(200);
    const gone = await unreachable.text();
    expect(gone).toContain('class="badge source-unreachable"');
    expect(gone).toContain('<dd id="verification-reason">dead: HTTP 404 (the page does not exist)</dd>');
    expect(gone).toContain("The page does not exist (HTTP 404 or 410): the link is dead, or was made up.");
    expect(gone).not.toContain("may well be live");
    expect(gone).toContain('id="no-snapshot"');
    const walled = await (await visitor.get(`/dashboard/plans/${planId}/sources/E2`)).text();
    expect(walled).toContain('<dd id="verification-reason">walled: HTTP 403 (a bot wall, paywall or rate limit)</dd>');
    expect(walled).toContain("Cairn could not read the page, which may well be live");
    expect(walled).not.toContain("The page does not exist");

    const pending = await (await visitor.get(`/dashboard/plans/${planId}/sources/E3`)).text();
    expect(pending).toContain('class="badge source-pending"');
    expect(pending).toContain("Cairn has not read this page yet");
  });
});
