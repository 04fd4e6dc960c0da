/**
 * Share links of deliverables (migration 0029), in the directory: the public page finds a link's org from the link
 * alone. A link's token is never stored, only its SHA-256.
 */

export interface StoredShare {
  shareId: string;
  orgId: string;
  outputId: string;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  views: number;
  lastViewedAt: number | null;
}

interface ShareRow {
  id: string;
  org_id: string;
  output_id: string;
  created_by: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  views: number;
  last_viewed_at: number | null;
}

const COLUMNS = "id, org_id, output_id, created_by, created_at, expires_at, revoked_at, views, last_viewed_at";

const shareOf = (row: ShareRow): StoredShare => ({
  shareId: row.id,
  orgId: row.org_id,
  outputId: row.output_id,
  createdBy: row.created_by,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  views: row.views,
  lastViewedAt: row.last_viewed_at,
});

export function d1OutputShares(directory: D1Database) {
  return {
    async create(share: Omit<StoredShare, "revokedAt" | "views" | "lastViewedAt">, tokenSha256: string): Promise<void> {
      await directory
        .prepare("INSERT INTO output_shares (id, org_id, output_id, token_sha256, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .bind(share.shareId, share.orgId, share.outputId, tokenSha256, share.createdBy, share.createdAt, share.expiresAt)
        .run();
    },

    /** The deliverable's links, newest first. */
    async list(orgId: string, outputId: string, limit: number): Promise<StoredShare[]> {
      const { results } = await directory
        .prepare(`SELECT ${COLUMNS} FROM output_shares WHERE org_id = ? AND output_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`)
        .bind(orgId, outputId, limit)
        .all<ShareRow>();
      return results.map(shareOf);
    },

    /** Links of the deliverable neither revoked nor expired at `now`. */
    async liveCount(orgId: string, outputId: string, now: number): Promise<number> {
      const row = await directory
        .prepare("SELECT COUNT(*) AS n FROM output_shares WHERE org_id = ? AND output_id = ? AND revoked_at IS NULL AND expires_at > ?")
        .bind(orgId, outputId, now)
        .first<{ n: number }>();
      return row?.n ?? 0;
    },

    /** Revokes a link of the deliverable (a second revocation keeps the first time); null when the org has no such link. */
    async revoke(orgId: string, outputId: string, shareId: string, now: number): Promise<StoredShare | null> {
      const row = await directory
        .prepare(`UPDATE output_shares SET revoked_at = COALESCE(revoked_at, ?) WHERE org_id = ? AND output_id = ? AND id = ? RETURNING ${COLUMNS}`)
        .bind(now, orgId, outputId, shareId)
        .first<ShareRow>();
      return row ? shareOf(row) : null;
    },

    /**
     * The link a token opens: only one neither revoked nor expired at `now`, of an org that shares (its setting not
     * "off", nor one this version does not know) and is not being erased; anything else is null, told apart from nothing.
     */
    async findLive(tokenSha256: string, now: number): Promise<StoredShare | null> {
      const row = await directory
        .prepare(
          `SELECT ${COLUMNS.split(", ").map((c) => `s.${c}`).join(", ")} FROM output_shares s JOIN orgs o ON o.id = s.org_id
            WHERE s.token_sha256 = ? AND s.revoked_at IS NULL AND s.expires_at > ? AND o.erasing_since IS NULL AND o.sharing IN ('members', 'admins')`,
        )
        .bind(tokenSha256, now)
        .first<ShareRow>();
      return row ? shareOf(row) : null;
    },

    /** One more view of the link's page. */
    async countView(shareId: string, now: number): Promise<void> {
      await directory.prepare("UPDATE output_shares SET views = views + 1, last_viewed_at = ? WHERE id = ?").bind(now, shareId).run();
    },

    async eraseOrg(orgId: string): Promise<void> {
      await directory.prepare("DELETE FROM output_shares WHERE org_id = ?").bind(orgId).run();
    },
  };
}

export type OutputShares = ReturnType<typeof d1OutputShares>;
