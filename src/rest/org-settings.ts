import type { OAuthResourceContext } from "@cloudflare/workers-oauth-provider";
import { isCairnError, validationError } from "../domain/errors";
import { APPROVAL_MODES, type ApprovalMode } from "../domain/plans/approval";
import type { Principal } from "../domain/principal";
import type { Env } from "../env";
import { webServices } from "../platform/runtime";
import { readBoundedText } from "../platform/request-body";
import { adminGate } from "./admin-gate";
import { problemResponse } from "./problem";

/**
 * The org's settings, for its admins (org:admin scope and the admin role):
 *   GET   /org/settings                                   {planApproval}
 *   PATCH /org/settings  {planApproval: "required"|"optional"}
 * planApproval is what create_research_plan does when the caller names no approval.
 * Not an MCP tool: an assistant does not decide whether its own plans need approving.
 */

const PATH = "/org/settings";
const BODY_LIMIT = 4 * 1024;

async function settingsChange(request: Request): Promise<{ planApproval: ApprovalMode }> {
  let value: unknown;
  try {
    value = JSON.parse((await readBoundedText(request, BODY_LIMIT)) || "{}");
  } catch {
    throw validationError("The body is not JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw validationError("The body must be a JSON object.");
  const unknown = Object.keys(value).filter((key) => key !== "planApproval");
  if (unknown.length) throw validationError(`Unknown fields: ${unknown.map((k) => k.slice(0, 40)).join(", ")}.`, unknown.map((k) => ({ path: k.slice(0, 40), message: "Not a field" })));
  const mode = (value as { planApproval?: unknown }).planApproval;
  if (typeof mode !== "string" || !(APPROVAL_MODES as readonly string[]).includes(mode)) {
    throw validationError(`planApproval is one of ${APPROVAL_MODES.join(", ")}.`, [{ path: "planApproval", message: `One of ${APPROVAL_MODES.join(", ")}` }]);
  }
  return { planApproval: mode as ApprovalMode };
}

export async function orgSettingsRoute(
  request: Request,
  relativePath: string,
  env: Env,
  ctx: OAuthResourceContext<unknown>,
  principal: Principal,
  correlationId: string,
): Promise<Response | null> {
  if (relativePath.replace(/\/$/, "") !== PATH) return null;
  const refused = adminGate(request, ["GET", "PATCH"], ctx, principal, correlationId, {
    scope: "Changing the organization's settings needs the org:admin scope",
    role: "Only the organization's admins manage its settings.",
  });
  if (refused) return refused;
  const { orgId } = principal;
  try {
    const { services } = await webServices(env, orgId);
    if (request.method === "PATCH") {
      const change = await settingsChange(request);
      const before = await services.orgSettings.planApproval(orgId);
      await services.orgSettings.setPlanApproval(orgId, change.planApproval);
      await services.audit.record({
        orgId,
        actorUserId: principal.userId,
        actorClientId: principal.clientId ?? principal.apiKeyId ?? null,
        action: "org.settings_changed",
        targetType: "org",
        targetId: orgId,
        detail: { planApproval: { from: before, to: change.planApproval } },
      });
    }
    return Response.json({ planApproval: await services.orgSettings.planApproval(orgId) });
  } catch (error) {
    if (isCairnError(error)) return problemResponse(error, correlationId);
    throw error;
  }
}

/** The settings route in the OpenAPI document. */
export function orgSettingsOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const common = { security: [{ oauth2: ["org:admin"] }, { apiKey: [] }], "x-required-scope": "org:admin", tags: ["org"] };
  const errors = { "401": { description: "Missing, expired or revoked credential" }, "403": problem("Not an admin of the organization, or no org:admin scope") };
  const settings = {
    type: "object",
    properties: { planApproval: { type: "string", enum: [...APPROVAL_MODES], description: "required: new plans wait for a person's approval unless create_research_plan says otherwise" } },
  };
  const json = { description: "The org's settings", content: { "application/json": { schema: settings } } };
  return {
    [`${base}${PATH}`]: {
      get: { operationId: "get_org_settings", summary: "The organization's settings", ...common, responses: { "200": json, ...errors } },
      patch: {
        operationId: "update_org_settings",
        summary: "Change the organization's settings",
        ...common,
        requestBody: { required: true, content: { "application/json": { schema: { ...settings, required: ["planApproval"], additionalProperties: false } } } },
        responses: { "200": json, "400": problem("A field is not valid"), ...errors },
      },
    },
  };
}
