import { outboundPolicyFor } from "../../domain/outbound-gate";
import type { RenderedMessage } from "../../domain/notifications/message";
import { checkWebhookTarget, deliveredStatus, WEBHOOK_LIMITS } from "../../domain/webhooks/policy";
import { openSecret, SecretUnavailable } from "../../domain/webhooks/secret-box";
import type { Env } from "../../env";
import type { NotificationChannel } from "../../storage/notification-repository";
import { secretKeyring } from "../webhooks/secret-keys";

/** Where one message goes: a person's or a channel's e-mail address, or a channel's Slack-compatible webhook. */
export type Target = { kind: "email"; address: string } | { kind: "slack"; channelId: string; sealedUrl: string };

/** What a send came to: sent (with the e-mail's message id), worth a retry, or refused for good (retrying cannot help). */
export type SendOutcome = { sent: true; messageId: string | null } | { sent: false; retry: boolean; error: string };

export const targetOfChannel = (channel: NotificationChannel): Target =>
  channel.kind === "email" ? { kind: "email", address: channel.target } : { kind: "slack", channelId: channel.id, sealedUrl: channel.target };

/** The sender: NOTIFICATION_FROM, else notifications@ this deployment's host (it must be a domain onboarded to Email Service). */
export const senderAddress = (env: Env, origin: string): string => env.NOTIFICATION_FROM?.trim() || `notifications@${new URL(origin).hostname}`;

const clipError = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, WEBHOOK_LIMITS.errorChars);

async function sendEmail(env: Env, address: string, message: RenderedMessage, origin: string): Promise<SendOutcome> {
  if (!env.SEND_EMAIL) return { sent: false, retry: false, error: "e-mail is not turned on for this deployment: it has no send_email binding named SEND_EMAIL (README: Notifications)." };
  try {
    const result = await env.SEND_EMAIL.send({ from: { name: "Cairn", email: senderAddress(env, origin) }, to: address, subject: message.subject, text: message.text, html: message.html });
    return { sent: true, messageId: result.messageId ?? null };
  } catch (error) {
    return { sent: false, retry: true, error: `e-mail not sent: ${clipError(error)}` };
  }
}

/** A Slack-compatible incoming webhook: its URL opened from its seal, judged by the outbound guard, POSTed `{ text, blocks }`. */
async function sendSlack(env: Env, channelId: string, sealedUrl: string, message: RenderedMessage): Promise<SendOutcome> {
  let url: string;
  try {
    url = await openSecret(await secretKeyring(env), channelId, sealedUrl);
  } catch (error) {
    if (!(error instanceof SecretUnavailable)) throw error;
    return { sent: false, retry: true, error: "not sent: the channel's URL cannot be opened with this deployment's keys (WEBHOOK_SECRET_KEYS)" };
  }
  const target = checkWebhookTarget(url, outboundPolicyFor(env.CAIRN_ENV, "notification"));
  if (!target.ok) return { sent: false, retry: false, error: `target refused: ${target.reason}` };
  try {
    const response = await fetch(target.url, {
      method: "POST",
      body: JSON.stringify(message.slack),
      headers: { "content-type": "application/json", "user-agent": "Cairn-Notifications/1" },
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_LIMITS.timeoutMs),
    });
    if (deliveredStatus(response.status)) {
      await response.body?.cancel();
      return { sent: true, messageId: null };
    }
    await response.body?.cancel();
    // The answer's text is not kept: some receivers echo the URL (the secret) in their errors.
    return { sent: false, retry: true, error: `HTTP ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
    return { sent: false, retry: true, error: timedOut ? `no answer within ${WEBHOOK_LIMITS.timeoutMs / 1000} s` : "the channel could not be reached" };
  }
}

export function sendMessage(env: Env, target: Target, message: RenderedMessage, origin: string): Promise<SendOutcome> {
  return target.kind === "email" ? sendEmail(env, target.address, message, origin) : sendSlack(env, target.channelId, target.sealedUrl, message);
}

/** What a delivery log shows as the recipient: an address, or the channel (never its URL). */
export const describeTarget = (target: Target): string => (target.kind === "email" ? target.address : `slack channel ${target.channelId}`);
