/**
 * Webhook subscriptions from the operator CLI: the Worker's /api/v1/webhooks
 * routes (org:admin), with the same temporary admin key and the same Worker
 * (--url, the deployment with --remote, or a local wrangler dev) as export and import.
 */
import { callWorker } from "./worker-call.mjs";
import { UsageError } from "./wrangler.mjs";

const ID = /^[a-z]{2,10}_[0-9a-z]{25}$/;

function checkedId(id, flag) {
  if (!id || !ID.test(id)) throw new UsageError(`--${flag} must be an id as \`webhook list\` shows it (${id ?? "missing"}).`);
  return id;
}

/** One call to the webhook routes as an admin of the org; the parsed answer (null for 204). */
const call = (options, method, route, body) => callWorker(options, { what: `webhook ${method} ${route || "/"}`, method, path: `/webhooks${route}`, body });

export const listWebhooks = (options) => call(options, "GET", "");

export function addWebhook({ endpoint, events, description, ...options }) {
  const list = String(events ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  if (list.length === 0) throw new UsageError("--events needs at least one event type, comma-separated (e.g. plan.completed,plan.failed).");
  return call(options, "POST", "", { url: endpoint, events: list, ...(description ? { description } : {}) });
}

export const removeWebhook = ({ id, ...options }) => call(options, "DELETE", `/${checkedId(id, "id")}`);
export const setWebhookEnabled = ({ id, enabled, ...options }) => call(options, "PATCH", `/${checkedId(id, "id")}`, { enabled });
export const rotateWebhook = ({ id, ...options }) => call(options, "POST", `/${checkedId(id, "id")}/rotate-secret`);
export const webhookDeliveries = ({ id, ...options }) => call(options, "GET", `/${checkedId(id, "id")}/deliveries?limit=50`);
export const redeliverWebhook = ({ id, delivery, ...options }) => call(options, "POST", `/${checkedId(id, "id")}/deliveries/${checkedId(delivery, "delivery")}/redeliver`);
