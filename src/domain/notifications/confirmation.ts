/**
 * An org's e-mail channel to an address outside its members confirms first: the address gets one message, a link to
 * confirm, and nothing else until the link is followed. A member's own address (the one they sign in with) needs no
 * confirmation. The link works once and expires; only its token's hash is kept. Pure: the rules and the message.
 */
import { newLinkToken } from "../ids";
import { canonicalMailbox } from "./mailbox";
import { escapeHtml, escapeSlack, type RenderedMessage } from "./message";

export const CONFIRMATION_LIMITS = {
  /** Random bytes of a link's token: 256 bits. */
  tokenBytes: 32,
  /** How long a confirmation link works. */
  validHours: 72,
  /** A new link for the same channel goes at most this often: an admin cannot make an address a target of repeated mail. */
  resendMinutes: 10,
} as const;

/** What a confirmation token looks like (43 base64url characters); anything else is not looked up. */
export const CONFIRMATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const newConfirmationToken = (): string => newLinkToken(CONFIRMATION_LIMITS.tokenBytes);
export const confirmationExpiry = (now: number): number => now + CONFIRMATION_LIMITS.validHours * 3_600_000;

/**
 * Whether a new channel waits for its address to confirm: an e-mail address does, unless it is the one a member of the
 * org signs in with (`memberAddresses`: the members' addresses that match it, as the directory found them).
 */
export const needsConfirmation = (channel: { kind: "slack" | "email"; address?: string }, memberAddresses: readonly string[]): boolean =>
  channel.kind === "email" && !memberAddresses.map(canonicalMailbox).includes(canonicalMailbox(channel.address ?? ""));

export type ChannelConfirmation = "confirmed" | "awaiting_confirmation";

export const confirmationOf = (channel: { confirmedAt: number | null }): ChannelConfirmation => (channel.confirmedAt === null ? "awaiting_confirmation" : "confirmed");

/** When a new link may be sent to a channel waiting whose current link expires at `confirmExpiresAt` (null: at once). */
export function nextLinkAt(confirmExpiresAt: number | null): number {
  if (confirmExpiresAt === null) return 0;
  return confirmExpiresAt - CONFIRMATION_LIMITS.validHours * 3_600_000 + CONFIRMATION_LIMITS.resendMinutes * 60_000;
}

/** May anything but a confirmation link be sent to this channel? */
export const maySend = (channel: { confirmedAt: number | null }): boolean => channel.confirmedAt !== null;

/** The public page that confirms an address. */
export const confirmationUrl = (origin: string, token: string): string => `${origin.replace(/\/$/, "")}/notifications/confirm/${token}`;

const oneLine = (value: string, max = 120): string => {
  const flat = value.replace(/\p{Cc}+/gu, " ").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The one message an unconfirmed address receives: who asks, what confirming does, the link and until when it works. */
export function renderConfirmationRequest(orgName: string, link: string, expiresAt: number): RenderedMessage {
  const org = `“${oneLine(orgName)}”`;
  const until = `${new Date(expiresAt).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const line = `An admin of the organization ${org} on Cairn asked to send its research notifications to this address. Nothing is sent to it unless you confirm.`;
  const text = `${line}\n\nConfirm: ${link}\n\nThe link works once, until ${until}. If you did not expect this message, ignore it: nothing more will be sent.\n`;
  const html = `<!doctype html><html><body><p>${escapeHtml(line)}</p><p><a href="${escapeHtml(link)}">Confirm this address</a></p><p style="color:#666;font-size:12px">The link works once, until ${escapeHtml(until)}. If you did not expect this message, ignore it: nothing more will be sent.</p></body></html>`;
  return { subject: `[Cairn] Confirm notifications from ${oneLine(orgName, 60)}`, text, html, slack: { text: escapeSlack(line), blocks: [] }, link };
}
