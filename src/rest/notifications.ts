import { NOTIFICATION_EVENT_TYPES } from "../domain/notifications/policy";
import { channelsOf, createChannel, getPreferences, putPreferences, removeChannel, testChannel } from "../platform/notifications/admin";
import { publicOrigin } from "../platform/runtime";
import { adminGate, answering, jsonBody, memberGate, type OwnRoute } from "./route-gates";

/**
 * Notifications to people:
 *   GET  /me/notifications                       your choice of events by e-mail (or the defaults)
 *   PUT  /me/notifications        {email: [events…]}
 *   GET  /org/notification-channels              the org's channels, never a Slack URL     (admins)
 *   POST /org/notification-channels {kind, url?, address?, events}  → 201 {channelId, confirmation?}  (admins)
 *        an e-mail address that is not a member's own waits for the address to confirm (a link is sent to it)
 *   DELETE /org/notification-channels/{id}                                                  (admins)
 *   POST /org/notification-channels/{id}/test    one test message now                       (admins)
 * Not MCP tools: who is told what is a person's and an admin's choice, not an assistant's.
 */

const ME = "/me/notifications";
const CHANNELS = /^\/org\/notification-channels(?:\/([A-Za-z0-9_-]{1,64})(\/test)?)?$/;
const BODY_LIMIT = 16 * 1024;

const bodyOf = (request: Request) => jsonBody(request, BODY_LIMIT);

export const notificationsRoute: OwnRoute = async (request, relativePath, env, ctx, principal, correlationId) => {
  const path = relativePath.replace(/\/$/, "");
  const now = Date.now();
  const { orgId, userId } = principal;
  if (path === ME) {
    const refused = memberGate(request, ["GET", "PUT"], ctx, principal, correlationId, (scope) => `Your notification settings need the ${scope} scope`);
    if (refused) return refused;
    return answering(correlationId, async () => Response.json(request.method === "GET" ? await getPreferences(env, orgId, userId) : await putPreferences(env, orgId, userId, await bodyOf(request), now)));
  }
  const match = CHANNELS.exec(path);
  if (!match) return null;
  const [, id, test] = match;
  const methods = test ? ["POST"] : id ? ["DELETE"] : ["GET", "POST"];
  const refused = adminGate(request, methods, ctx, principal, correlationId, {
    scope: "Managing notification channels needs the org:admin scope",
    role: "Only the organization's admins manage its notification channels.",
  });
  if (refused) return refused;
  return answering(correlationId, async () => {
    if (!id) {
      if (request.method === "GET") return Response.json({ channels: await channelsOf(env, orgId), eventTypes: NOTIFICATION_EVENT_TYPES });
      // An address outside the org's members is a person's to add (createChannel asks): the assistant's credential may hold org:admin.
      const created = await createChannel(env, orgId, principal, publicOrigin(env), await bodyOf(request), now);
      const location = `${new URL(request.url).pathname.replace(/\/$/, "")}/${created.channelId}`;
      return Response.json(created, { status: 201, headers: { location, "access-control-expose-headers": "Location" } });
    }
    if (test) return Response.json(await testChannel(env, orgId, id, now));
    await removeChannel(env, orgId, id);
    return new Response(null, { status: 204 });
  });
};

/** The notification routes in the OpenAPI document. */
export function notificationsOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const admin = { security: [{ oauth2: ["org:admin"] }, { apiKey: [] }], "x-required-scope": "org:admin", tags: ["notifications"] };
  const errors = { "401": { description: "Missing, expired or revoked credential" }, "403": problem("Not an admin of the organization, or no org:admin scope") };
  const json = (description: string) => ({ description, content: { "application/json": { schema: { type: "object" } } } });
  const events = { type: "array", items: { type: "string", enum: [...NOTIFICATION_EVENT_TYPES] } };
  const idParam = { name: "channelId", in: "path", required: true, schema: { type: "string" } };
  return {
    [`${base}${ME}`]: {
      get: { operationId: "get_my_notifications", summary: "Your notification settings", security: [{ oauth2: ["research:read"] }, { apiKey: [] }], tags: ["notifications"], responses: { "200": json("The events that reach you by e-mail") } },
      put: {
        operationId: "put_my_notifications",
        summary: "Choose the events that reach you by e-mail",
        security: [{ oauth2: ["research:write"] }, { apiKey: [] }],
        tags: ["notifications"],
        requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties: { email: events }, required: ["email"] } } } },
        responses: { "200": json("The settings as stored"), "400": problem("An unknown event or field") },
      },
    },
    [`${base}/org/notification-channels`]: {
      get: { operationId: "list_notification_channels", summary: "The org's notification channels (never a Slack URL)", ...admin, responses: { "200": json("The channels"), ...errors } },
      post: {
        operationId: "create_notification_channel",
        summary: "Add a Slack-compatible webhook or an e-mail address as a channel",
        ...admin,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { type: "object", properties: { kind: { type: "string", enum: ["slack", "email"] }, url: { type: "string", format: "uri" }, address: { type: "string", format: "email" }, events }, required: ["kind", "events"] },
            },
          },
        },
        description:
          "An e-mail address must be one plain mailbox (no group syntax, encoded words, address literals, quoted parts or display names). An address that is not a member's own " +
          'is sent a link to confirm, and nothing else until it is followed: the answer says confirmation "awaiting_confirmation" and whether the link was sent.',
        responses: { "201": json("{ channelId, confirmation?, confirmationSent?, error? }"), "400": problem("A field is not valid (an address names why) or the URL is refused"), "409": problem("The organization has 10 channels already"), ...errors },
      },
    },
    [`${base}/org/notification-channels/{channelId}`]: {
      delete: { operationId: "delete_notification_channel", summary: "Delete a channel", ...admin, parameters: [idParam], responses: { "204": { description: "Deleted" }, "404": problem("No such channel"), ...errors } },
    },
    [`${base}/org/notification-channels/{channelId}/test`]: {
      post: {
        operationId: "test_notification_channel",
        summary: "Send one test message now",
        ...admin,
        parameters: [idParam],
        description: "An e-mail address that has not confirmed is sent a new confirmation link instead of a test (delivered: false, confirmationSent).",
        responses: { "200": json("{ delivered, error, confirmationSent? }"), "404": problem("No such channel"), "429": problem("The org's daily notification cap is reached (Retry-After: until 00:00 UTC)"), ...errors },
      },
    },
  };
}
