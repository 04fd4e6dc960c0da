import { CairnError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import { outboundPolicyFor } from "../../domain/outbound-gate";
import { webhookBody, type WebhookEvent } from "../../domain/webhooks/events";
import type { WebhookDelivery, WebhookMessage } from "../../domain/webhooks/model";
import { checkWebhookTarget, failureVerdict, retryDelaySeconds, WEBHOOK_LIMITS } from "../../domain/webhooks/policy";
import { SecretUnavailable } from "../../domain/webhooks/secret-box";
import type { Env } from "../../env";
import { recordWebhookEvent } from "../../storage/webhook-outbox";
import {
  closeDelivery,
  deadLetterDelivery,
  getDelivery,
  getSubscription,
  insertDeliveries,
  listSubscriptions,
  recordAttempt,
  unattemptedDeliveries,
  updateSubscription,
} from "../../storage/webhook-repository";
import { deliverNotification } from "../notifications/deliver";
import { fanOutNotifications } from "../notifications/fan-out";
import { deadLetterDelivery as deadLetterNotification } from "../../storage/notification-repository";
import { homeDatabase } from "../org-homes";
import { attemptDelivery } from "./attempt";
import { openSigningSecrets, resealIfNeeded, secretKeyring } from "./secret-keys";
import { log } from "../log";

/** The main queue and its dead-letter queue, as wrangler.toml names them. */
export const WEBHOOK_QUEUE_NAME = "cairn-webhooks";
export const WEBHOOK_DLQ_NAME = "cairn-webhooks-dlq";

const DEFAULT_RETRY_BASE_SECONDS = 30;

const retryBase = (env: Env): number => {
  const configured = Number(env.WEBHOOK_RETRY_BASE_SECONDS);
  return Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_RETRY_BASE_SECONDS;
};

/** The body each subscription receives: the event as decided, plus where a person opens it. */
function bodyFor(event: WebhookEvent, cairnOrigin: string): string {
  const planId = typeof event.data.planId === "string" ? event.data.planId : null;
  const outputId = typeof event.data.outputId === "string" ? event.data.outputId : null;
  const link = outputId ? `${cairnOrigin}/dashboard/outputs/${outputId}` : planId ? `${cairnOrigin}/dashboard/plans/${planId}` : null;
  return webhookBody({ ...event, data: link ? { ...event.data, dashboardUrl: link } : event.data });
}

/** An event: one delivery per enabled subscription of its org that wants it, each handed to the queue. */
async function fanOut(env: Env, event: WebhookEvent, now: number): Promise<void> {
  const subscriptions = (await listSubscriptions(env.DB, event.orgId)).filter((s) => s.enabled && s.events.includes(event.type));
  const deliveries: WebhookDelivery[] = subscriptions.map((s) => ({
    id: newId("dlv"),
    orgId: event.orgId,
    subscriptionId: s.id,
    eventId: event.eventId,
    eventType: event.type,
    body: bodyFor(event, s.cairnOrigin),
    status: "pending",
    attempts: 0,
    lastStatus: null,
    lastError: null,
    createdAt: now,
    updatedAt: now,
    deliveredAt: null,
    deadLetteredAt: null,
  }));
  await insertDeliveries(env.DB, deliveries);
  const pending = await unattemptedDeliveries(env.DB, event.orgId, event.eventId);
  if (pending.length) await env.WEBHOOK_QUEUE.sendBatch(pending.map((deliveryId) => ({ body: { kind: "delivery", orgId: event.orgId, deliveryId } satisfies WebhookMessage })));
}

type Verdict = { ack: true } | { retry: true; delaySeconds: number };

/** One attempt of one delivery, recorded; a failure is retried by the queue with a doubling delay. */
async function deliver(env: Env, orgId: string, deliveryId: string, attempt: number, now: number): Promise<Verdict> {
  const delivery = await getDelivery(env.DB, orgId, deliveryId);
  if (delivery?.status !== "pending") return { ack: true };
  const subscription = await getSubscription(env.DB, orgId, delivery.subscriptionId);
  if (!subscription?.enabled) {
    await closeDelivery(env.DB, orgId, deliveryId, "cancelled", subscription ? "subscription disabled" : "subscription deleted", now);
    return { ack: true };
  }
  const target = checkWebhookTarget(subscription.url, outboundPolicyFor(env.CAIRN_ENV, "webhook"));
  if (!target.ok) {
    await recordAttempt(env.DB, orgId, deliveryId, { status: "failed", httpStatus: null, error: `target refused: ${target.reason}` }, now);
    return { ack: true };
  }
  const keyring = await secretKeyring(env);
  let secrets: string[];
  try {
    secrets = await openSigningSecrets(keyring, subscription, now);
  } catch (error) {
    if (!(error instanceof SecretUnavailable)) throw error;
    // The operator's to fix (a key taken out of WEBHOOK_SECRET_KEYS too soon): retried, and said in the log the admin sees.
    log("error", "webhook secret cannot be opened", { orgId, subscriptionId: subscription.id, reason: error.message });
    await recordAttempt(env.DB, orgId, deliveryId, { status: "pending", httpStatus: null, error: "not sent: the signing secret cannot be opened with this deployment's keys" }, now);
    return { retry: true, delaySeconds: retryDelaySeconds(attempt, retryBase(env)) };
  }
  // First use of a secret stored in clear (or under an older key): sealed with the current key from now on.
  if (keyring) await resealIfNeeded(env.DB, keyring, subscription).catch((error: unknown) => log("warn", "webhook secret not resealed", { subscriptionId: subscription.id, error: String(error) }));
  const outcome = await attemptDelivery({ url: target.url, secrets }, delivery.eventId, delivery.body, now);
  if (outcome.delivered) {
    await recordAttempt(env.DB, orgId, deliveryId, { status: "delivered", httpStatus: outcome.httpStatus, error: null }, now);
    if (subscription.failingSince !== null) await updateSubscription(env.DB, orgId, subscription.id, { failingSince: null }, now);
    return { ack: true };
  }
  const error = outcome.error ?? "failed";
  const verdict = failureVerdict(subscription.failingSince, now, error);
  if (verdict.disable) {
    await updateSubscription(env.DB, orgId, subscription.id, { failingSince: verdict.failingSince, enabled: false, disabledReason: verdict.disable }, now);
    await recordAttempt(env.DB, orgId, deliveryId, { status: "failed", httpStatus: outcome.httpStatus, error: `${error} — subscription disabled` }, now);
    log("warn", "webhook subscription disabled", { orgId, subscriptionId: subscription.id, reason: verdict.disable });
    return { ack: true };
  }
  if (subscription.failingSince === null) await updateSubscription(env.DB, orgId, subscription.id, { failingSince: verdict.failingSince }, now);
  await recordAttempt(env.DB, orgId, deliveryId, { status: "pending", httpStatus: outcome.httpStatus, error }, now);
  return { retry: true, delaySeconds: retryDelaySeconds(attempt, retryBase(env)) };
}

/** The consumer of the webhook queue: events are fanned out, deliveries attempted, each message on its own. */
export async function handleWebhookBatch(batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const now = Date.now();
    try {
      const body = message.body;
      if (body.kind === "event") {
        // Webhook subscriptions and people alike: both fan-outs keep one delivery per receiver and event, so a retry repeats none.
        await fanOut(env, body.event, now);
        await fanOutNotifications(env, body.event, now);
        message.ack();
        continue;
      }
      const verdict =
        body.kind === "notification"
          ? await deliverNotification(env, body.orgId, body.deliveryId, now, retryDelaySeconds(message.attempts, retryBase(env)))
          : await deliver(env, body.orgId, body.deliveryId, message.attempts, now);
      if ("retry" in verdict) message.retry({ delaySeconds: verdict.delaySeconds });
      else message.ack();
    } catch (error) {
      // Storage or queue trouble: the whole message again, later (a delivery keeps its webhook-id).
      log("error", "webhook message failed; retried", { id: message.id, error: String(error) });
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts, retryBase(env)) });
    }
  }
}

/** Why a dead-lettered delivery failed, as its log says it. */
export const DEAD_LETTER_REASON = "gave up: out of retries";

/**
 * The consumer of the dead-letter queue. A delivery out of retries is recorded as failed and dead-lettered,
 * for its admin to see and redeliver. An event that could not be fanned out goes back to the outbox of its
 * org's home database, for the sweeper to send again later (same event id): it is never dropped.
 */
export async function handleDeadLetters(batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body;
    const now = Date.now();
    try {
      if (body.kind === "delivery") {
        await deadLetterDelivery(env.DB, body.orgId, body.deliveryId, DEAD_LETTER_REASON, now);
      } else if (body.kind === "notification") {
        await deadLetterNotification(env.DB, body.orgId, body.deliveryId, DEAD_LETTER_REASON, now);
      } else {
        const home = await homeDatabase(env, body.event.orgId);
        await recordWebhookEvent(home, body.event, now, now + WEBHOOK_LIMITS.deadLetteredEventDelayMs).run();
        log("warn", "webhook event out of retries; back in the outbox", { eventId: body.event.eventId, orgId: body.event.orgId, type: body.event.type });
      }
      message.ack();
    } catch (error) {
      // An org erased meanwhile has nobody to tell; anything else is tried again.
      if (body.kind === "event" && error instanceof CairnError && error.code === "not_found") {
        message.ack();
        continue;
      }
      log("error", "dead letter not recorded; retried", { id: message.id, error: String(error) });
      message.retry();
    }
  }
}

/** The Worker's queue handler: which queue the batch came from decides who consumes it. */
export async function handleQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const typed = batch as MessageBatch<WebhookMessage>;
  // A deployment may prefix the names; the dead-letter queue is the one whose name ends in -dlq.
  if (batch.queue === WEBHOOK_DLQ_NAME || batch.queue.endsWith("-dlq")) return handleDeadLetters(typed, env);
  return handleWebhookBatch(typed, env);
}
