import { conflict, notFound, rateLimited, validationError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import { renderEvent } from "../../domain/notifications/message";
import {
  dailyCapMessage,
  dailyCapOf,
  DEFAULT_EMAIL_EVENTS,
  digestWindowOf,
  NOTIFICATION_EVENT_TYPES,
  NOTIFICATION_LIMITS,
  type NotificationEventType,
  parseChannelInput,
  parsePreferences,
  secondsUntilNextUtcDay,
  utcDay,
} from "../../domain/notifications/policy";
import { outboundPolicyFor } from "../../domain/outbound-gate";
import { checkWebhookTarget } from "../../domain/webhooks/policy";
import { sealSecret } from "../../domain/webhooks/secret-box";
import type { Env } from "../../env";
import {
  deleteChannel,
  getChannel,
  getEmailEvents,
  insertChannel,
  listChannels,
  type NotificationChannel,
  putEmailEvents,
  returnDailySend,
  takeDailySend,
} from "../../storage/notification-repository";
import { requiredKeyring } from "../webhooks/secret-keys";
import { sendMessage, targetOfChannel } from "./send";

/** Preferences and org channels, the same for REST, the dashboard and the CLI. No answer ever carries a channel's URL. */

export interface PreferencesView {
  /** The events that reach you by e-mail (about plans you own and runs you are named for). */
  email: NotificationEventType[];
  /** True while you have not chosen: the defaults apply. */
  defaults: boolean;
  address: string;
  events: readonly NotificationEventType[];
  digestWindowSeconds: number;
}

export async function getPreferences(env: Env, orgId: string, userId: string): Promise<PreferencesView> {
  const [chosen, user] = await Promise.all([getEmailEvents(env.DB, orgId, userId), env.DB.prepare("SELECT email FROM users WHERE id = ?").bind(userId).first<{ email: string }>()]);
  return {
    email: chosen ?? [...DEFAULT_EMAIL_EVENTS],
    defaults: chosen === null,
    address: user?.email ?? "",
    events: NOTIFICATION_EVENT_TYPES,
    digestWindowSeconds: digestWindowOf(env.NOTIFICATION_DIGEST_SECONDS),
  };
}

export async function putPreferences(env: Env, orgId: string, userId: string, body: unknown, now: number): Promise<PreferencesView> {
  const { email } = parsePreferences(body);
  await putEmailEvents(env.DB, orgId, userId, email, now);
  return getPreferences(env, orgId, userId);
}

/** A channel as admins see it: its kind, events and (e-mail) address; a Slack channel's URL is a secret, never shown again. */
export function publicChannel(channel: NotificationChannel) {
  return {
    channelId: channel.id,
    kind: channel.kind,
    ...(channel.kind === "email" ? { address: channel.target } : {}),
    events: channel.events,
    createdAt: new Date(channel.createdAt).toISOString(),
  };
}
export type ChannelView = ReturnType<typeof publicChannel>;

export async function channelsOf(env: Env, orgId: string): Promise<ChannelView[]> {
  return (await listChannels(env.DB, orgId)).map((channel) => publicChannel(channel));
}

export async function createChannel(env: Env, orgId: string, userId: string, origin: string, body: unknown, now: number): Promise<{ channelId: string }> {
  const input = parseChannelInput(body);
  const id = newId("nch");
  let target: string;
  if (input.kind === "slack") {
    const checked = checkWebhookTarget(input.url ?? "", outboundPolicyFor(env.CAIRN_ENV, "notification"));
    if (!checked.ok) throw validationError(`url is not allowed: ${checked.reason}`, [{ path: "url", message: "Not allowed" }]);
    target = await sealSecret(await requiredKeyring(env), id, checked.url);
  } else {
    target = input.address ?? "";
  }
  const channel: NotificationChannel = { id, orgId, kind: input.kind, target, events: input.events, cairnOrigin: origin, createdBy: userId, createdAt: now };
  if (!(await insertChannel(env.DB, channel, NOTIFICATION_LIMITS.channelsPerOrg))) {
    throw conflict(`The organization has ${NOTIFICATION_LIMITS.channelsPerOrg} notification channels already; delete one first.`);
  }
  return { channelId: id };
}

export async function removeChannel(env: Env, orgId: string, id: string): Promise<void> {
  if (!(await deleteChannel(env.DB, orgId, id))) throw notFound("notification channel", id);
}

/**
 * "Send a test": one message to the channel now, through the same guard, seal and daily cap as events. Answers
 * whether it went; past the cap it is refused with when sending resumes.
 */
export async function testChannel(env: Env, orgId: string, id: string, now: number): Promise<{ delivered: boolean; error: string | null }> {
  const channel = await getChannel(env.DB, orgId, id);
  if (!channel) throw notFound("notification channel", id);
  const day = utcDay(now);
  const cap = dailyCapOf(env.NOTIFICATION_DAILY_CAP);
  if (!(await takeDailySend(env.DB, orgId, day, cap))) throw rateLimited(dailyCapMessage(cap), secondsUntilNextUtcDay(now));
  const message = renderEvent(
    { eventId: "test", type: "plan.completed", occurredAt: now, data: { name: "Test message: this channel receives Cairn's notifications" } },
    channel.cairnOrigin,
    `${channel.cairnOrigin.replace(/\/$/, "")}/dashboard/admin/notifications`,
  );
  const outcome = await sendMessage(env, targetOfChannel(channel), { ...message, subject: "[Cairn] Test message" }, channel.cairnOrigin);
  if (outcome.sent) return { delivered: true, error: null };
  await returnDailySend(env.DB, orgId, day);
  return { delivered: false, error: outcome.error };
}
