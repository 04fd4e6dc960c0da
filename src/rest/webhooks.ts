import { CairnError, validationError } from "../domain/errors";
import { WEBHOOK_EVENT_TYPES } from "../domain/webhooks/events";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  redeliverWebhook,
  rotateWebhookSecret,
  type SubscriptionChange,
  updateWebhook,
  webhookDeliveries,
} from "../platform/webhooks/admin";
import { adminGate, answering, jsonBody, onlyFields, type OwnRoute } from "./route-gates";

/**
 * Webhook subscriptions, for the org's admins (org:admin scope and the admin role):
 *   GET    /webhooks                                         list
 *   POST   /webhooks                     {url, events, description?}   create (the secret is in this answer only)
 *   GET    /webhooks/{id}                                    one
 *   PATCH  /webhooks/{id}                {url?, events?, description?, enabled?}
 *   DELETE /webhooks/{id}
 *   POST   /webhooks/{id}/rotate-secret                      a new secret; the old one signs beside it for 24 h
 *   GET    /webhooks/{id}/deliveries[?cursor=&limit=]        the delivery log, newest first
 *   POST   /webhooks/{id}/deliveries/{deliveryId}/redeliver  again, same webhook-id
 * Not MCP tools: subscribing is an admin's act, and the tool list stays lean.
 */

const ID = "([A-Za-z0-9_-]{1,64})";
const ROUTES: { pattern: RegExp; methods: string[] }[] = [
  { pattern: /^\/webhooks$/, methods: ["GET", "POST"] },
  { pattern: new RegExp(`^/webhooks/${ID}$`), methods: ["GET", "PATCH", "DELETE"] },
  { pattern: new RegExp(`^/webhooks/${ID}/rotate-secret$`), methods: ["POST"] },
  { pattern: new RegExp(`^/webhooks/${ID}/deliveries$`), methods: ["GET"] },
  { pattern: new RegExp(`^/webhooks/${ID}/deliveries/${ID}/redeliver$`), methods: ["POST"] },
];

const BODY_LIMIT = 16 * 1024;

async function jsonObject(request: Request): Promise<SubscriptionChange> {
  const value = onlyFields(await jsonBody(request, BODY_LIMIT), ["url", "events", "description", "enabled", ENDPOINT]);
  return withUrl(value as SubscriptionChange & { [ENDPOINT]?: unknown });
}

/** The operator CLI's name for a subscription's `url` (its own --url names the Cairn server); accepted here for it. */
const ENDPOINT = "endpoint";

function withUrl({ [ENDPOINT]: endpoint, ...change }: SubscriptionChange & { [ENDPOINT]?: unknown }): SubscriptionChange {
  if (endpoint === undefined) return change;
  if (change.url !== undefined) {
    throw validationError("Give the webhook's address once, as url (endpoint is the same field under the CLI's name).", [{ path: ENDPOINT, message: "Same field as url" }]);
  }
  return { ...change, url: endpoint };
}

export const webhooksRoute: OwnRoute = async (request, relativePath, env, ctx, principal, correlationId) => {
  const path = relativePath.replace(/\/$/, "");
  const route = ROUTES.find((candidate) => candidate.pattern.test(path));
  if (!route) return null;
  const refused = adminGate(request, route.methods, ctx, principal, correlationId, {
    scope: "Managing webhooks needs the org:admin scope",
    role: "Only the organization's admins manage its webhooks.",
  });
  if (refused) return refused;
  const [, id, deliveryId] = route.pattern.exec(path) ?? [];
  const { orgId } = principal;
  const now = Date.now();
  return answering(correlationId, async () => {
    if (path === "/webhooks") {
      if (request.method === "GET") return Response.json({ subscriptions: await listWebhooks(env, orgId), eventTypes: WEBHOOK_EVENT_TYPES });
      const created = await createWebhook(env, orgId, principal.userId, env.PUBLIC_URL, await jsonObject(request), now);
      const location = `${new URL(request.url).pathname.replace(/\/$/, "")}/${encodeURIComponent(created.subscription.id)}`;
      return Response.json(created, { status: 201, headers: { location, "access-control-expose-headers": "Location" } });
    }
    if (!id) throw new CairnError("not_found", "No such webhook route.");
    if (path.endsWith("/rotate-secret")) return Response.json(await rotateWebhookSecret(env, orgId, id, now));
    if (path.endsWith("/deliveries")) {
      const params = new URL(request.url).searchParams;
      const limit = Number(params.get("limit") ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw validationError("limit is a whole number from 1 to 200.", [{ path: "limit", message: "1–200" }]);
      return Response.json(await webhookDeliveries(env, orgId, id, params.get("cursor"), limit));
    }
    if (deliveryId) return Response.json(await redeliverWebhook(env, orgId, id, deliveryId, now), { status: 202 });
    if (request.method === "GET") return Response.json({ subscription: await getWebhook(env, orgId, id) });
    if (request.method === "PATCH") return Response.json({ subscription: await updateWebhook(env, orgId, id, await jsonObject(request), now) });
    await deleteWebhook(env, orgId, id);
    return new Response(null, { status: 204 });
  });
};

/** The webhook routes in the OpenAPI document. */
export function webhooksOpenApiPaths(base: string, problem: (description: string) => unknown): Record<string, Record<string, unknown>> {
  const common = { security: [{ oauth2: ["org:admin"] }, { apiKey: [] }], "x-required-scope": "org:admin", tags: ["webhooks"] };
  const errors = { "401": { description: "Missing, expired or revoked credential" }, "403": problem("Not an admin of the organization, or no org:admin scope") };
  const idParam = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
  const subscriptionBody = {
    type: "object",
    properties: {
      url: { type: "string", format: "uri", description: "https to a public host (http to loopback in development only)" },
      events: { type: "array", items: { type: "string", enum: [...WEBHOOK_EVENT_TYPES] }, minItems: 1 },
      description: { type: "string", maxLength: 200 },
      enabled: { type: "boolean", description: "PATCH only: false pauses deliveries; true re-enables a disabled subscription" },
    },
  };
  const json = (description: string) => ({ description, content: { "application/json": { schema: { type: "object" } } } });
  return {
    [`${base}/webhooks`]: {
      get: { operationId: "list_webhooks", summary: "List webhook subscriptions", ...common, responses: { "200": json("The subscriptions (never their secrets) and the event types"), ...errors } },
      post: {
        operationId: "create_webhook",
        summary: "Subscribe a URL to events",
        description: "Deliveries follow Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature v1 HMAC-SHA256). The whsec_ secret is in this answer only.",
        ...common,
        requestBody: { required: true, content: { "application/json": { schema: { ...subscriptionBody, required: ["url", "events"] } } } },
        responses: {
          "201": { ...json("The subscription and its secret"), headers: { Location: { description: "The subscription's URL", schema: { type: "string" } } } },
          "400": problem("A field is not valid"),
          "409": problem("The organization has 10 subscriptions already"),
          ...errors,
        },
      },
    },
    [`${base}/webhooks/{id}`]: {
      get: { operationId: "get_webhook", summary: "One webhook subscription", ...common, parameters: [idParam("id")], responses: { "200": json("The subscription"), "404": problem("No such subscription"), ...errors } },
      patch: {
        operationId: "update_webhook",
        summary: "Change a webhook subscription",
        ...common,
        parameters: [idParam("id")],
        requestBody: { required: true, content: { "application/json": { schema: subscriptionBody } } },
        responses: { "200": json("The subscription"), "400": problem("A field is not valid"), "404": problem("No such subscription"), ...errors },
      },
      delete: { operationId: "delete_webhook", summary: "Delete a webhook subscription and its delivery log", ...common, parameters: [idParam("id")], responses: { "204": { description: "Deleted" }, "404": problem("No such subscription"), ...errors } },
    },
    [`${base}/webhooks/{id}/rotate-secret`]: {
      post: { operationId: "rotate_webhook_secret", summary: "A new signing secret; the old one also signs for 24 hours", ...common, parameters: [idParam("id")], responses: { "200": json("The new secret (shown once)"), "404": problem("No such subscription"), ...errors } },
    },
    [`${base}/webhooks/{id}/deliveries`]: {
      get: {
        operationId: "list_webhook_deliveries",
        summary: "The delivery log, newest first",
        ...common,
        parameters: [idParam("id"), { name: "cursor", in: "query", schema: { type: "string" } }, { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 200 } }],
        responses: { "200": json("Deliveries: status, attempts, last answer or error"), "404": problem("No such subscription"), ...errors },
      },
    },
    [`${base}/webhooks/{id}/deliveries/{deliveryId}/redeliver`]: {
      post: {
        operationId: "redeliver_webhook",
        summary: "Deliver again, with the same webhook-id",
        ...common,
        parameters: [idParam("id"), idParam("deliveryId")],
        responses: { "202": json("Queued"), "404": problem("No such subscription or delivery"), "409": problem("The subscription is disabled, or the delivery is still being retried"), ...errors },
      },
    },
  };
}
