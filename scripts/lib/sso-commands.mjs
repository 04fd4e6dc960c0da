/**
 * The operator CLI's `org sso set|show|remove`: usage, help and output. The calls are in sso.mjs, through the
 * Worker's /api/v1/org/sso.
 */
import * as sso from "./sso.mjs";

const DETAILS = `The org's people sign in through its own OpenID Connect provider (Google Workspace, Microsoft Entra ID, Okta,
Auth0, Keycloak…). Register Cairn at the provider as a web application with the redirect URI
<your Cairn URL>/dashboard/sign-in/sso/callback and the scopes openid email profile; then give its issuer, client id
and secret here. The provider's discovery document is read when saved; the secret is sealed and never shown.
--domain D (repeatable): only verified e-mail addresses of these domains sign in; a domain belongs to one org.
--default-role: the role of a person who signs in for the first time (member by default).
--required: members sign in only through the provider (password sign-in refused); an operator keeps a way in
with \`user add --org SLUG --email … --password …\` (a break-glass admin, written to the audit log).
Runs through the Worker, like the webhook commands. Also PUT /api/v1/org/sso with a person's credential.`;

const describe = (r) =>
  r
    ? [
        `Single sign-on through ${r.providerName} (${r.issuer}), client ${r.clientId}.`,
        `Domains: ${r.emailDomains.join(", ")}. New members: ${r.defaultRole}. Password sign-in: ${r.required ? "refused (single sign-on required)" : "still allowed"}.`,
      ].join("\n")
    : "No single sign-on configured.";

/**
 * @param {(o: Record<string, any>, value: unknown, text: () => string) => void} emit how a command prints (text, or --json)
 */
export function ssoCommands(emit) {
  return {
    "org sso set": {
      usage: "org sso set --org SLUG --issuer URL --client-id ID [--client-secret S] --domain D [--domain D…] [--default-role member|admin] [--required] [--url URL]",
      summary: "sign the org's people in through its OpenID Connect provider",
      flags: ["org", "issuer", "client-id", "client-secret", "domain", "default-role", "required", "url"],
      required: ["org", "issuer", "client-id", "domain"],
      details: DETAILS,
      run: async (o, t) => {
        const r = await sso.setSso({
          org: o.org,
          issuer: o.issuer,
          clientId: o["client-id"],
          clientSecret: o["client-secret"],
          domains: o.domain,
          defaultRole: o["default-role"],
          required: o.required,
          url: o.url,
          ...t,
        });
        emit(o, r, () => `Set. ${describe(r)}`);
      },
    },
    "org sso show": {
      usage: "org sso show --org SLUG [--url URL]",
      summary: "the org's single sign-on (never its client secret)",
      flags: ["org", "url"],
      required: ["org"],
      details: DETAILS,
      run: async (o, t) => {
        const r = await sso.showSso({ org: o.org, url: o.url, ...t });
        emit(o, r, () => describe(r));
      },
    },
    "org sso remove": {
      usage: "org sso remove --org SLUG [--url URL]",
      summary: "remove the org's single sign-on (password sign-in is open again)",
      flags: ["org", "url"],
      required: ["org"],
      run: async (o, t) => {
        await sso.removeSso({ org: o.org, url: o.url, ...t });
        emit(o, { removed: true }, () => `Single sign-on removed from "${o.org}".`);
      },
    },
  };
}
