import { WEBHOOK_EVENT_TYPES } from "../../domain/webhooks/events";
import type { publicDelivery, publicSubscription } from "../../domain/webhooks/model";
import { Flash } from "./layout";
import { PostButton, RowsTable } from "./rows-table";

// ---------------------------------------------------------------------------
// Org admin → Webhooks: subscriptions, their secrets (shown once) and delivery log.

type SubscriptionView = ReturnType<typeof publicSubscription>;
type DeliveryView = ReturnType<typeof publicDelivery>;

const short = (iso: string | null) => (iso ? iso.replace("T", " ").slice(0, 16) : "—");

export function WebhooksPage(props: {
  subscriptions: SubscriptionView[];
  csrf: string;
  secret?: { subscriptionId: string; secret: string; note: string } | null;
  flash?: string | null;
  error?: string | null;
}) {
  return (
    <>
      <p class="muted">
        <a href="/dashboard/admin">← Org admin</a>
      </p>
      <h1>Webhooks</h1>
      <p class="muted">
        Cairn POSTs each event to your URL, signed per the Standard Webhooks specification (headers webhook-id, webhook-timestamp, webhook-signature), retrying
        failed deliveries with growing delays. Verify with any Standard Webhooks library and the subscription's secret.
      </p>
      <Flash message={props.flash} />
      <Flash message={props.error} kind="error" />
      {props.secret ? (
        <div class="card" id="new-secret">
          <p>
            <strong>Signing secret for {props.secret.subscriptionId}.</strong> {props.secret.note} Copy it now: it is shown only once.
          </p>
          <p class="secret" id="new-secret-value">
            {props.secret.secret}
          </p>
        </div>
      ) : null}
      <RowsTable
        id="webhooks"
        headings={["URL", "Events", "State", "Actions"]}
        rows={props.subscriptions}
        empty={
          <p class="muted" id="no-webhooks">
            No subscriptions yet.
          </p>
        }
        row={(s) => (
          <tr data-webhook={s.id}>
            <td data-label="URL">
              <a href={`/dashboard/admin/webhooks/${s.id}`}>{s.url}</a>
              {s.description ? (
                <>
                  <br />
                  <span class="muted">{s.description}</span>
                </>
              ) : null}
            </td>
            <td data-label="Events">{s.events.join(", ")}</td>
            <td data-label="State">
              {s.enabled ? (s.failingSince ? `failing since ${short(s.failingSince)}` : "active") : <span class="error">disabled</span>}
              {s.disabledReason ? (
                <>
                  <br />
                  <span class="muted" data-disabled-reason>
                    {s.disabledReason}
                  </span>
                </>
              ) : null}
            </td>
            <td data-label="Actions">
              <a href={`/dashboard/admin/webhooks/${s.id}`}>Deliveries</a>{" "}
              <PostButton action={`/dashboard/admin/webhooks/${s.id}/${s.enabled ? "disable" : "enable"}`} csrf={props.csrf} label={s.enabled ? "Disable" : "Enable"} />{" "}
              <PostButton action={`/dashboard/admin/webhooks/${s.id}/rotate`} csrf={props.csrf} label="Rotate secret" />{" "}
              <PostButton action={`/dashboard/admin/webhooks/${s.id}/delete`} csrf={props.csrf} label="Delete" />
            </td>
          </tr>
        )}
      />
      <h2>Add a subscription</h2>
      <form class="card" method="post" action="/dashboard/admin/webhooks" id="new-webhook">
        <input type="hidden" name="csrf" value={props.csrf} />
        <label for="wh-url">URL (https)</label>
        <br />
        <input id="wh-url" class="wide" name="url" type="url" required maxlength={2048} placeholder="https://example.com/cairn-webhook" />
        <br />
        <label for="wh-description">Description (optional)</label>
        <br />
        <input id="wh-description" class="wide" name="description" type="text" maxlength={200} />
        <fieldset>
          <legend>Events</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label class="check">
              <input type="checkbox" name="events" value={type} /> {type}
              <br />
            </label>
          ))}
        </fieldset>
        <p>
          <button class="primary" type="submit">
            Add subscription
          </button>
        </p>
      </form>
    </>
  );
}

export function WebhookDeliveriesPage(props: { subscription: SubscriptionView; deliveries: DeliveryView[]; nextCursor: string | null; csrf: string; flash?: string | null }) {
  const { subscription } = props;
  return (
    <>
      <p class="muted">
        <a href="/dashboard/admin/webhooks">← Webhooks</a>
      </p>
      <h1>Deliveries to {subscription.url}</h1>
      <Flash message={props.flash} />
      {subscription.disabledReason ? <p class="error">{subscription.disabledReason}</p> : null}
      <RowsTable
        id="deliveries"
        headings={["Event", "Status", "Attempts", "Last answer", "When", ""]}
        rows={props.deliveries}
        empty={<p class="muted">No deliveries yet.</p>}
        row={(d) => (
          <tr data-delivery={d.id} data-status={d.status}>
            <td data-label="Event">
              {d.eventType}
              <br />
              <span class="muted">{d.eventId}</span>
            </td>
            <td data-label="Status">
              {d.status}
              {d.deadLetteredAt ? <span class="muted"> · dead-lettered {short(d.deadLetteredAt)}</span> : null}
            </td>
            <td data-label="Attempts">{d.attempts}</td>
            <td data-label="Last answer">{d.lastError ?? (d.lastStatus === null ? "—" : `HTTP ${d.lastStatus}`)}</td>
            <td data-label="When">
              {short(d.createdAt)}
              {d.deliveredAt ? <span class="muted"> · delivered {short(d.deliveredAt)}</span> : null}
            </td>
            <td>
              {subscription.enabled && d.status !== "pending" ? (
                <PostButton action={`/dashboard/admin/webhooks/${subscription.id}/deliveries/${d.id}/redeliver`} csrf={props.csrf} label="Redeliver" />
              ) : null}
            </td>
          </tr>
        )}
      />
      {props.nextCursor ? (
        <p>
          <a href={`/dashboard/admin/webhooks/${subscription.id}?cursor=${encodeURIComponent(props.nextCursor)}`}>Older deliveries →</a>
        </p>
      ) : null}
    </>
  );
}
