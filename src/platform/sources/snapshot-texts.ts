import type { SourceSnapshotReader } from "../../domain/ports";
import { snapshotStore } from "./snapshots";

/** The snapshot bucket as the operations read it: a page's text by the verdict's snapshot hash, under the org only. */
export function snapshotTexts(bucket: R2Bucket): SourceSnapshotReader {
  const store = snapshotStore(bucket);
  return {
    async text(orgId, sha256) {
      if (!/^[0-9a-f]{64}$/.test(sha256)) return null;
      return (await store.get(orgId, sha256))?.text ?? null;
    },
  };
}
