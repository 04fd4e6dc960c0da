/**
 * What every download of a deliverable shares, whatever its file format: the formats, the list of the sources it
 * cites with what Cairn found on each, its Markdown with that list, and a file name no title can turn into a header
 * of its own. Pure: the faces load the deliverable and its sources; the files are built in src/web/downloads.
 */
import { validationError } from "../errors";
import { unreachableKind, type SourceVerification } from "../sources/verification";
import type { ResearchOutput } from "./outputs";

export const DOWNLOAD_FORMATS = ["md", "html", "docx"] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

/** The media type each download is sent as. */
export const DOWNLOAD_CONTENT_TYPES: Record<DownloadFormat, string> = {
  md: "text/markdown; charset=utf-8",
  html: "text/html; charset=utf-8",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

/** The `format` a caller asked for, or a validation error naming the ones there are. */
export function parseDownloadFormat(value: string | null | undefined): DownloadFormat {
  if (value !== null && value !== undefined && (DOWNLOAD_FORMATS as readonly string[]).includes(value)) return value as DownloadFormat;
  const shown = value === null || value === undefined || value === "" ? "no format" : `"${value.slice(0, 20)}"`;
  throw validationError(`Download format must be md, html or docx; got ${shown}.`, [{ path: "format", message: "One of md, html, docx" }]);
}

/** One source a deliverable cites, as a download lists it (a public view's source, public-view.ts, is one). */
export interface DownloadSource {
  /** The ledger's ref (E3), or null for a citation the plan's ledger does not hold. */
  ref: string | null;
  title: string;
  url: string | null;
  /** What Cairn found on the page; null for a citation that was never recorded as a source, so never checked. */
  verification: Pick<SourceVerification, "status" | "reason" | "checkedAt"> | null;
}

/** The status as a reader of the file sees it: `verified`, `partial`, `not_found`, `unreachable (dead)`, `unchecked`. */
export function sourceStatusText(verification: DownloadSource["verification"]): string {
  if (!verification) return "unchecked (not a recorded source)";
  if (verification.status === "unreachable") return `unreachable (${unreachableKind(verification.reason)})`;
  return verification.status;
}

/** When the page was last read, to the minute in UTC, or that it has not been. */
export function checkedText(verification: DownloadSource["verification"]): string {
  const at = verification?.checkedAt ?? null;
  return at === null ? "not checked yet" : `checked ${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Markdown's own characters in a title, escaped so the title reads as written. */
const escapeMarkdown = (text: string) => text.replace(/[\\`*_[\]<>#|~]/g, "\\$&").replace(/\s+/g, " ");

/** A URL in angle brackets (an autolink), with what would end one early encoded. */
const autolink = (url: string) => `<${url.replace(/[\s<>]/g, (c) => encodeURIComponent(c))}>`;

/** The Sources list appended to a download's Markdown. */
export function sourcesMarkdown(sources: readonly DownloadSource[]): string {
  if (sources.length === 0) return "## Sources\n\nThis deliverable cites no sources.\n";
  const lines = sources.map((source, i) => {
    const ref = source.ref ? `[${source.ref}] ` : "";
    const url = source.url ? ` — ${autolink(source.url)}` : "";
    return `${i + 1}. ${ref}${escapeMarkdown(source.title)}${url} — ${sourceStatusText(source.verification)}, ${checkedText(source.verification)}`;
  });
  return `## Sources\n\n${lines.join("\n")}\n`;
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

/**
 * The deliverable as one Markdown file: its Markdown as written (any other media type as a fenced block under its
 * title), then its Sources.
 */
export function markdownDownload(output: Pick<ResearchOutput, "title" | "mediaType" | "content">, sources: readonly DownloadSource[]): string {
  let body: string;
  if (output.mediaType === "markdown") {
    body = output.content.replace(/\s+$/, "");
  } else {
    const fence = fenceFor(output.content);
    body = `# ${escapeMarkdown(output.title)}\n\n${fence}${output.mediaType === "other" ? "" : output.mediaType}\n${output.content.replace(/\n$/, "")}\n${fence}`;
  }
  return `${body}\n\n${sourcesMarkdown(sources)}`;
}

const FILENAME_CHARS = 80;

/**
 * A file name from the title: no path separators, quotes, control or other characters file systems refuse, runs of
 * space collapsed, at most 80 characters, never empty. `ascii` is the same with only printable ASCII, for the
 * `filename` parameter of clients that do not read `filename*`.
 */
export function downloadFilename(title: string, format: DownloadFormat): { utf8: string; ascii: string } {
  const base = title
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/[\\/:*?"<>|;,%]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, "");
  const utf8 = [...base].slice(0, FILENAME_CHARS).join("").trim() || "deliverable";
  const ascii =
    utf8
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^\x20-\x7e]/g, "_")
      .replace(/[\\"]/g, "_")
      .replace(/_+/g, "_")
      .trim() || "deliverable";
  return { utf8: `${utf8}.${format}`, ascii: `${ascii}.${format}` };
}

/** RFC 5987 attr-chars pass; every other byte of the UTF-8 name is percent-encoded. */
const encodeRfc5987 = (value: string) => encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `Content-Disposition` for a download (RFC 6266): an ASCII `filename` and the exact name as `filename*`. */
export function contentDisposition(title: string, format: DownloadFormat): string {
  const { utf8, ascii } = downloadFilename(title, format);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(utf8)}`;
}
