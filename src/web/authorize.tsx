import { type AuthRequest, AuthorizationError, CimdFetchError } from "@cloudflare/workers-oauth-provider";
import type { Context } from "hono";
import { canonicalOrigin, normalizeResourceParams } from "../auth/resource";
import { checkPassword, waitInWords } from "../auth/sign-in";
import type { GrantProps } from "../auth/credentials";
import { DEFAULT_SCOPES, isOAuthScope, type Role, type Scope, scopesAllowedForRole } from "../domain/scopes";
import type { Env } from "../env";
import { defaultOrg } from "../domain/auth/org-choice";
import { orgsOpenedBy } from "../domain/auth/sso/sign-in-orgs";
import { markOrgUsed, type MembershipRecord, membershipsOf } from "../storage/accounts";
import { ConsentPage, MessagePage, SignInPage, type SsoOffer } from "./pages";
import { ssoOfferFor } from "./dashboard/sso-routes";
import { takeSsoTicket } from "./sso-ticket";

type WebContext = Context<{ Bindings: Env }>;

const CSRF_COOKIE = "__Host-cairn-csrf";
const SIGNIN_TTL_SECONDS = 600;
const signinKey = (handle: string) => `cairn:signin:${handle}`;

/** Who signed in for a consent handle, kept beside the provider's own record of the request. */
interface SignIn {
  userId: string;
  email: string;
  orgs: { orgId: string; orgName: string; role: Role }[];
}

const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

function html(body: string, status = 200, extra?: Headers): Response {
  const headers = new Headers(PAGE_HEADERS);
  extra?.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (lower === "set-cookie") headers.append(name, value);
    else if (lower === "content-security-policy") headers.set(name, mergePolicies(headers.get(name) ?? "", value));
    else if (lower !== "content-type") headers.set(name, value);
  });
  return new Response(body, { status, headers });
}

/**
 * The page's own policy plus any directive the provider's (consent helpers send
 * `frame-ancestors 'none'`) adds: a directive both name keeps the page's value,
 * which is the stricter here. Replacing would drop `default-src 'none'`.
 */
function mergePolicies(own: string, added: string): string {
  const directives = new Map<string, string>();
  for (const policy of [added, own]) {
    for (const directive of policy.split(";").map((part) => part.trim()).filter(Boolean)) {
      directives.set(directive.split(/\s+/)[0]?.toLowerCase() ?? "", directive);
    }
  }
  return [...directives.values()].join("; ");
}

const render = (element: unknown) => `<!doctype html>${String(element)}`;

const messagePage = (title: string, message: string, status: number) =>
  html(render(<MessagePage title={title} message={message} status="error" />), status);

function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** The authorization request's URL with its `resource` alias normalized (see auth/resource.ts). */
function authorizeUrl(c: WebContext): URL {
  const url = new URL(c.req.url);
  const normalized = normalizeResourceParams(url.searchParams, canonicalOrigin(c.env.PUBLIC_URL));
  if (normalized) url.search = normalized.toString();
  return url;
}

async function parseAuthRequest(c: WebContext): Promise<AuthRequest> {
  return c.env.OAUTH_PROVIDER.parseAuthRequest(new Request(authorizeUrl(c), { method: "GET" }));
}

/** Errors while validating the request: redirect only where the provider says it is safe. */
function authorizationFailure(error: unknown): Response {
  if (error instanceof AuthorizationError && error.redirectTo) return Response.redirect(error.redirectTo, 302);
  if (error instanceof AuthorizationError) return messagePage("This sign-in link is not valid", error.description, 400);
  if (error instanceof CimdFetchError) return messagePage("This app could not be verified", "Its client metadata document could not be fetched.", 400);
  throw error;
}

async function signInPage(c: WebContext, clientName: string, options: { email?: string; error?: string; status?: number; retryAfterSeconds?: number; sso?: SsoOffer } = {}) {
  const csrf = crypto.randomUUID();
  const url = authorizeUrl(c);
  const headers = new Headers({
    "set-cookie": `${CSRF_COOKIE}=${csrf}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=${SIGNIN_TTL_SECONDS}`,
  });
  if (options.retryAfterSeconds !== undefined) headers.set("retry-after", String(options.retryAfterSeconds));
  const page = <SignInPage action={`${url.pathname}${url.search}`} authorizeSearch={url.search} csrf={csrf} clientName={clientName} email={options.email} error={options.error} sso={options.sso} />;
  return html(render(page), options.status ?? 200, headers);
}

async function clientNameOf(c: WebContext, request: AuthRequest): Promise<string> {
  const client = await c.env.OAUTH_PROVIDER.lookupClient(request.clientId);
  return client?.clientName || request.clientId;
}

/** GET /authorize: validate the request, then ask the person to sign in. */
export async function showAuthorize(c: WebContext): Promise<Response> {
  try {
    const request = await parseAuthRequest(c);
    // Back from the org's provider (src/web/sso-ticket.ts): the person is signed in for that org alone.
    const url = authorizeUrl(c);
    const sso = await takeSsoTicket(c.env, c.req.raw, url.search);
    if (sso) {
      const orgs = orgsOpenedBy(await membershipsOf(c.env.DB, sso.ticket.userId), { kind: "sso", orgId: sso.ticket.orgId });
      const page = await consentPage(c.env, request, `${url.pathname}${url.search}`, { id: sso.ticket.userId, email: sso.ticket.email }, orgs);
      page.headers.append("set-cookie", sso.clearCookie);
      return page;
    }
    return await signInPage(c, await clientNameOf(c, request));
  } catch (error) {
    return authorizationFailure(error);
  }
}

/** POST /authorize: the sign-in form, then the consent form. */
export async function submitAuthorize(c: WebContext): Promise<Response> {
  const form = await c.req.raw.formData();
  return form.get("step") === "consent" ? submitConsent(c, form) : submitSignIn(c, form);
}

async function submitSignIn(c: WebContext, form: FormData): Promise<Response> {
  let request: AuthRequest;
  try {
    request = await parseAuthRequest(c);
  } catch (error) {
    return authorizationFailure(error);
  }
  const clientName = await clientNameOf(c, request);
  const csrfCookie = readCookie(c.req.raw, CSRF_COOKIE);
  const csrfField = String(form.get("csrf") ?? "");
  if (!csrfCookie || !csrfField || !sameString(csrfCookie, csrfField)) {
    return signInPage(c, clientName, { error: "Your sign-in form expired. Please sign in again.", status: 403 });
  }
  const email = String(form.get("email") ?? "").slice(0, 320);
  const password = String(form.get("password") ?? "").slice(0, 1024);
  const check = await checkPassword(c.env, c.req.raw, email, password);
  if (check.outcome === "throttled") {
    const error = `Too many sign-in attempts. Try again in ${waitInWords(check.retryAfterSeconds)}.`;
    return signInPage(c, clientName, { email, error, status: 429, retryAfterSeconds: check.retryAfterSeconds });
  }
  const sso = await ssoOfferFor(c.env, email, { authorize: authorizeUrl(c).search });
  if (check.outcome !== "signed_in") return signInPage(c, clientName, { email, error: "Wrong e-mail or password.", status: 401, sso });
  const { user } = check;
  const memberships = await membershipsOf(c.env.DB, user.id);
  const orgs = orgsOpenedBy(memberships, { kind: "password" });
  if (orgs.length === 0 && memberships.length > 0) {
    return signInPage(c, clientName, { email, error: "Your organization signs in through its own provider, not with a password.", status: 403, sso });
  }
  const url = authorizeUrl(c);
  return consentPage(c.env, request, `${url.pathname}${url.search}`, { id: user.id, email: user.email }, orgs);
}

/**
 * The consent page for a person who just signed in (with a password here, or through their org's provider: then
 * `orgs` is that org alone). `action` is the authorization request's own URL, where the form posts.
 */
export async function consentPage(env: Env, request: AuthRequest, action: string, user: { id: string; email: string }, orgs: MembershipRecord[]): Promise<Response> {
  if (orgs.length === 0) return messagePage("No organization", "Your account is not a member of any organization yet. Ask an admin to add you.", 403);
  const details = await env.OAUTH_PROVIDER.describeConsent(request);
  const consent = await env.OAUTH_PROVIDER.beginConsent(request);
  const signIn: SignIn = { userId: user.id, email: user.email, orgs: orgs.map(({ orgId, orgName, role }) => ({ orgId, orgName, role })) };
  await env.OAUTH_KV.put(signinKey(consent.handle), JSON.stringify(signIn), { expirationTtl: SIGNIN_TTL_SECONDS });

  const isAdminSomewhere = orgs.some((org) => org.role === "admin");
  const requested = details.scope.filter(isOAuthScope);
  const offered = (requested.length ? requested : [...DEFAULT_SCOPES]).filter((scope) => scope !== "org:admin" || isAdminSomewhere);
  const page = (
    <ConsentPage
      action={action}
      handle={consent.handle}
      clientName={details.clientName}
      clientDomain={details.clientDomain}
      redirectHost={details.redirectHost}
      redirectIsLoopback={details.redirectIsLoopback}
      scopes={offered}
      orgs={signIn.orgs}
      chosenOrgId={defaultOrg(orgs)}
      email={user.email}
    />
  );
  return html(render(page), 200, consent.headers);
}

async function submitConsent(c: WebContext, form: FormData): Promise<Response> {
  const provider = c.env.OAUTH_PROVIDER;
  const handle = String(form.get("handle") ?? "");
  const raw = handle ? await c.env.OAUTH_KV.get(signinKey(handle)) : null;
  if (!raw) return messagePage("This page expired", "Start connecting again from your app.", 400);
  const signIn = JSON.parse(raw) as SignIn;
  try {
    if (form.get("decision") !== "approve") {
      const denied = await provider.denyConsent(c.req.raw, handle);
      await c.env.OAUTH_KV.delete(signinKey(handle));
      const headers = new Headers(denied.headers);
      headers.set("location", denied.redirectTo);
      return new Response(null, { status: 302, headers });
    }
    const org = signIn.orgs.find((candidate) => candidate.orgId === String(form.get("orgId") ?? ""));
    if (!org) return messagePage("Choose an organization", "Pick one of your organizations to connect.", 400);
    const allowed = scopesAllowedForRole(org.role);
    const ticked = form.getAll("scope").map(String).filter(isOAuthScope);
    if (ticked.length === 0) return messagePage("No permissions chosen", "Tick at least one permission, or choose Deny.", 400);
    const refused = ticked.filter((scope) => !allowed.includes(scope));
    if (refused.length) {
      return messagePage("Permission not available", `You are not an admin of ${org.orgName}, so ${refused.join(", ")} cannot be granted.`, 403);
    }
    const approved = await provider.approveConsent(c.req.raw, handle, { scope: ticked });
    const scope = approved.request.scope.filter((s): s is Scope => isOAuthScope(s) && allowed.includes(s));
    const props: GrantProps = { kind: "grant", userId: signIn.userId, orgId: org.orgId, role: org.role };
    const { redirectTo } = await provider.completeAuthorization({
      request: approved.request,
      userId: signIn.userId,
      metadata: { orgId: org.orgId, email: signIn.email },
      scope,
      props,
    });
    await markOrgUsed(c.env.DB, signIn.userId, org.orgId, Date.now());
    await c.env.OAUTH_KV.delete(signinKey(handle));
    const headers = new Headers(approved.headers);
    headers.set("location", redirectTo);
    return new Response(null, { status: 302, headers });
  } catch (error) {
    if (error instanceof AuthorizationError) {
      return messagePage("This page expired", `${error.description} Start connecting again from your app.`, 400);
    }
    throw error;
  }
}
