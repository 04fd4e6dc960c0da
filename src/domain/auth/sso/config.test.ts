import { describe, expect, it } from "vitest";
import type { CairnError } from "../../errors";
import { emailDomainOf, emailInDomains, normalizeIssuer, parseSsoConfig, providerNameOf } from "./config";

const good = { issuer: "https://acme.okta.com/", clientId: "cairn", clientSecret: "s3cret", emailDomains: ["Acme.com", "@acme.co.uk", "acme.com"] };

function refusal(body: unknown, allowLoopback = false): CairnError {
  try {
    parseSsoConfig(body, allowLoopback);
  } catch (error) {
    return error as CairnError;
  }
  throw new Error("accepted");
}

describe("single sign-on configuration", () => {
  it("normalizes what it accepts: issuer without its trailing slash, domains lower case, once, without @; defaults member and not required", () => {
    expect(parseSsoConfig(good, false)).toEqual({
      issuer: "https://acme.okta.com",
      clientId: "cairn",
      clientSecret: "s3cret",
      emailDomains: ["acme.com", "acme.co.uk"],
      defaultRole: "member",
      required: false,
    });
    expect(parseSsoConfig({ ...good, defaultRole: "admin", required: true }, false)).toMatchObject({ defaultRole: "admin", required: true });
  });

  it("says everything that is wrong at once, naming each field", () => {
    const error = refusal({ issuer: "ftp://x", clientSecret: "", emailDomains: ["10.0.0.1", "localhost"], defaultRole: "owner", required: "yes", extra: 1 });
    expect(error.code).toBe("validation");
    const paths = error.details.issues?.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["extra", "issuer", "clientId", "clientSecret", "emailDomains.0", "emailDomains.1", "defaultRole", "required"]));
  });

  it("wants https, except a loopback http issuer where local development allows it", () => {
    expect(normalizeIssuer("http://127.0.0.1:9000", false).ok).toBe(false);
    expect(normalizeIssuer("http://127.0.0.1:9000", true)).toEqual({ ok: true, issuer: "http://127.0.0.1:9000" });
    expect(normalizeIssuer("http://idp.example.com", true).ok).toBe(false);
    expect(normalizeIssuer("https://idp.example.com/?x=1", false).ok).toBe(false);
    expect(refusal({ ...good, emailDomains: [] }).details.issues?.[0]?.path).toBe("emailDomains");
  });

  it("matches an address's domain exactly: not a subdomain, not a lookalike", () => {
    expect(emailDomainOf("Ada@ACME.com")).toBe("acme.com");
    expect(emailDomainOf("not-an-address")).toBeNull();
    expect(emailInDomains("ada@acme.com", ["acme.com"])).toBe(true);
    expect(emailInDomains("ada@mail.acme.com", ["acme.com"])).toBe(false);
    expect(emailInDomains("ada@evilacme.com", ["acme.com"])).toBe(false);
    expect(emailInDomains("ada@acme.com.evil.io", ["acme.com"])).toBe(false);
  });

  it("names known providers, else the issuer's host", () => {
    expect(providerNameOf("https://accounts.google.com")).toBe("Google");
    expect(providerNameOf("https://login.microsoftonline.com/tenant/v2.0")).toBe("Microsoft");
    expect(providerNameOf("https://acme.okta.com")).toBe("Okta");
    expect(providerNameOf("http://127.0.0.1:9000")).toBe("127.0.0.1:9000");
  });
});
