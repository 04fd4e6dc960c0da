/**
 * The operator CLI's `webhook …` commands: their usage, help and output. The calls themselves are
 * in webhooks.mjs (through the Worker's /api/v1/webhooks, as an admin of the org).
 */
import { addressArgument } from "./address-argument.mjs";
import * as webhooks from "./webhooks.mjs";

const WEBHOOK_DETAILS = `Events: plan.stalled, plan.review_requested, plan.completed, plan.failed, plan.budget_exhausted,
research_output.created, research_output.sources_changed. Deliveries are signed per Standard Webhooks (webhook-id, webhook-timestamp,
webhook-signature); verify them with the secret \`webhook add\` prints. A subscription's url (as REST and the
dashboard name it) is \`webhook add\`'s first argument; --url names the Cairn server, as in every command. Runs
through the Worker, like export: locally the server running on the same state (npm start), else a wrangler dev started for it (or --url a running one); with --remote,
the deployment.`;

/**
 * @param {(o: Record<string, any>, value: unknown, text: () => string) => void} emit how a command prints (text, or --json)
 */
export function webhookCommands(emit) {
  return {
    "webhook list": {
      usage: "webhook list --org SLUG [--url URL]",
      summary: "list an org's webhook subscriptions",
      flags: ["org", "url"],
      required: ["org"],
      details: WEBHOOK_DETAILS,
      run: async (o, t) => {
        const r = await webhooks.listWebhooks({ org: o.org, url: o.url, ...t });
        emit(o, r, () =>
          r.subscriptions.length
            ? r.subscriptions
                .map((s) => `${s.id}  ${s.enabled ? "enabled " : "DISABLED"}  ${s.url}  [${s.events.join(", ")}]${s.disabledReason ? `\n    ${s.disabledReason}` : ""}`)
                .join("\n")
            : `No webhook subscriptions in "${o.org}". Event types: ${r.eventTypes.join(", ")}.`,
        );
      },
    },
    "webhook add": {
      usage: "webhook add HTTPS-URL --org SLUG --events TYPE[,TYPE…] [--description TEXT] [--url URL]",
      summary: "subscribe a URL to events (prints the signing secret once)",
      // --endpoint: this command's older spelling of its first argument, still read (with a pointer to the new one).
      flags: ["org", "endpoint", "events", "description", "url"],
      positionals: ["webhookUrl"],
      required: ["org", "events"],
      details: WEBHOOK_DETAILS,
      run: async (o, t) => {
        const webhookUrl = addressArgument(o, "the webhook's URL, as the first argument: webhook add HTTPS-URL …");
        const r = await webhooks.addWebhook({ org: o.org, endpoint: webhookUrl, events: o.events, description: o.description, url: o.url, ...t });
        emit(o, r, () => `Subscribed ${r.subscription.url} to ${r.subscription.events.join(", ")} (${r.subscription.id}).\nSigning secret (shown once): ${r.secret}`);
      },
    },
    "webhook remove": {
      usage: "webhook remove --org SLUG --id ID [--url URL]",
      summary: "delete a subscription and its delivery log",
      flags: ["org", "id", "url"],
      required: ["org", "id"],
      run: async (o, t) => {
        await webhooks.removeWebhook({ org: o.org, id: o.id, url: o.url, ...t });
        emit(o, { deleted: o.id }, () => `Deleted webhook subscription ${o.id}.`);
      },
    },
    "webhook enable": {
      usage: "webhook enable --org SLUG --id ID [--url URL]",
      summary: "enable a subscription again (clears why it was disabled)",
      flags: ["org", "id", "url"],
      required: ["org", "id"],
      run: async (o, t) => {
        const r = await webhooks.setWebhookEnabled({ org: o.org, id: o.id, enabled: true, url: o.url, ...t });
        emit(o, r, () => `Enabled ${r.subscription.id} (${r.subscription.url}).`);
      },
    },
    "webhook disable": {
      usage: "webhook disable --org SLUG --id ID [--url URL]",
      summary: "pause a subscription's deliveries",
      flags: ["org", "id", "url"],
      required: ["org", "id"],
      run: async (o, t) => {
        const r = await webhooks.setWebhookEnabled({ org: o.org, id: o.id, enabled: false, url: o.url, ...t });
        emit(o, r, () => `Disabled ${r.subscription.id} (${r.subscription.url}).`);
      },
    },
    "webhook rotate": {
      usage: "webhook rotate --org SLUG --id ID [--url URL]",
      summary: "a new signing secret; the old one also signs for 24 hours",
      flags: ["org", "id", "url"],
      required: ["org", "id"],
      run: async (o, t) => {
        const r = await webhooks.rotateWebhook({ org: o.org, id: o.id, url: o.url, ...t });
        emit(o, r, () => `New signing secret (shown once): ${r.secret}\n${r.previousSecretValidUntil ? `The previous one also signs until ${r.previousSecretValidUntil}.` : "The previous one could not be opened with the deployment's keys: only the new one signs."}`);
      },
    },
    "webhook deliveries": {
      usage: "webhook deliveries --org SLUG --id ID [--url URL]",
      summary: "the newest 50 deliveries of a subscription",
      flags: ["org", "id", "url"],
      required: ["org", "id"],
      run: async (o, t) => {
        const r = await webhooks.webhookDeliveries({ org: o.org, id: o.id, url: o.url, ...t });
        emit(o, r, () =>
          r.deliveries.length
            ? r.deliveries.map((d) => `${d.id}  ${d.status.padEnd(9)} ${String(d.attempts).padStart(2)} attempt(s)  ${d.eventType}  ${d.createdAt}${d.deadLetteredAt ? `  dead-lettered ${d.deadLetteredAt}` : ""}${d.lastError ? `\n    ${d.lastError}` : ""}`).join("\n")
            : "No deliveries yet.",
        );
      },
    },
    "webhook redeliver": {
      usage: "webhook redeliver --org SLUG --id ID --delivery DELIVERY-ID [--url URL]",
      summary: "send a delivery again, with the same webhook-id",
      flags: ["org", "id", "delivery", "url"],
      required: ["org", "id", "delivery"],
      run: async (o, t) => {
        const r = await webhooks.redeliverWebhook({ org: o.org, id: o.id, delivery: o.delivery, url: o.url, ...t });
        emit(o, r, () => `Queued ${r.deliveryId} again.`);
      },
    },
  };
}
