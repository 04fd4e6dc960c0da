/**
 * The bytes of page snapshots an org keeps, counted on its row in its home database (the copy the home keeps), so an
 * org's erasure takes the count with it. Only a new snapshot object is counted (content-addressed: the same text is
 * stored once). The cap is kept atomically: a reservation adds the bytes only if the sum stays within it
 * (snapshotFits, in one statement), so checks storing at once never pass it together.
 */
export interface SnapshotBytes {
  /** Adds `bytes` to the org's count if the sum stays within `cap`; false (nothing added) when it would not. */
  reserve(orgId: string, bytes: number, cap: number): Promise<boolean>;
  /** Takes back a reservation whose object was not new after all (another check stored the same text meanwhile). */
  release(orgId: string, bytes: number): Promise<void>;
  /** Counts bytes stored without a cap (an import carries what the org had). */
  add(orgId: string, bytes: number): Promise<void>;
  used(orgId: string): Promise<number>;
  /** Whether the org's row is there and its erasure has not begun: a refused reservation means the cap only then. */
  open(orgId: string): Promise<boolean>;
}

export function d1SnapshotBytes(home: D1Database): SnapshotBytes {
  return {
    async reserve(orgId, bytes, cap) {
      const result = await home
        .prepare("UPDATE orgs SET snapshot_bytes = snapshot_bytes + ?1 WHERE id = ?2 AND snapshot_bytes + ?1 <= ?3")
        .bind(bytes, orgId, cap)
        .run();
      return result.meta.changes === 1;
    },
    async release(orgId, bytes) {
      await home.prepare("UPDATE orgs SET snapshot_bytes = MAX(0, snapshot_bytes - ?1) WHERE id = ?2").bind(bytes, orgId).run();
    },
    async add(orgId, bytes) {
      await home.prepare("UPDATE orgs SET snapshot_bytes = snapshot_bytes + ?1 WHERE id = ?2").bind(bytes, orgId).run();
    },
    async used(orgId) {
      const row = await home.prepare("SELECT snapshot_bytes FROM orgs WHERE id = ?").bind(orgId).first<{ snapshot_bytes: number }>();
      return row?.snapshot_bytes ?? 0;
    },
    async open(orgId) {
      const row = await home.prepare("SELECT erasing_since FROM orgs WHERE id = ?").bind(orgId).first<{ erasing_since: number | null }>();
      return row !== null && row.erasing_since === null;
    },
  };
}
