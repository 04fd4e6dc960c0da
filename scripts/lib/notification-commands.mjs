/**
 * The operator CLI's `notifications …` (a member's choice) and `org channels …` (the org's channels) commands:
 * their usage, help and output. The calls are in notifications.mjs, through the Worker's REST routes.
 */
import { addressArgument } from "./address-argument.mjs";
import * as notifications from "./notifications.mjs";
import { UsageError } from "./wrangler.mjs";

const EVENTS = `Events: plan.review_requested, plan.approval_requested, plan.stalled, plan.completed,
research_output.sources_changed, plan.scheduled_run_due. A member hears of plans they own, by e-mail (default: reviews
and approvals); a channel hears of every plan of the org. Runs through the Worker, like the webhook commands.`;

/**
 * @param {(o: Record<string, any>, value: unknown, text: () => string) => void} emit how a command prints (text, or --json)
 */
export function notificationCommands(emit) {
  const preferences = (r) => `${r.address}: ${r.email.length ? r.email.join(", ") : "no e-mail"}${r.defaults ? " (the defaults)" : ""}`;
  return {
    "notifications show": {
      usage: "notifications show --org SLUG --member EMAIL [--url URL]",
      summary: "the events that reach a member by e-mail",
      flags: ["org", "member", "url"],
      required: ["org", "member"],
      details: EVENTS,
      run: async (o, t) => {
        const r = await notifications.showPreferences({ org: o.org, member: o.member, url: o.url, ...t });
        emit(o, r, () => preferences(r));
      },
    },
    "notifications set": {
      usage: "notifications set --org SLUG --member EMAIL --events TYPE[,TYPE…]|none [--url URL]",
      summary: "choose the events that reach a member by e-mail",
      flags: ["org", "member", "events", "url"],
      required: ["org", "member", "events"],
      details: EVENTS,
      run: async (o, t) => {
        const r = await notifications.setPreferences({ org: o.org, member: o.member, events: o.events, url: o.url, ...t });
        emit(o, r, () => preferences(r));
      },
    },
    "org channels list": {
      usage: "org channels list --org SLUG [--url URL]",
      summary: "the org's notification channels (a Slack URL is never shown)",
      flags: ["org", "url"],
      required: ["org"],
      details: EVENTS,
      run: async (o, t) => {
        const r = await notifications.listChannels({ org: o.org, url: o.url, ...t });
        emit(o, r, () =>
          r.channels.length ? r.channels.map((c) => `${c.channelId}  ${c.kind === "email" ? `e-mail ${c.address}` : "slack (URL sealed)"}  [${c.events.join(", ")}]`).join("\n") : `No notification channels in "${o.org}".`,
        );
      },
    },
    "org channels add": {
      usage: "org channels add [HTTPS-URL] --org SLUG --kind slack|email [--address EMAIL] --events TYPE[,TYPE…] [--url URL]",
      summary: "add a Slack-compatible webhook (its URL first) or an e-mail address (--address) as a channel",
      // --endpoint: the older spelling of the Slack channel's URL, still read (with a pointer to the first argument).
      flags: ["org", "kind", "endpoint", "address", "events", "url"],
      positionals: ["channelUrl"],
      required: ["org", "kind", "events"],
      details: `${EVENTS}\nA Slack channel's url (as REST and the dashboard name it) is the first argument; --url names the Cairn server.`,
      run: async (o, t) => {
        const channelUrl = o.kind === "slack" ? addressArgument(o, "the channel's incoming-webhook URL, as the first argument: org channels add HTTPS-URL --kind slack …", "channelUrl") : o.channelUrl;
        if (o.kind === "email" && channelUrl !== undefined) throw new UsageError("An email channel takes --address EMAIL, not a URL.");
        const r = await notifications.addChannel({ org: o.org, kind: o.kind, endpoint: channelUrl, address: o.address, events: o.events, url: o.url, ...t });
        emit(o, r, () => `Added channel ${r.channelId}. Send a test: npm run cairn -- org channels test --org ${o.org} --id ${r.channelId}`);
      },
    },
    "org channels remove": {
      usage: "org channels remove --org SLUG --id ID [--url URL]",
      summary: "delete a channel: nothing more is sent to it",
      flags: ["org", "id", "url"],
      required: ["org", "id"],
      run: async (o, t) => {
        await notifications.removeChannel({ org: o.org, id: o.id, url: o.url, ...t });
        emit(o, { deleted: o.id }, () => `Deleted channel ${o.id}.`);
      },
    },
    "org channels test": {
      usage: "org channels test --org SLUG --id ID [--url URL]",
      summary: "send one test message to a channel now",
      flags: ["org", "id", "url"],
      required: ["org", "id"],
      run: async (o, t) => {
        const r = await notifications.testChannel({ org: o.org, id: o.id, url: o.url, ...t });
        emit(o, r, () => (r.delivered ? "Test message sent." : `Not sent: ${r.error}`));
      },
    },
  };
}
