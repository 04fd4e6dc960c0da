/**
 * What every download of a deliverable shares, whatever its file format: the formats, the list of the sources it
 * cites with what Cairn found on each, its Markdown with that list, and a file name no title can turn into a header
 * of its own. Pure: the faces load the deliverable and its sources; the files are built in src/web/downloads.
 */
import { validationError } from "../errors";
import { verificationInWords } from "../sources/status-words";
import type { SourceVerification } from "../sources/verification";
import type { ResearchOutput } from "./outputs";

export const DOWNLOAD_FORMATS = ["md", "html", "docx", "pdf"] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

/** The media type each download is sent as. */
export const DOWNLOAD_CONTENT_TYPES: Record<DownloadFormat, string> = {
  md: "text/markdown; charset=utf-8",
  html: "text/html; charset=utf-8",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pdf: "application/pdf",
};

/** The `format` a caller asked for, or a validation error naming the ones there are. */
export function parseDownloadFormat(value: string | null | undefined): DownloadFormat {
  if (value !== null && value !== undefined && (DOWNLOAD_FORMATS as readonly string[]).includes(value)) return value as DownloadFormat;
  const shown = value === null || value === undefined || value === "" ? "no format" : `"${value.slice(0, 20)}"`;
  throw validationError(`Download format must be md, html, docx or pdf; got ${shown}.`, [{ path: "format", message: "One of md, html, docx, pdf" }]);
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

/** The status as a reader of the file sees it, in words: "not verified (quote not found on the page)", never `not_found`. */
export const sourceStatusText = (verification: DownloadSource["verification"]): string => verificationInWords(verification);

/** When the page was last read, to the minute in UTC, or that it has not been. */
export function checkedText(verification: DownloadSource["verification"]): string {
  const at = verification?.checkedAt ?? null;
  return at === null ? "not checked yet" : `checked ${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Markdown's own characters in a title, escaped so the title reads as written. */
const escapeMarkdown = (text: string) => text.replace(/[\\`*_[\]<>#|~]/g, "\\$&").replace(/\s+/g, " ");

/** A URL in angle brackets (an autolink), with what would end one early encoded. */
const autolink = (url: string) => `<${url.replace(/[\s<>]/g, (c) => encodeURIComponent(c))}>`;

/** The heading of the sources section every download ends with, and what it says when it lists none. */
export interface SourcesSection {
  title: string;
  none: string;
}

const SOURCES: SourcesSection = { title: "Sources", none: "This deliverable cites no sources." };
/** Beside a deliverable's own list of sources: Cairn's section is its checks of them, not a second "Sources". */
const SOURCE_CHECKS: SourcesSection = { title: "Source checks", none: "None of the sources this deliverable cites is a recorded source, so Cairn checked none." };

/** A heading's text that names a list of sources: "Sources", "References", "5. Works cited", "**Bibliography:**". */
const SOURCES_HEADING = /^(?:sources?|references?|bibliography|works cited|citations|(?:source|reference) list|sources and references|references and sources|sources cited|references cited)$/;
const ATX_HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

const namesSources = (heading: string) =>
  SOURCES_HEADING.test(
    heading
      .replace(/[*_`]/g, "")
      .replace(/^\d+(?:\.\d+)*\.?\s+/, "")
      .replace(/[\s:.]+$/, "")
      .trim()
      .toLowerCase(),
  );

/** Whether the deliverable's Markdown has a heading of its own for its sources (outside code blocks). */
export function hasOwnSourcesHeading(output: Pick<ResearchOutput, "mediaType" | "content">): boolean {
  if (output.mediaType !== "markdown") return false;
  let fence: string | null = null;
  let previous = "";
  for (const line of output.content.split(/\r?\n/)) {
    const opener = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = null;
      previous = "";
      continue;
    }
    if (opener) {
      fence = opener;
      previous = "";
      continue;
    }
    const atx = ATX_HEADING.exec(line)?.[1];
    if (atx !== undefined && namesSources(atx)) return true;
    if (SETEXT_UNDERLINE.test(line) && previous.trim() !== "" && !/^ {0,3}[-*+>#]/.test(previous) && namesSources(previous)) return true;
    previous = line;
  }
  return false;
}

/**
 * Cairn's sources section of a download: "Sources", or "Source checks" when the deliverable already ends in (or
 * holds) a Sources or References heading of its own, so a file never carries two "Sources".
 */
export const sourcesSectionOf = (output: Pick<ResearchOutput, "mediaType" | "content">): SourcesSection => (hasOwnSourcesHeading(output) ? SOURCE_CHECKS : SOURCES);

/** The sources section appended to a download's Markdown. */
export function sourcesMarkdown(sources: readonly DownloadSource[], section: SourcesSection = SOURCES): string {
  if (sources.length === 0) return `## ${section.title}\n\n${section.none}\n`;
  const lines = sources.map((source, i) => {
    const ref = source.ref ? `[${source.ref}] ` : "";
    const url = source.url ? ` — ${autolink(source.url)}` : "";
    return `${i + 1}. ${ref}${escapeMarkdown(source.title)}${url} — ${sourceStatusText(source.verification)}, ${checkedText(source.verification)}`;
  });
  return `## ${section.title}\n\n${lines.join("\n")}\n`;
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

/**
 * The deliverable as one Markdown file: its Markdown as written (any other media type as a fenced block under its
 * title), then its sources section (sourcesSectionOf).
 */
export function markdownDownload(output: Pick<ResearchOutput, "title" | "mediaType" | "content">, sources: readonly DownloadSource[]): string {
  let body: string;
  if (output.mediaType === "markdown") {
    body = output.content.replace(/\s+$/, "");
  } else {
    const fence = fenceFor(output.content);
    body = `# ${escapeMarkdown(output.title)}\n\n${fence}${output.mediaType === "other" ? "" : output.mediaType}\n${output.content.replace(/\n$/, "")}\n${fence}`;
  }
  return `${body}\n\n${sourcesMarkdown(sources, sourcesSectionOf(output))}`;
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
