import type { WebhookEventPublisher } from "../../domain/ports";
import type { WebhookEvent } from "../../domain/webhooks/events";
import type { WebhookMessage } from "../../domain/webhooks/model";
import { outboxRetryDelayMs } from "../../domain/webhooks/policy";
import { forgetWebhookEvents, postponeWebhookEvents } from "../../storage/webhook-outbox";
import { log } from "../log";

/**
 * Sends events from one database's outbox to the webhook queue and clears what the queue took. A refused
 * send leaves them (counted, with their next turn) for the sweeper; a failure to clear them only means
 * they are sent again, with the same event id (webhook-id), which receivers and the fan-out drop.
 * Returns how many the queue took.
 */
export async function sendOutboxEvents(queue: Queue<WebhookMessage>, db: D1Database, events: readonly { event: WebhookEvent; attempts: number }[], now: number): Promise<number> {
  if (events.length === 0) return 0;
  const ids = events.map(({ event }) => event.eventId);
  try {
    await queue.sendBatch(events.map(({ event }) => ({ body: { kind: "event", event } satisfies WebhookMessage })));
  } catch (error) {
    const attempts = Math.max(...events.map((e) => e.attempts)) + 1;
    log("warn", "webhook events not queued; kept in the outbox", { eventIds: ids, attempts, error: String(error) });
    await postponeWebhookEvents(db, ids, now + outboxRetryDelayMs(attempts)).catch((cause: unknown) =>
      log("error", "webhook outbox not updated; the events wait for their first turn", { eventIds: ids, error: String(cause) }),
    );
    return 0;
  }
  await forgetWebhookEvents(db, ids).catch((error: unknown) => log("warn", "webhook outbox not cleared; the events will be sent again", { eventIds: ids, error: String(error) }));
  return events.length;
}

/**
 * Events decided in the Worker (a deliverable stored) are in the outbox of the org's home database,
 * written with the change; this sends them at once. The caller's answer stands whatever the queue does.
 */
export function outboxPublisher(queue: Queue<WebhookMessage>, home: D1Database): WebhookEventPublisher {
  return {
    async publish(events) {
      await sendOutboxEvents(
        queue,
        home,
        events.map((event) => ({ event, attempts: 0 })),
        Date.now(),
      );
    },
  };
}
