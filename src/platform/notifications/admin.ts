import { CairnError, conflict, notFound, rateLimited, validationError } from "../../domain/errors";
import { CONFIRMATION_LIMITS, type ChannelConfirmation, confirmationOf, maySend, needsConfirmation, nextLinkAt } from "../../domain/notifications/confirmation";
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
import { assertPerson, type Caller } from "../../domain/person-actions";
import { checkWebhookTarget } from "../../domain/webhooks/policy";
import { sealSecret } from "../../domain/webhooks/secret-box";
import type { Env } from "../../env";
import {
  deleteChannel,
  getChannel,
  getEmailEvents,
  insertChannel,
  memberAddressesMatching,
  listChannels,
  type NotificationChannel,
  putEmailEvents,
  returnDailySend,
  takeDailySend,
} from "../../storage/notification-repository";
import { requiredKeyring } from "../webhooks/secret-keys";
import { newConfirmation, resendConfirmation, sendConfirmationRequest } from "./confirmation";
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

/**
 * A channel as admins see it: its kind, events and (e-mail) address with whether it confirmed; a Slack channel's URL is a
 * secret, never shown again.
 */
export function publicChannel(channel: NotificationChannel) {
  return {
    channelId: channel.id,
    kind: channel.kind,
    ...(channel.kind === "email" ? { address: channel.target, confirmation: confirmationOf(channel) } : {}),
    events: channel.events,
    createdAt: new Date(channel.createdAt).toISOString(),
  };
}
export type ChannelView = ReturnType<typeof publicChannel>;

export async function channelsOf(env: Env, orgId: string): Promise<ChannelView[]> {
  return (await listChannels(env.DB, orgId)).map((channel) => publicChannel(channel));
}

/**
 * Adds a channel. An e-mail address that is not one of the org's members' own is a person's to add (the one
 * person-level check, asked of `caller` after the input is checked) and waits for the address to confirm: the answer
 * says so, and the address gets the confirmation link — and nothing else until it is followed.
 */
export async function createChannel(
  env: Env,
  orgId: string,
  caller: Caller & { userId: string },
  origin: string,
  body: unknown,
  now: number,
): Promise<{ channelId: string; confirmation?: ChannelConfirmation; confirmationSent?: boolean; error?: string | null }> {
  const input = parseChannelInput(body);
  const id = newId("nch");
  const base = { id, orgId, kind: input.kind, events: input.events, cairnOrigin: origin, createdBy: caller.userId, createdAt: now };
  const full = () => conflict(`The organization has ${NOTIFICATION_LIMITS.channelsPerOrg} notification channels already; delete one first.`);
  if (input.kind === "slack") {
    const checked = checkWebhookTarget(input.url ?? "", outboundPolicyFor(env.CAIRN_ENV, "notification"));
    if (!checked.ok) throw validationError(`url is not allowed: ${checked.reason}`, [{ path: "url", message: "Not allowed" }]);
    const target = await sealSecret(await requiredKeyring(env), id, checked.url);
    if (!(await insertChannel(env.DB, { ...base, target, confirmedAt: now, confirmExpiresAt: null }, NOTIFICATION_LIMITS.channelsPerOrg))) throw full();
    return { channelId: id };
  }
  const address = input.address ?? "";
  if (!needsConfirmation(input, await memberAddressesMatching(env.DB, orgId, address))) {
    if (!(await insertChannel(env.DB, { ...base, target: address, confirmedAt: now, confirmExpiresAt: null }, NOTIFICATION_LIMITS.channelsPerOrg))) throw full();
    return { channelId: id, confirmation: "confirmed" };
  }
  assertPerson(caller, "outside_recipient", `${origin}/dashboard/admin/notifications`);
  const link = await newConfirmation(now);
  if (!(await insertChannel(env.DB, { ...base, target: address, confirmedAt: null, confirmExpiresAt: link.expiresAt }, NOTIFICATION_LIMITS.channelsPerOrg, link.tokenSha256))) throw full();
  let sent: { sent: boolean; error: string | null };
  try {
    sent = await sendConfirmationRequest(env, { orgId, address, cairnOrigin: origin }, link.token, link.expiresAt, now);
  } catch (error) {
    // Past the daily cap: the channel is kept, waiting; its "Send a test" sends a new link once sending resumes.
    if (!(error instanceof CairnError)) throw error;
    sent = { sent: false, error: error.message };
  }
  return { channelId: id, confirmation: "awaiting_confirmation", confirmationSent: sent.sent, error: sent.error };
}

export async function removeChannel(env: Env, orgId: string, id: string): Promise<void> {
  if (!(await deleteChannel(env.DB, orgId, id))) throw notFound("notification channel", id);
}

/**
 * "Send a test": one message to the channel now, through the same guard, seal and daily cap as events. Answers
 * whether it went; past the cap it is refused with when sending resumes.
 */
export async function testChannel(env: Env, orgId: string, id: string, now: number): Promise<{ delivered: boolean; error: string | null; confirmationSent?: boolean }> {
  const channel = await getChannel(env.DB, orgId, id);
  if (!channel) throw notFound("notification channel", id);
  if (!maySend(channel)) {
    // An address that has not confirmed gets nothing but a confirmation link: a test sends it a new one, now and then.
    const from = nextLinkAt(channel.confirmExpiresAt);
    if (now < from) {
      const at = `${new Date(from).toISOString().slice(11, 16)} UTC`;
      return { delivered: false, error: `${channel.target} has not confirmed yet, so nothing but a confirmation link is sent to it: one was sent less than ${CONFIRMATION_LIMITS.resendMinutes} minutes ago; another can go from ${at}.`, confirmationSent: false };
    }
    const resent = await resendConfirmation(env, channel, now);
    const state = resent === false ? "it confirmed meanwhile; send the test again" : resent.sent ? "a new confirmation link was sent to it" : `a new confirmation link could not be sent: ${resent.error}`;
    return { delivered: false, error: `${channel.target} has not confirmed yet, so nothing but a confirmation link is sent to it: ${state}.`, confirmationSent: resent !== false && resent.sent };
  }
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
