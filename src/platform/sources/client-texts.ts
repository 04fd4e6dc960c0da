import type { ClientTextStore } from "../../domain/ports";
import { orgBeingErased } from "../../domain/org-data/write-gate";
import { hashEvidence } from "../../domain/research/ledger";
import { clientTextApplies, judgeClientText, type SourceVerification } from "../../domain/sources/verification";
import { orgPrefix, type SnapshotQuota } from "./snapshots";

/**
 * Text an assistant sent for a page Cairn may not reach, in the snapshot bucket under the org's prefix (so
 * erasure deletes it with the snapshots), apart from Cairn's own snapshots: it is never taken for Cairn's reading,
 * and a URL's snapshot pointer never leads to it.
 */
export const clientTextsPrefix = (orgId: string) => `${orgPrefix(orgId)}client-texts/`;
export const clientTextKey = (orgId: string, sha256: string) => `${clientTextsPrefix(orgId)}${sha256}.txt`;
/** The SHA-256 a client text's key names, or null for a key that is not one. */
export const clientTextShaOf = (key: string): string | null => /\/client-texts\/([0-9a-f]{64})\.txt$/.exec(key)?.[1] ?? null;
export const CLIENT_TEXT_CONTENT_TYPE = "text/plain; charset=utf-8";

/**
 * The store of an org's client texts. A new text counts toward the org's page bytes with its snapshots (`quota`):
 * the bytes of all new texts of one call are reserved together before any is stored, so a call past the cap stores
 * nothing; each is then put only if still absent, and one another call stored meanwhile gives its bytes back (the
 * same text counts once, as for snapshots).
 */
export function clientTextStore(bucket: R2Bucket, quota: SnapshotQuota): ClientTextStore {
  return {
    async save(orgId, texts) {
      const sha256s = await Promise.all(texts.map((text) => hashEvidence(text)));
      const distinct = new Map(sha256s.map((sha256, i) => [sha256, texts[i] ?? ""]));
      const absent = (
        await Promise.all([...distinct].map(async ([sha256, text]) => ((await bucket.head(clientTextKey(orgId, sha256))) ? null : { sha256, text, bytes: new TextEncoder().encode(text).byteLength })))
      ).filter((entry) => entry !== null);
      const reserved = absent.reduce((sum, entry) => sum + entry.bytes, 0);
      if (reserved > 0 && !(await quota.bytes.reserve(orgId, reserved, quota.cap))) {
        // No row to count on: the org's erasure ran since the call was admitted (it is not the cap that refused).
        if (!(await quota.bytes.open(orgId))) throw orgBeingErased(null);
        return { full: quota.cap };
      }
      const puts = await Promise.allSettled(
        absent.map((entry) => bucket.put(clientTextKey(orgId, entry.sha256), entry.text, { httpMetadata: { contentType: CLIENT_TEXT_CONTENT_TYPE }, onlyIf: { etagDoesNotMatch: "*" } })),
      );
      // Bytes reserved for an object this call did not create (stored meanwhile by another call, or a failed put) go back.
      const notCreated = puts.reduce((sum, put, i) => (put.status === "fulfilled" && put.value ? sum : sum + (absent[i]?.bytes ?? 0)), 0);
      if (notCreated > 0) await quota.bytes.release(orgId, notCreated);
      const failed = puts.find((put) => put.status === "rejected");
      if (failed) throw failed.reason;
      return { sha256s };
    },
    async get(orgId, sha256) {
      if (!/^[0-9a-f]{64}$/.test(sha256)) return null;
      const object = await bucket.get(clientTextKey(orgId, sha256));
      return object ? object.text() : null;
    },
    async remove(orgId, sha256s) {
      await bucket.delete(sha256s.map((sha256) => clientTextKey(orgId, sha256)));
    },
  };
}

/**
 * The verdict a source check records: Cairn's own, unless Cairn could not read the page and the assistant sent
 * the text it read, in which case the quote is checked against that text (basis client_text, saying so).
 */
export async function withClientText(
  cairns: SourceVerification,
  source: { quote: string | null; clientText: string | null },
  store: ClientTextStore,
  orgId: string,
  now: number,
): Promise<SourceVerification> {
  if (!source.clientText || !source.quote || !clientTextApplies(cairns, source.quote)) return cairns;
  const text = await store.get(orgId, source.clientText);
  return text === null ? cairns : judgeClientText(source.quote, text, cairns, now);
}
