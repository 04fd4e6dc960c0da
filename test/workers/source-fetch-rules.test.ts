import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { SourceCheckMessage } from "../../src/domain/ports";
import type { SourceFetchRules } from "../../src/domain/sources/fetch-rules";
import { isDeadSource, unreachableKind } from "../../src/domain/sources/verification";
import type { Env } from "../../src/env";
import { checkerOf, checkSource, sourceToCheck } from "../../src/platform/sources/check-source";
import { fetchPage } from "../../src/platform/sources/fetch-page";
import { createPlan, ok, steps } from "../support/plans";
import { waitFor } from "../support/webhooks";
import { rest, seedApiKey, seedTenant } from "../support/worker";

/**
 * Where a source check may go and what it says when it cannot read a page, on workerd against the loopback page
 * fixtures (test/support/source-pages.global.ts): every failure starts with its stable code, and every hop of a
 * fetch (redirects included) passes the guard, SOURCE_CHECK_HOSTS and the org's blocked domains.
 */
const origin = inject("sourcePagesOrigin");
const page = (path: string) => `${origin}${path}`;
/** The same fixtures under the name `localhost` (the workers tests' SOURCE_CHECK_HOSTS lists it beside 127.0.0.1). */
const byName = (path: string) => `${origin.replace("127.0.0.1", "localhost")}${path}`;
const redirectTo = (target: string) => page(`/redirect?to=${encodeURIComponent(target)}`);
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";

const development: SourceFetchRules = { outbound: { allowLoopback: true }, allowedHosts: null, blockedDomains: [] };
const hits = async () => ((await (await fetch(`${origin}/hits`)).json()) as { hits: Record<string, number> }).hits;
const reasonOf = async (url: string, rules: SourceFetchRules = development) => {
  const fetched = await fetchPage(url, rules, "test");
  return fetched.ok ? `fetched ${fetched.finalUrl}` : fetched.reason;
};

describe("fetchPage's reasons", () => {
  it("start with a stable code: dead (404, 410, a redirect ending in one), walled, http_error, refused, connection", async () => {
    expect(await reasonOf(page("/gone"))).toBe("dead: HTTP 404 (the page does not exist)");
    expect(await reasonOf(page("/removed"))).toBe("dead: HTTP 410 (the page is gone)");
    expect(await reasonOf(page("/to-gone"))).toBe("dead: HTTP 404 (the page does not exist)");
    expect(await reasonOf(page("/forbidden"))).toBe("walled: HTTP 403 (a bot wall, paywall or rate limit)");
    expect(await reasonOf(page("/hop/6"))).toBe("http_error: more than 5 redirects");
    expect(await reasonOf(page("/no-location"))).toBe("http_error: HTTP 302 redirect without a Location");
    expect(await reasonOf(page("/to-private"))).toBe("refused: a redirect was refused (private addresses are not allowed)");
    expect(await reasonOf(page("/article.html"), { ...development, outbound: { allowLoopback: false } })).toBe("refused: the address was refused (loopback addresses are not allowed)");
    // Nothing listens on port 1: the connection is refused, which says nothing of whether the page exists.
    const refusedConnection = await reasonOf("http://127.0.0.1:1/page");
    expect(refusedConnection).toMatch(/^connection: /);
    // workerd reports a name that does not resolve as it reports a failed TLS handshake ("internal error"): it cannot be
    // told apart, so it is a connection failure, never called dead.
    const unresolved = await reasonOf("https://nonexistent.invalid/page");
    expect(unresolved).toMatch(/^connection: /);
    expect(unresolved).not.toMatch(/reference/);
    for (const reason of [refusedConnection, unresolved]) expect(isDeadSource({ status: "unreachable", reason })).toBe(false);
  });

  it("refuses a redirect to a host the org blocks before any request reaches it, naming the rule", async () => {
    const target = byName("/article.html?blocked-direct");
    // Without the rule, the redirect is followed to localhost (the fixture answers there).
    expect(await reasonOf(redirectTo(byName("/article.html?allowed-direct")))).toBe(`fetched ${byName("/article.html?allowed-direct")}`);
    const refused = await reasonOf(redirectTo(target), { ...development, blockedDomains: ["localhost"] });
    expect(refused).toBe("refused: a redirect was refused (blocked by your organization's source policy: localhost)");
    expect(unreachableKind(refused)).toBe("refused");
    expect((await hits())["/article.html?blocked-direct"]).toBeUndefined();
    // The cited address itself, and a subdomain rule's parent, are held to the same rules.
    expect(await reasonOf(target, { ...development, blockedDomains: ["localhost"] })).toBe("refused: the address was refused (blocked by your organization's source policy: localhost)");
    expect(await reasonOf(redirectTo(target), { ...development, allowedHosts: new Set(["127.0.0.1"]) })).toBe(
      "refused: a redirect was refused (this deployment fetches only from the hosts SOURCE_CHECK_HOSTS lists)",
    );
  });
});

interface EvidenceOut {
  verification: { status: string; reason?: string; basis?: string; snapshot?: string };
}

async function recorded(key: string, evidence: Record<string, unknown>[]): Promise<EvidenceOut[]> {
  const { planId } = await createPlan(key, { name: "[Deep] Redirects", steps: steps("search", "synthesize"), citationPolicy: "report" });
  await ok(key, "record_evidence", { planId, evidence });
  return waitFor("the source checks", async () => {
    const { evidence: rows } = (await ok(key, "get_evidence_ledger", { planId, limit: 50, detail: "full" })) as { evidence: EvidenceOut[] };
    return rows.every((e) => e.verification.status !== "pending") ? rows : null;
  });
}

const source = (url: string, extra: Record<string, unknown> = {}) => ({ url, title: "Solid-state batteries reach 500 Wh/kg", facts: `What ${url} says`, subtopic: "Density", quote: QUOTE, ...extra });

describe("fetchPage and the network's failures", () => {
  const fast = { baseDelayMs: 10 };
  const fetchFast = (url: string) => fetchPage(url, development, "test", undefined, fast);
  const tag = () => crypto.randomUUID().slice(0, 8);

  it("tries a dropped connection, a 503 and a 502 again on a fresh connection; a 404 is dead at once", async () => {
    const dropped = `/drops-first/${tag()}`;
    expect(await fetchFast(page(dropped))).toMatchObject({ ok: true, status: 200 });
    const busy = `/busy-first/${tag()}`;
    expect(await fetchFast(page(busy))).toMatchObject({ ok: true, status: 200 });
    const gateway = `/bad-gateway/${tag()}`;
    expect(await fetchFast(page(gateway))).toEqual({ ok: false, reason: "http_error: HTTP 502 (tried 3 times)" });
    const gone = `/gone?${tag()}`;
    expect(await fetchFast(page(gone))).toEqual({ ok: false, reason: "dead: HTTP 404 (the page does not exist)" });
    const seen = await hits();
    expect([seen[dropped], seen[busy], seen[gateway], seen[gone]]).toEqual([2, 2, 3, 1]);
  });

  it("ends at once with a Retry-After longer than a fetch waits, for the check to be put off", async () => {
    const limited = `/rate-limited/${tag()}`;
    expect(await fetchFast(page(limited))).toEqual({ ok: false, reason: "walled: HTTP 429 (a bot wall, paywall or rate limit)", retryAfterMs: 600_000 });
    expect((await hits())[limited]).toBe(1);
  });

  it("verifies quotes of a page whose first connection drops; checks of one failing page share one fetch and its retries", async () => {
    const { apiKey } = await seedTenant();
    const url = page(`/drops-first/${tag()}`);
    const failing = page(`/bad-gateway/${tag()}`);
    const second = { quote: "Costs remain higher than lithium-ion cells" };
    // A page asking to be read again in 10 minutes: later than the source's 15-minute bound allows, so walled now.
    const limited = page(`/rate-limited/${tag()}`);
    const rows = await recorded(apiKey, [source(url), source(url, second), source(failing), source(failing, second), source(limited)]);
    expect(rows.map((row) => row.verification.status)).toEqual(["verified", "verified", "unreachable", "unreachable", "unreachable"]);
    expect(rows[3]?.verification.reason).toBe("http_error: HTTP 502 (tried 3 times)");
    expect(rows[4]?.verification.reason).toBe("walled: HTTP 429 (a bot wall, paywall or rate limit)");
    // The dropped connection and its retry; the failing page's three attempts, once for both quotes.
    const seen = await hits();
    expect([seen[new URL(url).pathname], seen[new URL(failing).pathname]]).toEqual([2, 3]);
  });
});

describe("source checks and the org's source policy", () => {
  it("end unreachable (refused) at a redirect to a blocked host, with nothing of that host read or stored", async () => {
    const tenant = await seedTenant();
    const adminKey = (await seedApiKey(tenant.orgId, tenant.admin.userId, ["research:read", "research:write", "org:admin"])).key;
    const set = await rest(adminKey, "/org/settings", { method: "PATCH", body: JSON.stringify({ sourcePolicy: { blockedDomains: ["localhost"] } }) });
    expect(set.status, await set.clone().text()).toBe(200);

    const [blocked] = await recorded(tenant.apiKey, [source(redirectTo(byName("/article.html?org-blocked")))]);
    expect(blocked?.verification).toEqual({ status: "unreachable", reason: "refused: a redirect was refused (blocked by your organization's source policy: localhost)" });
    expect((await hits())["/article.html?org-blocked"]).toBeUndefined();
    expect((await env.SOURCE_SNAPSHOTS.list({ prefix: `orgs/${tenant.orgId}/` })).objects).toEqual([]);

    // Another org, without the rule: the same redirect is followed and the quote verified on the page at localhost.
    const other = await seedTenant();
    const [followed] = await recorded(other.apiKey, [source(redirectTo(byName("/article.html?org-allowed")))]);
    expect(followed?.verification).toEqual({ status: "verified", score: 1 });
  });

  it("never lets the assistant's text revive a dead URL: a 404, a 410 or a redirect to a 404 stays unreachable and dead", async () => {
    const { apiKey } = await seedTenant();
    const sourceText = `Subscribers only.\n\nIn March, the team reported that ${QUOTE}, a record for the chemistry.`;
    const rows = await recorded(apiKey, [source(page("/gone?revive"), { sourceText }), source(page("/removed?revive"), { sourceText }), source(page("/to-gone?revive"), { sourceText })]);
    expect(rows.map((row) => row.verification)).toEqual([
      { status: "unreachable", reason: "dead: HTTP 404 (the page does not exist)" },
      { status: "unreachable", reason: "dead: HTTP 410 (the page is gone)" },
      { status: "unreachable", reason: "dead: HTTP 404 (the page does not exist)" },
    ]);
  });
});

describe("source checks and the deployment's environment", () => {
  it("fetch from loopback only where CAIRN_ENV is exactly development: unset, misspelled or another environment is refused", async () => {
    const tenant = await seedTenant();
    const url = page("/changing/cairn-env-gate");
    const { planId } = await createPlan(tenant.apiKey, { name: "[Deep] Gate", steps: steps("search", "synthesize"), citationPolicy: "report" });
    await ok(tenant.apiKey, "record_evidence", { planId, evidence: [source(url)] });
    const verdictNow = async () =>
      env.DB.prepare("SELECT verification_status AS status, verification_reason AS reason FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = 1")
        .bind(tenant.orgId, planId)
        .first<{ status: string; reason: string | null }>();
    // This Worker runs with CAIRN_ENV = "development": the loopback page is read.
    expect(await waitFor("the first check", async () => ((await verdictNow())?.status === "verified" ? true : null))).toBe(true);
    // The same source checked again (fetched fresh) by a Worker whose CAIRN_ENV is anything else.
    // The check itself (what each org's checker runs), over that Worker's environment.
    const checkWith = async (CAIRN_ENV: string | undefined) => {
      const over = { ...env, CAIRN_ENV } as unknown as Env;
      const body: SourceCheckMessage = { orgId: tenant.orgId, planId, n: 1, recheck: true };
      const ready = await sourceToCheck(over, body);
      if (!ready) throw new Error("the source is gone");
      await checkSource(over, checkerOf(over), body, ready, Date.now());
    };
    for (const CAIRN_ENV of [undefined, "", "Development", "dev", "staging", "production"]) {
      await checkWith(CAIRN_ENV);
      expect(await verdictNow(), String(CAIRN_ENV)).toEqual({ status: "unreachable", reason: "refused: the address was refused (loopback addresses are not allowed)" });
    }
    await checkWith("development");
    expect((await verdictNow())?.status).toBe("verified");
  });
});
