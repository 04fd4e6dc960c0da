import { emailInDomains } from "./config";

/**
 * What Cairn accepts from a provider's ID token once its signature, issuer, audience, expiry and nonce were
 * checked (the OpenID Connect client library does those): the time it was issued within the allowed skew, and an
 * e-mail the provider vouches for (`email_verified: true`) in one of the org's domains. Pure: the callback asks it.
 */
export const IAT_SKEW_SECONDS = 300;
/** An ID token older than this was not issued for the sign-in happening now. */
export const IAT_MAX_AGE_SECONDS = 600;

export type SsoRefusal =
  | "state_unknown"
  | "state_mismatch"
  | "provider_error"
  | "provider_unreachable"
  | "bad_signature"
  | "wrong_issuer"
  | "wrong_audience"
  | "expired"
  | "issued_in_future"
  | "nonce_mismatch"
  | "no_email"
  | "email_not_verified"
  | "domain_not_allowed"
  | "not_configured"
  | "invalid_response"
  /** Past the bound on starting sign-ins or on callbacks (sign-in-limits.ts): nothing was read, written or fetched. */
  | "rate_limited";

export type IdentityCheck = { ok: true; email: string; subject: string; name: string | null } | { ok: false; refusal: SsoRefusal };

export interface IdTokenClaims {
  sub?: unknown;
  iat?: unknown;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
}

export function acceptIdentity(claims: IdTokenClaims, emailDomains: readonly string[], nowSeconds: number): IdentityCheck {
  if (typeof claims.iat !== "number") return { ok: false, refusal: "invalid_response" };
  if (claims.iat > nowSeconds + IAT_SKEW_SECONDS) return { ok: false, refusal: "issued_in_future" };
  if (claims.iat < nowSeconds - IAT_MAX_AGE_SECONDS - IAT_SKEW_SECONDS) return { ok: false, refusal: "expired" };
  if (typeof claims.sub !== "string" || claims.sub === "") return { ok: false, refusal: "invalid_response" };
  if (typeof claims.email !== "string" || claims.email.trim() === "") return { ok: false, refusal: "no_email" };
  // Only the boolean true: a provider that sends "true" as a string, or leaves it out, does not vouch for the address.
  if (claims.email_verified !== true) return { ok: false, refusal: "email_not_verified" };
  const email = claims.email.trim().toLowerCase();
  if (!emailInDomains(email, emailDomains)) return { ok: false, refusal: "domain_not_allowed" };
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 200) : null;
  return { ok: true, email, subject: claims.sub, name };
}

/**
 * The OpenID Connect library's failure, by its code and message, as a refusal a person can be told about. The
 * library's own words never reach the page (they may quote the provider).
 */
export function classifyClientFailure(failure: { name?: string; code?: string; message?: string; claim?: string }): SsoRefusal {
  const message = failure.message ?? "";
  if (failure.name === "AuthorizationResponseError" || failure.name === "ResponseBodyError") return "provider_error";
  if (/signature verification failed|verification key|unsupported JWS/i.test(message)) return "bad_signature";
  if (/"aud" \(audience\)|"azp"/.test(message)) return "wrong_audience";
  if (/"iss" \(issuer\)/.test(message)) return "wrong_issuer";
  if (/"nonce"/.test(message)) return "nonce_mismatch";
  if (/"state"/.test(message)) return "state_mismatch";
  if (failure.code === "OAUTH_JWT_TIMESTAMP_CHECK_FAILED" || /"exp"|"iat"|"nbf"/.test(message)) return "expired";
  if (failure.name === "TypeError" || failure.name === "TimeoutError" || /fetch failed|network|connect|timed? ?out|abort/i.test(message)) return "provider_unreachable";
  return "invalid_response";
}

/** What the person reads for each refusal: what went wrong in words, and what to do. Never a token or claim value. */
export function refusalMessage(refusal: SsoRefusal, providerName: string): { title: string; message: string } {
  const again = "Start signing in again; if it keeps happening, tell your organization's admin.";
  switch (refusal) {
    case "state_unknown":
      return { title: "This sign-in link expired", message: "The sign-in it belongs to has ended or was already used. Start signing in again." };
    case "state_mismatch":
      return { title: "This sign-in was not started here", message: `The answer from ${providerName} does not belong to a sign-in this browser started. Start signing in again.` };
    case "provider_error":
      return { title: `${providerName} did not sign you in`, message: `${providerName} refused or cancelled the sign-in. ${again}` };
    case "provider_unreachable":
      return { title: `${providerName} cannot be reached`, message: `Cairn could not reach ${providerName} to finish signing you in. Try again in a few minutes.` };
    case "bad_signature":
      return { title: "The sign-in could not be verified", message: `The answer from ${providerName} is not signed with its keys, so Cairn cannot trust it. ${again}` };
    case "wrong_issuer":
      return { title: "The sign-in came from the wrong provider", message: `The answer was not issued by ${providerName}, the provider your organization set up. ${again}` };
    case "wrong_audience":
      return { title: "The sign-in was meant for another app", message: `${providerName} issued this sign-in for a different application than Cairn. ${again}` };
    case "expired":
      return { title: "The sign-in expired", message: `The answer from ${providerName} is too old (or your computer's clock is far off). ${again}` };
    case "issued_in_future":
      return { title: "The sign-in could not be verified", message: `The answer from ${providerName} is dated in the future; a clock is wrong. ${again}` };
    case "nonce_mismatch":
      return { title: "The sign-in does not match", message: `The answer from ${providerName} belongs to another sign-in. ${again}` };
    case "no_email":
      return { title: "No e-mail address", message: `${providerName} did not tell Cairn your e-mail address. Your admin may need to allow the "email" scope for Cairn.` };
    case "email_not_verified":
      return { title: "E-mail address not verified", message: `${providerName} does not vouch for your e-mail address (it is not verified there). Verify it with ${providerName}, or ask your admin.` };
    case "domain_not_allowed":
      return { title: "This e-mail address is not allowed here", message: "Your organization signs in only addresses of its own domains through this provider. Sign in with your work account." };
    case "not_configured":
      return { title: "No single sign-on for this address", message: "No organization signs in this e-mail address's domain through its own provider. Sign in with your password." };
    case "invalid_response":
      return { title: "The sign-in could not be completed", message: `The answer from ${providerName} is not what Cairn expects. ${again}` };
    case "rate_limited":
      return {
        title: "Too many sign-in attempts",
        message: "Too many sign-in attempts in the last minute, from this network or for your organization. Nothing was sent to your provider. Try again in a minute.",
      };
  }
}
