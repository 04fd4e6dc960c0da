import { validationError } from "../domain/errors";
import { deleteSchedule, getSchedule, putSchedule } from "../platform/schedules/schedules";
import { answering, jsonBody, memberGate, type OwnRoute } from "./route-gates";

/**
 * A plan's schedule (scheduled re-runs; docs/schedules.md):
 *   PUT    /plans/{planId}/schedule  {every: "day"|"week"|"month", startAt?, until?}  set (201 new, 200 set again)
 *   GET    /plans/{planId}/schedule                                                 the series and its latest runs
 *   DELETE /plans/{planId}/schedule                                                 stop (204)
 * Not MCP tools: assistants read the schedule through get_plan_status and list_active_plans.
 */

const PATTERN = /^\/plans\/([^/]{1,128})\/schedule$/;
const METHODS = ["GET", "PUT", "DELETE"];
const BODY_LIMIT = 2 * 1024;

const bodyOf = (request: Request) => jsonBody(request, BODY_LIMIT, { notJson: "The body is not JSON: send { every, startAt?, until? }.", empty: null });

export const schedulesRoute: OwnRoute = async (request, relativePath, env, ctx, principal, correlationId) => {
  const match = PATTERN.exec(relativePath.replace(/\/$/, ""));
  if (!match) return null;
  const refused = memberGate(request, METHODS, ctx, principal, correlationId, (scope) => `A plan's schedule needs the ${scope} scope`);
  if (refused) return refused;
  return answering(correlationId, async () => {
    let planId: string;
    try {
      planId = decodeURIComponent(match[1] ?? "");
    } catch {
      throw validationError("The planId in the path is not valid percent-encoding.", [{ path: "planId", message: "Malformed percent-encoding" }]);
    }
    if (request.method === "GET") return Response.json({ schedule: await getSchedule(env, principal.orgId, planId) });
    if (request.method === "DELETE") {
      await deleteSchedule(env, principal, planId);
      return new Response(null, { status: 204 });
    }
    const { created, schedule } = await putSchedule(env, principal, planId, await bodyOf(request));
    return Response.json({ schedule }, { status: created ? 201 : 200 });
  });
};

/** The schedule route in the OpenAPI document. */
export function scheduleOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const schedule = {
    type: "object",
    properties: {
      seriesId: { type: "string" },
      planId: { type: "string", description: "The series' plan, which each run copies" },
      every: { type: "string", enum: ["day", "week", "month"] },
      startAt: { type: "string", format: "date-time" },
      until: { type: ["string", "null"], format: "date-time" },
      status: { type: "string", enum: ["active", "paused", "ended", "stopped"], description: "paused: after 3 runs in a row nobody started; set it again to resume" },
      nextDueAt: { type: ["string", "null"], format: "date-time" },
      missedInARow: { type: "integer" },
      runNumber: { type: "integer", description: "This plan's place in the series (0: the series' own plan)" },
      runs: {
        type: "array",
        items: { type: "object", properties: { runNumber: { type: "integer" }, planId: { type: "string" }, dueAt: { type: "string", format: "date-time" }, status: { type: "string", enum: ["due", "started", "missed", "completed", "failed", "cancelled"] } } },
      },
    },
  };
  const answer = (description: string) => ({ description, content: { "application/json": { schema: { type: "object", properties: { schedule } } } } });
  const planId = { name: "planId", in: "path", required: true, schema: { type: "string" } };
  return {
    [`${base}/plans/{planId}/schedule`]: {
      get: {
        operationId: "get_plan_schedule",
        summary: "A plan's schedule and its latest runs",
        parameters: [planId],
        security: [{ oauth2: ["research:read"] }, { apiKey: [] }],
        "x-required-scope": "research:read",
        tags: ["plans"],
        responses: { "200": answer("The schedule"), "404": problem("No such plan, or it has no schedule") },
      },
      put: {
        operationId: "set_plan_schedule",
        summary: "Re-run a plan on a schedule",
        description:
          "At each due time the cron creates the next run: a new plan copied from this one with its budget, waiting for an assistant (or, where approval applies, for a person's approval first). At most 50 schedules per organization.",
        parameters: [planId],
        security: [{ oauth2: ["research:write"] }, { apiKey: [] }],
        "x-required-scope": "research:write",
        tags: ["plans"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                additionalProperties: false,
                required: ["every"],
                properties: {
                  every: { type: "string", enum: ["day", "week", "month"] },
                  startAt: { type: "string", format: "date-time", description: "The first run's due time (default: one interval from now)" },
                  until: { type: "string", format: "date-time", description: "No run is due after this time" },
                },
              },
            },
          },
        },
        responses: {
          "200": answer("Set again (a paused series resumes)"),
          "201": answer("Set"),
          "400": problem("Not a valid schedule"),
          "403": problem("The plan's runs need approval, and scheduling it is a person's decision: the dashboard, or a key with plans:approve"),
          "404": problem("No such plan"),
          "409": problem("The organization has 50 schedules, or the plan waits for approval, was rejected at approval or was cancelled"),
        },
      },
      delete: {
        operationId: "stop_plan_schedule",
        summary: "Stop a plan's schedule (its runs stay)",
        parameters: [planId],
        security: [{ oauth2: ["research:write"] }, { apiKey: [] }],
        "x-required-scope": "research:write",
        tags: ["plans"],
        responses: { "204": { description: "Stopped" }, "404": problem("No such plan, or it has no schedule") },
      },
    },
  };
}
