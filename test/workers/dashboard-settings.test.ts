import { env } from "cloudflare:workers";
import { describe, expect, inject, it, vi } from "vitest";
import { sealSecret } from "../../src/domain/webhooks/secret-box";
import type { Env } from "../../src/env";
import { requiredKeyring } from "../../src/platform/webhooks/secret-keys";
import { Visitor } from "../support/dashboard";
import { fetchWorker, ORIGIN, rest, seedApiKey, seedOrg, seedTenant, seedUser } from "../support/worker";

async function signedIn(email: string, password: string) {
  const visitor = new Visitor();
  expect((await visitor.signIn(email, password)).status).toBe(303);
  return visitor;
}

describe("the dashboard's org settings", () => {
  it("lets an admin set plan approval and the source policy, keeps what was typed when a line is refused, and audits the change", async () => {
    const { orgId, admin } = await seedTenant();
    const adminKey = (await seedApiKey(orgId, admin.userId, ["research:read", "research:write", "org:admin"])).key;
    const visitor = await signedIn(admin.email, admin.password);

    const adminPage = await (await visitor.get("/dashboard/admin")).text();
    expect(adminPage).toContain('href="/dashboard/admin/settings"');
    const page = await visitor.get("/dashboard/admin/settings");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<option value="optional" selected');
    const csrf = Visitor.csrfOf(html);

    const saved = await visitor.post("/dashboard/admin/settings", {
      csrf,
      planApproval: "required",
      blockedDomains: "https://Example.com/path\r\nspam.net\r\n\r\n",
      preferredDomains: "nature.com, who.int",
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/dashboard/admin/settings?done=settings");
    expect(await (await rest(adminKey, "/org/settings")).json()).toEqual({
      planApproval: "required",
      sourcePolicy: { blockedDomains: ["example.com", "spam.net"], preferredDomains: ["nature.com", "who.int"] },
      sharing: "members",
      approvers: [],
    });
    const shown = await (await visitor.get("/dashboard/admin/settings?done=settings")).text();
    expect(shown).toContain("Settings saved.");
    expect(shown).toContain('<option value="required" selected');
    expect(shown).toMatch(/<textarea[^>]*name="blockedDomains"[^>]*>example\.com\nspam\.net<\/textarea>/);

    // A bad line: 400, nothing saved, the typed lists shown again (escaped), each bad line named.
    const refused = await visitor.post("/dashboard/admin/settings", {
      csrf,
      planApproval: "optional",
      blockedDomains: "example.com\n<script>x</script>\n192.168.0.1",
      preferredDomains: "example.com",
    });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain("Nothing was saved");
    expect(refusedHtml).toContain("is an IP address");
    expect(refusedHtml).toContain("example.com is both blocked and preferred");
    expect(refusedHtml).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(refusedHtml).not.toContain("<script>x</script>");
    expect(((await (await rest(adminKey, "/org/settings")).json()) as { planApproval: string }).planApproval).toBe("required");

    // Without the form's token: refused, nothing changed.
    const forged = await visitor.post("/dashboard/admin/settings", { csrf: "forged", planApproval: "optional", blockedDomains: "", preferredDomains: "" });
    expect(forged.status).toBe(403);
    expect(((await (await rest(adminKey, "/org/settings")).json()) as { planApproval: string }).planApproval).toBe("required");

    const audit = await env.DB.prepare("SELECT actor_client_id AS client, detail FROM audit_log WHERE org_id = ? AND action = 'org.settings_changed'").bind(orgId).all<{ client: string; detail: string }>();
    expect(audit.results).toHaveLength(1);
    // The approver group: someone outside the org is refused by name and nothing saved; a member is saved.
    const member = await seedUser(orgId, "member");
    const outsider = await seedUser(await seedOrg(), "member");
    const base = { csrf, planApproval: "required", blockedDomains: "example.com\nspam.net", preferredDomains: "nature.com\nwho.int" };
    const outside = await visitor.post("/dashboard/admin/settings", { ...base, approvers: `${member.email}\n${outsider.email}` });
    expect(outside.status).toBe(400);
    expect(await outside.text()).toContain(`Not a member: ${outsider.email.toLowerCase()}`);
    expect(((await (await rest(adminKey, "/org/settings")).json()) as { approvers: string[] }).approvers).toEqual([]);
    expect((await visitor.post("/dashboard/admin/settings", { ...base, approvers: member.email })).status).toBe(303);
    expect(((await (await rest(adminKey, "/org/settings")).json()) as { approvers: string[] }).approvers).toEqual([member.email.toLowerCase()]);
    expect(await (await visitor.get("/dashboard/admin/settings")).text()).toMatch(new RegExp(`<textarea[^>]*name="approvers"[^>]*>${member.email.toLowerCase().replace(".", "\\.")}</textarea>`));
    expect(audit.results[0]?.client).toBe("dashboard");
    expect(JSON.parse(audit.results[0]?.detail ?? "{}")).toMatchObject({ planApproval: { from: "optional", to: "required" }, blockedDomains: { added: ["example.com", "spam.net"] } });
  });

  it("shows the org's locale with the paper PDF downloads are printed on, saves it, and refuses a bad one saying why with nothing changed", async () => {
    const { orgId, admin } = await seedTenant();
    const adminKey = (await seedApiKey(orgId, admin.userId, ["org:admin"])).key;
    const visitor = await signedIn(admin.email, admin.password);
    const locale = async () => ((await (await rest(adminKey, "/org/settings")).json()) as { locale?: string }).locale;
    const paperLine = (html: string) => /<p id="s-paper">([\s\S]*?)<\/p>/.exec(html)?.[1]?.replace(/<[^>]+>/g, "").replace(/\s+/g, " ").trim();

    const unset = await (await visitor.get("/dashboard/admin/settings")).text();
    expect(paperLine(unset)).toBe("Paper for PDF downloads: A4 (no locale set)");
    expect(unset).toMatch(/<input[^>]*name="locale"[^>]*value=""/);
    const csrf = Visitor.csrfOf(unset);
    const base = { csrf, planApproval: "optional", blockedDomains: "", preferredDomains: "", sharing: "members", approvers: "" };

    // Saved canonical; the page then names US Letter and the locale.
    expect((await visitor.post("/dashboard/admin/settings", { ...base, locale: " en-us " })).status).toBe(303);
    expect(await locale()).toBe("en-US");
    const letter = await (await visitor.get("/dashboard/admin/settings")).text();
    expect(paperLine(letter)).toBe("Paper for PDF downloads: US Letter (locale en-US)");
    expect(letter).toMatch(/<input[^>]*name="locale"[^>]*value="en-US"/);

    // A bad tag: 400 naming the field and what to write, what was typed shown again (escaped), nothing changed.
    const refused = await visitor.post("/dashboard/admin/settings", { ...base, locale: "<b>english</b>" });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain("Nothing was saved");
    expect(refusedHtml).toContain("locale: &quot;&lt;b&gt;english&lt;/b&gt;&quot; is not a language tag: write one such as en-US, en-GB or ja-JP, or leave the field empty for none");
    expect(refusedHtml).toMatch(/<input[^>]*name="locale"[^>]*value="&lt;b&gt;english&lt;\/b&gt;"/);
    expect(paperLine(refusedHtml)).toBe("Paper for PDF downloads: US Letter (locale en-US)");
    expect(await locale()).toBe("en-US");

    // Another locale, then emptied: A4 again, with no locale stored; each change audited from/to.
    expect((await visitor.post("/dashboard/admin/settings", { ...base, locale: "de-DE" })).status).toBe(303);
    expect(paperLine(await (await visitor.get("/dashboard/admin/settings")).text())).toBe("Paper for PDF downloads: A4 (locale de-DE)");
    expect((await visitor.post("/dashboard/admin/settings", { ...base, locale: "" })).status).toBe(303);
    expect(await locale()).toBeUndefined();
    const audit = await env.DB.prepare("SELECT detail FROM audit_log WHERE org_id = ? AND action = 'org.settings_changed' ORDER BY rowid").bind(orgId).all<{ detail: string }>();
    expect(audit.results.map((row) => JSON.parse(row.detail).locale)).toEqual([
      { from: null, to: "en-US" },
      { from: "en-US", to: "de-DE" },
      { from: "de-DE", to: null },
    ]);
  });

  it("is for admins only: a member neither sees nor changes it", async () => {
    const { orgId } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const visitor = await signedIn(member.email, member.password);
    expect((await visitor.get("/dashboard/admin/settings")).status).toBe(403);
    const csrf = await visitor.csrf();
    const post = await visitor.post("/dashboard/admin/settings", { csrf, planApproval: "required", blockedDomains: "example.com", preferredDomains: "", locale: "en-US" });
    expect(post.status).toBe(403);
    const row = await env.DB.prepare("SELECT plan_approval, source_blocked_domains, locale FROM orgs WHERE id = ?").bind(orgId).first();
    expect(row).toEqual({ plan_approval: "optional", source_blocked_domains: "[]", locale: null });
  });
});

describe("the org's single sign-on, before any provider is asked", () => {
  it("is a person's change: an assistant's admin key is refused, bad input and a domain of another org are refused before discovery, and nothing is stored", async () => {
    const { orgId, admin } = await seedTenant();
    const assistantKey = (await seedApiKey(orgId, admin.userId, ["research:read", "org:admin"])).key;
    const personKey = (await seedApiKey(orgId, admin.userId, ["org:admin", "plans:approve"])).key;
    const put = (key: string, body: unknown) => rest(key, "/org/sso", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const good = { issuer: "http://127.0.0.1:1", clientId: "cairn", clientSecret: "secret-1", emailDomains: ["sso-unit.test"] };

    const refused = await put(assistantKey, good);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("plans:approve");
    const invalid = await put(personKey, { issuer: "ftp://x", clientId: "", clientSecret: "s", emailDomains: ["10.0.0.1"], required: "yes" });
    expect(invalid.status).toBe(400);
    const issues = ((await invalid.json()) as { issues?: { path: string }[] }).issues?.map((issue) => issue.path);
    expect(issues).toEqual(expect.arrayContaining(["issuer", "clientId", "emailDomains.0", "required"]));

    const other = await seedOrg();
    await env.DB.prepare("INSERT INTO org_sso_domains (domain, org_id) VALUES ('taken-sso.test', ?)").bind(other).run();
    expect((await put(personKey, { ...good, emailDomains: ["taken-sso.test"] })).status).toBe(409);

    // Nothing answers at the issuer: the discovery error names the document, and nothing is stored.
    const unreachable = await put(personKey, good);
    expect(unreachable.status).toBe(400);
    expect(await unreachable.text()).toContain("/.well-known/openid-configuration");
    expect((await rest(personKey, "/org/sso")).status).toBe(404);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM org_sso WHERE org_id = ?").bind(orgId).first("n")).toBe(0);
  });

  it("once required, refuses a member's password and ends the member's password session; a break-glass member still signs in", async () => {
    const { orgId, admin } = await seedTenant();
    const member = await seedUser(orgId, "member", `member-${crypto.randomUUID().slice(0, 6)}@required-sso.test`);
    const session = await signedIn(member.email, member.password);
    expect((await session.get("/dashboard/plans")).status).toBe(200);

    // Stored as a saved configuration would be (the provider itself is in the end-to-end test).
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO org_sso (org_id, issuer, client_id, client_secret_sealed, provider_metadata, default_role, required, updated_by, updated_at) VALUES (?, 'https://idp.required-sso.test', 'c', 'sealed:v1:x:y:z', '{}', 'member', 1, ?, 0)",
      ).bind(orgId, admin.userId),
      env.DB.prepare("INSERT INTO org_sso_domains (domain, org_id) VALUES ('required-sso.test', ?)").bind(orgId),
    ]);
    expect((await session.get("/dashboard/plans")).status).toBe(303);
    const visitor = new Visitor();
    const attempt = await visitor.signIn(member.email, member.password);
    expect(attempt.status).toBe(403);
    const page = await attempt.text();
    expect(page).toContain("signs in through its own provider");
    expect(page).toContain("Continue with idp.required-sso.test");
    const offered = await (await new Visitor().get(`/dashboard/sign-in?email=${encodeURIComponent(member.email)}`)).text();
    expect(offered).toContain(`href="/dashboard/sign-in/sso?email=${encodeURIComponent(member.email)}`);

    await env.DB.prepare("UPDATE memberships SET password_break_glass_at = 1 WHERE org_id = ? AND user_id = ?").bind(orgId, member.userId).run();
    expect((await new Visitor().signIn(member.email, member.password)).status).toBe(303);
  });
});

/** wrangler.toml's SSO_ADDRESS_RATE_LIMITER: 20 a minute. Windows may roll over once in a loop: 2 × 20 + 1 attempts always meet a refusal. */
const SSO_ADDRESS_LIMIT = 20;
const SSO_ATTEMPTS = 2 * SSO_ADDRESS_LIMIT + 1;
const sourcePages = inject("sourcePagesOrigin");

/**
 * An org signing in its own domain through a provider on the loopback fixture server, as a saved configuration is
 * stored (secret sealed): every request Cairn sends the provider is a hit there under the returned path prefix.
 */
async function orgWithProvider() {
  const { orgId, admin } = await seedTenant();
  const tag = `sso-limit-${crypto.randomUUID().slice(0, 8)}`;
  const issuer = `${sourcePages}/${tag}`;
  const metadata = { issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` };
  const sealed = await sealSecret(await requiredKeyring(env as unknown as Env), `sso:${orgId}`, "client-secret");
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO org_sso (org_id, issuer, client_id, client_secret_sealed, provider_metadata, default_role, required, updated_by, updated_at) VALUES (?, ?, 'cairn', ?, ?, 'member', 0, ?, 0)",
    ).bind(orgId, issuer, sealed, JSON.stringify(metadata), admin.userId),
    env.DB.prepare("INSERT INTO org_sso_domains (domain, org_id) VALUES (?, ?)").bind(`${tag}.test`, orgId),
  ]);
  const providerHits = async () =>
    Object.entries(((await (await fetch(`${sourcePages}/hits`)).json()) as { hits: Record<string, number> }).hits)
      .filter(([path]) => path.startsWith(`/${tag}/`))
      .reduce((sum, [, n]) => sum + n, 0);
  return { orgId, email: `ada@${tag}.test`, providerHits };
}

const startSso = (email: string, address: string) =>
  fetchWorker(new Request(`${ORIGIN}/dashboard/sign-in/sso?email=${encodeURIComponent(email)}`, { redirect: "manual", headers: { "cf-connecting-ip": address } }));
const callbackSso = (query: string, address: string, cookie = "") =>
  fetchWorker(new Request(`${ORIGIN}/dashboard/sign-in/sso/callback?${query}`, { redirect: "manual", headers: { "cf-connecting-ip": address, ...(cookie ? { cookie } : {}) } }));
const pendingCount = async () => (await env.OAUTH_KV.list({ prefix: "cairn:sso:pending:" })).keys.length;
const pendingKeyOf = async (state: string) =>
  `cairn:sso:pending:${[...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(state)))].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;

/** Requests from one address until one is refused (429), at most SSO_ATTEMPTS; how many were served before it. */
async function untilRefused(send: () => Promise<Response>, servedStatus: number): Promise<{ refused: Response | undefined; served: number }> {
  let served = 0;
  for (let i = 0; i < SSO_ATTEMPTS; i++) {
    const response = await send();
    if (response.status === 429) return { refused: response, served };
    expect(response.status).toBe(servedStatus);
    served++;
  }
  return { refused: undefined, served };
}

describe("single sign-on's public routes, bounded", () => {
  it("past its bound a client address starting sign-ins gets 429 with Retry-After, no pending sign-in and no request to the provider; another address is served; the next window starts afresh", async () => {
    const { email, providerHits } = await orgWithProvider();
    const address = `203.0.113.${100 + Math.floor(Math.random() * 100)}`;
    const before = await pendingCount();
    const { refused, served } = await untilRefused(() => startSso(email, address), 303);
    expect(refused?.status).toBe(429);
    expect(served).toBeGreaterThanOrEqual(SSO_ADDRESS_LIMIT);
    const retryAfter = Number(refused?.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused?.text()).toContain("Too many sign-in attempts");
    expect(refused?.headers.get("set-cookie")).toBeNull();
    // One pending sign-in per start served, none for the refused one; nothing was asked of the provider.
    expect(await pendingCount()).toBe(before + served);
    expect(await providerHits()).toBe(0);

    // Another client address has its own budget.
    const other = await startSso(email, "198.51.100.23");
    expect(other.status).toBe(303);
    expect(other.headers.get("location")).toContain("/authorize?");

    // A minute on, the window is a new one: the same address is served again.
    const later = Date.now() + 60_000;
    vi.spyOn(Date, "now").mockImplementation(() => later);
    try {
      expect((await startSso(email, address)).status).toBe(303);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("past its bound a client address's callback gets 429 before the pending sign-in is read: it stays pending and no code is exchanged", async () => {
    const { email, providerHits } = await orgWithProvider();
    const address = `192.0.2.${100 + Math.floor(Math.random() * 100)}`;
    const started = await startSso(email, "198.51.100.77");
    expect(started.status).toBe(303);
    const state = new URL(String(started.headers.get("location"))).searchParams.get("state") ?? "";
    const cookie = `cairn-sso=${state}`;
    const query = new URLSearchParams({ code: "a-code", state }).toString();

    const { refused } = await untilRefused(() => callbackSso("code=x&state=not-a-sign-in", address), 400);
    expect(refused?.status).toBe(429);
    const callback = await callbackSso(query, address, cookie);
    expect(callback.status).toBe(429);
    expect(Number(callback.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await callback.text()).toContain("Too many sign-in attempts");
    expect(await env.OAUTH_KV.get(await pendingKeyOf(state))).not.toBeNull();
    expect(await providerHits()).toBe(0);

    // The same callback from an address within its bound goes on: the sign-in is used, and the code is sent to the provider.
    const served = await callbackSso(query, "198.51.100.77", cookie);
    expect(served.status).not.toBe(429);
    expect(await env.OAUTH_KV.get(await pendingKeyOf(state))).toBeNull();
    expect(await providerHits()).toBeGreaterThan(0);
  });
});
