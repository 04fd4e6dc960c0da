import { describe, expect, it } from "vitest";
import { authorizationUrl, discoverProvider, finishSignIn, newPendingSecrets, type ProviderAccess } from "../../src/auth/sso/provider-client";
import type { PendingSsoSignIn } from "../../src/domain/auth/sso/pending";

/**
 * The callback's verification through the real OpenID Connect client library, against a provider answered at the
 * network's edge (the injected fetch): every refusal the sign-in must make, each with a token wrong in one way.
 * The browser flow against a real provider is in test/e2e/sso.browser.test.ts.
 */
const ISSUER = "http://127.0.0.1:9";
const CLIENT = { clientId: "cairn-client", clientSecret: "client-secret", redirectUri: "https://cairn.example/dashboard/sign-in/sso/callback" };

const b64u = (data: Uint8Array | string) =>
  Buffer.from(typeof data === "string" ? new TextEncoder().encode(data) : data)
    .toString("base64")
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

async function newKey(kid: string) {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = { ...(await crypto.subtle.exportKey("jwk", pair.publicKey)), kid, use: "sig", alg: "ES256" };
  return { kid, privateKey: pair.privateKey, jwk };
}
type Key = Awaited<ReturnType<typeof newKey>>;

async function sign(key: Key, claims: Record<string, unknown>, kid = key.kid): Promise<string> {
  const input = `${b64u(JSON.stringify({ alg: "ES256", typ: "JWT", kid }))}.${b64u(JSON.stringify(claims))}`;
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key.privateKey, new TextEncoder().encode(input)));
  return `${input}.${b64u(signature)}`;
}

/** One provider: its discovery document, its keys (changeable: rotation), and the ID token its token endpoint answers. */
function provider(state: { keys: Key[]; idToken: () => Promise<string>; tokenRequests: URLSearchParams[]; tokenDown?: boolean }): ProviderAccess {
  const metadata = {
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}/auth`,
    token_endpoint: `${ISSUER}/token`,
    jwks_uri: `${ISSUER}/jwks`,
    response_types_supported: ["code"],
    code_challenge_methods_supported: ["S256"],
    id_token_signing_alg_values_supported: ["ES256"],
    authorization_response_iss_parameter_supported: true,
  };
  const fetcher = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    if (url.pathname === "/.well-known/openid-configuration") return Response.json(metadata);
    if (url.pathname === "/jwks") return Response.json({ keys: state.keys.map((key) => key.jwk) });
    if (url.pathname === "/token" && state.tokenDown) throw new TypeError("fetch failed");
    if (url.pathname === "/token") {
      state.tokenRequests.push(new URLSearchParams(String(init?.body)));
      return Response.json({ access_token: "at", token_type: "Bearer", id_token: await state.idToken() });
    }
    return new Response("no", { status: 404 });
  };
  return { policy: { allowLoopback: true }, allowHttp: true, fetch: fetcher as typeof fetch };
}

async function scenario(
  claimsChange: Record<string, unknown> = {},
  options: { signWith?: Key | "second"; kid?: string; callback?: (state: string) => string; publish?: "first" | "second" | "both"; domains?: string[]; tokenDown?: boolean } = {},
) {
  const first = await newKey("k1");
  const second = await newKey("k2");
  const pending: PendingSsoSignIn = { orgId: "org_a", ...newPendingSecrets(), createdAt: Date.now(), after: { kind: "dashboard", next: "/dashboard/plans" } };
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: ISSUER, aud: CLIENT.clientId, sub: "person-1", iat: now, exp: now + 300, nonce: pending.nonce, email: "ada@acme.com", email_verified: true, ...claimsChange };
  const signer = options.signWith === "second" ? second : (options.signWith ?? first);
  const published = { first: [first], second: [second], both: [first, second] }[options.publish ?? "first"];
  const state = { keys: published, idToken: () => sign(signer, claims, options.kid), tokenRequests: [] as URLSearchParams[], tokenDown: options.tokenDown };
  const access = provider(state);
  const metadata = await discoverProvider(ISSUER, access);
  const callback = new URL(`${CLIENT.redirectUri}${options.callback ? options.callback(pending.state) : `?code=the-code&state=${pending.state}&iss=${encodeURIComponent(ISSUER)}`}`);
  const outcome = await finishSignIn(metadata, CLIENT, callback, pending, options.domains ?? ["acme.com"], access, now);
  return { outcome, state, pending, metadata };
}

describe("finishing a sign-in through the org's provider", () => {
  it("accepts a token signed with the provider's key, for this client, fresh, with the nonce, and sends the PKCE verifier", async () => {
    const { outcome, state, pending } = await scenario();
    expect(outcome).toEqual({ ok: true, email: "ada@acme.com", subject: "person-1", name: null });
    expect(state.tokenRequests[0]?.get("code_verifier")).toBe(pending.codeVerifier);
    expect(state.tokenRequests[0]?.get("code")).toBe("the-code");
  });

  it("asks with PKCE S256, state, nonce and the openid email scopes", async () => {
    const first = await newKey("k1");
    const access = provider({ keys: [first], idToken: async () => "", tokenRequests: [] });
    const pending: PendingSsoSignIn = { orgId: "o", ...newPendingSecrets(), createdAt: 0, after: { kind: "dashboard", next: "/dashboard" } };
    const url = await authorizationUrl(await discoverProvider(ISSUER, access), CLIENT, pending, "ada@acme.com");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toBe(pending.state);
    expect(url.searchParams.get("nonce")).toBe(pending.nonce);
    expect(url.searchParams.get("scope")).toBe("openid email profile");
  });

  it("finds a rotated key: a token signed with the provider's new key (kid) verifies against its published keys", async () => {
    const { outcome } = await scenario({}, { signWith: "second", publish: "both" });
    expect(outcome.ok).toBe(true);
  });

  it("refuses a bad signature: a key the provider does not publish under the same kid", async () => {
    const stranger = await newKey("k1");
    const { outcome } = await scenario({}, { signWith: stranger });
    expect(outcome).toMatchObject({ ok: false, refusal: "bad_signature" });
  });

  it("refuses a token signed with a key the provider no longer publishes", async () => {
    const { outcome } = await scenario({}, { publish: "second" });
    expect(outcome).toMatchObject({ ok: false, refusal: "bad_signature" });
  });

  it("refuses a wrong audience", async () => {
    expect((await scenario({ aud: "another-app" })).outcome).toMatchObject({ ok: false, refusal: "wrong_audience" });
  });

  it("refuses a wrong issuer, in the token or in the response's iss parameter", async () => {
    expect((await scenario({ iss: "http://127.0.0.1:10" })).outcome).toMatchObject({ ok: false, refusal: "wrong_issuer" });
    const forged = await scenario({}, { callback: (state) => `?code=c&state=${state}&iss=${encodeURIComponent("https://evil.example")}` });
    expect(forged.outcome).toMatchObject({ ok: false, refusal: "wrong_issuer" });
    expect(forged.state.tokenRequests).toHaveLength(0);
  });

  it("refuses an expired token and one issued in the future", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await scenario({ exp: now - 120, iat: now - 600 })).outcome).toMatchObject({ ok: false, refusal: "expired" });
    expect((await scenario({ iat: now + 3600, exp: now + 7200 })).outcome).toMatchObject({ ok: false, refusal: "issued_in_future" });
  });

  it("refuses a nonce of another sign-in", async () => {
    expect((await scenario({ nonce: "someone-elses" })).outcome).toMatchObject({ ok: false, refusal: "nonce_mismatch" });
  });

  it("refuses an e-mail the provider does not verify, and a domain the org did not name", async () => {
    expect((await scenario({ email_verified: false })).outcome).toMatchObject({ ok: false, refusal: "email_not_verified" });
    expect((await scenario({ email: "ada@elsewhere.com" })).outcome).toMatchObject({ ok: false, refusal: "domain_not_allowed" });
  });

  it("refuses a callback whose state is not this sign-in's, without asking the provider for a token", async () => {
    const { outcome, state } = await scenario({}, { callback: () => `?code=c&state=another&iss=${encodeURIComponent(ISSUER)}` });
    expect(outcome).toMatchObject({ ok: false, refusal: "state_mismatch" });
    expect(state.tokenRequests).toHaveLength(0);
  });

  it("refuses when the provider cannot be reached to exchange the code", async () => {
    expect((await scenario({}, { tokenDown: true })).outcome).toMatchObject({ ok: false, refusal: "provider_unreachable" });
  });

  it("refuses the provider's error answer (the person cancelled)", async () => {
    const { outcome } = await scenario({}, { callback: (state) => `?error=access_denied&state=${state}&iss=${encodeURIComponent(ISSUER)}` });
    expect(outcome).toMatchObject({ ok: false, refusal: "provider_error" });
  });

  it("refuses, at discovery, an issuer whose document names another issuer, and one the guard does not allow", async () => {
    const first = await newKey("k1");
    const access = provider({ keys: [first], idToken: async () => "", tokenRequests: [] });
    await expect(discoverProvider("http://127.0.0.1:9/other", access)).rejects.toThrow(/discovery document .* could not be used/);
    await expect(discoverProvider(ISSUER, { ...access, policy: { allowLoopback: false } })).rejects.toThrow(/not allowed: loopback/);
  });
});
