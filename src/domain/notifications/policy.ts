import { validationError } from "../errors";
import { parseMailbox } from "./mailbox";
import type { WebhookEventType } from "../webhooks/events";

/**
 * Notifications to people: which webhook events can reach a person or an org channel, what a member gets
 * unless they choose otherwise, and the bounds on how much is sent. Pure, so each rule is tested on its own.
 */

/** The events that can be notified, named as the webhook events they come from. */
export const NOTIFICATION_EVENT_TYPES = [
  "plan.review_requested",
  "plan.approval_requested",
  "plan.stalled",
  "plan.completed",
  "research_output.sources_changed",
  "plan.scheduled_run_due",
  "review.assigned",
  "comment.created",
] as const satisfies readonly WebhookEventType[];
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];

export const isNotificationEvent = (type: string): type is NotificationEventType => (NOTIFICATION_EVENT_TYPES as readonly string[]).includes(type);

/** What an org channel can carry: a review assigned to someone reaches that person alone, never a channel. */
export const CHANNEL_EVENT_TYPES: readonly NotificationEventType[] = NOTIFICATION_EVENT_TYPES.filter((type) => type !== "review.assigned");

/**
 * A member who never chose: reviews and approvals of their own plans (or assigned to them, or theirs as an approver),
 * reviews reassigned to them, the runs of the schedules they own coming due (a run waits for someone to start it), and
 * comments that mention them (comment.created reaches a person only when it mentions them), by e-mail.
 */
export const DEFAULT_EMAIL_EVENTS: readonly NotificationEventType[] = ["plan.review_requested", "plan.approval_requested", "plan.scheduled_run_due", "review.assigned", "comment.created"];

/**
 * Whom a review's notification names instead of the plan's owner: its assignee alone while they are a member (others
 * see it in the inbox but are not notified, the org's channels included), else for an approval the org's approver
 * group (with the channels), else null: the owner and the channels, as for any event. An assignee who left the org is
 * no one's; review.assigned to no one (or to someone who left) reaches nobody.
 */
export function reviewRecipients(
  type: NotificationEventType,
  data: Record<string, unknown>,
  approvers: readonly string[],
  assigneeIsMember: boolean,
): { people: string[]; channels: boolean } | null {
  const assignee = typeof data.assigneeUserId === "string" ? data.assigneeUserId : null;
  if (assignee && assigneeIsMember && (type === "plan.review_requested" || type === "plan.approval_requested" || type === "review.assigned")) {
    return { people: [assignee], channels: false };
  }
  if (type === "review.assigned") return { people: [], channels: false };
  if (type === "plan.approval_requested" && approvers.length > 0) return { people: [...approvers], channels: true };
  return null;
}

export const CHANNEL_KINDS = ["slack", "email"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const NOTIFICATION_LIMITS = {
  channelsPerOrg: 10,
  urlChars: 2_048,
  /**
   * A recipient gets at most one message per window: the first event goes at once, what arrives during the
   * next five minutes waits for the window's end and goes as one digest.
   */
  digestWindowSeconds: 300,
  /** Events one digest lists by name; the rest are counted. */
  digestItems: 20,
  /** Messages an org sends a day (UTC), all channels and people together, unless NOTIFICATION_DAILY_CAP says otherwise. */
  dailyCap: 500,
} as const;

/** The org's daily cap: NOTIFICATION_DAILY_CAP when it is a whole number from 1, else the default. */
export function dailyCapOf(setting: string | undefined): number {
  const configured = Number(setting);
  return Number.isInteger(configured) && configured >= 1 ? configured : NOTIFICATION_LIMITS.dailyCap;
}

/** The digest window: NOTIFICATION_DIGEST_SECONDS when it is a whole number from 0, else five minutes. */
export function digestWindowOf(setting: string | undefined): number {
  const configured = setting === undefined || setting === "" ? Number.NaN : Number(setting);
  return Number.isInteger(configured) && configured >= 0 ? configured : NOTIFICATION_LIMITS.digestWindowSeconds;
}

/** The UTC day a send counts against, as `YYYY-MM-DD`, and the seconds until the next one begins. */
export const utcDay = (now: number): string => new Date(now).toISOString().slice(0, 10);
export const secondsUntilNextUtcDay = (now: number): number => Math.ceil((86_400_000 - (now % 86_400_000)) / 1000);

/** What a past cap answers: which cap, and when sending resumes. */
export const dailyCapMessage = (cap: number): string =>
  `The organization has sent its ${cap} notifications for today (UTC); more are not sent until 00:00 UTC. An operator raises the cap with NOTIFICATION_DAILY_CAP.`;

/**
 * When a message for a recipient may go: at once if nothing went to them within the window, else when the
 * window that began with their last message ends (what waits until then goes as one digest).
 */
export function sendableAt(lastSentAt: number | null, now: number, windowSeconds: number): number {
  if (lastSentAt === null) return now;
  return Math.max(now, lastSentAt + windowSeconds * 1000);
}

export function checkEventList(raw: unknown, field: string): NotificationEventType[] {
  if (!Array.isArray(raw) || raw.some((type) => typeof type !== "string")) throw validationError(`${field} is a list of event names.`, [{ path: field, message: "A list of strings" }]);
  const unknown = raw.filter((type: string) => !isNotificationEvent(type));
  if (unknown.length) {
    throw validationError(`Unknown events: ${unknown.map((t: string) => t.slice(0, 60)).join(", ")}. Notifications carry ${NOTIFICATION_EVENT_TYPES.join(", ")}.`, [
      { path: field, message: "Unknown event" },
    ]);
  }
  return [...new Set(raw as NotificationEventType[])];
}

/** A member's choice, as PUT /me/notifications takes it: `{ email: [events…] }` (an empty list turns e-mail off). */
export function parsePreferences(body: unknown): { email: NotificationEventType[] } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("The body must be a JSON object: { email: [events…] }.");
  const unknown = Object.keys(body).filter((key) => key !== "email");
  if (unknown.length) throw validationError(`Unknown fields: ${unknown.map((k) => k.slice(0, 40)).join(", ")}.`, unknown.map((k) => ({ path: k.slice(0, 40), message: "Not a field" })));
  if (!("email" in body)) throw validationError("email is required: the events that reach you by e-mail ([] for none).", [{ path: "email", message: "Required" }]);
  return { email: checkEventList((body as { email: unknown }).email, "email") };
}

export interface ChannelInput {
  kind: ChannelKind;
  /** slack: the incoming-webhook URL (a secret: sealed at rest, never shown again). */
  url?: string;
  /** email: where the org's messages go (a team list). */
  address?: string;
  events: NotificationEventType[];
}

/** POST /org/notification-channels: `{ kind, url?, address?, events }`, each field checked; the URL's host is the outbound guard's to judge. */
export function parseChannelInput(body: unknown): ChannelInput {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("The body must be a JSON object: { kind, url?, address?, events }.");
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !["kind", "url", "address", "events"].includes(key));
  if (unknown.length) throw validationError(`Unknown fields: ${unknown.map((k) => k.slice(0, 40)).join(", ")}.`, unknown.map((k) => ({ path: k.slice(0, 40), message: "Not a field" })));
  const { kind, url, address } = fields;
  if (kind !== "slack" && kind !== "email") throw validationError('kind is "slack" or "email".', [{ path: "kind", message: "slack or email" }]);
  const events = checkEventList(fields.events, "events");
  if (events.includes("review.assigned")) throw validationError("review.assigned reaches the review's assignee only, never a channel.", [{ path: "events", message: "Not for a channel" }]);
  if (events.length === 0) throw validationError("events names at least one event.", [{ path: "events", message: "At least one" }]);
  if (kind === "slack") {
    if (address !== undefined) throw validationError("A slack channel has a url, not an address.", [{ path: "address", message: "Not for slack" }]);
    if (typeof url !== "string" || url.length === 0) throw validationError("A slack channel needs url: its incoming-webhook URL.", [{ path: "url", message: "Required" }]);
    if (url.length > NOTIFICATION_LIMITS.urlChars) throw validationError(`url is longer than ${NOTIFICATION_LIMITS.urlChars} characters.`, [{ path: "url", message: "Too long" }]);
    return { kind, url, events };
  }
  if (url !== undefined) throw validationError("An email channel has an address, not a url.", [{ path: "url", message: "Not for email" }]);
  if (address === undefined) throw validationError("An email channel needs address: one e-mail address.", [{ path: "address", message: "One e-mail address" }]);
  return { kind, address: parseMailbox(address, "address"), events };
}
