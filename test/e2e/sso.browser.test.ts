import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { addUser, createApiKey, createOrg, runSql, sqlString } from "../../scripts/lib/local.mjs";
import { setSso } from "../../scripts/lib/sso.mjs";
import { findBrowser } from "../support/browser";
import { pkcePair, registerClient } from "../support/oauth-flow";

/**
 * Single sign-on through an org's own OpenID Connect provider, end to end: a real provider (oidc-provider, on
 * loopback http, which a development deployment may reach) started here, the suite's `wrangler dev`, and
 * Chromium through the whole flow, on the dashboard and on the consent page of an MCP client's authorization.
 * Its own org (sso-e2e), so requiring single sign-on there changes nothing for the other files.
 */
const server = inject("server");
const target = { persistTo: server.persistTo };
const ORG = "sso-e2e";
const DOMAIN = "sso-e2e.test";
const CLIENT_ID = "cairn-e2e";
const CLIENT_SECRET = "cairn-e2e-client-secret";
const ADMIN = { email: `admin@${DOMAIN}`, password: "sso-admin-password-1" };

/** The provider's people: an account id is the login typed (Cairn sends the e-mail as login_hint). */
function claimsOf(id: string): Record<string, unknown> {
  if (id.startsWith("unverified@")) return { email: id, email_verified: false };
  if (id.startsWith("outsider@")) return { email: "outsider@elsewhere.test", email_verified: true };
  return { email: id, email_verified: true, name: `Person ${id.split("@")[0]}` };
}

let issuer = "";
let providerServer: Server;
let browser: Browser;
let personKey = "";

async function api(method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** A fresh browser (no cookies at Cairn or at the provider), so each sign-in starts from nothing. */
async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

/** At the provider's own pages: sign in as `login`, then allow Cairn. */
async function signInAtProvider(page: Page, login: string) {
  await page.waitForURL((url) => url.origin === issuer);
  await page.fill("input[name=login]", login);
  await page.fill("input[name=password]", "anything");
  await page.click("button[type=submit]");
  await page.waitForSelector("button[type=submit]");
  if (new URL(page.url()).origin === issuer) await page.click("button[type=submit]");
}

async function ssoFromDashboard(page: Page, email: string) {
  await page.goto(`${server.url}/dashboard/sign-in`);
  await page.fill("#sso-email", email);
  await page.click("#sso-submit");
  await signInAtProvider(page, email);
  await page.waitForURL((url) => url.origin === server.url);
}

const auditActions = async (orgId: string) =>
  (await runSql(`SELECT action, detail FROM audit_log WHERE org_id = ${sqlString(orgId)} ORDER BY created_at`, target)) as { action: string; detail: string }[];

describe("single sign-on through the org's provider, in Chromium", { timeout: 180_000 }, () => {
  let orgId = "";

  beforeAll(async () => {
    providerServer = createServer();
    await new Promise<void>((resolve) => providerServer.listen(0, "127.0.0.1", resolve));
    issuer = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${server.url}/dashboard/sign-in/sso/callback`], grant_types: ["authorization_code"], response_types: ["code"] }],
      cookies: { keys: ["sso-e2e-cookie-key"] },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
      // The ID token carries the e-mail, as Google, Entra ID and Okta send it.
      conformIdTokenClaims: false,
      findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id, ...claimsOf(id) }) }),
    });
    providerServer.on("request", provider.callback());

    const org = await createOrg({ slug: ORG, name: "SSO End to end" }, target);
    orgId = org.id;
    await addUser({ org: ORG, email: ADMIN.email, name: "SSO Admin", role: "admin", password: ADMIN.password }, target);
    personKey = (await createApiKey({ org: ORG, userEmail: ADMIN.email, name: "sso-person", scopes: ["org:admin", "plans:approve"] }, target)).key;

    const found = await findBrowser();
    browser = await chromium.launch({
      executablePath: found.executablePath,
      ...(found.env ? { env: { ...process.env, ...found.env } } : {}),
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => providerServer?.close(resolve));
  });

  it("is configured by a person: refused to an assistant's admin key, to an issuer without discovery; the CLI sets it; the secret never comes back", async () => {
    const body = { issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, emailDomains: [DOMAIN] };
    const assistantKey = (await createApiKey({ org: ORG, userEmail: ADMIN.email, name: "sso-assistant", scopes: ["research:read", "org:admin"] }, target)).key;
    const refused = await api("PUT", "/org/sso", assistantKey, body);
    expect(refused.status).toBe(403);
    expect(String(refused.body?.detail ?? JSON.stringify(refused.body))).toContain("plans:approve");

    const noDiscovery = await api("PUT", "/org/sso", personKey, { ...body, issuer: `${issuer}/not-an-issuer` });
    expect(noDiscovery.status).toBe(400);
    expect(JSON.stringify(noDiscovery.body)).toContain("discovery document");
    expect((await api("GET", "/org/sso", personKey)).status).toBe(404);

    const set = await setSso({ org: ORG, issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, domains: [DOMAIN], url: server.url, ...target });
    expect(set).toMatchObject({ issuer, clientId: CLIENT_ID, emailDomains: [DOMAIN], defaultRole: "member", required: false });
    const shown = await api("GET", "/org/sso", personKey);
    expect(shown.body).toMatchObject({ issuer, emailDomains: [DOMAIN] });
    expect(JSON.stringify(shown.body)).not.toContain(CLIENT_SECRET);
    const [stored] = (await runSql(`SELECT client_secret_sealed FROM org_sso WHERE org_id = ${sqlString(orgId)}`, target)) as { client_secret_sealed: string }[];
    expect(stored?.client_secret_sealed).toMatch(/^sealed:v1:/);
    expect(stored?.client_secret_sealed).not.toContain(CLIENT_SECRET);
  });

  it("signs a new person in on the dashboard through the provider: a member with the default role, audited", async () => {
    const { context, page } = await freshPage();
    await ssoFromDashboard(page, `ada@${DOMAIN}`);
    expect(new URL(page.url()).pathname).toBe("/dashboard/plans");
    expect(await page.textContent("header.top")).toContain(`ada@${DOMAIN}`);
    const [member] = (await runSql(`SELECT m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = ${sqlString(`ada@${DOMAIN}`)} AND m.org_id = ${sqlString(orgId)}`, target)) as { role: string }[];
    expect(member?.role).toBe("member");

    // The provider's answer, replayed: its state was used once, so nothing is signed in again.
    const callbacks: string[] = [];
    page.on("request", (request) => request.url().includes("/sign-in/sso/callback") && callbacks.push(request.url()));
    await context.clearCookies();
    await ssoFromDashboard(page, `ada@${DOMAIN}`);
    const used = callbacks.at(-1) ?? "";
    expect(used).toContain("state=");
    await page.goto(used);
    expect(await page.textContent("h1")).toContain("This sign-in link expired");
    await context.close();
  });

  it("refuses, with a page a person understands and no member added, an unverified e-mail and an address outside the org's domains", async () => {
    for (const [login, words] of [
      [`unverified@${DOMAIN}`, "E-mail address not verified"],
      [`outsider@${DOMAIN}`, "not allowed here"],
    ] as const) {
      const { context, page } = await freshPage();
      await ssoFromDashboard(page, login);
      expect(await page.textContent("h1")).toContain(words);
      expect(await page.content()).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
      await context.close();
    }
    const users = (await runSql(`SELECT email FROM users WHERE email IN ('unverified@${DOMAIN}', 'outsider@elsewhere.test')`, target)) as unknown[];
    expect(users).toEqual([]);
  });

  it("signs in through the provider on an MCP client's consent page, and the client gets a working token", async () => {
    const redirectUri = "http://localhost:9999/callback";
    const clientId = await registerClient((request) => fetch(request), server.url, { redirectUri, clientName: "SSO test client" });
    const { verifier, challenge } = await pkcePair();
    const query = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "client-state", resource: server.url });
    const { context, page } = await freshPage();
    await page.goto(`${server.url}/authorize?${query}`);
    await page.fill("#sso-email", `grace@${DOMAIN}`);
    await page.click("#sso-submit");
    await signInAtProvider(page, `grace@${DOMAIN}`);
    await page.waitForSelector("text=Allow SSO test client to use Cairn?");
    expect(await page.content()).toContain("SSO End to end");
    // Nothing listens at the client's loopback callback: the request the browser makes there is enough.
    const [redirected] = await Promise.all([page.waitForRequest((request) => request.url().startsWith(redirectUri)), page.click("button[value=approve]")]);
    const code = new URL(redirected.url()).searchParams.get("code") ?? "";
    expect(code).not.toBe("");
    const token = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier, resource: server.url }),
    });
    expect(token.status).toBe(200);
    const accessToken = ((await token.json()) as { access_token: string }).access_token;
    expect((await api("GET", "/plans", accessToken)).status).toBe(200);
    await context.close();
  });

  it("with single sign-on required, refuses a member's password and offers the provider; the operator's break-glass password still signs in; all of it audited", async () => {
    const required = await api("PUT", "/org/sso", personKey, { issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, emailDomains: [DOMAIN], required: true });
    expect(required.body).toMatchObject({ required: true });
    const { context, page } = await freshPage();
    const passwordSignIn = async () => {
      await page.goto(`${server.url}/dashboard/sign-in`);
      await page.fill("#email", ADMIN.email);
      await page.fill("#password", ADMIN.password);
      await page.click("form[action='/dashboard/sign-in'] button[type=submit]");
      await page.waitForLoadState();
    };
    await passwordSignIn();
    expect(await page.textContent("body")).toContain("signs in through its own provider");
    expect(await page.textContent("#sso-continue")).toContain(`Continue with 127.0.0.1`);

    const breakGlass = await addUser({ org: ORG, email: ADMIN.email, role: "admin", password: ADMIN.password }, target);
    expect(breakGlass.breakGlass).toBe(true);
    await passwordSignIn();
    expect(new URL(page.url()).pathname).toBe("/dashboard/plans");

    // The admin's page shows the provider, never the secret, and removes it (a person's change, in the dashboard).
    await page.goto(`${server.url}/dashboard/admin/sso`);
    expect(await page.textContent("#sso-status")).toContain("127.0.0.1");
    expect(await page.content()).not.toContain(CLIENT_SECRET);
    await page.click("#sso-remove");
    await page.waitForSelector("text=Single sign-on removed");
    await context.close();

    expect((await api("GET", "/org/sso", personKey)).status).toBe(404);
    const audit = await auditActions(orgId);
    expect(audit.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(["org.sso_configured", "member.joined_via_sso", "user.signed_in_sso", "member.break_glass_password", "org.sso_removed"]),
    );
    const refusals = audit.filter((entry) => entry.action === "sso.sign_in_refused").map((entry) => JSON.parse(entry.detail).reason);
    expect(refusals).toEqual(expect.arrayContaining(["email_not_verified", "domain_not_allowed"]));
    // No token in the log: neither an ID token (a JWT) nor the client secret.
    expect(JSON.stringify(audit)).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}|cairn-e2e-client-secret/);
  });
});
