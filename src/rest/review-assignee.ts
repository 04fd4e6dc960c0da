import { validationError } from "../domain/errors";
import { assignReview } from "../operations/assign-review";
import { AssigneeEmail } from "../operations/review-people";
import { webServices } from "../platform/runtime";
import { answering, jsonBody, memberGate, onlyFields, type OwnRoute } from "./route-gates";

/**
 * Who a waiting review is assigned to, changed by a person (research:write, and the person check in assignReview):
 *   PUT /plans/{planId}/reviews/{reviewId}/assignee   {email}  (null: no one) → {reviewId, assignee: {email, name} | null}
 * reviewId is a pendingReviews entry's (a checkpoint step's id, or a plan review's). Not an MCP tool: the assistant
 * names the assignee when it asks (request_user_review); handing a decision to someone else is the people's.
 */

const PATTERN = /^\/plans\/([A-Za-z0-9_-]{1,64})\/reviews\/([A-Za-z0-9_-]{1,64})\/assignee\/?$/;
const BODY_LIMIT = 1024;

function emailOf(body: unknown): string | null {
  const { email } = onlyFields(body, ["email"]);
  if (email === null) return null;
  const parsed = AssigneeEmail.safeParse(email);
  if (!parsed.success) throw validationError("email is a member's e-mail address, or null for no one.", [{ path: "email", message: "A member's e-mail, or null" }]);
  return parsed.data;
}

export const reviewAssigneeRoute: OwnRoute = async (request, relativePath, env, ctx, principal, correlationId) => {
  const match = PATTERN.exec(relativePath);
  if (!match) return null;
  const refused = memberGate(request, ["PUT"], ctx, principal, correlationId, (scope) => `Assigning a review needs the ${scope} scope`);
  if (refused) return refused;
  const [, planId = "", reviewId = ""] = match;
  return answering(correlationId, async () => {
    const email = emailOf(await jsonBody(request, BODY_LIMIT));
    const { services, now } = await webServices(env, principal.orgId);
    return Response.json(await assignReview({ services, principal, now }, planId, reviewId, email));
  });
};

/** The route in the OpenAPI document. */
export function reviewAssigneeOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const person = { type: ["object", "null"], properties: { email: { type: "string" }, name: { type: "string" } } };
  const id = (name: string, description: string) => ({ name, in: "path", required: true, schema: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" }, description });
  return {
    [`${base}/plans/{planId}/reviews/{reviewId}/assignee`]: {
      put: {
        operationId: "assign_review",
        summary: "Assign a waiting review to a member",
        description:
          "Names the member meant to decide a review waiting for a person (a pendingReviews entry), or no one (null). " +
          "The assignee alone is notified; everyone still sees it in the review inbox. Audited as review.assigned, also a webhook event.",
        security: [{ oauth2: ["research:write"] }, { apiKey: [] }],
        "x-required-scope": "research:write",
        tags: ["plans"],
        parameters: [id("planId", "The plan"), id("reviewId", "The pendingReviews entry's reviewId")],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object", additionalProperties: false, required: ["email"], properties: { email: { type: ["string", "null"], description: "A member's e-mail, or null" } } } } },
        },
        responses: {
          "200": { description: "Assigned", content: { "application/json": { schema: { type: "object", properties: { reviewId: { type: "string" }, assignee: person } } } } },
          "400": problem("Not a member of the organization (named), or not an e-mail"),
          "401": { description: "Missing, expired or revoked credential" },
          "403": problem("No research:write scope"),
          "404": problem("No such plan or review"),
          "409": problem("The review is no longer waiting"),
        },
      },
    },
  };
}
