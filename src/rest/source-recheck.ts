import { RECHECK_LIMITS } from "../domain/sources/recheck";
import { webServices } from "../platform/runtime";
import { queueRechecks } from "../platform/sources/recheck";
import { adminGate, answering, jsonBody, onlyFields, type OwnRoute } from "./route-gates";

/**
 * Re-checks of the sources the org's stored deliverables cite, for its admins (org:admin scope and the admin role):
 *   POST /sources/recheck   → 202 {queued, batchLimit}
 * Queues up to RECHECK_LIMITS.batch sources, oldest-checked first, within the org's check limits (429 with
 * Retry-After when they leave nothing). The daily cron and `npm run cairn -- sources recheck` do the same.
 * Not an MCP tool: how often an org's sources are re-read is the org's cost to decide, not an assistant's.
 */

const PATH = "/sources/recheck";
const BODY_LIMIT = 1024;

/** The body is empty or `{}`: the route takes no options (a field is refused, not ignored). */
const checkEmptyBody = async (request: Request) => onlyFields(await jsonBody(request, BODY_LIMIT), [], "The body must be empty or a JSON object.");

export const sourceRecheckRoute: OwnRoute = async (request, relativePath, env, ctx, principal, correlationId) => {
  if (relativePath.replace(/\/$/, "") !== PATH) return null;
  const refused = adminGate(request, ["POST"], ctx, principal, correlationId, {
    scope: "Re-checking the organization's sources needs the org:admin scope",
    role: "Only the organization's admins re-check its sources.",
  });
  if (refused) return refused;
  const { orgId } = principal;
  return answering(correlationId, async () => {
    await checkEmptyBody(request);
    const { now } = await webServices(env, orgId);
    // The audit row lands with the re-checks' mark: a request that fails after queuing is not left out of the log.
    const queued = await queueRechecks(env, orgId, now(), (count) => ({
      orgId,
      actorUserId: principal.userId,
      actorClientId: principal.clientId ?? principal.apiKeyId ?? null,
      action: "sources.recheck_requested",
      targetType: "org",
      targetId: orgId,
      detail: { queued: count },
    }));
    return Response.json(queued, { status: 202 });
  });
};

/** The re-check route in the OpenAPI document. */
export function sourceRecheckOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const queued = {
    type: "object",
    properties: {
      queued: { type: "integer", description: "Sources queued for re-checking (their verdicts land within minutes)" },
      batchLimit: { type: "integer", description: `The most one request queues (${RECHECK_LIMITS.batch}); send it again for more` },
    },
    required: ["queued", "batchLimit"],
  };
  return {
    [`${base}${PATH}`]: {
      post: {
        operationId: "recheck_sources",
        summary: "Re-check the sources stored deliverables cite",
        description:
          "Reads again, oldest-checked first, the pages cited by the organization's stored deliverables and looks for each quote on the new text. " +
          "A source verified at delivery whose quote is no longer on the page is changed (unreachable: gone); each change fires research_output.sources_changed once.",
        security: [{ oauth2: ["org:admin"] }, { apiKey: [] }],
        "x-required-scope": "org:admin",
        tags: ["org"],
        responses: {
          "202": { description: "Queued", content: { "application/json": { schema: queued } } },
          "400": problem("The body is not empty or {}"),
          "401": { description: "Missing, expired or revoked credential" },
          "403": problem("Not an admin of the organization, or no org:admin scope"),
          "429": problem("The organization's source-check limits leave nothing now (Retry-After says when)"),
        },
      },
    },
  };
}
