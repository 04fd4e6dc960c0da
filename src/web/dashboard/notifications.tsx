import { NOTIFICATION_EVENT_TYPES, type NotificationEventType } from "../../domain/notifications/policy";
import type { ChannelView, PreferencesView } from "../../platform/notifications/admin";
import { Flash } from "./layout";
import { PostButton, RowsTable } from "./rows-table";

// ---------------------------------------------------------------------------
// Your notifications (every member) and Org admin → Notification channels.

/** What each event means to a person, beside its name. */
const MEANING: Record<NotificationEventType, string> = {
  "plan.review_requested": "a review is waiting on a plan of yours",
  "plan.approval_requested": "a plan of yours waits for approval before its first step",
  "plan.stalled": "a plan of yours has stalled",
  "plan.completed": "a plan of yours is complete",
  "research_output.sources_changed": "a source of your deliverable has changed or gone",
  "plan.scheduled_run_due": "the next scheduled run of your plan is due",
  "review.assigned": "a review was assigned to you",
  "comment.created": "a comment mentions you by your e-mail address",
};

/** The same events as an org channel hears them: of every plan of the organization, not one person's. */
const CHANNEL_MEANING: Partial<Record<NotificationEventType, string>> = {
  "plan.review_requested": "a review is waiting on a plan",
  "plan.approval_requested": "a plan waits for approval before its first step",
  "plan.stalled": "a plan has stalled",
  "plan.completed": "a plan is complete",
  "research_output.sources_changed": "a source of a deliverable has changed or gone",
  "plan.scheduled_run_due": "the next scheduled run of a plan is due",
  "comment.created": "someone comments on a deliverable or a step",
};

function EventChecks(props: { name: string; checked: readonly string[]; meaning?: Partial<Record<NotificationEventType, string>> }) {
  const meaning = props.meaning ?? MEANING;
  return (
    <fieldset>
      <legend>Events</legend>
      {NOTIFICATION_EVENT_TYPES.filter((type) => meaning[type] !== undefined).map((type) => (
        <label class="check">
          <input type="checkbox" name={props.name} value={type} checked={props.checked.includes(type)} /> {type} <span class="muted">({meaning[type]})</span>
          <br />
        </label>
      ))}
    </fieldset>
  );
}

export function PreferencesPage(props: { preferences: PreferencesView; csrf: string; flash?: string | null }) {
  const { preferences } = props;
  return (
    <>
      <h1>Your notifications</h1>
      <p class="muted">
        Cairn e-mails you at <strong id="notify-address">{preferences.address}</strong> when the events you choose happen to plans and deliverables of yours, with a
        link to the page where you act. At most one message per event; what arrives within {Math.round(preferences.digestWindowSeconds / 60) || 1} minute(s) of
        your last message comes as one digest.
        {preferences.defaults ? " You have not chosen yet: reviews and approvals reach you." : ""}
      </p>
      <Flash message={props.flash} />
      <form class="card" method="post" action="/dashboard/notifications" id="notification-preferences">
        <input type="hidden" name="csrf" value={props.csrf} />
        <EventChecks name="email" checked={preferences.email} />
        <p>
          <button class="primary" type="submit">
            Save
          </button>
        </p>
      </form>
    </>
  );
}

export function ChannelsPage(props: { channels: ChannelView[]; csrf: string; flash?: string | null; error?: string | null }) {
  return (
    <>
      <p class="muted">
        <a href="/dashboard/admin">← Org admin</a>
      </p>
      <h1>Notification channels</h1>
      <p class="muted">
        Every event you tick for a channel reaches it, for every plan of the organization: a Slack-compatible incoming webhook (Slack, Mattermost, Discord's
        /slack endpoint) gets a short readable message with a link to the dashboard; an e-mail address gets the same as an e-mail. A webhook URL is a secret: it
        is stored sealed and never shown again. An address that is not a member's own first gets a link to confirm, and nothing else until it is followed;
        "Send a test" sends it a new link.
      </p>
      <Flash message={props.flash} />
      <Flash message={props.error} kind="error" />
      <RowsTable
        id="channels"
        headings={["Channel", "Events", "Actions"]}
        rows={props.channels}
        empty={
          <p class="muted" id="no-channels">
            No channels yet.
          </p>
        }
        row={(channel) => (
          <tr data-channel={channel.channelId}>
            <td data-label="Channel">
              {channel.kind === "email" ? `e-mail to ${channel.address}${channel.confirmation === "awaiting_confirmation" ? " (waiting for the address to confirm)" : ""}` : "Slack-compatible webhook (URL sealed)"}
            </td>
            <td data-label="Events">{channel.events.join(", ")}</td>
            <td data-label="Actions">
              <PostButton action={`/dashboard/admin/notifications/${channel.channelId}/test`} csrf={props.csrf} label="Send a test" />{" "}
              <PostButton action={`/dashboard/admin/notifications/${channel.channelId}/delete`} csrf={props.csrf} label="Delete" />
            </td>
          </tr>
        )}
      />
      <h2>Add a channel</h2>
      <form class="card" method="post" action="/dashboard/admin/notifications" id="new-channel">
        <input type="hidden" name="csrf" value={props.csrf} />
        <label for="ch-kind">Kind</label>
        <br />
        <select id="ch-kind" name="kind">
          <option value="slack">Slack-compatible webhook</option>
          <option value="email">E-mail address</option>
        </select>
        <br />
        <label for="ch-target">Webhook URL (https) or e-mail address</label>
        <br />
        <input id="ch-target" class="wide" name="target" type="text" required maxlength={2048} autocomplete="off" />
        <EventChecks name="events" checked={[]} meaning={CHANNEL_MEANING} />
        <p>
          <button class="primary" type="submit">
            Add channel
          </button>
        </p>
      </form>
    </>
  );
}
