/**
 * Confirming an org's e-mail channel to an address outside its members (rules: src/domain/notifications/confirmation.ts):
 * the one message such an address gets before it confirms, and the confirmation itself when its link is followed.
 */
import { rateLimited } from "../../domain/errors";
import {
  CONFIRMATION_TOKEN_PATTERN,
  confirmationExpiry,
  confirmationUrl,
  newConfirmationToken,
  renderConfirmationRequest,
} from "../../domain/notifications/confirmation";
import { dailyCapMessage, dailyCapOf, secondsUntilNextUtcDay, utcDay } from "../../domain/notifications/policy";
import type { Env } from "../../env";
import { auditInsertStatement } from "../../storage/audit-log";
import { confirmationPending, confirmChannel, renewConfirmation, returnDailySend, takeDailySend } from "../../storage/notification-repository";
import { homeDatabase } from "../org-homes";
import { sendMessage } from "./send";

export async function tokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A new link's token, its hash (all that is kept) and when it stops working. */
export async function newConfirmation(now: number): Promise<{ token: string; tokenSha256: string; expiresAt: number }> {
  const token = newConfirmationToken();
  return { token, tokenSha256: await tokenHash(token), expiresAt: confirmationExpiry(now) };
}

/**
 * Sends the confirmation link to the address: counted against the org's daily cap like any message (past it, refused
 * with when sending resumes). Answers whether it went.
 */
export async function sendConfirmationRequest(
  env: Env,
  channel: { orgId: string; address: string; cairnOrigin: string },
  token: string,
  expiresAt: number,
  now: number,
): Promise<{ sent: boolean; error: string | null }> {
  const day = utcDay(now);
  const cap = dailyCapOf(env.NOTIFICATION_DAILY_CAP);
  if (!(await takeDailySend(env.DB, channel.orgId, day, cap))) throw rateLimited(dailyCapMessage(cap), secondsUntilNextUtcDay(now));
  const org = await env.DB.prepare("SELECT name FROM orgs WHERE id = ?").bind(channel.orgId).first<{ name: string }>();
  const message = renderConfirmationRequest(org?.name ?? "an organization", confirmationUrl(channel.cairnOrigin, token), expiresAt);
  const outcome = await sendMessage(env, { kind: "email", address: channel.address }, message, channel.cairnOrigin);
  if (outcome.sent) return { sent: true, error: null };
  await returnDailySend(env.DB, channel.orgId, day);
  return { sent: false, error: outcome.error };
}

/** A new link for a channel still waiting, sent now (the previous link stops working); false when it no longer waits. */
export async function resendConfirmation(env: Env, channel: { id: string; orgId: string; target: string; cairnOrigin: string }, now: number): Promise<{ sent: boolean; error: string | null } | false> {
  const next = await newConfirmation(now);
  if (!(await renewConfirmation(env.DB, channel.orgId, channel.id, next.tokenSha256, next.expiresAt))) return false;
  return sendConfirmationRequest(env, { orgId: channel.orgId, address: channel.target, cairnOrigin: channel.cairnOrigin }, next.token, next.expiresAt, now);
}

/** The address a live link would confirm, or null (a token of the wrong shape, unknown, used or expired, all alike). */
export async function pendingConfirmation(env: Env, token: string, now: number): Promise<{ address: string } | null> {
  if (!CONFIRMATION_TOKEN_PATTERN.test(token)) return null;
  return confirmationPending(env.DB, await tokenHash(token), now);
}

/**
 * Follows a link: confirms its channel and spends the token, and writes the confirmation to the org's audit log; null
 * when the link confirms nothing. The one who acted is the address itself (no member, no credential): the audit
 * entry names it as the actor.
 */
export async function confirmAddress(env: Env, token: string, now: number): Promise<{ orgId: string; channelId: string; address: string } | null> {
  if (!CONFIRMATION_TOKEN_PATTERN.test(token)) return null;
  const confirmed = await confirmChannel(env.DB, await tokenHash(token), now);
  if (!confirmed) return null;
  const { orgId, channelId, address } = confirmed;
  await auditInsertStatement(
    await homeDatabase(env, orgId),
    { orgId, actorUserId: address, actorClientId: "email-confirmation", action: "notification_channel.confirmed", targetType: "notification_channel", targetId: channelId, detail: { address } },
    now,
  ).run();
  return confirmed;
}
