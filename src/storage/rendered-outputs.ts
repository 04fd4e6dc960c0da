import type { D1Queries } from "./database";

/** What a deliverable version's Markdown rendered to: HTML (its refs not yet linked), or shown as its text and why. */
export type RenderedMarkdown = { kind: "html"; html: string } | { kind: "text"; note: string };

/** Which render of which text: the deliverable version, the renderer that made it, and the hash of the Markdown. */
export interface RenderKey {
  orgId: string;
  outputId: string;
  version: number;
  renderer: number;
  contentSha256: string;
}

interface Row {
  kind: string;
  html: string | null;
  note: string | null;
}

/**
 * Deliverables rendered once per version (migration 0028). A row is served only for the text it was rendered from
 * (its hash), so a version id met again with other text (an import taken back and run anew) renders anew.
 */
export function d1RenderedOutputs(db: D1Queries) {
  return {
    async get(key: RenderKey): Promise<RenderedMarkdown | null> {
      const row = await db
        .prepare("SELECT kind, html, note FROM rendered_outputs WHERE org_id = ? AND output_id = ? AND version = ? AND renderer = ? AND content_sha256 = ?")
        .bind(key.orgId, key.outputId, key.version, key.renderer, key.contentSha256)
        .first<Row>();
      if (!row) return null;
      if (row.kind === "html" && row.html !== null) return { kind: "html", html: row.html };
      if (row.kind === "text") return { kind: "text", note: row.note ?? "" };
      return null;
    },

    /** Keeps a render; the deliverable's renders of other versions or by another renderer go (only the current one is shown). */
    async put(key: RenderKey, rendered: RenderedMarkdown, now: number): Promise<void> {
      await db.batch([
        db.prepare("DELETE FROM rendered_outputs WHERE org_id = ? AND output_id = ? AND (version <> ? OR renderer <> ?)").bind(key.orgId, key.outputId, key.version, key.renderer),
        db
          .prepare(
            `INSERT OR REPLACE INTO rendered_outputs (org_id, output_id, version, renderer, content_sha256, kind, html, note, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .bind(
            key.orgId,
            key.outputId,
            key.version,
            key.renderer,
            key.contentSha256,
            rendered.kind,
            rendered.kind === "html" ? rendered.html : null,
            rendered.kind === "text" ? rendered.note : null,
            now,
          ),
      ]);
    },
  };
}

/** Which file of which state: the deliverable version, the renderer that made it, and the hash of all the file shows. */
export interface RenderedFileKey {
  orgId: string;
  outputId: string;
  format: string;
  version: number;
  renderer: number;
  stateSha256: string;
}

/** D1 refuses a row past 2 MB: a file larger than this is made at each download rather than kept (a rare, huge deliverable). */
export const MAX_KEPT_FILE_BYTES = 1_900_000;

/**
 * Deliverables' files rendered once (migration 0035): one row per deliverable and format, served only for the state
 * it was made from, replaced when a newer state is rendered.
 */
export function d1RenderedFiles(db: D1Queries) {
  return {
    async get(key: RenderedFileKey): Promise<Uint8Array | null> {
      const row = await db
        .prepare("SELECT body FROM rendered_files WHERE org_id = ? AND output_id = ? AND format = ? AND version = ? AND renderer = ? AND state_sha256 = ?")
        .bind(key.orgId, key.outputId, key.format, key.version, key.renderer, key.stateSha256)
        .first<{ body: ArrayBuffer | number[] }>();
      if (!row) return null;
      return row.body instanceof ArrayBuffer ? new Uint8Array(row.body) : Uint8Array.from(row.body);
    },

    /** Keeps a file (false, and nothing kept, past MAX_KEPT_FILE_BYTES); the deliverable's file of this format made from another state goes. */
    async put(key: RenderedFileKey, body: Uint8Array, now: number): Promise<boolean> {
      if (body.byteLength > MAX_KEPT_FILE_BYTES) return false;
      await db
        .prepare(
          `INSERT OR REPLACE INTO rendered_files (org_id, output_id, format, version, renderer, state_sha256, body, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(key.orgId, key.outputId, key.format, key.version, key.renderer, key.stateSha256, body, now)
        .run();
      return true;
    },
  };
}
