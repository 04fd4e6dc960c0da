import { CairnError } from "../domain/errors";
import { ID_PATTERN } from "../domain/ids";
import type { Scope } from "../domain/scopes";
import { SHARE_LIMITS, SHARING_MODES } from "../domain/shares";
import { createShare, listShares, revokeShare } from "../platform/shares";
import { answering, jsonBody, memberGate, type OwnRoute } from "./route-gates";

/**
 * Share links of a deliverable, for the org's members (the org's sharing setting says who may make one):
 *   POST   /outputs/{outputId}/shares             {expiresInDays?}  → 201 {shareId, url, expiresAt} (the url in this answer only)
 *   GET    /outputs/{outputId}/shares             → {shares}: each link's state and views, never its url
 *   DELETE /outputs/{outputId}/shares/{shareId}   → the link, revoked
 * Not MCP tools: handing research to people outside the org is a person's decision, not an assistant's: making a link
 * needs a person (domain/person-actions.ts), a signed-in one in the dashboard or an API key carrying the person scope.
 */

const ROUTE = /^\/outputs\/([^/]+)\/shares(?:\/([^/]+))?$/;
const BODY_LIMIT = 1024;

const bodyOf = (request: Request) => jsonBody(request, BODY_LIMIT);

export const sharesRoute: OwnRoute = async (request, relativePath, env, ctx, principal, correlationId) => {
  const match = ROUTE.exec(relativePath.replace(/\/$/, ""));
  if (!match) return null;
  const [, rawOutputId = "", rawShareId] = match;
  const allow = rawShareId === undefined ? ["GET", "POST"] : ["DELETE"];
  const refused = memberGate(request, allow, ctx, principal, correlationId, (scope) => `${request.method === "GET" ? "Listing" : "Managing"} share links needs the ${scope} scope`);
  if (refused) return refused;
  const actor = { orgId: principal.orgId, userId: principal.userId, role: principal.role, clientId: principal.clientId ?? principal.apiKeyId ?? null };
  return answering(correlationId, async () => {
    // Ids are plain ([a-z0-9_]); anything else names nothing here, as an id of another org does.
    const outputId = decodeURIComponent(rawOutputId);
    if (!ID_PATTERN.test(outputId)) throw new CairnError("not_found", `No research output with id "${outputId.slice(0, 80)}" exists.`);
    if (rawShareId !== undefined) {
      const shareId = decodeURIComponent(rawShareId);
      if (!ID_PATTERN.test(shareId)) throw new CairnError("not_found", `No share link with id "${shareId.slice(0, 80)}" exists.`);
      return Response.json({ share: await revokeShare(env, actor, outputId, shareId) });
    }
    if (request.method === "GET") return Response.json(await listShares(env, principal.orgId, outputId));
    const created = await createShare(env, actor, principal, outputId, await bodyOf(request));
    return Response.json(created, { status: 201 });
  });
};

/** The share routes in the OpenAPI document. */
export function sharesOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const param = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
  const errors = {
    "401": { description: "Missing, expired or revoked credential" },
    "404": problem("No such deliverable or link (or not in your organization)"),
  };
  const security = (scope: Scope) => ({ security: [{ oauth2: [scope] }, { apiKey: [] }], "x-required-scope": scope, tags: ["shares"] });
  const share = {
    type: "object",
    properties: {
      shareId: { type: "string" },
      outputId: { type: "string" },
      status: { type: "string", enum: ["active", "revoked", "expired"] },
      createdAt: { type: "string", format: "date-time" },
      expiresAt: { type: "string", format: "date-time" },
      revokedAt: { type: ["string", "null"], format: "date-time" },
      views: { type: "integer", description: "Times the link's page was served" },
      lastViewedAt: { type: ["string", "null"], format: "date-time" },
    },
  };
  return {
    [`${base}/outputs/{outputId}/shares`]: {
      post: {
        operationId: "create_share_link",
        summary: "Share a deliverable by a read-only link",
        description:
          `Anyone with the url reads the deliverable, its version and date, and its sources with their verification, without signing in; nothing else of the organization. ` +
          `The url is in this answer only (Cairn keeps only the SHA-256 of its token). Who may share is the organization's sharing setting (${SHARING_MODES.join(", ")}).`,
        ...security("research:write"),
        parameters: [param("outputId")],
        requestBody: {
          required: false,
          content: {
            "application/json": {
              schema: {
                type: "object",
                additionalProperties: false,
                properties: { expiresInDays: { type: "integer", minimum: 1, maximum: SHARE_LIMITS.maxDays, default: SHARE_LIMITS.defaultDays } },
              },
            },
          },
        },
        responses: {
          "201": {
            description: "The link",
            content: {
              "application/json": {
                schema: { type: "object", required: ["shareId", "url", "expiresAt"], properties: { shareId: { type: "string" }, url: { type: "string", format: "uri" }, expiresAt: { type: "string", format: "date-time" } } },
              },
            },
          },
          "400": problem("expiresInDays is not a whole number from 1 to 365, or an unknown field"),
          "403": problem("The organization's sharing setting does not let you share (off, or admins only), no research:write scope, or not a person (publishing is a person's decision: the dashboard, or a key with plans:approve)"),
          "409": problem(`The deliverable has ${SHARE_LIMITS.livePerOutput} live links already`),
          ...errors,
        },
      },
      get: {
        operationId: "list_share_links",
        summary: "A deliverable's share links (never their urls)",
        ...security("research:read"),
        parameters: [param("outputId")],
        responses: { "200": { description: "Newest first", content: { "application/json": { schema: { type: "object", properties: { shares: { type: "array", items: share } } } } } }, ...errors },
      },
    },
    [`${base}/outputs/{outputId}/shares/{shareId}`]: {
      delete: {
        operationId: "revoke_share_link",
        summary: "Revoke a share link: its page answers 404 from now on",
        ...security("research:write"),
        parameters: [param("outputId"), param("shareId")],
        responses: { "200": { description: "The link, revoked", content: { "application/json": { schema: { type: "object", properties: { share } } } } }, ...errors },
      },
    },
  };
}
