import type { ChannelKind, NotificationEventType } from "../domain/notifications/policy";

/** Notification preferences, channels, deliveries and daily usage in the directory database; every query names the org. */

export interface NotificationChannel {
  id: string;
  orgId: string;
  kind: ChannelKind;
  /** slack: the sealed URL (opened only to send); email: the address. */
  target: string;
  events: NotificationEventType[];
  cairnOrigin: string;
  createdBy: string;
  createdAt: number;
  /** When the address confirmed (Slack channels and members' own addresses: when added); null while it waits. */
  confirmedAt: number | null;
  /** When the pending confirmation link stops working; null once confirmed. */
  confirmExpiresAt: number | null;
}

export type NotificationStatus = "pending" | "delivered" | "failed" | "cancelled";

export interface NotificationDelivery {
  id: string;
  orgId: string;
  recipient: string;
  userId: string | null;
  channelId: string | null;
  eventId: string;
  eventType: string;
  /** The event as notified (NotifiedEvent JSON). */
  event: string;
  cairnOrigin: string;
  status: NotificationStatus;
  attempts: number;
  lastError: string | null;
  sentTo: string | null;
  subject: string | null;
  bodyText: string | null;
  messageId: string | null;
  sentWith: string | null;
  createdAt: number;
  updatedAt: number;
  sentAt: number | null;
}

interface ChannelRow {
  id: string;
  org_id: string;
  kind: ChannelKind;
  target: string;
  events: string;
  cairn_origin: string;
  created_by: string;
  created_at: number;
  confirmed_at: number | null;
  confirm_expires_at: number | null;
}

interface DeliveryRow {
  id: string;
  org_id: string;
  recipient: string;
  user_id: string | null;
  channel_id: string | null;
  event_id: string;
  event_type: string;
  event: string;
  cairn_origin: string;
  status: NotificationStatus;
  attempts: number;
  last_error: string | null;
  sent_to: string | null;
  subject: string | null;
  body_text: string | null;
  message_id: string | null;
  sent_with: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

const channelOf = (r: ChannelRow): NotificationChannel => ({
  id: r.id,
  orgId: r.org_id,
  kind: r.kind,
  target: r.target,
  events: JSON.parse(r.events),
  cairnOrigin: r.cairn_origin,
  createdBy: r.created_by,
  createdAt: r.created_at,
  confirmedAt: r.confirmed_at,
  confirmExpiresAt: r.confirm_expires_at,
});

const deliveryOf = (r: DeliveryRow): NotificationDelivery => ({
  id: r.id,
  orgId: r.org_id,
  recipient: r.recipient,
  userId: r.user_id,
  channelId: r.channel_id,
  eventId: r.event_id,
  eventType: r.event_type,
  event: r.event,
  cairnOrigin: r.cairn_origin,
  status: r.status,
  attempts: r.attempts,
  lastError: r.last_error,
  sentTo: r.sent_to,
  subject: r.subject,
  bodyText: r.body_text,
  messageId: r.message_id,
  sentWith: r.sent_with,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  sentAt: r.sent_at,
});

// --- preferences

export async function getEmailEvents(db: D1Database, orgId: string, userId: string): Promise<NotificationEventType[] | null> {
  const row = await db.prepare("SELECT email_events FROM notification_preferences WHERE org_id = ? AND user_id = ?").bind(orgId, userId).first<{ email_events: string }>();
  return row ? JSON.parse(row.email_events) : null;
}

export async function putEmailEvents(db: D1Database, orgId: string, userId: string, events: readonly NotificationEventType[], now: number): Promise<void> {
  await db
    .prepare("INSERT INTO notification_preferences (org_id, user_id, email_events, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (org_id, user_id) DO UPDATE SET email_events = excluded.email_events, updated_at = excluded.updated_at")
    .bind(orgId, userId, JSON.stringify(events), now)
    .run();
}

// --- channels

export async function listChannels(db: D1Database, orgId: string): Promise<NotificationChannel[]> {
  const { results } = await db.prepare("SELECT * FROM notification_channels WHERE org_id = ? ORDER BY created_at, id").bind(orgId).all<ChannelRow>();
  return results.map(channelOf);
}

export async function getChannel(db: D1Database, orgId: string, id: string): Promise<NotificationChannel | null> {
  const row = await db.prepare("SELECT * FROM notification_channels WHERE org_id = ? AND id = ?").bind(orgId, id).first<ChannelRow>();
  return row ? channelOf(row) : null;
}

/**
 * Inserts the channel only while the org has fewer than `limit`: two admins adding at once cannot pass it. A channel
 * waiting for its address to confirm comes with the SHA-256 of its link's token.
 */
export async function insertChannel(db: D1Database, channel: NotificationChannel, limit: number, confirmTokenSha256: string | null = null): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO notification_channels (id, org_id, kind, target, events, cairn_origin, created_by, created_at, confirmed_at, confirm_token_sha256, confirm_expires_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM notification_channels WHERE org_id = ?) < ?`,
    )
    .bind(
      channel.id,
      channel.orgId,
      channel.kind,
      channel.target,
      JSON.stringify(channel.events),
      channel.cairnOrigin,
      channel.createdBy,
      channel.createdAt,
      channel.confirmedAt,
      confirmTokenSha256,
      channel.confirmExpiresAt,
      channel.orgId,
      limit,
    )
    .run();
  return result.meta.changes === 1;
}

/** The addresses of the org's members that are `address` (whatever their case): a member's own needs no confirmation. */
export async function memberAddressesMatching(db: D1Database, orgId: string, address: string): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? AND lower(u.email) = ?")
    .bind(orgId, address.toLowerCase())
    .all<{ email: string }>();
  return results.map((row) => row.email);
}

/** A new confirmation link for a channel still waiting (the previous link stops working). False when it is confirmed or gone. */
export async function renewConfirmation(db: D1Database, orgId: string, id: string, tokenSha256: string, expiresAt: number): Promise<boolean> {
  const result = await db
    .prepare("UPDATE notification_channels SET confirm_token_sha256 = ?, confirm_expires_at = ? WHERE org_id = ? AND id = ? AND confirmed_at IS NULL")
    .bind(tokenSha256, expiresAt, orgId, id)
    .run();
  return result.meta.changes === 1;
}

/** The waiting channel a live link's token confirms, confirmed now and its token spent (single use); null for any other token. */
export async function confirmChannel(db: D1Database, tokenSha256: string, now: number): Promise<{ orgId: string; channelId: string; address: string } | null> {
  const row = await db
    .prepare(
      `UPDATE notification_channels SET confirmed_at = ?1, confirm_token_sha256 = NULL, confirm_expires_at = NULL
        WHERE confirm_token_sha256 = ?2 AND confirmed_at IS NULL AND confirm_expires_at > ?1
        RETURNING org_id, id, target`,
    )
    .bind(now, tokenSha256)
    .first<{ org_id: string; id: string; target: string }>();
  return row ? { orgId: row.org_id, channelId: row.id, address: row.target } : null;
}

/** Whether a token is one a channel waits on and still live (read only: the page shown before confirming). */
export async function confirmationPending(db: D1Database, tokenSha256: string, now: number): Promise<{ address: string } | null> {
  const row = await db
    .prepare("SELECT target FROM notification_channels WHERE confirm_token_sha256 = ? AND confirmed_at IS NULL AND confirm_expires_at > ?")
    .bind(tokenSha256, now)
    .first<{ target: string }>();
  return row ? { address: row.target } : null;
}

export async function deleteChannel(db: D1Database, orgId: string, id: string): Promise<boolean> {
  const [removed] = await db.batch([
    db.prepare("DELETE FROM notification_channels WHERE org_id = ? AND id = ?").bind(orgId, id),
    db.prepare("UPDATE notification_deliveries SET status = 'cancelled', last_error = 'channel deleted' WHERE org_id = ? AND channel_id = ? AND status = 'pending'").bind(orgId, id),
  ]);
  return (removed?.meta.changes ?? 0) === 1;
}

// --- deliveries

export type NewDelivery = Omit<NotificationDelivery, "status" | "attempts" | "lastError" | "sentTo" | "subject" | "bodyText" | "messageId" | "sentWith" | "sentAt" | "updatedAt">;

/** New deliveries; one that exists for the same recipient and event is kept as it is (at most one message per event). */
export async function insertDeliveries(db: D1Database, deliveries: readonly NewDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db.batch(
    deliveries.map((d) =>
      db
        .prepare(
          "INSERT INTO notification_deliveries (id, org_id, recipient, user_id, channel_id, event_id, event_type, event, cairn_origin, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT (recipient, event_id) DO NOTHING",
        )
        .bind(d.id, d.orgId, d.recipient, d.userId, d.channelId, d.eventId, d.eventType, d.event, d.cairnOrigin, d.createdAt, d.createdAt),
    ),
  );
}

/** The pending deliveries of an event, never attempted: the ones to hand to the queue. */
export async function unattemptedDeliveries(db: D1Database, orgId: string, eventId: string): Promise<string[]> {
  const { results } = await db.prepare("SELECT id FROM notification_deliveries WHERE org_id = ? AND event_id = ? AND status = 'pending' AND attempts = 0").bind(orgId, eventId).all<{ id: string }>();
  return results.map((r) => r.id);
}

export async function getDelivery(db: D1Database, orgId: string, id: string): Promise<NotificationDelivery | null> {
  const row = await db.prepare("SELECT * FROM notification_deliveries WHERE org_id = ? AND id = ?").bind(orgId, id).first<DeliveryRow>();
  return row ? deliveryOf(row) : null;
}

/** Everything waiting for a recipient, oldest first: what one message (alone or as a digest) carries. */
export async function pendingFor(db: D1Database, orgId: string, recipient: string, limit: number): Promise<NotificationDelivery[]> {
  const { results } = await db
    .prepare("SELECT * FROM notification_deliveries WHERE org_id = ? AND recipient = ? AND status = 'pending' ORDER BY created_at, id LIMIT ?")
    .bind(orgId, recipient, limit)
    .all<DeliveryRow>();
  return results.map(deliveryOf);
}

/** When the recipient's last message went, or null. */
export async function lastSentAt(db: D1Database, orgId: string, recipient: string): Promise<number | null> {
  const row = await db.prepare("SELECT MAX(sent_at) AS at FROM notification_deliveries WHERE org_id = ? AND recipient = ? AND status = 'delivered'").bind(orgId, recipient).first<{ at: number | null }>();
  return row?.at ?? null;
}

/** One attempt recorded on every delivery it was for. */
export async function recordAttempt(db: D1Database, orgId: string, ids: readonly string[], status: NotificationStatus, error: string | null, now: number): Promise<void> {
  await db.batch(
    ids.map((id) =>
      db.prepare("UPDATE notification_deliveries SET status = ?, attempts = attempts + 1, last_error = ?, updated_at = ? WHERE org_id = ? AND id = ? AND status = 'pending'").bind(status, error, now, orgId, id),
    ),
  );
}

/** The message went: every delivery it carried is delivered, with what was sent and the channel's answer. */
export async function recordSent(
  db: D1Database,
  orgId: string,
  ids: readonly string[],
  sent: { to: string; subject: string; text: string; messageId: string | null; sentWith: string },
  now: number,
): Promise<void> {
  await db.batch(
    ids.map((id) =>
      db
        .prepare(
          "UPDATE notification_deliveries SET status = 'delivered', attempts = attempts + 1, last_error = NULL, sent_to = ?, subject = ?, body_text = ?, message_id = ?, sent_with = ?, sent_at = ?, updated_at = ? WHERE org_id = ? AND id = ? AND status = 'pending'",
        )
        .bind(sent.to, sent.subject, sent.text, sent.messageId, sent.sentWith, now, now, orgId, id),
    ),
  );
}

export async function deadLetterDelivery(db: D1Database, orgId: string, id: string, reason: string, now: number): Promise<void> {
  await db
    .prepare("UPDATE notification_deliveries SET status = 'failed', last_error = ?, dead_lettered_at = ?, updated_at = ? WHERE org_id = ? AND id = ? AND status = 'pending'")
    .bind(reason, now, now, orgId, id)
    .run();
}

// --- daily usage

/** Takes one send from the org's budget for the day; false when the cap is reached (nothing is counted then). */
export async function takeDailySend(db: D1Database, orgId: string, day: string, cap: number): Promise<boolean> {
  const row = await db
    .prepare("INSERT INTO notification_daily_usage (org_id, day, sent) VALUES (?, ?, 1) ON CONFLICT (org_id, day) DO UPDATE SET sent = sent + 1 WHERE sent < ? RETURNING sent")
    .bind(orgId, day, cap)
    .first<{ sent: number }>();
  return row !== null;
}

/** Gives back a send taken for a message that did not go. */
export async function returnDailySend(db: D1Database, orgId: string, day: string): Promise<void> {
  await db.prepare("UPDATE notification_daily_usage SET sent = sent - 1 WHERE org_id = ? AND day = ? AND sent > 0").bind(orgId, day).run();
}
