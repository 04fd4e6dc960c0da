import { describe, expect, it } from "vitest";
import { acceptIdentity, classifyClientFailure, IAT_SKEW_SECONDS, refusalMessage, type SsoRefusal } from "./identity";

const now = 1_800_000_000;
const claims = { sub: "u1", iat: now - 5, email: "Ada@acme.com", email_verified: true, name: "Ada" };

describe("the identity a provider vouches for", () => {
  it("accepts a verified e-mail of the org's domains, lower-cased", () => {
    expect(acceptIdentity(claims, ["acme.com"], now)).toEqual({ ok: true, email: "ada@acme.com", subject: "u1", name: "Ada" });
  });

  it("refuses an e-mail the provider does not verify: false, missing, or the string \"true\"", () => {
    for (const email_verified of [false, undefined, "true"]) {
      expect(acceptIdentity({ ...claims, email_verified }, ["acme.com"], now)).toEqual({ ok: false, refusal: "email_not_verified" });
    }
  });

  it("refuses a domain the org did not name, and a token without an e-mail", () => {
    expect(acceptIdentity({ ...claims, email: "ada@other.com" }, ["acme.com"], now)).toEqual({ ok: false, refusal: "domain_not_allowed" });
    expect(acceptIdentity({ ...claims, email: undefined }, ["acme.com"], now)).toEqual({ ok: false, refusal: "no_email" });
  });

  it("refuses a token issued in the future beyond the skew, or long ago", () => {
    expect(acceptIdentity({ ...claims, iat: now + IAT_SKEW_SECONDS + 1 }, ["acme.com"], now)).toEqual({ ok: false, refusal: "issued_in_future" });
    expect(acceptIdentity({ ...claims, iat: now + IAT_SKEW_SECONDS - 1 }, ["acme.com"], now).ok).toBe(true);
    expect(acceptIdentity({ ...claims, iat: now - 3600 }, ["acme.com"], now)).toEqual({ ok: false, refusal: "expired" });
  });

  it("maps the client library's failures to what a person is told", () => {
    expect(classifyClientFailure({ name: "OperationProcessingError", message: "JWT signature verification failed" })).toBe("bad_signature");
    expect(classifyClientFailure({ name: "OperationProcessingError", message: "error when selecting a JWT verification key, no applicable keys found" })).toBe("bad_signature");
    expect(classifyClientFailure({ name: "OperationProcessingError", message: 'unexpected JWT "aud" (audience) claim value' })).toBe("wrong_audience");
    expect(classifyClientFailure({ name: "OperationProcessingError", message: 'unexpected "iss" (issuer) response parameter value' })).toBe("wrong_issuer");
    expect(classifyClientFailure({ name: "OperationProcessingError", message: 'unexpected ID Token "nonce" claim value' })).toBe("nonce_mismatch");
    expect(classifyClientFailure({ name: "OperationProcessingError", message: 'unexpected "state" response parameter value' })).toBe("state_mismatch");
    expect(classifyClientFailure({ name: "OperationProcessingError", code: "OAUTH_JWT_TIMESTAMP_CHECK_FAILED", message: 'unexpected JWT "exp" (expiration time) claim value' })).toBe("expired");
    expect(classifyClientFailure({ name: "AuthorizationResponseError", message: "authorization response from the server is an error" })).toBe("provider_error");
    expect(classifyClientFailure({ name: "TypeError", message: "fetch failed" })).toBe("provider_unreachable");
    expect(classifyClientFailure({ name: "Error", message: "Network connection lost." })).toBe("provider_unreachable");
    expect(classifyClientFailure({ name: "TimeoutError", message: "The operation was aborted due to timeout" })).toBe("provider_unreachable");
  });

  it("has words for every refusal, naming the provider and never echoing a value", () => {
    const refusals: SsoRefusal[] = ["bad_signature", "wrong_audience", "expired", "nonce_mismatch", "email_not_verified", "domain_not_allowed", "state_unknown", "provider_unreachable", "rate_limited"];
    for (const refusal of refusals) {
      const { title, message } = refusalMessage(refusal, "Okta");
      expect(title.length).toBeGreaterThan(5);
      expect(message.length).toBeGreaterThan(20);
    }
    expect(refusalMessage("wrong_audience", "Okta").message).toContain("Okta");
  });
});
