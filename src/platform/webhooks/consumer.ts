import { newId } from "../../domain/ids";
import { webhookBody, type WebhookEvent } from "../../domain/webhooks/events";
import type { WebhookDelivery, WebhookMessage } from "../../domain/webhooks/model";
import { checkWebhookTarget, failureVerdict, retryDelaySeconds, signingSecrets } from "../../domain/webhooks/policy";
import type { Env } from "../../env";
import {
  closeDelivery,
  getDelivery,
  getSubscription,
  insertDeliveries,
  listSubscriptions,
  recordAttempt,
  unattemptedDeliveries,
  updateSubscription,
} from "../../storage/webhook-repository";
import { attemptDelivery } from "./attempt";

/** The main queue and its dead-letter queue, as wrangler.toml names them. */
export const WEBHOOK_QUEUE_NAME = "cairn-webhooks";
export const WEBHOOK_DLQ_NAME = "cairn-webhooks-dlq";

const DEFAULT_RETRY_BASE_SECONDS = 30;

const retryBase = (env: Env): number => {
  const configured = Number(env.WEBHOOK_RETRY_BASE_SECONDS);
  return Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_RETRY_BASE_SECONDS;
};

const log = (level: "info" | "warn" | "error", message: string, fields: Record<string, unknown>) => console.log(JSON.stringify({ level, message, ...fields }));

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
  const target = checkWebhookTarget(subscription.url, env.CAIRN_ENV === "development");
  if (!target.ok) {
    await recordAttempt(env.DB, orgId, deliveryId, { status: "failed", httpStatus: null, error: `target refused: ${target.reason}` }, now);
    return { ack: true };
  }
  const outcome = await attemptDelivery({ url: target.url, secrets: signingSecrets(subscription, now) }, delivery.eventId, delivery.body, now);
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
        await fanOut(env, body.event, now);
        message.ack();
        continue;
      }
      const verdict = await deliver(env, body.orgId, body.deliveryId, message.attempts, now);
      if ("retry" in verdict) message.retry({ delaySeconds: verdict.delaySeconds });
      else message.ack();
    } catch (error) {
      // Storage or queue trouble: the whole message again, later (a delivery keeps its webhook-id).
      log("error", "webhook message failed; retried", { id: message.id, error: String(error) });
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts, retryBase(env)) });
    }
  }
}

/** The consumer of the dead-letter queue: a delivery out of retries is recorded as failed, for its admin to see and redeliver. */
export async function handleDeadLetters(batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body;
    if (body.kind === "delivery") {
      await closeDelivery(env.DB, body.orgId, body.deliveryId, "failed", "gave up: out of retries", Date.now());
    } else {
      log("error", "webhook event could not be fanned out; dropped", { eventId: body.event.eventId, orgId: body.event.orgId, type: body.event.type });
    }
    message.ack();
  }
}

/** The Worker's queue handler: which queue the batch came from decides who consumes it. */
export async function handleQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const typed = batch as MessageBatch<WebhookMessage>;
  // A deployment may prefix the names; the dead-letter queue is the one whose name ends in -dlq.
  if (batch.queue === WEBHOOK_DLQ_NAME || batch.queue.endsWith("-dlq")) return handleDeadLetters(typed, env);
  return handleWebhookBatch(typed, env);
}
