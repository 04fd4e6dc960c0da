import { applySettingsChange, assertApproversAreMembers, MAX_APPROVERS, readSettings, settingsChangeDetail, writeSettings } from "../domain/org-settings";
import { assertPerson, loosensProtection } from "../domain/person-actions";
import { APPROVAL_MODES } from "../domain/plans/approval";
import { SHARING_MODES } from "../domain/shares";
import { SOURCE_POLICY_LIMITS } from "../domain/sources/source-policy";
import { publicOrigin, webServices } from "../platform/runtime";
import { adminGate, answering, jsonBody, type OwnRoute } from "./route-gates";

/**
 * The org's settings, for its admins (org:admin scope and the admin role):
 *   GET   /org/settings    {planApproval, sourcePolicy: {blockedDomains, preferredDomains}, sharing, approvers, locale?}
 *   PATCH /org/settings    any of those fields; a list given replaces the stored one whole (PUT: the same)
 *   approvers: the members (by e-mail) who approve plans; [] for anyone who may. Someone not a member is refused, named.
 * planApproval is what create_research_plan does when the caller names no approval; the source policy is what
 * record_evidence refuses (blocked domains) and what the ledger counts (preferred domains).
 * Not an MCP tool: an assistant does not decide whether its own plans need approving, nor which sources it may use.
 * Lowering or lifting a protection (approval to optional, sharing opened, a domain unblocked) is a person's action
 * (domain/person-actions.ts): a signed-in person in the dashboard, or an API key carrying the person scope.
 */

const PATH = "/org/settings";
/** Two lists of 500 domains of up to 253 characters, quoted, fit. */
const BODY_LIMIT = 300 * 1024;

export const orgSettingsRoute: OwnRoute = async (request, relativePath, env, ctx, principal, correlationId) => {
  if (relativePath.replace(/\/$/, "") !== PATH) return null;
  const refused = adminGate(request, ["GET", "PATCH", "PUT"], ctx, principal, correlationId, {
    scope: `${request.method === "GET" ? "Reading" : "Changing"} the organization's settings needs the org:admin scope`,
    role: "Only the organization's admins manage its settings.",
  });
  if (refused) return refused;
  const { orgId } = principal;
  // (The gate holds a change while an import runs: an import restores the settings.)
  return answering(correlationId, async () => {
    const { services } = await webServices(env, orgId);
    const before = await readSettings(services.orgSettings, orgId);
    if (request.method === "GET") return Response.json(before);
    const after = applySettingsChange(await jsonBody(request, BODY_LIMIT), before);
    await assertApproversAreMembers(services.members, orgId, after.approvers);
    // Tightening is the admin scope's; lowering or lifting a protection is a person's (an assistant's credential may hold org:admin).
    if (loosensProtection(before, after)) assertPerson(principal, "lower_protection", `${publicOrigin(env)}/dashboard/admin/settings`);
    await writeSettings(services.orgSettings, orgId, before, after);
    const detail = settingsChangeDetail(before, after);
    if (Object.keys(detail).length > 0) {
      await services.audit.record({
        orgId,
        actorUserId: principal.userId,
        actorClientId: principal.clientId ?? principal.apiKeyId ?? null,
        action: "org.settings_changed",
        targetType: "org",
        targetId: orgId,
        detail,
      });
    }
    return Response.json(after);
  });
};

/** The settings route in the OpenAPI document. */
export function orgSettingsOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const common = { security: [{ oauth2: ["org:admin"] }, { apiKey: [] }], "x-required-scope": "org:admin", tags: ["org"] };
  const errors = {
    "401": { description: "Missing, expired or revoked credential" },
    "403": problem("Not an admin of the organization, no org:admin scope, or a change that lowers a protection from a caller that is not a person (the dashboard, or a key with plans:approve)"),
  };
  const domains = (description: string) => ({
    type: "array",
    maxItems: SOURCE_POLICY_LIMITS.domainsPerList,
    items: { type: "string", maxLength: SOURCE_POLICY_LIMITS.inputChars },
    description,
  });
  const sourcePolicy = {
    type: "object",
    additionalProperties: false,
    properties: {
      blockedDomains: domains("record_evidence refuses sources from these domains and their subdomains (example.com covers www.example.com)"),
      preferredDomains: domains("The evidence ledger counts the sources from these domains and their subdomains"),
    },
    description:
      "Domain names (an IP address is refused), stored lower case and in punycode; a domain may not be both blocked and preferred. In a change, a list given replaces the stored one.",
  };
  const settings = {
    type: "object",
    properties: {
      planApproval: { type: "string", enum: [...APPROVAL_MODES], description: "required: new plans wait for a person's approval unless create_research_plan says otherwise" },
      sourcePolicy,
      approvers: {
        type: "array",
        maxItems: MAX_APPROVERS,
        items: { type: "string", format: "email" },
        description: "The members (by e-mail) who approve plans; [] for anyone who may. Widening or lifting it is a person's change",
      },
      sharing: {
        type: "string",
        enum: [...SHARING_MODES],
        description: "Who may make share links of deliverables: members (any member), admins, or off (no one, and existing links stop answering)",
      },
      locale: {
        type: ["string", "null"],
        maxLength: 35,
        description:
          "The organization's locale, a BCP 47 tag such as en-US or ja-JP (absent until set; null in a change unsets it): PDF downloads are printed on US Letter in Letter countries (United States, Canada, Mexico…), on A4 elsewhere and when unset",
      },
    },
  };
  const json = { description: "The org's settings", content: { "application/json": { schema: settings } } };
  // PUT and PATCH take the same body: any of the settings, at least one, nothing else.
  const change = { required: true, content: { "application/json": { schema: { ...settings, minProperties: 1, additionalProperties: false } } } };
  return {
    [`${base}${PATH}`]: {
      put: {
        operationId: "put_org_settings",
        summary: "Change the organization's settings (as PATCH)",
        ...common,
        requestBody: change,
        responses: { "200": json, "400": problem("A field is not valid, or an approver is not a member (named)"), ...errors },
      },
      get: { operationId: "get_org_settings", summary: "The organization's settings", ...common, responses: { "200": json, ...errors } },
      patch: {
        operationId: "update_org_settings",
        summary: "Change the organization's settings",
        ...common,
        requestBody: change,
        responses: { "200": json, "400": problem("A field is not valid"), ...errors },
      },
    },
  };
}
