import type { WebhookEventPublisher } from "../../domain/ports";
import type { WebhookMessage } from "../../domain/webhooks/model";

/**
 * Events decided in the Worker (a deliverable stored) go straight to the webhook queue.
 * The deliverable is already stored when this runs: if the queue cannot take the event,
 * the failure is logged and the caller's answer stands (plan events, decided in the plan's
 * object, go through its outbox instead and are retried until the queue takes them).
 */
export function queuePublisher(queue: Queue<WebhookMessage>): WebhookEventPublisher {
  return {
    async publish(event) {
      try {
        await queue.send({ kind: "event", event });
      } catch (error) {
        console.error(JSON.stringify({ level: "error", message: "webhook event not queued", eventId: event.eventId, type: event.type, error: String(error) }));
      }
    },
  };
}
