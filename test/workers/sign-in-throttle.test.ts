import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ThrottleState } from "../../src/domain/auth/sign-in-throttle";
import type { SignInThrottleObject } from "../../src/durable-objects/sign-in-throttle-object";
import { Visitor } from "../support/dashboard";
import { CookieJar, hiddenField, pkcePair, registerClient } from "../support/oauth-flow";
import { fetchWorker, ORIGIN, seedTenant } from "../support/worker";

/** The consent flow's sign-in form, posted as a browser would, from one client address. */
async function authorizeSignIn(email: string, password: string, address: string): Promise<Response> {
  const redirectUri = "http://localhost:9999/callback";
  const clientId = await registerClient(fetchWorker, ORIGIN, { redirectUri });
  const { challenge } = await pkcePair();
  const url = `${ORIGIN}/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s" })}`;
  const jar = new CookieJar();
  const page = await fetchWorker(new Request(url, { headers: { "cf-connecting-ip": address } }));
  jar.store(page);
  return fetchWorker(
    new Request(url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header(), "cf-connecting-ip": address },
      body: new URLSearchParams({ step: "signin", csrf: hiddenField(await page.text(), "csrf"), email, password }),
    }),
  );
}

/** Ends every lock of every sign-in counter, as if the windows had passed. */
async function letLocksExpire(keys: string[]) {
  for (const key of keys) {
    await runInDurableObject(env.SIGNIN_THROTTLE.getByName(key), async (_object: SignInThrottleObject, state) => {
      const current = state.storage.kv.get<ThrottleState>("state");
      if (current) state.storage.kv.put("state", { ...current, lockedUntil: Date.now() - 1 });
    });
  }
}

async function accountKey(email: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email.trim().toLowerCase()));
  return `account:${[...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

describe("sign-in throttling on the consent flow", () => {
  it("answers 429 with a growing Retry-After after a few wrong passwords, refuses the right one meanwhile, and lets it in after the window", async () => {
    const { admin } = await seedTenant();
    const address = "203.0.113.10";
    const statuses: number[] = [];
    const retryAfters: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await authorizeSignIn(admin.email, "wrong-password", address);
      statuses.push(response.status);
      if (response.status === 429) retryAfters.push(Number(response.headers.get("retry-after")));
    }
    // Five wrong passwords, as the README says; the sixth attempt is already refused.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(retryAfters[0]).toBeGreaterThan(0);
    expect(retryAfters[0]).toBeLessThanOrEqual(30);

    const right = await authorizeSignIn(admin.email, admin.password, address);
    expect(right.status).toBe(429);
    const html = await right.text();
    expect(html).toContain("Too many sign-in attempts");
    expect(html).not.toContain('name="handle"'); // no consent form

    await letLocksExpire([await accountKey(admin.email)]);
    const failedAgain = await authorizeSignIn(admin.email, "still-wrong", address);
    expect(failedAgain.status).toBe(401);
    const grown = await authorizeSignIn(admin.email, "wrong", address);
    expect(grown.status).toBe(429);
    expect(Number(grown.headers.get("retry-after"))).toBeGreaterThan(30);

    await letLocksExpire([await accountKey(admin.email)]);
    const after = await authorizeSignIn(admin.email, admin.password, address);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('name="handle"');
  });

  it("throttles an unknown e-mail exactly like a known one", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await authorizeSignIn("nobody-here@example.com", "guess", "203.0.113.11")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it("throttles one client address guessing across many accounts, and only that address", async () => {
    const { admin } = await seedTenant();
    const address = "198.51.100.7";
    // Twenty failures from one address, as the README says; the twenty-first attempt is already refused.
    for (let i = 0; i < 20; i++) expect((await authorizeSignIn(`user-${i}@example.com`, "guess", address)).status).toBe(401);
    const blocked = await authorizeSignIn(admin.email, admin.password, address);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toBeTruthy();
    expect((await authorizeSignIn(admin.email, admin.password, "198.51.100.8")).status).toBe(200);
  });
});

describe("sign-in throttling on the dashboard", () => {
  it("answers 429 with Retry-After after a few wrong passwords and refuses the right one until the window passes", async () => {
    const { admin } = await seedTenant();
    const visitor = new Visitor();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await visitor.signIn(admin.email, "wrong")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const right = await visitor.signIn(admin.email, admin.password);
    expect(right.status).toBe(429);
    expect(right.headers.get("retry-after")).toBeTruthy();
    expect(right.headers.getSetCookie().some((cookie) => cookie.startsWith("cairn-dash="))).toBe(false);
    await letLocksExpire([await accountKey(admin.email)]);
    expect((await visitor.signIn(admin.email, admin.password)).status).toBe(303);
  });
});
