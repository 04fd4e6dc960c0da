import type { ClientTextStore } from "../../domain/ports";
import { hashEvidence } from "../../domain/research/ledger";
import { clientTextApplies, judgeClientText, type SourceVerification } from "../../domain/sources/verification";
import { orgPrefix } from "./snapshots";

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

export function clientTextStore(bucket: R2Bucket): ClientTextStore {
  return {
    async save(orgId, text) {
      const sha256 = await hashEvidence(text);
      await bucket.put(clientTextKey(orgId, sha256), text, { httpMetadata: { contentType: CLIENT_TEXT_CONTENT_TYPE } });
      return sha256;
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
