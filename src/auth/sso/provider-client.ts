import * as oauth from "oauth4webapi";
import { acceptIdentity, classifyClientFailure, type IdentityCheck, type SsoRefusal } from "../../domain/auth/sso/identity";
import type { PendingSsoSignIn } from "../../domain/auth/sso/pending";
import { checkOutboundUrl, type OutboundPolicy } from "../../domain/outbound-address";
import { validationError } from "../../domain/errors";

/**
 * Cairn as an OpenID Connect relying party, through oauth4webapi (discovery, PKCE, the authorization response's
 * `state` and `iss`, the token request, the ID token's claims and its signature against the provider's JWKS).
 * Every request to the provider passes the outbound-address guard first and follows no redirect. Nothing here
 * reads the Worker's environment: the adapter passes the policy, so Node tests run the same code.
 */
export interface ProviderAccess {
  policy: OutboundPolicy;
  /** Only for a loopback http provider in local development (the guard has already refused any other http). */
  allowHttp: boolean;
  /** The network: globalThis.fetch in the Worker. */
  fetch?: typeof fetch;
}

const TIMEOUT_MS = 10_000;

/** fetch behind the guard: a URL the guard refuses is never requested, and a redirect is not followed. */
function guardedFetch(access: ProviderAccess) {
  const send = access.fetch ?? fetch;
  return async (url: string, options: RequestInit): Promise<Response> => {
    const verdict = checkOutboundUrl(url, access.policy);
    if (!verdict.allowed) throw new ProviderRefused(`the provider address ${new URL(url).origin} is not allowed: ${verdict.reason}`);
    return send(url, { ...options, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
  };
}

/** Cairn refused to send a request to the provider (the guard); a different thing from the provider failing. */
export class ProviderRefused extends Error {
  override readonly name = "ProviderRefused";
}

const options = (access: ProviderAccess) => ({ [oauth.customFetch]: guardedFetch(access), [oauth.allowInsecureRequests]: access.allowHttp });

/**
 * The provider's discovery document, read and checked when an admin saves the configuration: what is wrong is
 * said in words an admin can act on (a validation error), and nothing is stored.
 */
export async function discoverProvider(issuer: string, access: ProviderAccess): Promise<oauth.AuthorizationServer> {
  const where = `${issuer}/.well-known/openid-configuration`;
  let metadata: oauth.AuthorizationServer;
  try {
    const issuerUrl = new URL(issuer);
    metadata = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, { ...options(access), algorithm: "oidc" }));
  } catch (error) {
    throw validationError(`The provider's discovery document (${where}) could not be used: ${discoveryFailure(error)}.`, [{ path: "issuer", message: "Discovery failed" }]);
  }
  const missing = (["authorization_endpoint", "token_endpoint", "jwks_uri"] as const).filter((field) => typeof metadata[field] !== "string");
  if (missing.length) throw validationError(`The provider's discovery document (${where}) does not name its ${missing.join(", ")}.`, [{ path: "issuer", message: "Incomplete discovery document" }]);
  for (const field of ["authorization_endpoint", "token_endpoint", "jwks_uri"] as const) {
    const verdict = checkOutboundUrl(String(metadata[field]), access.policy);
    if (!verdict.allowed) throw validationError(`The provider's ${field} (${String(metadata[field])}) cannot be used: ${verdict.reason}.`, [{ path: "issuer", message: "Provider endpoint not allowed" }]);
  }
  const methods = metadata.code_challenge_methods_supported;
  if (Array.isArray(methods) && !methods.includes("S256")) throw validationError(`The provider does not support PKCE with S256 (its discovery document lists ${methods.join(", ") || "none"}), which Cairn requires.`);
  const responseTypes = metadata.response_types_supported;
  if (Array.isArray(responseTypes) && !responseTypes.includes("code")) throw validationError("The provider does not offer the authorization code flow (response type \"code\"), which Cairn uses.");
  return metadata;
}

function discoveryFailure(error: unknown): string {
  if (error instanceof ProviderRefused) return error.message;
  if (error instanceof oauth.OperationProcessingError) {
    if (/"issuer" property does not match/.test(error.message)) return "the document names a different issuer than the one given (type the issuer exactly as the provider names itself)";
    if (/status code/i.test(error.message)) return "the provider did not answer 200 (is the issuer URL right?)";
    if (/JSON/.test(error.message)) return "the answer is not JSON";
    return "the document is not a valid OpenID Connect discovery document";
  }
  if (error instanceof TypeError && /protocol|https/i.test(error.message)) return "only https is allowed";
  return "the provider could not be reached";
}

export interface SsoClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** Where the browser goes to sign in at the provider: code flow, PKCE S256, state and nonce. */
export async function authorizationUrl(metadata: oauth.AuthorizationServer, client: SsoClient, pending: PendingSsoSignIn, loginHint?: string): Promise<URL> {
  const url = new URL(String(metadata.authorization_endpoint));
  url.searchParams.set("client_id", client.clientId);
  url.searchParams.set("redirect_uri", client.redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", "openid email profile");
  url.searchParams.set("state", pending.state);
  url.searchParams.set("nonce", pending.nonce);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(pending.codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  if (loginHint) url.searchParams.set("login_hint", loginHint);
  return url;
}

/** A fresh pending sign-in's secrets: state, nonce and PKCE verifier, each from the library's random source. */
export const newPendingSecrets = () => ({ state: oauth.generateRandomState(), nonce: oauth.generateRandomNonce(), codeVerifier: oauth.generateRandomCodeVerifier() });

export type CallbackOutcome = IdentityCheck | { ok: false; refusal: SsoRefusal; detail: string };

/**
 * Finishes the sign-in from the provider's answer: the authorization response (its `state`, and its `iss` when
 * the provider sends one), the code exchanged with the PKCE verifier, the ID token's claims (iss, aud, exp, nonce,
 * azp) and its signature against the provider's keys (fetched fresh each time, so a rotated key is found), then
 * Cairn's own rules on the identity (iat skew, a verified e-mail in the org's domains). `detail` is for the log:
 * the library's message, never a token.
 */
export async function finishSignIn(
  metadata: oauth.AuthorizationServer,
  client: SsoClient,
  callbackUrl: URL,
  pending: PendingSsoSignIn,
  emailDomains: readonly string[],
  access: ProviderAccess,
  nowSeconds: number,
): Promise<CallbackOutcome> {
  const oauthClient: oauth.Client = { client_id: client.clientId };
  const methods = metadata.token_endpoint_auth_methods_supported;
  const auth = Array.isArray(methods) && !methods.includes("client_secret_basic") && methods.includes("client_secret_post") ? oauth.ClientSecretPost(client.clientSecret) : oauth.ClientSecretBasic(client.clientSecret);
  try {
    const params = oauth.validateAuthResponse(metadata, oauthClient, callbackUrl, pending.state);
    const response = await oauth.authorizationCodeGrantRequest(metadata, oauthClient, auth, params, client.redirectUri, pending.codeVerifier, options(access));
    const tokens = await oauth.processAuthorizationCodeResponse(metadata, oauthClient, response, { expectedNonce: pending.nonce, requireIdToken: true });
    await oauth.validateApplicationLevelSignature(metadata, response, options(access));
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    if (!claims) return { ok: false, refusal: "invalid_response", detail: "no ID token" };
    const identity = acceptIdentity(claims, emailDomains, nowSeconds);
    return identity.ok ? identity : { ...identity, detail: identity.refusal };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    const refusal = error instanceof ProviderRefused ? "provider_unreachable" : classifyClientFailure({ name: failure.name, code: (failure as { code?: string }).code, message: failure.message });
    return { ok: false, refusal, detail: `${failure.name}: ${failure.message}`.slice(0, 300) };
  }
}
