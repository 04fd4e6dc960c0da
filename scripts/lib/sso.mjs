/**
 * An org's OpenID Connect single sign-on from the operator CLI: the Worker's /api/v1/org/sso (org:admin, and the
 * person scope plans:approve a change needs), with a temporary key of one of the org's admins, deleted afterwards,
 * through the same Worker (--url, the deployment with --remote, or a local wrangler dev) as the webhook commands.
 */
import { failure, withAdminKey, workerFor } from "./org-data.mjs";
import { normalizeSlug } from "./operators.mjs";
import { UsageError } from "./wrangler.mjs";

const SCOPES = ["research:read", "org:admin", "plans:approve"];

async function call({ org, url, ...target }, method, body) {
  const slug = normalizeSlug(org);
  const worker = await workerFor(target, url);
  try {
    return await withAdminKey(
      slug,
      target,
      async (key) => {
        const response = await fetch(`${worker.url}/api/v1/org/sso`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        if (method === "GET" && response.status === 404) return null;
        if (!response.ok) throw await failure(response, `single sign-on ${method}`);
        return response.status === 204 ? null : response.json();
      },
      SCOPES,
    );
  } finally {
    await worker.stop();
  }
}

export const showSso = (options) => call(options, "GET");
export const removeSso = (options) => call(options, "DELETE");

export function setSso({ issuer, clientId, clientSecret, domains, defaultRole, required, ...options }) {
  const secret = clientSecret ?? process.env.CAIRN_SSO_CLIENT_SECRET;
  if (!secret) throw new UsageError("give the client secret: --client-secret S, or the environment variable CAIRN_SSO_CLIENT_SECRET (kept out of the shell's history).");
  const emailDomains = (domains ?? []).flatMap((d) => String(d).split(",")).map((d) => d.trim()).filter(Boolean);
  if (emailDomains.length === 0) throw new UsageError("--domain names at least one e-mail domain (e.g. --domain acme.com).");
  if (defaultRole !== undefined && defaultRole !== "member" && defaultRole !== "admin") throw new UsageError("--default-role is member or admin.");
  return call(options, "PUT", { issuer, clientId, clientSecret: secret, emailDomains, ...(defaultRole ? { defaultRole } : {}), required: Boolean(required) });
}
