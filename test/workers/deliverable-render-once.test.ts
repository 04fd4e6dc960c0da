import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RENDERER_VERSION } from "../../src/web/dashboard/markdown";
import { ADMIN_SCOPES, api } from "../support/org-files";
import { Visitor } from "../support/dashboard";
import { createPlan, ok } from "../support/plans";
import { seedApiKey, seedTenant } from "../support/worker";

/**
 * Deliverables are rendered once per version: the first view renders and keeps the result, later views are served
 * from it. The local runtime's clock does not move while a request computes, so these tests show the kept render by
 * what it changes (a kept row altered in place is what the next view shows); test/e2e/deliverable-render.test.ts
 * times the views on the real server.
 */

interface KeptRow {
  version: number;
  renderer: number;
  kind: string;
  html: string | null;
  note: string | null;
}

const keptRows = async (orgId: string, outputId: string) =>
  (await env.DB.prepare("SELECT version, renderer, kind, html, note FROM rendered_outputs WHERE org_id = ? AND output_id = ? ORDER BY version").bind(orgId, outputId).all<KeptRow>()).results;

/** Four paragraphs of 2,000 `*_` pairs: valid Markdown that took micromark seconds on every view. */
const HOSTILE_EMPHASIS = `${Array.from({ length: 4 }, () => "*_".repeat(2_000)).join("\n\n")}\n\n<script>alert(1)</script> [E1]`;

describe("a deliverable version is rendered once", () => {
  it("keeps the first view's render and serves it after; a new version renders anew and replaces it", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Scan] Once" });
    const { outputId } = (await ok(apiKey, "store_research_output", { planId, title: "Once", mediaType: "markdown", content: "# Findings\n\nFirst **version**." })) as { outputId: string };
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const path = `/dashboard/outputs/${outputId}`;

    expect(await keptRows(orgId, outputId)).toEqual([]);
    expect(await (await visitor.get(path)).text()).toContain("<p>First <strong>version</strong>.</p>");
    expect(await keptRows(orgId, outputId)).toEqual([{ version: 1, renderer: RENDERER_VERSION, kind: "html", html: "<h1>Findings</h1>\n<p>First <strong>version</strong>.</p>", note: null }]);

    // The second view is the kept render: altered in place, the alteration is what it shows.
    await env.DB.prepare("UPDATE rendered_outputs SET html = '<p>KEPT RENDER</p>' WHERE org_id = ? AND output_id = ?").bind(orgId, outputId).run();
    const second = await (await visitor.get(path)).text();
    expect(second).toContain("<p>KEPT RENDER</p>");
    expect(second).not.toContain("<strong>version</strong>");

    // Kept under another renderer, or for other text (an id met again with new content), it is not served: rendered anew.
    await env.DB.prepare("UPDATE rendered_outputs SET renderer = ? WHERE org_id = ? AND output_id = ?").bind(RENDERER_VERSION + 1, orgId, outputId).run();
    expect(await (await visitor.get(path)).text()).toContain("<strong>version</strong>");
    expect((await keptRows(orgId, outputId)).map((row) => row.renderer)).toEqual([RENDERER_VERSION]);
    await env.DB.prepare("UPDATE rendered_outputs SET html = '<p>KEPT RENDER</p>', content_sha256 = 'other' WHERE org_id = ? AND output_id = ?").bind(orgId, outputId).run();
    expect(await (await visitor.get(path)).text()).not.toContain("KEPT RENDER");

    // A new version is rendered at its first view, and its render replaces the old version's.
    await ok(apiKey, "store_research_output", { outputId, planId, title: "Once", mediaType: "markdown", content: "Second *version*." });
    expect(await (await visitor.get(path)).text()).toContain("<p>Second <em>version</em>.</p>");
    expect((await keptRows(orgId, outputId)).map((row) => [row.version, row.html])).toEqual([[2, "<p>Second <em>version</em>.</p>"]]);
  });

  it("keeps the text fallback of a deliverable too complex to format, escaped, and serves it after", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Scan] Hostile" });
    const { outputId } = (await ok(apiKey, "store_research_output", { planId, title: "Hostile", mediaType: "markdown", content: HOSTILE_EMPHASIS })) as { outputId: string };
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const path = `/dashboard/outputs/${outputId}`;

    for (const view of [1, 2]) {
      const response = await visitor.get(path);
      expect(response.status, `view ${view}`).toBe(200);
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'none'");
      expect(csp).toMatch(/script-src 'nonce-[^']+'(;|$)/);
      const html = await response.text();
      expect(html).toContain('<p class="muted" id="not-rendered">This Markdown is too complex to format, so it is shown as its text: it has too much emphasis, link or code markup to render.</p>');
      expect(html).toContain('<pre class="deliverable" id="deliverable-content">*_*_');
      expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; [E1]");
      expect(html).not.toContain("<script>alert(1)");
    }
    // What is kept is the verdict, not the text (the deliverable holds that): the next view escapes it again, at no cost.
    expect(await keptRows(orgId, outputId)).toEqual([{ version: 1, renderer: RENDERER_VERSION, kind: "text", html: null, note: "it has too much emphasis, link or code markup to render" }]);
  });

  it("goes with the org's erasure", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    const adminKey = (await seedApiKey(orgId, admin.userId, [...ADMIN_SCOPES])).key;
    const other = await seedTenant();
    const kept: string[] = [];
    for (const [key, person, org] of [
      [apiKey, admin, orgId],
      [other.apiKey, other.admin, other.orgId],
    ] as const) {
      const { planId } = await createPlan(key, { name: "[Scan] Erased" });
      const { outputId } = (await ok(key, "store_research_output", { planId, title: "Kept render", mediaType: "markdown", content: "Some *text*." })) as { outputId: string };
      const visitor = new Visitor();
      await visitor.signIn(person.email, person.password);
      expect((await visitor.get(`/dashboard/outputs/${outputId}`)).status).toBe(200);
      expect(await keptRows(org, outputId)).toHaveLength(1);
      kept.push(outputId);
    }
    const slug = (await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(orgId).first<{ slug: string }>())?.slug;
    expect((await api(adminKey, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) })).status).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM rendered_outputs WHERE org_id = ?").bind(orgId).first("n")).toBe(0);
    // Another org's kept renders stay.
    expect(await keptRows(other.orgId, kept[1] ?? "")).toHaveLength(1);
  });
});
