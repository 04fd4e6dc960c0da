/**
 * The real OAuth flow, driven headlessly the way a person would in a browser:
 * register a client, open /authorize, post the sign-in form, post the consent
 * form, follow the redirect, exchange the code. Runtime-agnostic: it takes a
 * fetch function, so Workers tests and end-to-end tests share it.
 */
export type FetchLike = (request: Request) => Promise<Response>;

export class CookieJar {
  readonly #cookies = new Map<string, string>();
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const [name, ...value] = (pair ?? "").split("=");
      if (name) this.#cookies.set(name.trim(), value.join("="));
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!match?.[1]) throw new Error(`No hidden field ${name} in page:\n${html.slice(0, 2000)}`);
  return match[1];
}

/** A documentation-range IPv6 address (RFC 3849), new on every call. */
export const testAddress = () => `2001:db8::${crypto.getRandomValues(new Uint16Array(1))[0]?.toString(16)}:${crypto.getRandomValues(new Uint16Array(1))[0]?.toString(16)}`;

export async function registerClient(
  fetcher: FetchLike,
  origin: string,
  options: { redirectUri: string; clientName?: string; address?: string },
): Promise<string> {
  const response = await fetcher(
    new Request(`${origin}/oauth/register`, {
      method: "POST",
      // Registrations are rate-limited per client address: tests that register many clients each come from their own.
      headers: { "content-type": "application/json", "cf-connecting-ip": options.address ?? testAddress() },
      body: JSON.stringify({
        redirect_uris: [options.redirectUri],
        client_name: options.clientName ?? "Test client",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }),
    }),
  );
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

export interface BrowserSignIn {
  email: string;
  password: string;
  /** Organization to pick on the consent page; the first one when absent. */
  orgId?: string;
  /** Scopes to tick; everything offered when absent. */
  scopes?: string[];
  decision?: "approve" | "deny";
}

/** Opens an authorization URL and signs in as the person: the consent page they are shown, and the cookies so far. */
export async function openConsentPage(fetcher: FetchLike, authorizationUrl: string, person: BrowserSignIn): Promise<{ html: string; jar: CookieJar }> {
  const jar = new CookieJar();
  const page = await fetcher(new Request(authorizationUrl, { redirect: "manual" }));
  jar.store(page);
  if (page.status !== 200) throw new Error(`authorize page: ${page.status} ${await page.text()}`);
  const signInHtml = await page.text();
  const signIn = await fetcher(
    new Request(authorizationUrl, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
      body: new URLSearchParams({ step: "signin", csrf: hiddenField(signInHtml, "csrf"), email: person.email, password: person.password }),
    }),
  );
  jar.store(signIn);
  const consentHtml = await signIn.text();
  if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status} ${consentHtml}`);
  return { html: consentHtml, jar };
}

/** Opens an authorization URL and acts as the person: sign in, consent. Returns the final redirect. */
export async function authorizeInBrowser(fetcher: FetchLike, authorizationUrl: string, person: BrowserSignIn): Promise<URL> {
  const { html: consentHtml, jar } = await openConsentPage(fetcher, authorizationUrl, person);
  const offered = [...consentHtml.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1] ?? "");
  // As a browser submits the form: the org given, else the only or preselected one, else the first offered.
  const orgId = person.orgId ?? /name="orgId" value="([^"]+)"|<option value="([^"]+)" selected/.exec(consentHtml)?.slice(1).find(Boolean) ?? /<option value="([^"]+)"/.exec(consentHtml)?.[1] ?? "";
  const form = new URLSearchParams({ step: "consent", handle: hiddenField(consentHtml, "handle"), decision: person.decision ?? "approve", orgId });
  for (const scope of person.scopes ?? offered) form.append("scope", scope);
  const consent = await fetcher(
    new Request(authorizationUrl, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
      body: form,
    }),
  );
  const location = consent.headers.get("location");
  if (consent.status !== 302 || !location) throw new Error(`consent: ${consent.status} ${await consent.text()}`);
  return new URL(location);
}

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  scope?: string;
  resource?: string;
  expires_in?: number;
}

export interface FlowOptions extends BrowserSignIn {
  redirectUri?: string;
  /** The `resource` parameter to send; the origin when absent, omitted when null. */
  resource?: string | null;
  requestScope?: string;
}

/** The whole flow for one person: a registered client and its first token set. */
export async function obtainTokens(fetcher: FetchLike, origin: string, options: FlowOptions) {
  const redirectUri = options.redirectUri ?? "http://localhost:9999/callback";
  const clientId = await registerClient(fetcher, origin, { redirectUri });
  const { verifier, challenge } = await pkcePair();
  const resource = options.resource === undefined ? origin : options.resource;
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "state-123",
  });
  if (options.requestScope !== undefined) query.set("scope", options.requestScope);
  if (resource !== null) query.set("resource", resource);
  const redirect = await authorizeInBrowser(fetcher, `${origin}/authorize?${query}`, options);
  const code = redirect.searchParams.get("code");
  if (!code) throw new Error(`no code in ${redirect}`);
  const tokenRequest = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri,
    client_id: clientId,
    code_verifier: verifier,
  });
  if (resource !== null) tokenRequest.set("resource", resource);
  const response = await fetcher(
    new Request(`${origin}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: tokenRequest,
    }),
  );
  if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
  return { clientId, redirect, verifier, code, redirectUri, tokens: (await response.json()) as TokenSet };
}
