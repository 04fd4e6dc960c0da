/**
 * A deliverable downloaded from the operator CLI: the Worker's GET /api/v1/outputs/{id}/download (research:read),
 * with the same temporary admin key and the same Worker (--url, the deployment with --remote, or a local wrangler
 * dev) as the webhook and source commands.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { callWorker } from "./worker-call.mjs";
import { UsageError } from "./wrangler.mjs";

export const DOWNLOAD_FORMATS = ["md", "html", "docx", "pdf"];

/** The file name the Worker gave (RFC 6266 filename*, else filename), reduced to a name: never a path. */
function filenameOf(disposition, fallback) {
  const extended = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition ?? "");
  const plain = /filename="([^"]*)"/i.exec(disposition ?? "");
  let name = fallback;
  try {
    name = extended ? decodeURIComponent(extended[1]) : (plain?.[1] ?? fallback);
  } catch {
    name = plain?.[1] ?? fallback;
  }
  return path.basename(name.replace(/[\\/]/g, " ")) || fallback;
}

/**
 * Writes the deliverable `outputId` of the org as `format` to `out` (default: the file name the Worker gives, in
 * the current directory).
 * @returns {Promise<{ file: string, bytes: number, contentType: string }>}
 */
export async function downloadOutput({ outputId, format = "md", out, ...options }) {
  if (!outputId) throw new UsageError("Name the deliverable: outputs download OUTPUT_ID --org SLUG.");
  if (!DOWNLOAD_FORMATS.includes(format)) throw new UsageError(`--format must be md, html, docx or pdf (got "${String(format).slice(0, 20)}").`);
  return callWorker(options, {
    what: "outputs download",
    path: `/outputs/${encodeURIComponent(outputId)}/download?format=${format}`,
    read: async (response) => {
      const bytes = new Uint8Array(await response.arrayBuffer());
      const file = path.resolve(out ?? filenameOf(response.headers.get("content-disposition"), `${outputId}.${format}`));
      writeFileSync(file, bytes);
      return { file, bytes: bytes.byteLength, contentType: response.headers.get("content-type") ?? "" };
    },
  });
}
