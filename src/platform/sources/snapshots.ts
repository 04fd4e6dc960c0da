import { hashEvidence } from "../../domain/research/ledger";
import { snapshotsFullReason } from "../../domain/sources/snapshot-quota";
import type { SnapshotBytes } from "../../storage/snapshot-bytes";

/** What was read from one URL at one time: kept in R2 under the org, addressed by the SHA-256 of its text. */
export interface Snapshot {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string | null;
  title: string | null;
  fetchedAt: number;
  /** SHA-256 (hex) of `text`: the object's key. */
  sha256: string;
  /** The first bytes only were read (SOURCE_CHECK_LIMITS.maxBytes). */
  truncated: boolean;
  /** Visible text, normalized (visible-text.ts). Untrusted: what the page says. */
  text: string;
}

/** The latest fetch of a URL for the org: the snapshot it gave, or why its text could not be read. */
interface UrlEntry {
  fetchedAt: number;
  sha256?: string;
  /** Where this URL's text was read from (after redirects): a kept page is reused only while it passes the rules. */
  finalUrl?: string;
  unchecked?: string;
  title?: string | null;
}

/** The org's count of snapshot bytes and the cap it keeps within (SOURCE_SNAPSHOT_BYTES_PER_ORG). */
export interface SnapshotQuota {
  bytes: SnapshotBytes;
  cap: number;
}

/** Everything of one org lives under this prefix, so erasure deletes it all. */
export const orgPrefix = (orgId: string) => `orgs/${orgId}/`;
/** Where the org's snapshot of text hashing to `sha256` is kept: under the org's prefix, named by the hash alone. */
export const snapshotKey = (orgId: string, sha256: string) => `${snapshotsPrefix(orgId)}${sha256}.json`;
/** The org's snapshots, under its prefix (an export lists them here). */
export const snapshotsPrefix = (orgId: string) => `${orgPrefix(orgId)}snapshots/`;
const urlKey = async (orgId: string, url: string) => `${orgPrefix(orgId)}urls/${await hashEvidence(url)}.json`;

export function snapshotStore(bucket: R2Bucket) {
  return {
    /**
     * Stores the snapshot (content-addressed: the same text is stored once) and points the URL at it. A new object
     * counts toward the org's cap: when it would pass it, nothing is stored and the answer says why (`full`).
     */
    async save(orgId: string, snapshot: Omit<Snapshot, "sha256">, quota: SnapshotQuota): Promise<Snapshot | { full: string }> {
      const sha256 = await hashEvidence(snapshot.text);
      const stored: Snapshot = { ...snapshot, sha256 };
      const key = snapshotKey(orgId, sha256);
      const body = JSON.stringify(stored);
      const options = { httpMetadata: { contentType: "application/json" } };
      if (await bucket.head(key)) await bucket.put(key, body, options);
      else {
        const bytes = new TextEncoder().encode(body).byteLength;
        if (!(await quota.bytes.reserve(orgId, bytes, quota.cap))) return { full: snapshotsFullReason(quota.cap) };
        let created: R2Object | null;
        try {
          // Only if still absent: two checks storing the same new text count it once.
          created = await bucket.put(key, body, { ...options, onlyIf: { etagDoesNotMatch: "*" } });
        } catch (error) {
          await quota.bytes.release(orgId, bytes);
          throw error;
        }
        if (!created) {
          await quota.bytes.release(orgId, bytes);
          await bucket.put(key, body, options);
        }
      }
      await bucket.put(await urlKey(orgId, snapshot.url), JSON.stringify({ fetchedAt: snapshot.fetchedAt, sha256, finalUrl: snapshot.finalUrl } satisfies UrlEntry));
      return stored;
    },

    /** Remembers that the URL's content could not be read (a PDF, an image), so a repeat does not fetch it again. */
    async saveUnchecked(orgId: string, url: string, reason: string, title: string | null, fetchedAt: number): Promise<void> {
      await bucket.put(await urlKey(orgId, url), JSON.stringify({ fetchedAt, unchecked: reason, title } satisfies UrlEntry));
    },

    /** The org's fetch of `url` since `since`, if any: its snapshot, or why it was not read. */
    async recent(orgId: string, url: string, since: number): Promise<{ snapshot: Snapshot; finalUrl: string | null } | { unchecked: string; fetchedAt: number } | null> {
      const entry = await bucket.get(await urlKey(orgId, url));
      if (!entry) return null;
      const pointer = (await entry.json()) as UrlEntry;
      if (pointer.fetchedAt < since) return null;
      if (pointer.unchecked) return { unchecked: pointer.unchecked, fetchedAt: pointer.fetchedAt };
      if (!pointer.sha256) return null;
      const object = await bucket.get(snapshotKey(orgId, pointer.sha256));
      // The snapshot object is shared by every URL whose text is the same: this URL's own final address is in its pointer.
      return object ? { snapshot: (await object.json()) as Snapshot, finalUrl: pointer.finalUrl ?? null } : null;
    },

    async get(orgId: string, sha256: string): Promise<Snapshot | null> {
      const object = await bucket.get(snapshotKey(orgId, sha256));
      return object ? ((await object.json()) as Snapshot) : null;
    },

    /** Deletes every object of the org (its erasure); returns how many there were. */
    async eraseOrg(orgId: string): Promise<number> {
      let deleted = 0;
      for (;;) {
        const page = await bucket.list({ prefix: orgPrefix(orgId), limit: 1000 });
        if (page.objects.length === 0) return deleted;
        await bucket.delete(page.objects.map((o) => o.key));
        deleted += page.objects.length;
      }
    },
  };
}

export type SnapshotStore = ReturnType<typeof snapshotStore>;
