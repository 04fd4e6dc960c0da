/**
 * Share links of deliverables, as the REST face and the dashboard manage them: the org's sharing setting and the
 * link rules (src/domain/shares.ts) over the directory's links (src/storage/output-shares.ts), audited in the org's log.
 */
import { notFound } from "../domain/errors";
import { assertPerson, type Caller } from "../domain/person-actions";
import { newId } from "../domain/ids";
import type { Role } from "../domain/scopes";
import { liveLinksRefusal, newShareToken, SHARE_LIMITS, SHARE_TOKEN_PATTERN, type ShareStatus, shareExpiryOf, shareStatus, sharingRefusal } from "../domain/shares";
import type { Env } from "../env";
import { d1OrgSettings } from "../storage/org-settings";
import { d1OutputShares, type StoredShare } from "../storage/output-shares";
import { webServices } from "./runtime";

/** Who acts: a member of the org, through a client (an API key, an OAuth client, the dashboard). */
export interface ShareActor {
  orgId: string;
  userId: string;
  role: Role;
  clientId: string | null;
}

/** A link as its org lists it: never its token (only its hash is kept). */
export interface ShareListing {
  shareId: string;
  outputId: string;
  status: ShareStatus;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  views: number;
  lastViewedAt: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The public page of a token. */
export const shareUrl = (origin: string, token: string) => `${origin}/s/${token}`;

function listing(share: StoredShare, now: number): ShareListing {
  return {
    shareId: share.shareId,
    outputId: share.outputId,
    status: shareStatus(share, now),
    createdAt: iso(share.createdAt),
    expiresAt: iso(share.expiresAt),
    revokedAt: share.revokedAt === null ? null : iso(share.revokedAt),
    views: share.views,
    lastViewedAt: share.lastViewedAt === null ? null : iso(share.lastViewedAt),
  };
}

/** The org's deliverable, or not found: another org's id answers exactly as a missing one. */
async function outputOf(env: Env, orgId: string, outputId: string) {
  const runtime = await webServices(env, orgId);
  const output = await runtime.services.outputs.get(orgId, outputId);
  if (!output) throw notFound("research output", outputId);
  return runtime;
}

/**
 * Makes a link to the deliverable, if the org's sharing setting lets this member share and the caller is a person
 * (publishing outside the org is a person-level action). The token is in this answer only: the link cannot be shown again.
 */
export async function createShare(env: Env, actor: ShareActor, caller: Caller, outputId: string, body: unknown): Promise<{ shareId: string; url: string; expiresAt: string }> {
  const refused = sharingRefusal(await d1OrgSettings(env.DB).sharing(actor.orgId), actor.role);
  if (refused) throw refused;
  // The deliverable first: another org's id answers not found, as a missing one does, whoever asks.
  const { services, origin, now } = await outputOf(env, actor.orgId, outputId);
  assertPerson(caller, "share_outside", `${origin}/dashboard/outputs/${encodeURIComponent(outputId)}`);
  const at = now();
  const expiresAt = shareExpiryOf(body, at);
  const shares = d1OutputShares(env.DB);
  const full = liveLinksRefusal(await shares.liveCount(actor.orgId, outputId, at));
  if (full) throw full;
  const token = newShareToken();
  const shareId = newId("shr");
  await shares.create({ shareId, orgId: actor.orgId, outputId, createdBy: actor.userId, createdAt: at, expiresAt }, await sha256Hex(token));
  await services.audit.record({
    orgId: actor.orgId,
    actorUserId: actor.userId,
    actorClientId: actor.clientId,
    action: "output.share_created",
    targetType: "research_output",
    targetId: outputId,
    detail: { shareId, expiresAt: iso(expiresAt) },
  });
  return { shareId, url: shareUrl(origin, token), expiresAt: iso(expiresAt) };
}

/** The deliverable's links, newest first (at most SHARE_LIMITS.listed), each with its state and views. */
export async function listShares(env: Env, orgId: string, outputId: string): Promise<{ shares: ShareListing[] }> {
  const { now } = await outputOf(env, orgId, outputId);
  return sharesOfOutput(env.DB, orgId, outputId, now());
}

/** The links of a deliverable the caller has already read (the dashboard's page has it in hand): no second read of it. */
export async function sharesOfOutput(db: D1Database, orgId: string, outputId: string, at: number): Promise<{ shares: ShareListing[] }> {
  const shares = await d1OutputShares(db).list(orgId, outputId, SHARE_LIMITS.listed);
  return { shares: shares.map((share) => listing(share, at)) };
}

/**
 * Revokes a link: its page answers 404 from now on. Any member who may write may revoke (ending access is never
 * held back by the sharing setting); revoking twice keeps the first time.
 */
export async function revokeShare(env: Env, actor: ShareActor, outputId: string, shareId: string): Promise<ShareListing> {
  const { services, now } = await outputOf(env, actor.orgId, outputId);
  const at = now();
  const revoked = await d1OutputShares(env.DB).revoke(actor.orgId, outputId, shareId, at);
  if (!revoked) throw notFound("share link", shareId);
  if (revoked.revokedAt === at) {
    await services.audit.record({
      orgId: actor.orgId,
      actorUserId: actor.userId,
      actorClientId: actor.clientId,
      action: "output.share_revoked",
      targetType: "research_output",
      targetId: outputId,
      detail: { shareId },
    });
  }
  return listing(revoked, at);
}

/**
 * The live link a token opens, in an org that still shares: null for a token of the wrong shape, unknown, revoked,
 * expired, or of an org whose sharing is now off or that is being erased, all alike (the page answers them with the same 404).
 */
export async function findSharedOutput(env: Env, token: string, now: number): Promise<StoredShare | null> {
  if (!SHARE_TOKEN_PATTERN.test(token)) return null;
  return d1OutputShares(env.DB).findLive(await sha256Hex(token), now);
}

/** Counts a view of the link's page (on the link's row; views are not audited one by one). */
export async function countShareView(env: Env, shareId: string, now: number): Promise<void> {
  await d1OutputShares(env.DB).countView(shareId, now);
}
