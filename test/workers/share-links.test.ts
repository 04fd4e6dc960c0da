import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { createPlan, ok, sourceChecksSettled, steps } from "../support/plans";
import { fetchWorker, ORIGIN, rest, seedApiKey, seedTenant, seedUser } from "../support/worker";

const sourcePages = inject("sourcePagesOrigin");
const ADMIN_SCOPES = ["research:read", "research:write", "org:admin"] as const;
/** Publishing outside the org is a person's decision: an admin's integration key acting for people carries plans:approve. */
const PERSON_SCOPES = [...ADMIN_SCOPES, "plans:approve"] as const;

const json = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) });
const open = (path: string, address = "203.0.113.7") => fetchWorker(new Request(`${ORIGIN}${path}`, { headers: { "cf-connecting-ip": address } }));
const pathOf = (url: string) => new URL(url).pathname;

/** An org with a verified source cited by a Markdown deliverable, a member's key and an admin's key. */
async function sharedReport() {
  const tenant = await seedTenant();
  const adminKey = (await seedApiKey(tenant.orgId, tenant.admin.userId, [...ADMIN_SCOPES])).key;
  const member = await seedUser(tenant.orgId, "member");
  const memberKey = (await seedApiKey(tenant.orgId, member.userId)).key;
  const personKey = (await seedApiKey(tenant.orgId, tenant.admin.userId, [...PERSON_SCOPES])).key;
  const { planId } = await createPlan(tenant.apiKey, { name: "[Deep] Secret plan name", steps: steps("search", "synthesize") });
  await ok(tenant.apiKey, "record_evidence", {
    planId,
    evidence: [{ url: `${sourcePages}/article.html`, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg", subtopic: "Density", quote: "solid-state cells reached 500 Wh/kg in the lab" }],
  });
  await sourceChecksSettled(tenant.apiKey, planId);
  const { outputId } = (await ok(tenant.apiKey, "store_research_output", {
    planId,
    title: "Battery report",
    mediaType: "markdown",
    content: "# Batteries\n\nLab cells reached **500 Wh/kg** [E1].\n\n<script>alert(1)</script>",
  })) as { outputId: string };
  return { ...tenant, adminKey, member, memberKey, personKey, planId, outputId };
}

describe("share links", () => {
  it("makes, lists and revokes a link; its page shows the deliverable and its sources and nothing else of the org; revoked answers as unknown", async () => {
    const t = await sharedReport();
    const made = await rest(t.personKey, `/outputs/${t.outputId}/shares`, json({ expiresInDays: 7 }));
    expect(made.status).toBe(201);
    const share = (await made.json()) as { shareId: string; url: string; expiresAt: string };
    expect(share.url).toMatch(/^http:\/\/localhost:8787\/s\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(share.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    // Only the token's hash is kept.
    const token = pathOf(share.url).slice(3);
    const stored = await env.DB.prepare("SELECT * FROM output_shares WHERE id = ?").bind(share.shareId).first<Record<string, unknown>>();
    expect(JSON.stringify(stored)).not.toContain(token);

    const page = await open(pathOf(share.url));
    expect(page.status).toBe(200);
    expect(page.headers.get("x-robots-tag")).toContain("noindex");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const csp = page.headers.get("content-security-policy") ?? "";
    for (const directive of ["default-src 'none'", "style-src 'sha256-", "frame-ancestors 'none'", "form-action 'none'", "base-uri 'none'"]) expect(csp).toContain(directive);
    expect(csp).not.toContain("script-src");
    const html = await page.text();
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"');
    expect(html).toContain('<meta name="referrer" content="no-referrer"');
    expect(html).toContain("Battery report");
    expect(html).toContain("<strong>500 Wh/kg</strong>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Version 1");
    expect(html).toContain('<a class="ref" href="#source-E1">E1</a>');
    expect(html).toContain('id="source-E1"');
    expect(html).toContain(">verified</span>");
    expect(html).toContain("Last checked:");
    expect(html).toMatch(/The page&#39;s text: the cited passage of http:\/\/127\.0\.0\.1:\d+\/article\.html as Cairn read it/);
    expect(html).toMatch(/<mark>[^<]*500 Wh\/kg[^<]*<\/mark>/);
    // Nothing else of the org: no plan, no member, no way into the dashboard.
    for (const secret of [t.planId, "Secret plan name", t.admin.email, t.member.email, t.member.userId, t.admin.userId, "/dashboard", t.orgId]) expect(html).not.toContain(secret);

    const listed = (await (await rest(t.memberKey, `/outputs/${t.outputId}/shares`)).json()) as { shares: Record<string, unknown>[] };
    expect(listed.shares).toHaveLength(1);
    expect(listed.shares[0]).toMatchObject({ shareId: share.shareId, status: "active", views: 1 });
    expect(JSON.stringify(listed)).not.toContain(token);

    // Another org's member: the output, its links and the revocation are not found, exactly as missing ones.
    const other = await seedTenant();
    const missing = "out_0000000000000000000000000";
    for (const [method, path] of [
      ["GET", `/outputs/${t.outputId}/shares`],
      ["POST", `/outputs/${t.outputId}/shares`],
      ["DELETE", `/outputs/${t.outputId}/shares/${share.shareId}`],
    ] as const) {
      const theirs = await rest(other.apiKey, path, { method });
      const none = await rest(other.apiKey, path.replace(t.outputId, missing), { method });
      expect([theirs.status, none.status]).toEqual([404, 404]);
      const detail = ((await theirs.json()) as { detail: string }).detail;
      expect(detail.replace(t.outputId, "ID")).toBe(((await none.json()) as { detail: string }).detail.replace(missing, "ID"));
    }

    const revoked = await rest(t.memberKey, `/outputs/${t.outputId}/shares/${share.shareId}`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { share: { status: string } }).share.status).toBe("revoked");
    const gone = await open(pathOf(share.url));
    const unknown = await open(`/s/${"A".repeat(43)}`);
    const malformed = await open("/s/nope");
    expect([gone.status, unknown.status, malformed.status]).toEqual([404, 404, 404]);
    const goneBody = await gone.text();
    expect(await unknown.text()).toBe(goneBody);
    expect(await malformed.text()).toBe(goneBody);
    expect(gone.headers.get("x-robots-tag")).toContain("noindex");

    const audit = await env.DB.prepare("SELECT action, detail FROM audit_log WHERE org_id = ? AND action LIKE 'output.share_%' ORDER BY rowid").bind(t.orgId).all<{ action: string; detail: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["output.share_created", "output.share_revoked"]);
    expect(audit.results[0]?.detail).toContain(share.shareId);
  });

  it("follows the org's sharing setting, refuses bad expiries by name, and ends expired links with the same 404", async () => {
    const t = await sharedReport();
    const bad = await rest(t.personKey, `/outputs/${t.outputId}/shares`, json({ expiresInDays: 400 }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toContain("expiresInDays is a whole number of days from 1 to 365");
    const unknownField = await rest(t.personKey, `/outputs/${t.outputId}/shares`, json({ days: 3 }));
    expect(unknownField.status).toBe(400);
    const readOnly = (await seedApiKey(t.orgId, t.member.userId, ["research:read"])).key;
    expect((await rest(readOnly, `/outputs/${t.outputId}/shares`, json({}))).status).toBe(403);

    const early = (await (await rest(t.personKey, `/outputs/${t.outputId}/shares`, json({}))).json()) as { shareId: string; url: string; expiresAt: string };
    expect(Math.round((Date.parse(early.expiresAt) - Date.now()) / 86_400_000)).toBe(30);

    const setSharing = (sharing: string) => rest(t.personKey, "/org/settings", { method: "PATCH", body: JSON.stringify({ sharing }) });
    expect((await setSharing("everyone")).status).toBe(400);
    expect(await (await setSharing("admins")).json()).toMatchObject({ sharing: "admins" });
    const refused = await rest(t.memberKey, `/outputs/${t.outputId}/shares`, json({}));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "forbidden", detail: expect.stringContaining("Only the organization's admins may share") });
    expect((await rest(t.personKey, `/outputs/${t.outputId}/shares`, json({}))).status).toBe(201);
    // Links made before stay open under "admins"…
    expect((await open(pathOf(early.url))).status).toBe(200);

    await setSharing("off");
    const off = await rest(t.apiKey, `/outputs/${t.outputId}/shares`, json({}));
    expect(off.status).toBe(403);
    expect(((await off.json()) as { detail: string }).detail).toContain("Sharing is turned off");
    // …and all close under "off", until sharing is on again.
    expect((await open(pathOf(early.url))).status).toBe(404);
    await setSharing("members");
    expect((await open(pathOf(early.url))).status).toBe(200);

    await env.DB.prepare("UPDATE output_shares SET expires_at = ? WHERE id = ?").bind(Date.now() - 1, early.shareId).run();
    const expired = await open(pathOf(early.url));
    expect(expired.status).toBe(404);
    expect(await expired.text()).toBe(await (await open(`/s/${"B".repeat(43)}`)).text());
    const listed = (await (await rest(t.memberKey, `/outputs/${t.outputId}/shares`)).json()) as { shares: { shareId: string; status: string; views: number }[] };
    expect(listed.shares.find((s) => s.shareId === early.shareId)).toMatchObject({ status: "expired", views: 2 });
  });

  it("is made and revoked from the deliverable's dashboard page with the session's form token", async () => {
    const t = await sharedReport();
    const visitor = new Visitor();
    await visitor.signIn(t.member.email, t.member.password);
    const page = await (await visitor.get(`/dashboard/outputs/${t.outputId}`)).text();
    expect(page).toContain('id="share-create"');
    const csrf = Visitor.csrfOf(page);
    expect((await visitor.post(`/dashboard/outputs/${t.outputId}/shares`, { csrf: "forged", days: "3" })).status).toBe(403);
    expect((await visitor.post(`/dashboard/outputs/${t.outputId}/shares`, { csrf, days: "0" })).status).toBe(400);
    const created = await visitor.post(`/dashboard/outputs/${t.outputId}/shares`, { csrf, days: "3" });
    expect(created.status).toBe(201);
    const url = /id="share-url">([^<]+)</.exec(await created.text())?.[1] ?? "";
    expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
    expect((await open(pathOf(url))).status).toBe(200);
    const listed = await (await visitor.get(`/dashboard/outputs/${t.outputId}`)).text();
    expect(listed).not.toContain(pathOf(url));
    const shareId = /action="\/dashboard\/outputs\/[^/]+\/shares\/([^/]+)\/revoke"/.exec(listed)?.[1] ?? "";
    const revoked = await visitor.post(`/dashboard/outputs/${t.outputId}/shares/${shareId}/revoke`, { csrf });
    expect(revoked.status).toBe(303);
    expect((await open(pathOf(url))).status).toBe(404);
  });

  it("goes with the org's erasure, another org's links staying", async () => {
    const t = await sharedReport();
    const other = await sharedReport();
    const mine = (await (await rest(t.personKey, `/outputs/${t.outputId}/shares`, json({}))).json()) as { url: string };
    const theirs = (await (await rest(other.personKey, `/outputs/${other.outputId}/shares`, json({}))).json()) as { url: string };
    const slug = (await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(t.orgId).first<{ slug: string }>())?.slug;
    expect((await rest(t.adminKey, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) })).status).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM output_shares WHERE org_id = ?").bind(t.orgId).first("n")).toBe(0);
    expect((await open(pathOf(mine.url))).status).toBe(404);
    expect((await open(pathOf(theirs.url))).status).toBe(200);
  });

  it("limits views per client address and per link, answering 429 with Retry-After", async () => {
    let refused: Response | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const response = await open(`/s/${"C".repeat(43)}`, "198.51.100.1");
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(404);
    }
    expect(refused?.headers.get("retry-after")).toBe("60");
    // Another address is not held back by the first one's views…
    expect((await open(`/s/${"C".repeat(43)}`, "198.51.100.2")).status).toBe(404);
    // …but one link opened from many addresses is.
    let linkRefused: Response | undefined;
    for (let i = 0; i < 300 && !linkRefused; i++) {
      const response = await open(`/s/${"D".repeat(43)}`, `192.0.2.${i % 250}`);
      if (response.status === 429) linkRefused = response;
    }
    expect(linkRefused?.headers.get("retry-after")).toBe("60");
  });
});
