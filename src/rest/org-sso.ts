import { removeOrgSso, saveOrgSso, viewOf } from "../auth/sso/org-sso";
import { assertPerson } from "../domain/person-actions";
import { notFound } from "../domain/errors";
import { readOrgSso } from "../storage/org-sso";
import { adminGate, answering, jsonBody, type OwnRoute } from "./route-gates";

/**
 * The org's OpenID Connect single sign-on, for its admins:
 *   GET    /org/sso   the configuration, never its client secret (404 when there is none)
 *   PUT    /org/sso   {issuer, clientId, clientSecret, emailDomains, defaultRole?, required?}: checked, the provider's
 *                     discovery document read (a clear error when it cannot be used), the secret sealed; audited
 *   DELETE /org/sso   removes it (audited); password sign-in is open again
 * Changing it is a person-level action (domain/person-actions.ts): the dashboard, or a credential with the person scope.
 */
const PATH = "/org/sso";
const BODY_LIMIT = 16 * 1024;

export const orgSsoRoute: OwnRoute = async (request, relativePath, env, ctx, principal, correlationId) => {
  if (relativePath.replace(/\/$/, "") !== PATH) return null;
  const refused = adminGate(request, ["GET", "PUT", "DELETE"], ctx, principal, correlationId, {
    scope: "The organization's single sign-on needs the org:admin scope",
    role: "Only the organization's admins manage its single sign-on.",
  });
  if (refused) return refused;
  const { orgId } = principal;
  const actor = { userId: principal.userId, clientId: principal.clientId ?? principal.apiKeyId ?? null };
  return answering(correlationId, async () => {
    if (request.method === "GET") {
      const stored = await readOrgSso(env.DB, orgId);
      if (!stored) throw notFound("single sign-on configuration", "sso");
      return Response.json(viewOf(stored));
    }
    assertPerson(principal, "change_sign_in", "/dashboard/admin/sso");
    if (request.method === "DELETE") {
      const removed = await removeOrgSso(env, orgId, actor);
      if (!removed) throw notFound("single sign-on configuration", "sso");
      return new Response(null, { status: 204 });
    }
    return Response.json(await saveOrgSso(env, orgId, await jsonBody(request, BODY_LIMIT), actor));
  });
};

/** The route in the OpenAPI document. */
export function orgSsoOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const common = { security: [{ apiKey: [] }], "x-required-scope": "org:admin", tags: ["org"] };
  const errors = { "401": { description: "Missing, expired or revoked credential" }, "403": problem("Not an admin, no org:admin scope, or (for a change) not a person's credential (plans:approve)") };
  const view = {
    type: "object",
    properties: {
      issuer: { type: "string", format: "uri" },
      clientId: { type: "string" },
      emailDomains: { type: "array", items: { type: "string" } },
      defaultRole: { type: "string", enum: ["member", "admin"] },
      required: { type: "boolean" },
      providerName: { type: "string" },
      updatedAt: { type: "integer" },
    },
  };
  const input = {
    type: "object",
    additionalProperties: false,
    required: ["issuer", "clientId", "clientSecret", "emailDomains"],
    properties: {
      issuer: { type: "string", description: "The provider's issuer URL; its /.well-known/openid-configuration is read when saved" },
      clientId: { type: "string" },
      clientSecret: { type: "string", writeOnly: true, description: "Sealed at rest, never returned" },
      emailDomains: { type: "array", minItems: 1, maxItems: 20, items: { type: "string" }, description: "Only verified e-mails of these domains sign in" },
      defaultRole: { type: "string", enum: ["member", "admin"], default: "member", description: "The role of a person who signs in for the first time" },
      required: { type: "boolean", default: false, description: "true: members sign in only through the provider (password sign-in refused)" },
    },
  };
  const json = { description: "The configuration (without the secret)", content: { "application/json": { schema: view } } };
  return {
    [`${base}${PATH}`]: {
      get: { operationId: "get_org_sso", summary: "The organization's single sign-on", ...common, responses: { "200": json, "404": problem("No single sign-on configured"), ...errors } },
      put: {
        operationId: "set_org_sso",
        summary: "Set the organization's OpenID Connect single sign-on",
        ...common,
        requestBody: { required: true, content: { "application/json": { schema: input } } },
        responses: { "200": json, "400": problem("A field is not valid, or the provider's discovery document cannot be used"), "409": problem("A domain is another organization's"), ...errors },
      },
      delete: { operationId: "remove_org_sso", summary: "Remove the organization's single sign-on", ...common, responses: { "204": { description: "Removed" }, "404": problem("No single sign-on configured"), ...errors } },
    },
  };
}
