import { newId } from "../../domain/ids";
import type { NotifiedEvent } from "../../domain/notifications/message";
import { maySend } from "../../domain/notifications/confirmation";
import { DEFAULT_EMAIL_EVENTS, isNotificationEvent, reviewRecipients } from "../../domain/notifications/policy";
import type { WebhookEvent } from "../../domain/webhooks/events";
import type { WebhookMessage } from "../../domain/webhooks/model";
import type { Env } from "../../env";
import { getEmailEvents, insertDeliveries, listChannels, type NewDelivery, unattemptedDeliveries } from "../../storage/notification-repository";
import { d1OrgSettings } from "../../storage/org-settings";
import { homeDatabase } from "../org-homes";
import { publicOrigin } from "../runtime";

/** People one event may name explicitly (`ownerUserIds`): a series' owners, not a mailing list. */
const MAX_NAMED_RECIPIENTS = 20;

const isId = (value: unknown): value is string => typeof value === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(value);

/**
 * The people an event concerns: those it names (`ownerUserIds`, as a scheduled run's event does; a comment's
 * `mentionedUserIds`), else the plan's owner (`ownerUserId`, which
 * plan events carry), else the creator of the plan or deliverable it is about, as the org's records say.
 */
async function concernedPeople(env: Env, event: WebhookEvent): Promise<string[]> {
  // A comment concerns the members it mentions, and nobody else.
  const named = event.type === "comment.created" ? event.data.mentionedUserIds : event.data.ownerUserIds;
  if (Array.isArray(named)) return [...new Set(named.filter(isId))].slice(0, MAX_NAMED_RECIPIENTS);
  if (isId(event.data.ownerUserId)) return [event.data.ownerUserId];
  const home = await homeDatabase(env, event.orgId);
  if (isId(event.data.planId)) {
    const plan = await home.prepare("SELECT created_by FROM plans WHERE org_id = ? AND plan_id = ?").bind(event.orgId, event.data.planId).first<{ created_by: string }>();
    if (plan) return [plan.created_by];
  }
  if (isId(event.data.outputId)) {
    const output = await home.prepare("SELECT created_by FROM research_outputs WHERE org_id = ? AND id = ?").bind(event.orgId, event.data.outputId).first<{ created_by: string }>();
    if (output) return [output.created_by];
  }
  return [];
}

const isMember = async (env: Env, orgId: string, userId: string): Promise<boolean> =>
  (await env.DB.prepare("SELECT 1 AS ok FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, userId).first()) !== null;

/** Members of the org among `userIds`, with the events each takes by e-mail (their choice, or the defaults). */
async function membersWanting(env: Env, orgId: string, userIds: readonly string[], type: string): Promise<string[]> {
  const wanting: string[] = [];
  for (const userId of userIds) {
    if (!(await isMember(env, orgId, userId))) continue;
    const events = (await getEmailEvents(env.DB, orgId, userId)) ?? DEFAULT_EMAIL_EVENTS;
    if ((events as readonly string[]).includes(type)) wanting.push(userId);
  }
  return wanting;
}

/**
 * An event from the webhook outbox, as notifications: one delivery per person who wants it and per org channel
 * that carries it (never two for the same recipient and event), each handed to the queue. An approval waiting is
 * notified as plan.approval_requested only, not again as the review it also is.
 */
export async function fanOutNotifications(env: Env, event: WebhookEvent, now: number): Promise<void> {
  if (!isNotificationEvent(event.type)) return;
  const review = event.data.review as { kind?: unknown } | undefined;
  if (event.type === "plan.review_requested" && review?.kind === "approval") return;
  const notified: NotifiedEvent = { eventId: event.eventId, type: event.type, occurredAt: event.occurredAt, data: event.data };
  const base = { orgId: event.orgId, eventId: event.eventId, eventType: event.type, event: JSON.stringify(notified), createdAt: now };
  // A review names its own recipients: its assignee, or an approval's approver group (policy.ts reviewRecipients).
  const approvers = event.type === "plan.approval_requested" ? (await d1OrgSettings(env.DB).approvers(event.orgId)).map((person) => person.userId) : [];
  const assignee = isId(event.data.assigneeUserId) ? event.data.assigneeUserId : null;
  const named = reviewRecipients(event.type, event.data, approvers, assignee !== null && (await isMember(env, event.orgId, assignee)));
  const people = await membersWanting(env, event.orgId, named ? named.people.filter(isId) : await concernedPeople(env, event), event.type);
  const origin = publicOrigin(env);
  const deliveries: NewDelivery[] = people.map((userId) => ({ ...base, id: newId("ntf"), recipient: `user:${userId}`, userId, channelId: null, cairnOrigin: origin }));
  for (const channel of named?.channels === false ? [] : await listChannels(env.DB, event.orgId)) {
    // An address that has not confirmed gets nothing but its confirmation link.
    if (!(channel.events as readonly string[]).includes(event.type) || !maySend(channel)) continue;
    deliveries.push({ ...base, id: newId("ntf"), recipient: `channel:${channel.id}`, userId: null, channelId: channel.id, cairnOrigin: channel.cairnOrigin });
  }
  await insertDeliveries(env.DB, deliveries);
  const pending = await unattemptedDeliveries(env.DB, event.orgId, event.eventId);
  if (pending.length) await env.WEBHOOK_QUEUE.sendBatch(pending.map((deliveryId) => ({ body: { kind: "notification", orgId: event.orgId, deliveryId } satisfies WebhookMessage })));
}
