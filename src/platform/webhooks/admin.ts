import { CairnError, conflict, notFound, validationError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import { outboundPolicyFor } from "../../domain/outbound-gate";
import type { WebhookEventType } from "../../domain/webhooks/events";
import { publicDelivery, publicSubscription, type WebhookMessage, type WebhookSubscription } from "../../domain/webhooks/model";
import { checkEventTypes, checkWebhookTarget, WEBHOOK_LIMITS } from "../../domain/webhooks/policy";
import { openSecret, SecretUnavailable, sealSecret } from "../../domain/webhooks/secret-box";
import { newWebhookSecret } from "../../domain/webhooks/signing";
import type { Env } from "../../env";
import {
  deleteSubscription,
  getDelivery,
  getSubscription,
  insertSubscription,
  listDeliveries,
  listSubscriptions,
  reopenDelivery,
  restoreDelivery,
  updateSubscription,
} from "../../storage/webhook-repository";
import { requiredKeyring, sealWebhookSecret } from "./secret-keys";

/**
 * Managing an org's webhook subscriptions: the one place REST and the dashboard
 * (and through REST, the CLI) go through, so every face applies the same checks.
 * Callers have already established that the person is an admin of `orgId`.
 */

export interface SubscriptionChange {
  url?: unknown;
  events?: unknown;
  description?: unknown;
  enabled?: unknown;
}

function checkedUrl(env: Env, url: unknown): string {
  if (typeof url !== "string" || url.trim() === "") throw validationError("url is required: the https address to send events to.", [{ path: "url", message: "Required" }]);
  const target = checkWebhookTarget(url.trim(), outboundPolicyFor(env.CAIRN_ENV, "webhook"));
  if (!target.ok) throw validationError(`This URL cannot receive webhooks: ${target.reason}.`, [{ path: "url", message: target.reason }]);
  return target.url;
}

function checkedEvents(events: unknown): WebhookEventType[] {
  if (!Array.isArray(events) || events.length === 0 || events.some((e) => typeof e !== "string")) {
    throw validationError("events must list at least one event type.", [{ path: "events", message: "A non-empty array of event types" }]);
  }
  const checked = checkEventTypes(events as string[]);
  if (!checked.ok) throw validationError(`Unknown event types: ${checked.unknown.map((e) => String(e).slice(0, 60)).join(", ")}.`, [{ path: "events", message: "Unknown event type" }]);
  return checked.types;
}

function checkedDescription(description: unknown): string {
  if (description === undefined) return "";
  if (typeof description !== "string" || description.length > WEBHOOK_LIMITS.descriptionChars) {
    throw validationError(`description is text of at most ${WEBHOOK_LIMITS.descriptionChars} characters.`, [{ path: "description", message: "Too long or not text" }]);
  }
  return description;
}

export async function listWebhooks(env: Env, orgId: string) {
  return (await listSubscriptions(env.DB, orgId)).map(publicSubscription);
}

async function mustGet(env: Env, orgId: string, id: string): Promise<WebhookSubscription> {
  const subscription = await getSubscription(env.DB, orgId, id);
  if (!subscription) throw notFound("webhook subscription", id);
  return subscription;
}

export async function getWebhook(env: Env, orgId: string, id: string) {
  return publicSubscription(await mustGet(env, orgId, id));
}

/** A new subscription; its secret is in the answer and never shown again (it is stored sealed). */
export async function createWebhook(env: Env, orgId: string, userId: string, cairnOrigin: string, input: SubscriptionChange, now: number) {
  const id = newId("whk");
  const url = checkedUrl(env, input.url);
  const events = checkedEvents(input.events);
  const description = checkedDescription(input.description);
  const secret = newWebhookSecret();
  const subscription: WebhookSubscription = {
    id,
    orgId,
    url,
    events,
    description,
    storedSecret: await sealWebhookSecret(env, id, secret),
    cairnOrigin,
    storedPreviousSecret: null,
    previousSecretExpiresAt: null,
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdBy: userId,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await insertSubscription(env.DB, subscription, WEBHOOK_LIMITS.subscriptionsPerOrg))) {
    throw conflict(`An organization has at most ${WEBHOOK_LIMITS.subscriptionsPerOrg} webhook subscriptions; delete one first.`);
  }
  return { subscription: publicSubscription(subscription), secret };
}

/** Changes what is given; enabling again clears why it was disabled and the failure clock. */
export async function updateWebhook(env: Env, orgId: string, id: string, input: SubscriptionChange, now: number) {
  await mustGet(env, orgId, id);
  if (input.enabled !== undefined && typeof input.enabled !== "boolean") throw validationError("enabled is true or false.", [{ path: "enabled", message: "Boolean" }]);
  const change = {
    ...(input.url !== undefined ? { url: checkedUrl(env, input.url) } : {}),
    ...(input.events !== undefined ? { events: checkedEvents(input.events) } : {}),
    ...(input.description !== undefined ? { description: checkedDescription(input.description) } : {}),
    ...(input.enabled === true ? { enabled: true, disabledReason: null, failingSince: null } : input.enabled === false ? { enabled: false, disabledReason: "Disabled by an admin." } : {}),
  };
  await updateSubscription(env.DB, orgId, id, change, now);
  return publicSubscription(await mustGet(env, orgId, id));
}

export async function deleteWebhook(env: Env, orgId: string, id: string): Promise<void> {
  if (!(await deleteSubscription(env.DB, orgId, id))) throw notFound("webhook subscription", id);
}

/** A new secret, shown once; the old one keeps signing beside it for a day so receivers can switch without missing a delivery. */
export async function rotateWebhookSecret(env: Env, orgId: string, id: string, now: number) {
  const subscription = await mustGet(env, orgId, id);
  const keyring = await requiredKeyring(env);
  const secret = newWebhookSecret();
  const previousSecretExpiresAt = now + WEBHOOK_LIMITS.rotationOverlapMs;
  // The outgoing secret is sealed anew too (it may be clear text from before sealing, or under an older key).
  // One no key opens any more (its key was lost) cannot sign beside the new one: the new one starts alone.
  const previous = await openSecret(keyring, id, subscription.storedSecret).catch((error: unknown) => {
    if (error instanceof SecretUnavailable) return null;
    throw error;
  });
  await updateSubscription(
    env.DB,
    orgId,
    id,
    {
      storedSecret: await sealSecret(keyring, id, secret),
      storedPreviousSecret: previous === null ? null : await sealSecret(keyring, id, previous),
      previousSecretExpiresAt: previous === null ? null : previousSecretExpiresAt,
    },
    now,
  );
  return { secret, previousSecretValidUntil: previous === null ? null : new Date(previousSecretExpiresAt).toISOString() };
}

export async function webhookDeliveries(env: Env, orgId: string, id: string, cursor: string | null, limit: number) {
  await mustGet(env, orgId, id);
  let before: { createdAt: number; id: string } | undefined;
  if (cursor) {
    const [at, deliveryId] = cursor.split(":");
    if (!at || !deliveryId || !/^\d+$/.test(at)) throw validationError("The cursor is not one this list gave.", [{ path: "cursor", message: "Invalid cursor" }]);
    before = { createdAt: Number(at), id: deliveryId };
  }
  const rows = await listDeliveries(env.DB, orgId, id, { ...(before ? { before } : {}), limit: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { deliveries: page.map(publicDelivery), nextCursor: rows.length > limit && last ? `${last.createdAt}:${last.id}` : null };
}

/** Sends a delivery again, with the same webhook-id (receivers drop what they already have). */
export async function redeliverWebhook(env: Env, orgId: string, id: string, deliveryId: string, now: number) {
  const subscription = await mustGet(env, orgId, id);
  if (!subscription.enabled) throw new CairnError("invalid_transition", "The subscription is disabled; enable it before redelivering.");
  const delivery = await getDelivery(env.DB, orgId, deliveryId);
  if (!delivery || delivery.subscriptionId !== id) throw notFound("webhook delivery", deliveryId);
  // One attempt at a time: a delivery still being retried gets no second, parallel one.
  if (delivery.status === "pending") throw conflict("This delivery is still being retried; it can be sent again once it has been delivered or has failed.");
  await reopenDelivery(env.DB, orgId, id, deliveryId, now);
  try {
    await env.WEBHOOK_QUEUE.send({ kind: "delivery", orgId, deliveryId } satisfies WebhookMessage);
  } catch (error) {
    // Not left pending with nothing in the queue: put back as it was, so the admin can simply try again.
    await restoreDelivery(env.DB, orgId, delivery, now);
    console.error(JSON.stringify({ level: "error", message: "webhook redelivery not queued", orgId, deliveryId, error: String(error) }));
    throw new CairnError("internal", "The delivery could not be queued just now and is unchanged; try again in a minute.");
  }
  return { deliveryId, status: "pending" as const };
}
