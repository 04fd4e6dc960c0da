import { validationError } from "../../domain/errors";
import { checkClientTextHash, type ClientTextRecord } from "../../domain/org-data/client-text-records";
import type { ExportRecord, StoredRow } from "../../domain/org-data/format";
import { type CarriedClientText, type CarriedSnapshot, importedVerdict, namedClientText, namedSnapshot } from "../../domain/org-data/imported-verdicts";
import { checkSnapshotHash, type SnapshotRecord, snapshotBody } from "../../domain/org-data/snapshot-records";
import { prepareSnapshot } from "../../domain/sources/snapshot";
import type { Env } from "../../env";
import { CLIENT_TEXT_CONTENT_TYPE, clientTextKey, clientTextShaOf, clientTextsPrefix } from "../sources/client-texts";
import { d1SnapshotBytes } from "../../storage/snapshot-bytes";
import { homeDatabase } from "../org-homes";
import { type Snapshot, snapshotKey, snapshotsPrefix } from "../sources/snapshots";

/**
 * The org's objects in R2 that an export carries, and their import. Two kinds: the page snapshots its source
 * checks read (under `orgs/<orgId>/snapshots/`), and the texts assistants sent for pages Cairn could not read
 * (`client-texts/`: the org's data, and what its client_text verdicts were reached on). The URL entries beside
 * them (`urls/`) are not carried: they only spare a second fetch of a URL within the hour, and an import refetches
 * nothing it carries a verdict for.
 *
 * Another kind of object kept under the org's prefix is carried by adding, beside the snapshot's:
 * its export here (`exportOrgObjects`, before the rows that name its objects), its record type and parser
 * (src/domain/org-data/format.ts), and its import (a method like `importSnapshot`: bounded, content checked,
 * key built from the importing org, written through `putJournaled` so an undo or erasure takes it back).
 */

/** Objects listed per R2 page while exporting: one object's text at a time is held in memory. */
const LIST_PAGE = 100;

/** Every object of the org an export carries, as records, in key order. */
export async function* exportOrgObjects(env: Env, orgId: string): AsyncGenerator<ExportRecord> {
  let cursor: string | undefined;
  do {
    const page = await env.SOURCE_SNAPSHOTS.list({ prefix: snapshotsPrefix(orgId), limit: LIST_PAGE, ...(cursor ? { cursor } : {}) });
    for (const listed of page.objects) {
      const object = await env.SOURCE_SNAPSHOTS.get(listed.key);
      // Gone since the listing (an erasure, a consumer tidying up): nothing to carry.
      if (!object) continue;
      const s = await object.json<Snapshot>();
      yield {
        type: "snapshot",
        sha256: s.sha256,
        url: s.url,
        finalUrl: s.finalUrl,
        status: s.status,
        contentType: s.contentType,
        title: s.title,
        fetchedAt: s.fetchedAt,
        truncated: s.truncated,
        text: s.text,
      } satisfies SnapshotRecord;
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  yield* exportClientTexts(env, orgId);
}

async function* exportClientTexts(env: Env, orgId: string): AsyncGenerator<ClientTextRecord> {
  let cursor: string | undefined;
  do {
    const page = await env.SOURCE_SNAPSHOTS.list({ prefix: clientTextsPrefix(orgId), limit: LIST_PAGE, ...(cursor ? { cursor } : {}) });
    for (const listed of page.objects) {
      const sha256 = clientTextShaOf(listed.key);
      const object = sha256 ? await env.SOURCE_SNAPSHOTS.get(listed.key) : null;
      // Gone since the listing (an erasure), or not a text the org stored: nothing to carry.
      if (!sha256 || !object) continue;
      yield { type: "client_text", sha256, text: await object.text() };
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/**
 * What one import writes to R2 and how it judges the verdicts that name it. `journal` records a key before it is
 * put (the import journal), so a failed or dead import's objects are taken back with its rows.
 */
export class ImportedObjects {
  /** The snapshots this file carried so far (by hash): the line that carried each, and what the judge reads besides its text. */
  readonly #carried = new Map<string, { line: number; title: string | null; fetchedAt: number }>();
  /** The snapshot last judged against, prepared once for the sources that cite the same page. */
  #prepared: CarriedSnapshot | null = null;
  /** The client texts this file carried so far (by hash), and the line that carried each. */
  readonly #clientTexts = new Map<string, number>();
  /** The client text last judged against, prepared once. */
  #preparedText: CarriedClientText | null = null;

  constructor(
    private readonly env: Env,
    private readonly orgId: string,
    private readonly journal: (key: string) => Promise<void>,
  ) {}

  /** Stores a snapshot line's text under the importing org, by the hash of its text (recomputed). */
  async importSnapshot(record: SnapshotRecord, line: number): Promise<void> {
    await checkSnapshotHash(record, line);
    const earlier = this.#carried.get(record.sha256);
    if (earlier) throw validationError(`Line ${line}: line ${earlier.line} holds this snapshot already; each record appears once in an export.`);
    this.#carried.set(record.sha256, { line, title: record.title, fetchedAt: record.fetchedAt });
    const body = JSON.stringify(snapshotBody(record));
    // A snapshot the import stores counts toward the org's snapshot bytes (not capped: the import carries what the org had).
    if (await this.putJournaled(snapshotKey(this.orgId, record.sha256), body)) await d1SnapshotBytes(await homeDatabase(this.env, this.orgId)).add(this.orgId, new TextEncoder().encode(body).byteLength);
  }

  /** Stores a client text line's text under the importing org, by the hash of its text (recomputed). */
  async importClientText(record: ClientTextRecord, line: number): Promise<void> {
    await checkClientTextHash(record, line);
    const earlier = this.#clientTexts.get(record.sha256);
    if (earlier) throw validationError(`Line ${line}: line ${earlier} holds this client text already; each record appears once in an export.`);
    this.#clientTexts.set(record.sha256, line);
    // Counted with the org's page bytes as a snapshot is (not capped: the import carries what the org had).
    if (await this.putJournaled(clientTextKey(this.orgId, record.sha256), record.text, CLIENT_TEXT_CONTENT_TYPE)) {
      await d1SnapshotBytes(await homeDatabase(this.env, this.orgId)).add(this.orgId, new TextEncoder().encode(record.text).byteLength);
    }
  }

  /**
   * Puts an object under the org, journaled first. A key the org holds already is left alone and not journaled:
   * content-addressed, it holds the same text, and it is not the import's to take back. True when it put a new object.
   */
  private async putJournaled(key: string, body: string, contentType = "application/json"): Promise<boolean> {
    if (await this.env.SOURCE_SNAPSHOTS.head(key)) return false;
    await this.journal(key);
    await this.env.SOURCE_SNAPSHOTS.put(key, body, { httpMetadata: { contentType } });
    return true;
  }

  /**
   * The columns an evidence row is written with: its verdict judged again on the snapshot or client text it names,
   * and the client text it keeps (only one this file carried, stored under the importing org).
   */
  async verdictColumns(row: StoredRow, line: number): Promise<StoredRow> {
    const sha = namedSnapshot(row);
    // Only a snapshot an earlier line of this file carried is read, and only from the importing org's prefix.
    const snapshot = sha !== null && this.#carried.has(sha) ? await this.#snapshot(sha) : null;
    const textSha = namedClientText(row);
    const clientText = textSha !== null && this.#clientTexts.has(textSha) ? await this.#clientText(textSha) : null;
    return { ...importedVerdict(row, snapshot, line, clientText), client_text_sha256: clientText?.sha256 ?? null };
  }

  /** A carried client text, read back from the org's object (the hash of that text is its key). */
  async #clientText(sha: string): Promise<CarriedClientText | null> {
    if (this.#preparedText?.sha256 === sha) return this.#preparedText;
    const object = await this.env.SOURCE_SNAPSHOTS.get(clientTextKey(this.orgId, sha));
    if (!object) return null;
    this.#preparedText = { sha256: sha, text: prepareSnapshot(await object.text()) };
    return this.#preparedText;
  }

  /** The carried snapshot: its text read back from the org's object (the hash of that text is its key), the rest as the file carried it. */
  async #snapshot(sha: string): Promise<CarriedSnapshot | null> {
    if (this.#prepared?.sha256 === sha) return this.#prepared;
    const carried = this.#carried.get(sha);
    const object = await this.env.SOURCE_SNAPSHOTS.get(snapshotKey(this.orgId, sha));
    if (!carried || !object) return null;
    const stored = await object.json<Snapshot>();
    this.#prepared = { sha256: sha, title: carried.title, text: prepareSnapshot(stored.text), fetchedAt: carried.fetchedAt };
    return this.#prepared;
  }
}
