import type { Hono } from "hono";
import { finishSignIn, authorizationUrl, newPendingSecrets } from "../../auth/sso/provider-client";
import { providerAccess, ssoClientOf } from "../../auth/sso/org-sso";
import { type SsoLimitRefusal, ssoLimitRefusal } from "../../auth/sso/sign-in-limits";
import { clientAddress } from "../../auth/sign-in";
import { emailDomainOf, providerNameOf } from "../../domain/auth/sso/config";
import { refusalMessage, type SsoRefusal } from "../../domain/auth/sso/identity";
import { checkPending, type PendingSsoSignIn, SSO_PENDING_TTL_SECONDS, type SsoReturn } from "../../domain/auth/sso/pending";
import { ssoAddressCounter, ssoOrgCounter } from "../../domain/auth/sso/sign-in-limits";
import { newId } from "../../domain/ids";
import type { Env } from "../../env";
import { log } from "../../platform/log";
import { auditInsertStatement } from "../../storage/audit-log";
import { ensureSsoMember, orgSsoForDomain, readOrgSso, type StoredSso } from "../../storage/org-sso";
import { leaveSsoTicket } from "../sso-ticket";
import { openDashboard } from "./org-choice";
import { type App, type DashContext, render } from "./page";
import { cookieHeader, cookieSecurity, readCookie, sha256Hex } from "./session";

/**
 * Sign-in through the org's own OpenID Connect provider (src/auth/sso): GET /dashboard/sign-in/sso?email= sends
 * the browser to the provider of the org whose domain the address is in; the provider sends it back to
 * /dashboard/sign-in/sso/callback, which opens the dashboard, or (when the sign-in began on the consent page of an
 * MCP client's authorization) shows that consent page. Every refusal is a page in words, changes nothing, and is
 * audited (the org's log once the org is known, the Worker's log before) without any token. Both routes need no
 * session, so both are bounded (src/domain/auth/sso/sign-in-limits.ts) before a pending sign-in is read or written
 * and before the provider is called.
 */
const pendingKey = (stateHash: string) => `cairn:sso:pending:${stateHash}`;
const stateCookieName = (env: Env) => (cookieSecurity(env.PUBLIC_URL).secure ? "__Host-cairn-sso" : "cairn-sso");
/** Only an authorization request's query (what /authorize was called with) is carried back to it. */
const AUTHORIZE_SEARCH = /^\?[A-Za-z0-9_\-=&%.~+:/]*$/;

function SsoMessage(props: { title: string; message: string; retry: string }) {
  return (
    <div class="signin card">
      <h1>{props.title}</h1>
      <p class="error" role="alert">
        {props.message}
      </p>
      <p>
        <a href={props.retry}>Back to sign-in</a>
      </p>
    </div>
  );
}

const refusalPage = (c: DashContext, refusal: SsoRefusal, providerName: string, status: number, retry = "/dashboard/sign-in") => {
  const { title, message } = refusalMessage(refusal, providerName);
  return render(c, { title, children: <SsoMessage title={title} message={message} retry={retry} /> }, status);
};

/** A refusal in the org's audit log: the reason and the library's words (never a token, code or claim value). */
async function auditRefusal(env: Env, orgId: string, refusal: SsoRefusal, detail: string): Promise<void> {
  await auditInsertStatement(env.DB, { orgId, actorUserId: "sso", actorClientId: "sso", action: "sso.sign_in_refused", targetType: "org", targetId: orgId, detail: { reason: refusal, detail } }, Date.now()).run();
}

/**
 * Past a bound: 429 with Retry-After, in words; no pending sign-in read or written, nothing sent to the provider,
 * the state cookie left as it is. In the Worker's log always, and in the org's audit log when the org is known (its
 * own bound refused the start): that write is bounded too, by the per-address bound every start passes first.
 */
async function limitedPage(c: DashContext, refusal: SsoLimitRefusal, step: "start" | "callback", retry: string, orgId: string | null) {
  log("warn", "sso sign-in refused", { reason: "rate_limited", bound: refusal.bound, step, orgId });
  if (orgId) await auditRefusal(c.env, orgId, "rate_limited", "more sign-ins were started for the organization in a minute than its bound allows");
  c.header("retry-after", String(refusal.retryAfterSeconds));
  return refusalPage(c, "rate_limited", "", 429, retry);
}

/** The provider's "Continue with …" link for an e-mail whose domain an org signs in, or undefined. */
export async function ssoOfferFor(env: Env, email: string | undefined, then: { next?: string; authorize?: string }): Promise<{ providerName: string; href: string } | undefined> {
  const domain = email ? emailDomainOf(email) : null;
  const sso = domain ? await orgSsoForDomain(env.DB, domain) : null;
  if (!sso || !email) return undefined;
  const query = new URLSearchParams({ email });
  if (then.next) query.set("next", then.next);
  if (then.authorize) query.set("authorize", then.authorize);
  return { providerName: providerNameOf(sso.issuer), href: `/dashboard/sign-in/sso?${query}` };
}

export function registerSsoRoutes(dashboardApp: Hono<App>, safeReturn: (value: unknown, fallback: string) => string): void {
  dashboardApp.get("/sign-in/sso", async (c) => {
    const email = (c.req.query("email") ?? "").trim().slice(0, 320);
    const authorize = c.req.query("authorize");
    const after: SsoReturn =
      authorize !== undefined && AUTHORIZE_SEARCH.test(authorize) ? { kind: "authorize", search: authorize } : { kind: "dashboard", next: safeReturn(c.req.query("next"), "/dashboard/plans") };
    const retry = after.kind === "authorize" ? `/authorize${after.search}` : "/dashboard/sign-in";
    const now = Date.now();
    const byAddress = await ssoLimitRefusal(c.env, ssoAddressCounter("start", clientAddress(c.req.raw), now));
    if (byAddress) return limitedPage(c, byAddress, "start", retry, null);
    const domain = emailDomainOf(email);
    const sso = domain ? await orgSsoForDomain(c.env.DB, domain) : null;
    if (!sso) return refusalPage(c, "not_configured", "", 404, retry);
    const byOrg = await ssoLimitRefusal(c.env, ssoOrgCounter(sso.orgId, now));
    if (byOrg) return limitedPage(c, byOrg, "start", retry, sso.orgId);
    const providerName = providerNameOf(sso.issuer);
    const opened = await ssoClientOf(c.env, sso);
    if (!opened) return refusalPage(c, "provider_unreachable", providerName, 503, retry);
    const pending: PendingSsoSignIn = { orgId: sso.orgId, ...newPendingSecrets(), createdAt: now, after };
    await c.env.OAUTH_KV.put(pendingKey(await sha256Hex(pending.state)), JSON.stringify(pending), { expirationTtl: SSO_PENDING_TTL_SECONDS });
    const target = await authorizationUrl(opened.metadata, opened.client, pending, email);
    c.header("set-cookie", cookieHeader(c.env.PUBLIC_URL, stateCookieName(c.env), pending.state, SSO_PENDING_TTL_SECONDS), { append: true });
    // A form's answer may not redirect to another origin under the dashboard's form-action policy: a page that
    // moves on by itself (and a link, should it not) instead. A link (Continue with …) is redirected at once.
    if (c.req.query("via") !== "form") return c.redirect(target.href, 303);
    c.header("refresh", `0;url=${target.href}`);
    return render(c, {
      title: `Continue with ${providerName}`,
      children: (
        <div class="signin card">
          <h1>Continue with {providerName}</h1>
          <p>
            <a class="button primary" id="sso-continue" href={target.href}>
              Continue with {providerName}
            </a>
          </p>
        </div>
      ),
    });
  });

  dashboardApp.get("/sign-in/sso/callback", async (c) => {
    // Before the pending record is read (a refused callback leaves it, and its cookie, to be opened again once the window ends).
    const byAddress = await ssoLimitRefusal(c.env, ssoAddressCounter("callback", clientAddress(c.req.raw), Date.now()));
    if (byAddress) return limitedPage(c, byAddress, "callback", "/dashboard/sign-in", null);
    const url = new URL(c.req.url);
    const state = (url.searchParams.get("state") ?? "").slice(0, 200);
    const key = pendingKey(await sha256Hex(state));
    const raw = state ? await c.env.OAUTH_KV.get(key) : null;
    // Used once: deleted before anything else happens, so a replayed callback finds nothing.
    if (raw) await c.env.OAUTH_KV.delete(key);
    const pendingRecord = raw ? (JSON.parse(raw) as PendingSsoSignIn) : null;
    c.header("set-cookie", cookieHeader(c.env.PUBLIC_URL, stateCookieName(c.env), "", 0), { append: true });
    const checked = checkPending(pendingRecord, state, readCookie(c.req.raw, stateCookieName(c.env)), Date.now());
    if (!checked.ok) {
      log("warn", "sso sign-in refused", { reason: checked.refusal, orgId: pendingRecord?.orgId ?? null });
      if (pendingRecord) await auditRefusal(c.env, pendingRecord.orgId, checked.refusal, "the state does not match this browser's");
      return refusalPage(c, checked.refusal, "your provider", 400);
    }
    const { pending } = checked;
    const retry = pending.after.kind === "authorize" ? `/authorize${pending.after.search}` : "/dashboard/sign-in";
    const sso = await readOrgSso(c.env.DB, pending.orgId);
    const opened = sso ? await ssoClientOf(c.env, sso) : null;
    if (!sso || !opened) {
      await auditRefusal(c.env, pending.orgId, "not_configured", "single sign-on was removed or its secret cannot be opened");
      return refusalPage(c, "not_configured", "", 400, retry);
    }
    const providerName = providerNameOf(sso.issuer);
    // The callback URL as the provider sent it, on this deployment's public origin (the redirect_uri registered).
    const callbackUrl = new URL(`${opened.client.redirectUri}${url.search}`);
    const outcome = await finishSignIn(opened.metadata, opened.client, callbackUrl, pending, sso.emailDomains, providerAccess(c.env), Math.floor(Date.now() / 1000));
    if (!outcome.ok) {
      const detail = "detail" in outcome ? outcome.detail : outcome.refusal;
      log("warn", "sso sign-in refused", { reason: outcome.refusal, orgId: pending.orgId, detail });
      await auditRefusal(c.env, pending.orgId, outcome.refusal, detail);
      return refusalPage(c, outcome.refusal, providerName, outcome.refusal === "provider_unreachable" ? 502 : 403, retry);
    }
    const person = await admit(c.env, sso, outcome);
    if (pending.after.kind === "dashboard") {
      return openDashboard(c, c.env, { userId: person.userId, email: outcome.email, displayName: person.displayName, ssoOrgId: sso.orgId }, sso.orgId, pending.after.next);
    }
    c.header("set-cookie", await leaveSsoTicket(c.env, { userId: person.userId, email: outcome.email, orgId: sso.orgId, search: pending.after.search }), { append: true });
    return c.redirect(`/authorize${pending.after.search}`, 303);
  });
}

/** The person the provider signed in, as a member of its org: matched by e-mail, or joined with the default role (audited). */
async function admit(env: Env, sso: StoredSso, identity: { email: string; subject: string; name: string | null }) {
  const now = Date.now();
  const newUserId = newId("user");
  const result = await ensureSsoMember(env.DB, {
    orgId: sso.orgId,
    email: identity.email,
    displayName: identity.name ?? identity.email,
    role: sso.defaultRole,
    newUserId,
    now,
    audit: (userId) =>
      auditInsertStatement(
        env.DB,
        { orgId: sso.orgId, actorUserId: userId, actorClientId: "sso", action: "member.joined_via_sso", targetType: "user", targetId: userId, detail: { email: identity.email, role: sso.defaultRole, issuer: sso.issuer } },
        now,
      ),
  });
  await auditInsertStatement(env.DB, { orgId: sso.orgId, actorUserId: result.userId, actorClientId: "sso", action: "user.signed_in_sso", targetType: "user", targetId: result.userId, detail: { issuer: sso.issuer } }, now).run();
  return result;
}
