import { validationError } from "../errors";
import { hashEvidence } from "../research/ledger";
import { SOURCE_CHECK_LIMITS } from "../sources/verification";

/**
 * A text an assistant sent for a page Cairn could not read (record_evidence's sourceText), in an org export. It
 * is the org's data, so an export carries it, before the evidence rows that name it (`client_text_sha256`). In an
 * import it is caller input like every other line: only these fields, the text held to the bound record_evidence
 * holds it to, its hash recomputed before it is stored, and the key it is stored under built from the importing
 * org and that hash, never read from the file.
 */
export interface ClientTextRecord {
  type: "client_text";
  sha256: string;
  text: string;
}

/** Characters of a client text an import takes: what record_evidence takes. */
export const CLIENT_TEXT_CHARS = SOURCE_CHECK_LIMITS.clientTextChars;
const SHA256 = /^[0-9a-f]{64}$/;
const FIELDS: ReadonlySet<string> = new Set(["type", "sha256", "text"]);

/** A client_text line's shape, checked field by field (the hash is checked apart: `checkClientTextHash`). */
export function parseClientTextRecord(value: Record<string, unknown>, where: string): ClientTextRecord {
  const refuse = (field: string, message: string) => validationError(`${where}: client_text field ${field} ${message}.`, [{ path: `${where.toLowerCase()}.${field}`, message }]);
  for (const field of Object.keys(value)) if (!FIELDS.has(field)) throw refuse(field.slice(0, 40), "is not a field of a client text (a client text names no key, org or place of its own)");
  const { sha256, text } = value;
  if (typeof sha256 !== "string" || !SHA256.test(sha256)) throw refuse("sha256", "must be the SHA-256 of the text, 64 lowercase hex digits");
  if (typeof text !== "string" || text.length === 0) throw refuse("text", "must be text");
  if (text.length > CLIENT_TEXT_CHARS) throw refuse("text", `must have at most ${CLIENT_TEXT_CHARS} characters (what record_evidence takes as sourceText); it has ${text.length}`);
  return { type: "client_text", sha256, text };
}

/** Refuses a client text that does not hash to the SHA-256 it names: its key would not be its content's. */
export async function checkClientTextHash(record: ClientTextRecord, line: number): Promise<void> {
  const actual = await hashEvidence(record.text);
  if (actual !== record.sha256) {
    throw validationError(`Line ${line}: the client text does not hash to its sha256 (its SHA-256 is ${actual}); a client text is stored under the hash of its text, so this one is refused.`, [
      { path: `line ${line}.sha256`, message: "Does not match the SHA-256 of the text" },
    ]);
  }
}
