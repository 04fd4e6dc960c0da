import { validationError, type ValidationIssue } from "../../errors";
import type { Role } from "../../scopes";
import { normalizeDomain } from "../../sources/source-policy";

/**
 * An org's OpenID Connect single sign-on: which provider (its issuer), the client Cairn is registered as there,
 * the e-mail domains whose people it signs in, the role a newcomer gets, and whether password sign-in is refused
 * for the org's members. The client secret is only ever an input: it is sealed at rest and never read back.
 */
export interface SsoConfigInput {
  issuer: string;
  clientId: string;
  clientSecret: string;
  emailDomains: string[];
  defaultRole: Role;
  required: boolean;
}

/** What GET answers: the configuration without its secret. */
export interface SsoConfigView {
  issuer: string;
  clientId: string;
  emailDomains: string[];
  defaultRole: Role;
  required: boolean;
  /** The name the sign-in pages show ("Continue with Okta"). */
  providerName: string;
  updatedAt: number;
}

export const SSO_LIMITS = { domains: 20, clientIdChars: 256, clientSecretChars: 1024, issuerChars: 512 } as const;
const FIELDS = ["issuer", "clientId", "clientSecret", "emailDomains", "defaultRole", "required"] as const;

/** The issuer's URL as the provider names itself: no query, fragment or credentials; a trailing slash dropped. */
export function normalizeIssuer(input: string, allowLoopbackHttp: boolean): { ok: true; issuer: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, reason: "is not a URL (e.g. https://accounts.google.com)" };
  }
  if (url.username || url.password || url.search || url.hash) return { ok: false, reason: "must not carry a user name, query or fragment" };
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback && allowLoopbackHttp)) {
    return { ok: false, reason: "must be an https URL" };
  }
  return { ok: true, issuer: url.href.replace(/\/$/, "") };
}

/**
 * Reads a PUT body. Every field is checked, and all that is wrong is said at once; nothing is stored unless all
 * of it is right. `allowLoopbackHttp`: local development may name a provider on this machine.
 */
export function parseSsoConfig(body: unknown, allowLoopbackHttp: boolean): SsoConfigInput {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("The body must be a JSON object: {issuer, clientId, clientSecret, emailDomains, defaultRole?, required?}.");
  const value = body as Record<string, unknown>;
  const unknown = Object.keys(value).filter((key) => !(FIELDS as readonly string[]).includes(key));
  const issues: ValidationIssue[] = unknown.map((key) => ({ path: key.slice(0, 40), message: "Not a field" }));
  const text = (field: string, max: number): string => {
    const raw = value[field];
    if (typeof raw !== "string" || raw.trim() === "") issues.push({ path: field, message: "Required: a non-empty string" });
    else if (raw.length > max) issues.push({ path: field, message: `At most ${max} characters` });
    else return raw.trim();
    return "";
  };
  const issuerText = text("issuer", SSO_LIMITS.issuerChars);
  let issuer = "";
  if (issuerText) {
    const checked = normalizeIssuer(issuerText, allowLoopbackHttp);
    if (checked.ok) issuer = checked.issuer;
    else issues.push({ path: "issuer", message: `The issuer ${checked.reason}` });
  }
  const clientId = text("clientId", SSO_LIMITS.clientIdChars);
  const clientSecret = text("clientSecret", SSO_LIMITS.clientSecretChars);
  const emailDomains: string[] = [];
  const domains = value.emailDomains;
  if (!Array.isArray(domains) || domains.length === 0) issues.push({ path: "emailDomains", message: "Required: a list of at least one e-mail domain, e.g. [\"acme.com\"]" });
  else if (domains.length > SSO_LIMITS.domains) issues.push({ path: "emailDomains", message: `At most ${SSO_LIMITS.domains} domains` });
  else {
    domains.forEach((entry, index) => {
      const normalized = typeof entry === "string" ? normalizeDomain(entry.replace(/^@/, "")) : { ok: false as const, reason: "is not a string" };
      if (!normalized.ok) issues.push({ path: `emailDomains.${index}`, message: `The domain ${normalized.reason}` });
      else if (!normalized.domain.includes(".")) issues.push({ path: `emailDomains.${index}`, message: "An e-mail domain has at least two labels (acme.com)" });
      else if (!emailDomains.includes(normalized.domain)) emailDomains.push(normalized.domain);
    });
  }
  const role = value.defaultRole ?? "member";
  if (role !== "member" && role !== "admin") issues.push({ path: "defaultRole", message: "member or admin" });
  const required = value.required ?? false;
  if (typeof required !== "boolean") issues.push({ path: "required", message: "true or false" });
  if (issues.length) throw validationError(`The single sign-on configuration is not valid: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}.`, issues);
  return { issuer, clientId, clientSecret, emailDomains, defaultRole: role as Role, required: required as boolean };
}

/** The domain of an e-mail address, lower case; null when it is not an address. */
export function emailDomainOf(email: string): string | null {
  const at = email.trim().lastIndexOf("@");
  if (at < 1) return null;
  const domain = email.trim().slice(at + 1).toLowerCase().replace(/\.+$/, "");
  return /^[a-z0-9.-]+\.[a-z0-9-]+$/.test(domain) ? domain : null;
}

/** Exactly one of the org's domains: a subdomain is not covered (mail.acme.com is not acme.com's people). */
export const emailInDomains = (email: string, domains: readonly string[]): boolean => {
  const domain = emailDomainOf(email);
  return domain !== null && domains.includes(domain);
};

const KNOWN_PROVIDERS: [RegExp, string][] = [
  [/^accounts\.google\.com$/, "Google"],
  [/^login\.microsoftonline\.com$|^sts\.windows\.net$/, "Microsoft"],
  [/\.okta(preview)?\.com$|\.oktapreview\.com$/, "Okta"],
  [/\.auth0\.com$/, "Auth0"],
];

/** The name a person recognizes on the "Continue with …" button: a known provider's, else the issuer's host. */
export function providerNameOf(issuer: string): string {
  let host: string;
  try {
    host = new URL(issuer).host;
  } catch {
    return "your organization's sign-in";
  }
  return KNOWN_PROVIDERS.find(([pattern]) => pattern.test(host))?.[1] ?? host;
}
