/**
 * Share links: a read-only link to one deliverable, for people outside the org. Pure rules: who may share under the
 * org's setting, how long a link lives, what a token looks like, and which state a link is in.
 */
import { CairnError, forbidden, validationError } from "./errors";
import { newLinkToken } from "./ids";
import type { Role } from "./scopes";

/** The org setting: any member may share, only admins, or no one (and existing links stop answering). */
export const SHARING_MODES = ["members", "admins", "off"] as const;
export type SharingMode = (typeof SHARING_MODES)[number];

export const SHARE_LIMITS = {
  defaultDays: 30,
  maxDays: 365,
  /** Links of one deliverable that may be live (neither revoked nor expired) at once. */
  livePerOutput: 20,
  /** Links a listing shows, newest first. */
  listed: 100,
  /** Random bytes of a token: 256 bits, far past guessing. */
  tokenBytes: 32,
} as const;

const DAY_MS = 86_400_000;

export const isSharingMode = (value: unknown): value is SharingMode => typeof value === "string" && (SHARING_MODES as readonly string[]).includes(value);

/** Why this person may not share under the org's setting, or null when they may. */
export function sharingRefusal(mode: SharingMode, role: Role): CairnError | null {
  if (mode === "off") return forbidden("Sharing is turned off for this organization; an admin can turn it on in the organization's settings (sharing).");
  if (mode === "admins" && role !== "admin") return forbidden("Only the organization's admins may share deliverables (the organization's sharing setting is admins).");
  return null;
}

/**
 * When a new link expires, from the request's body: `{}` or `{ "expiresInDays": N }`, N a whole number from 1 to
 * SHARE_LIMITS.maxDays (default SHARE_LIMITS.defaultDays). Anything else is refused, naming the field.
 */
export function shareExpiryOf(body: unknown, now: number): number {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("The body must be empty or a JSON object.");
  const unknown = Object.keys(body).filter((key) => key !== "expiresInDays");
  if (unknown.length) {
    throw validationError(`Unknown fields: ${unknown.map((k) => k.slice(0, 40)).join(", ")}.`, unknown.map((k) => ({ path: k.slice(0, 40), message: "Not a field" })));
  }
  // Absent is the default; null is a value, and refused like any other that is not a number of days.
  const given = (body as { expiresInDays?: unknown }).expiresInDays;
  const days = given === undefined ? SHARE_LIMITS.defaultDays : given;
  if (typeof days !== "number" || !Number.isInteger(days) || days < 1 || days > SHARE_LIMITS.maxDays) {
    throw validationError(`expiresInDays is a whole number of days from 1 to ${SHARE_LIMITS.maxDays} (default ${SHARE_LIMITS.defaultDays}).`, [
      { path: "expiresInDays", message: `A whole number from 1 to ${SHARE_LIMITS.maxDays}` },
    ]);
  }
  return now + days * DAY_MS;
}

/** Refused when a deliverable already has as many live links as it may. */
export function liveLinksRefusal(live: number): CairnError | null {
  if (live < SHARE_LIMITS.livePerOutput) return null;
  return new CairnError("conflict", `This deliverable already has ${SHARE_LIMITS.livePerOutput} live share links; revoke one before making another.`);
}

/** A new link's token: SHARE_LIMITS.tokenBytes from the platform CSPRNG, base64url without padding (43 characters). */
export const newShareToken = (): string => newLinkToken(SHARE_LIMITS.tokenBytes);

/** What a token looks like; anything else is not looked up at all. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type ShareStatus = "active" | "revoked" | "expired";

export function shareStatus(share: { revokedAt: number | null; expiresAt: number }, now: number): ShareStatus {
  if (share.revokedAt !== null) return "revoked";
  return share.expiresAt <= now ? "expired" : "active";
}
