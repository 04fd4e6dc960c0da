import { validationError } from "../errors";
import { hashEvidence } from "../research/ledger";
import { SOURCE_CHECK_LIMITS } from "../sources/verification";
import { MAX_TIME } from "./import-rules";

/**
 * A page snapshot in an org export: what Cairn read from one URL at one time (the object it keeps in R2 under
 * the org, content-addressed by the SHA-256 of its text). In an import it is caller input like every other
 * line: each field bounded, no field beyond these, and the hash recomputed before anything is stored. The
 * key an import stores it under is built from the importing org and the recomputed hash, never read from the file.
 */
export interface SnapshotRecord {
  type: "snapshot";
  sha256: string;
  url: string;
  finalUrl: string;
  status: number;
  contentType: string | null;
  title: string | null;
  fetchedAt: number;
  truncated: boolean;
  text: string;
}

/**
 * Characters of snapshot text an import takes: what a fetch's byte cap can give (each byte read decodes to at
 * most one character of visible text), so no snapshot Cairn kept is refused and none larger is stored.
 */
export const SNAPSHOT_TEXT_CHARS = SOURCE_CHECK_LIMITS.maxBytes;
const URL_CHARS = 8192;
const TITLE_CHARS = 10_000;
const SHA256 = /^[0-9a-f]{64}$/;
const HTTP_URL = /^https?:\/\/./i;

const FIELDS: ReadonlySet<string> = new Set(["type", "sha256", "url", "finalUrl", "status", "contentType", "title", "fetchedAt", "truncated", "text"]);

/** A snapshot line's shape, checked field by field (the hash is checked apart: `checkSnapshotHash`). */
export function parseSnapshotRecord(value: Record<string, unknown>, where: string): SnapshotRecord {
  const refuse = (field: string, message: string) => validationError(`${where}: snapshot field ${field} ${message}.`, [{ path: `${where.toLowerCase()}.${field}`, message }]);
  for (const field of Object.keys(value)) if (!FIELDS.has(field)) throw refuse(field.slice(0, 40), "is not a field of a snapshot (a snapshot names no key, org or place of its own)");
  const { sha256, url, finalUrl, status, contentType, title, fetchedAt, truncated, text } = value;
  if (typeof sha256 !== "string" || !SHA256.test(sha256)) throw refuse("sha256", "must be the SHA-256 of the text, 64 lowercase hex digits");
  for (const [field, cell] of [["url", url], ["finalUrl", finalUrl]] as const) {
    if (typeof cell !== "string" || cell.length > URL_CHARS || !HTTP_URL.test(cell)) throw refuse(field, `must be an http(s) URL of at most ${URL_CHARS} characters`);
  }
  if (typeof status !== "number" || !Number.isInteger(status) || status < 100 || status > 599) throw refuse("status", "must be an HTTP status (100 to 599)");
  if (contentType !== null && (typeof contentType !== "string" || contentType.length > 200)) throw refuse("contentType", "must be null or text of at most 200 characters");
  if (title !== null && (typeof title !== "string" || title.length > TITLE_CHARS)) throw refuse("title", `must be null or text of at most ${TITLE_CHARS} characters`);
  if (typeof fetchedAt !== "number" || !Number.isSafeInteger(fetchedAt) || fetchedAt < 0 || fetchedAt > MAX_TIME) throw refuse("fetchedAt", "must be a time (epoch milliseconds)");
  if (typeof truncated !== "boolean") throw refuse("truncated", "must be true or false");
  if (typeof text !== "string") throw refuse("text", "must be text");
  if (text.length > SNAPSHOT_TEXT_CHARS) {
    throw refuse("text", `must have at most ${SNAPSHOT_TEXT_CHARS} characters (what a fetch of ${SOURCE_CHECK_LIMITS.maxBytes} bytes can give); it has ${text.length}`);
  }
  return { type: "snapshot", sha256, url: url as string, finalUrl: finalUrl as string, status, contentType: contentType as string | null, title: title as string | null, fetchedAt, truncated, text };
}

/** Refuses a snapshot whose text does not hash to the SHA-256 it names: its key would not be its content's. */
export async function checkSnapshotHash(record: SnapshotRecord, line: number): Promise<void> {
  const actual = await hashEvidence(record.text);
  if (actual !== record.sha256) {
    throw validationError(`Line ${line}: the snapshot's text does not hash to its sha256 (its SHA-256 is ${actual}); a snapshot is stored under the hash of its text, so this one is refused.`, [
      { path: `line ${line}.sha256`, message: "Does not match the SHA-256 of the text" },
    ]);
  }
}

/** The snapshot as the org's R2 object holds it (the record less its line type). */
export function snapshotBody(record: SnapshotRecord): Omit<SnapshotRecord, "type"> {
  const { type: _type, ...body } = record;
  return body;
}
