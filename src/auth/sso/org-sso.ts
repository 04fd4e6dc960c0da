import type { AuthorizationServer } from "oauth4webapi";
import { parseSsoConfig, providerNameOf, type SsoConfigView } from "../../domain/auth/sso/config";
import { isDevelopment } from "../../domain/deployment-mode";
import { conflict } from "../../domain/errors";
import { outboundPolicyFor } from "../../domain/outbound-gate";
import { openSecret, sealSecret } from "../../domain/webhooks/secret-box";
import type { Env } from "../../env";
import { requiredKeyring, secretKeyring } from "../../platform/webhooks/secret-keys";
import { auditInsertStatement } from "../../storage/audit-log";
import { deleteOrgSso, domainsTakenElsewhere, readOrgSso, type StoredSso, writeOrgSso } from "../../storage/org-sso";
import { canonicalOrigin } from "../resource";
import { discoverProvider, type ProviderAccess, type SsoClient } from "./provider-client";

/**
 * An org's single sign-on configuration, for every face that changes it (REST, the CLI through REST): checked,
 * discovered at the provider, its secret sealed, stored with its audit entry in one batch.
 */

export const SSO_CALLBACK_PATH = "/dashboard/sign-in/sso/callback";

export const providerAccess = (env: Env): ProviderAccess => ({ policy: outboundPolicyFor(env.CAIRN_ENV, "sso_provider"), allowHttp: isDevelopment(env.CAIRN_ENV) });

/** The sealed secret's additional data: a value copied onto another org does not open. */
const secretOwner = (orgId: string) => `sso:${orgId}`;

export function viewOf(stored: StoredSso): SsoConfigView {
  return {
    issuer: stored.issuer,
    clientId: stored.clientId,
    emailDomains: stored.emailDomains,
    defaultRole: stored.defaultRole,
    required: stored.required,
    providerName: providerNameOf(stored.issuer),
    updatedAt: stored.updatedAt,
  };
}

export interface SsoActor {
  userId: string;
  clientId: string | null;
}

export async function saveOrgSso(env: Env, orgId: string, body: unknown, actor: SsoActor): Promise<SsoConfigView> {
  const input = parseSsoConfig(body, isDevelopment(env.CAIRN_ENV));
  const taken = await domainsTakenElsewhere(env.DB, orgId, input.emailDomains);
  if (taken.length) throw conflict(`${taken.join(", ")} ${taken.length === 1 ? "is" : "are"} already signed in by another organization's provider; a domain belongs to one organization. Ask the operator if this is wrong.`);
  const metadata = await discoverProvider(input.issuer, providerAccess(env));
  const keyring = await requiredKeyring(env);
  const now = Date.now();
  const before = await readOrgSso(env.DB, orgId);
  const stored: StoredSso = {
    orgId,
    issuer: input.issuer,
    clientId: input.clientId,
    clientSecretSealed: await sealSecret(keyring, secretOwner(orgId), input.clientSecret),
    providerMetadata: metadata as unknown as Record<string, unknown>,
    emailDomains: input.emailDomains,
    defaultRole: input.defaultRole,
    required: input.required,
    updatedBy: actor.userId,
    updatedAt: now,
  };
  const detail = { issuer: input.issuer, clientId: input.clientId, emailDomains: input.emailDomains, defaultRole: input.defaultRole, required: input.required, replaced: before !== null };
  const audit = auditInsertStatement(env.DB, { orgId, actorUserId: actor.userId, actorClientId: actor.clientId, action: "org.sso_configured", targetType: "org", targetId: orgId, detail }, now);
  await writeOrgSso(env.DB, stored, audit);
  return viewOf(stored);
}

export async function removeOrgSso(env: Env, orgId: string, actor: SsoActor): Promise<boolean> {
  const audit = auditInsertStatement(env.DB, { orgId, actorUserId: actor.userId, actorClientId: actor.clientId, action: "org.sso_removed", targetType: "org", targetId: orgId, detail: {} }, Date.now());
  return deleteOrgSso(env.DB, orgId, audit);
}

/** What a sign-in needs: the stored provider metadata and the client with its secret opened; null when the secret cannot be opened. */
export async function ssoClientOf(env: Env, stored: StoredSso): Promise<{ metadata: AuthorizationServer; client: SsoClient } | null> {
  try {
    const clientSecret = await openSecret(await secretKeyring(env), secretOwner(stored.orgId), stored.clientSecretSealed);
    return {
      metadata: stored.providerMetadata as unknown as AuthorizationServer,
      client: { clientId: stored.clientId, clientSecret, redirectUri: `${canonicalOrigin(env.PUBLIC_URL)}${SSO_CALLBACK_PATH}` },
    };
  } catch (error) {
    console.log(JSON.stringify({ level: "error", message: "sso client secret cannot be opened", orgId: stored.orgId, error: String(error) }));
    return null;
  }
}
