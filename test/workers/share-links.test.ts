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

/** The words a page shows a reader: its text without tags, styles or entities, lowercased. */
function visibleWords(html: string): Set<string> {
  const text = html
    .replace(/<style[\s\S]*?<\/style>/g, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** The share page's own words (its template: headings, labels, the notes on each source), the same for every deliverable. */
const SHARE_PAGE_CHROME = visibleWords(
  "Cairn Version updated A read-only copy shared from Cairn, with the sources it rests on and what Cairn found on each. Sources Citations " +
    "verified Last checked: not yet Quoted in the research: The page's text: the cited passage of as Cairn read it on shown as plain text. It is what the site published; none of it is Cairn's. " +
    "The quote is in the source, exactly or after normalizing typography and spacing. UTC image",
);

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

  it("labels each source's passage with its own URL when two sources differ only in their query string", async () => {
    const tenant = await seedTenant();
    const { planId } = await createPlan(tenant.apiKey, { name: "[Deep] Two addresses", steps: steps("search", "synthesize") });
    const source = (url: string) => ({ url, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg", subtopic: "Density", quote: "solid-state cells reached 500 Wh/kg in the lab" });
    const tag = crypto.randomUUID().slice(0, 8);
    const [first, second] = [`${sourcePages}/article.html?share-label=${tag}`, `${sourcePages}/article.html?share-label=${tag}&utm_source=x`];
    await ok(tenant.apiKey, "record_evidence", { planId, evidence: [source(first), source(second)] });
    await sourceChecksSettled(tenant.apiKey, planId);
    const { outputId } = (await ok(tenant.apiKey, "store_research_output", { planId, title: "Two", mediaType: "markdown", content: "Cells reached 500 Wh/kg [E1] [E2]." })) as { outputId: string };
    const personKey = (await seedApiKey(tenant.orgId, tenant.admin.userId, [...PERSON_SCOPES])).key;
    const share = (await (await rest(personKey, `/outputs/${outputId}/shares`, json({ expiresInDays: 1 }))).json()) as { url: string };
    const html = await (await open(pathOf(share.url), "203.0.113.9")).text();
    const escaped = (url: string) => url.replaceAll("&", "&amp;");
    const labels = [...html.matchAll(/the cited passage of (\S+) as Cairn read it/g)].map((m) => m[1]);
    expect(labels).toEqual([escaped(first), escaped(second)]);
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

  it("shows the shared deliverable, its cited sources and their passages, and nothing else: not the previous run's deliverable, the ledger or the plan (containment)", async () => {
    const t = await seedTenant();
    const SECRET = "CONFIDENTIAL: Project Falcon acquisition budget is 9 million dollars";
    // The previous run: a deliverable never shared, its own ledger and sources.
    const { planId: previousPlanId } = await createPlan(t.apiKey, { name: "[Deep] Falcon watch", steps: steps("search", "synthesize"), citationPolicy: "report" });
    await ok(t.apiKey, "record_evidence", {
      planId: previousPlanId,
      evidence: [{ url: "https://previous-run.example/falcon-memo", title: "Falcon memo", facts: "Falcon memo facts", subtopic: "Budget", quote: "the Falcon budget" }],
    });
    await ok(t.apiKey, "record_claims", { planId: previousPlanId, claims: [{ subtopic: "Budget", text: "Falcon reserves stood at 7 million dollars", evidenceRefs: ["E1"], workerId: "w1" }] });
    await ok(t.apiKey, "store_research_output", {
      planId: previousPlanId,
      title: "Falcon review",
      mediaType: "markdown",
      content: "# Falcon review\n\n## Falcon reserves\n\nReserves stood at 7 million dollars [C1] [E1].\n",
    });
    // This run: one verified source cited, one never cited; one claim cited, one (the secret) never cited by any deliverable.
    const { planId } = await createPlan(t.apiKey, { name: "[Deep] Secret plan name", steps: steps("search", "synthesize"), citationPolicy: "report" });
    await ok(t.apiKey, "record_evidence", {
      planId,
      evidence: [
        { url: `${sourcePages}/article.html`, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg", subtopic: "Density", quote: "solid-state cells reached 500 Wh/kg in the lab" },
        { url: "https://uncited-source.example/falcon-ledger", title: "Falcon ledger entry", facts: SECRET, subtopic: "Budget", quote: "Project Falcon" },
      ],
    });
    await ok(t.apiKey, "record_claims", {
      planId,
      claims: [
        { subtopic: "Density", text: "Lab cells reached 500 Wh/kg", evidenceRefs: ["E1"], workerId: "w1" },
        { subtopic: "Budget", text: SECRET, evidenceRefs: ["E2"], workerId: "w1" },
      ],
    });
    await sourceChecksSettled(t.apiKey, planId);
    await ok(t.apiKey, "record_verdicts", { planId, verdicts: ["C1", "C2"].map((claim) => ({ claim, kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" })) });
    const content = "# Batteries\n\nLab cells reached **500 Wh/kg** [E1] [C1].\n\n![tracking pixel](https://evil.example/track.png)\n";
    const { outputId } = (await ok(t.apiKey, "store_research_output", { planId, title: "Battery report", mediaType: "markdown", content })) as { outputId: string };
    // Made a run of a series whose previous run is the Falcon plan: the org's own reads compare the two.
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO plan_schedules (series_id, org_id, plan_id, every, start_at, until, due_index, next_due_at, next_run_number, missed_in_a_row, status, created_by, created_at, updated_at) VALUES ('ser_containment', ?, ?, 'day', ?, NULL, 1, ?, 2, 0, 'active', ?, ?, ?)",
      ).bind(t.orgId, previousPlanId, now, now + 86_400_000, t.admin.userId, now, now),
      env.DB.prepare("INSERT INTO plan_series_runs (series_id, run_number, org_id, plan_id, due_at, status, plan_created, created_at) VALUES ('ser_containment', 1, ?, ?, ?, 'started', 1, ?)").bind(
        t.orgId,
        planId,
        now,
        now,
      ),
    ]);
    // People's comments on it stay in the org: a thread anchored in the shared text, and a reply.
    const commented = await rest(t.apiKey, `/outputs/${outputId}/comments`, json({ body: `${SECRET} (Falcon comment)`, anchor: { heading: "Batteries", quote: "Lab cells reached" } }));
    expect(commented.status).toBe(201);
    const { commentId } = (await commented.json()) as { commentId: string };
    expect((await rest(t.apiKey, `/outputs/${outputId}/comments`, json({ body: "Falcon reply: 7 million", replyTo: commentId }))).status).toBe(201);
    const read = (await ok(t.apiKey, "get_research_output", { outputId })) as { previousOutputId?: string; changes?: { summary: string } };
    expect(read.previousOutputId).toBeDefined();
    expect(read.changes?.summary).toContain("Since the previous run");

    // Shared (the link as the org's storage makes it: the test is about what the page shows, not who may share).
    const token = "T".repeat(43);
    const tokenHash = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))), (b) => b.toString(16).padStart(2, "0")).join("");
    await env.DB.prepare("INSERT INTO output_shares (id, org_id, output_id, token_sha256, created_by, created_at, expires_at) VALUES ('shr_containment', ?, ?, ?, ?, ?, ?)")
      .bind(t.orgId, outputId, tokenHash, t.admin.userId, now, now + 86_400_000)
      .run();
    const page = await open(`/s/${token}`, "203.0.113.77");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Battery report");
    expect(html).toContain('<a class="ref" href="#source-E1">E1</a>');

    // No "what changed" against a deliverable that was never shared, and nothing of it, of the ledger or of the plan.
    expect(html).not.toContain('id="what-changed"');
    for (const secret of [SECRET, "Project Falcon", "Falcon", "7 million", "previous-run.example", "uncited-source.example", "Secret plan name", previousPlanId, planId, t.orgId, "evil.example", commentId]) {
      expect(html, secret).not.toContain(secret);
    }
    // Nor do the org's downloads of it carry the comments: they are built from the same public view.
    for (const format of ["md", "html"]) {
      const file = await (await rest(t.apiKey, `/outputs/${outputId}/download?format=${format}`)).text();
      expect(file).toContain("Lab cells reached");
      for (const secret of [SECRET, "Falcon", commentId]) expect(file, `${format}: ${secret}`).not.toContain(secret);
    }
    // Every word a reader sees is the deliverable's, its cited sources' (title, address, quote, the page Cairn read) or the page's own.
    const article = await (await fetch(`${sourcePages}/article.html`)).text();
    const allowed = new Set([
      ...visibleWords(`Battery report ${content} Solid-state batteries reach 500 Wh/kg ${sourcePages}/article.html solid-state cells reached 500 Wh/kg in the lab`),
      ...visibleWords(article),
      ...SHARE_PAGE_CHROME,
    ]);
    const body = html.slice(html.indexOf("<main>"));
    const stray = [...visibleWords(body)].filter((word) => !allowed.has(word) && !/^\d+$/.test(word));
    expect(stray).toEqual([]);
  });
});
