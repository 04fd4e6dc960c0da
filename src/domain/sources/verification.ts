/**
 * What Cairn concluded about one recorded source after fetching it: whether the page says the quoted
 * words (not whether the page is right). Pure: the queue consumer fetches, this module decides.
 */
import type { QuoteEdit } from "./brackets";
import { matchQuote, type PreparedSnapshot, type QuoteMatch } from "./quote-match";
import { SNAPSHOTS_FULL } from "./snapshot-quota";
import { matchTitle } from "./title-match";

export const VERIFICATION_STATUSES = ["pending", "verified", "partial", "not_found", "unreachable", "unchecked"] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export interface SourceVerification {
  status: VerificationStatus;
  /** Why a source is unreachable or unchecked (or, for partial and not_found, what the matcher said). Cairn's own words. */
  reason: string | null;
  /** 1 when verified; the similarity of the closest passage otherwise; null when nothing was compared. */
  score: number | null;
  /** Where the quote stands (verified) or the closest passage (partial): the page's text, untrusted. */
  passage: string | null;
  /**
   * "fetched": Cairn read the page itself. "client_text": Cairn could not read it (unreachable, or content it
   * cannot read) and checked the quote against the text the assistant supplied (sourceText): never Cairn's reading.
   */
  basis: "fetched" | "client_text" | null;
  /** The page's title shares too few words with the recorded title (a wrong link, or the wrong page of a site). */
  titleMismatch: boolean | null;
  /** The content-addressed snapshot the verdict was reached on (its SHA-256). */
  snapshot: string | null;
  checkedAt: number | null;
  /**
   * Each bracket of the quote with the page words it stands for (`replaces`: the page's text, untrusted), when the
   * quote was placed on the page (verified, or partial because a bracket says what those words do not). Absent or
   * null for verdicts that placed no quote, and for those reached before brackets were listed.
   */
  edits?: QuoteEdit[] | null;
}

export const SOURCE_CHECK_LIMITS = {
  /** Redirects followed, each re-checked against the outbound-address guard. */
  maxRedirects: 5,
  /** The whole fetch, redirects and body included. */
  timeoutMs: 15_000,
  /** Bytes of body read; the rest of a longer page is not read (the check runs on what was). */
  maxBytes: 2 * 1024 * 1024,
  /** A snapshot of the same URL this recent is reused instead of fetching again. */
  reuseWindowMs: 60 * 60 * 1000,
  /** Passage text kept on the evidence row. */
  passageChars: 500,
  /** Brackets listed with a verdict (`edits`), and the characters kept of each bracket and of the page words it stands for. */
  editsListed: 40,
  editChars: 200,
  /** A source pending longer than this is checked again when a deliverable needs it (its message was lost). */
  stalePendingMs: 10 * 60 * 1000,
  /**
   * The longest a source stays pending: every check ends in a verdict (unchecked, with why, when it fails), and the
   * pending sweep gives up on one whose check was lost (check-scheduling.ts).
   */
  pendingMaxMs: 15 * 60 * 1000,
  /** What a strict deliverable waiting for checks is told to wait. */
  pendingRetrySeconds: 30,
  /** Longest text an assistant may send for a page Cairn cannot read (record_evidence's sourceText). */
  clientTextChars: 100_000,
  /** Default per-org checks (SOURCE_CHECKS_PER_MINUTE, SOURCE_CHECKS_PER_DAY). */
  perMinute: 300,
  perDay: 5_000,
} as const;

/** A verdict's stored edits (JSON), or null when the row holds none (or something else: a list must never fail on one row). */
export function editsOf(text: string | null): QuoteEdit[] | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return null;
    return value.flatMap((edit: unknown) => {
      const { bracket, replaces } = (edit ?? {}) as Record<string, unknown>;
      return typeof bracket === "string" && typeof replaces === "string" ? [{ bracket, replaces }] : [];
    });
  } catch {
    return null;
  }
}

/** The edits as an evidence row stores them (JSON), null for none. */
export const storedEdits = (edits: readonly QuoteEdit[] | null | undefined): string | null => (edits ? JSON.stringify(edits) : null);

/** A source with no verdict (recorded before verification existed, or imported): read as unchecked. */
export const NOT_RECORDED_FOR_CHECK = "not checked: recorded before source verification, or imported";

export const PENDING: SourceVerification = { status: "pending", reason: null, score: null, passage: null, basis: null, titleMismatch: null, snapshot: null, checkedAt: null };

/** What kind of text a response carries, from its Content-Type (a PDF's text layer included). */
export type ReadableKind = "html" | "text" | "markdown" | "json" | "pdf";

/** Whether a body opens as a PDF: `%PDF-` within its first 1,024 bytes (where readers look for it). */
function opensAsPdf(head: Uint8Array): boolean {
  const start = new TextDecoder("latin1").decode(head.subarray(0, 1024));
  return start.includes("%PDF-");
}

/**
 * The kind of a body by its Content-Type; a body served as generic bytes (`application/octet-stream`, or
 * no type) that opens as a PDF is read as one, as file servers often label PDFs so.
 */
export function readableKind(contentType: string | null, head: Uint8Array = new Uint8Array()): ReadableKind | { unchecked: string } {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if ((type === "" || type === "application/octet-stream" || type === "binary/octet-stream") && opensAsPdf(head)) return "pdf";
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "text/markdown" || type === "text/x-markdown") return "markdown";
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type === "text/plain" || type === "") return "text";
  if (type === "application/pdf" || type === "application/x-pdf") return "pdf";
  return { unchecked: `content type ${type.slice(0, 80)} is not read` };
}

/**
 * Why an HTTP error status kept Cairn from the page, by its stable code (see UNREACHABLE_KINDS): 404 and 410 say the
 * page does not exist (dead); 401, 403, 429 and 503 are what bot walls, paywalls and rate limits answer, so the page
 * may well be live (walled), never called dead; any other status is an HTTP error.
 */
export function httpFailureReason(status: number): string {
  if (status === 404) return "dead: HTTP 404 (the page does not exist)";
  if (status === 410) return "dead: HTTP 410 (the page is gone)";
  if (status === 401 || status === 403 || status === 429 || status === 503) return `walled: HTTP ${status} (a bot wall, paywall or rate limit)`;
  return `http_error: HTTP ${status}`;
}

/**
 * Why a page could not be read, as a stable code: the text before the first ": " of an unreachable verdict's reason
 * (`dead: HTTP 404 …`). Two kinds matter to a reader of a report:
 * - `dead`: the page does not exist (404 or 410, a host name that does not resolve, a redirect ending in either):
 *   what a made-up URL looks like;
 * - everything else: the page may be live but kept from Cairn — `walled` (401, 403, 429, 503: a bot wall, paywall or
 *   rate limit), `timeout`, `connection` (TLS or connection errors, a host that does not answer), `refused` (an
 *   address the outbound guard, the deployment or the org's source policy refused, at any hop), `http_error` (any
 *   other HTTP error, too many redirects).
 */
export const UNREACHABLE_KINDS = ["dead", "walled", "timeout", "connection", "refused", "http_error"] as const;
export type UnreachableKind = (typeof UNREACHABLE_KINDS)[number];

/**
 * The kind of an unreachable verdict's reason. Reasons stored before the codes existed are read by their old
 * spellings ("HTTP error: 404", "blocked: HTTP 403 (…)", "DNS or connection: …", "blocked: the address was refused …"),
 * so a verdict keeps its meaning without being checked again.
 */
export function unreachableKind(reason: string | null): UnreachableKind {
  const text = reason ?? "";
  const code = text.slice(0, Math.max(0, text.indexOf(": ")));
  if ((UNREACHABLE_KINDS as readonly string[]).includes(code)) return code as UnreachableKind;
  if (/^HTTP error: (404|410)\b/.test(text)) return "dead";
  if (/^blocked: HTTP \d{3} /.test(text)) return "walled";
  if (text.startsWith("blocked: ")) return "refused";
  if (text.startsWith("DNS or connection: ")) return "connection";
  return "http_error";
}

/** Whether a verdict says the cited page does not exist (a dead URL): under strict it counts as a failed check. */
export const isDeadSource = (verification: Pick<SourceVerification, "status" | "reason">): boolean =>
  verification.status === "unreachable" && unreachableKind(verification.reason) === "dead";

/** Fetch outcomes that end in no page. */
export const unreachable = (reason: string, checkedAt: number): SourceVerification => ({
  status: "unreachable",
  reason,
  score: null,
  passage: null,
  basis: "fetched",
  titleMismatch: null,
  snapshot: null,
  checkedAt,
});

export const unchecked = (reason: string, checkedAt: number, snapshot: string | null = null, titleMismatch: boolean | null = null): SourceVerification => ({
  status: "unchecked",
  reason,
  score: null,
  passage: null,
  basis: "fetched",
  titleMismatch,
  snapshot,
  checkedAt,
});

const clippedTo = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars)}…` : text);
const clipped = (text: string) => clippedTo(text, SOURCE_CHECK_LIMITS.passageChars);

/** The edits kept with a verdict: bounded in number and length (a quote may hold many brackets). */
const keptEdits = (edits: readonly QuoteEdit[]): QuoteEdit[] =>
  edits
    .slice(0, SOURCE_CHECK_LIMITS.editsListed)
    .map((edit) => ({ bracket: clippedTo(edit.bracket, SOURCE_CHECK_LIMITS.editChars), replaces: clippedTo(edit.replaces, SOURCE_CHECK_LIMITS.editChars) }));

/** A quote match as a verdict on the given basis. */
function verdictOf(match: QuoteMatch, basis: "fetched" | "client_text", extra: { reason?: string; titleMismatch: boolean | null; snapshot: string | null }, checkedAt: number): SourceVerification {
  const own = match.status === "verified" ? null : (match.reason ?? null);
  return {
    status: match.status,
    reason: extra.reason ? (own ? `${extra.reason}; ${own}` : extra.reason) : own,
    score: match.status === "unchecked" ? null : match.score,
    passage: match.passage && (match.status === "verified" || match.status === "partial") ? clipped(match.passage.text) : null,
    basis,
    titleMismatch: extra.titleMismatch,
    snapshot: extra.snapshot,
    checkedAt,
    edits: match.edits && (match.status === "verified" || match.status === "partial") ? keptEdits(match.edits) : null,
  };
}

/** The verdict on a fetched page: the quote matched against its visible text, the recorded title against its title. */
export function judgeSource(
  source: { quote: string | null; title: string },
  page: { text: string | PreparedSnapshot; title: string | null; snapshot: string },
  checkedAt: number,
): SourceVerification {
  const titleMismatch = page.title ? matchTitle(page.title, source.title).level === "low" : null;
  if (!source.quote?.trim()) return unchecked("no quote was recorded to check", checkedAt, page.snapshot, titleMismatch);
  return verdictOf(matchQuote(source.quote, page.text), "fetched", { titleMismatch, snapshot: page.snapshot }, checkedAt);
}

/**
 * Fetch failures that say a page is there but kept from Cairn: a bot wall, paywall or rate limit (the statuses
 * httpFailureReason calls walled) or a server too slow to answer. Not a name that does not resolve, a 404 or other
 * HTTP error, or an address the guard refused: text sent for a page that may not exist verifies nothing.
 */
const WALLED: ReadonlySet<UnreachableKind> = new Set(["walled", "timeout"]);

/**
 * Whether the text the assistant supplied may stand in for Cairn's reading: only when Cairn could not read the page
 * though it is there (walled, or too slow), or read it but cannot read its kind of content (a PDF), and there is a
 * quote to look for. Not when Cairn read the page but could keep no copy (the org's snapshots are full). A page Cairn did read decides by itself, whatever the assistant's text says.
 */
export const clientTextApplies = (cairns: SourceVerification, quote: string | null): boolean =>
  ((cairns.status === "unreachable" && WALLED.has(unreachableKind(cairns.reason))) ||
    (cairns.status === "unchecked" && cairns.snapshot === null && !cairns.reason?.startsWith(SNAPSHOTS_FULL))) &&
  Boolean(quote?.trim());

/**
 * The verdict on the text the assistant supplied for a page Cairn could not read: basis client_text, and a reason
 * saying so (with why Cairn could not read the page), so no face presents it as Cairn's own reading.
 */
export function judgeClientText(
  quote: string,
  text: string | PreparedSnapshot,
  cairns: Pick<SourceVerification, "status" | "reason">,
  checkedAt: number,
): SourceVerification {
  const reason = `${CLIENT_TEXT_REASON}${cairns.reason ?? cairns.status})`;
  return verdictOf(matchQuote(quote, text), "client_text", { reason, titleMismatch: null, snapshot: null }, checkedAt);
}

const CLIENT_TEXT_REASON = "checked against text the assistant supplied, not a page Cairn read (Cairn's fetch: ";
/** Characters of Cairn's fetch reason taken back from a verdict's reason (its own are far shorter). */
const FETCH_REASON_CHARS = 500;

/**
 * Why Cairn could not read the page, as a verdict on the assistant's text states it (`judgeClientText`'s reason),
 * or null when the reason is not one it gives. What follows the fetch reason (the matcher's own words) is left out:
 * an import judges the text again and states them afresh.
 */
export function fetchReasonOf(reason: string | null): string | null {
  if (!reason?.startsWith(CLIENT_TEXT_REASON)) return null;
  const rest = reason.slice(CLIENT_TEXT_REASON.length);
  // Cairn's fetch reasons hold no "); " (the matcher's words follow one), and may end in a ")" of their own.
  const end = rest.indexOf("); ");
  const fetch = end >= 0 ? rest.slice(0, end) : rest.endsWith(")") ? rest.slice(0, -1) : "";
  return fetch.trim() ? fetch.slice(0, FETCH_REASON_CHARS) : null;
}

/** Per-org check limits: null when `requested` more checks fit, else the refusal and when to retry. */
export function checkBudget(
  used: { lastMinute: number; lastDay: number },
  requested: number,
  limits: { perMinute: number; perDay: number },
): { message: string; retryAfterSeconds: number } | null {
  if (requested === 0) return null;
  if (used.lastDay + requested > limits.perDay) {
    return { message: `Your organization's source checks for the last 24 hours are used up (${limits.perDay}); record these sources later.`, retryAfterSeconds: 3600 };
  }
  if (used.lastMinute + requested > limits.perMinute) {
    return { message: `Your organization records at most ${limits.perMinute} sources a minute for checking; wait a minute and record these again.`, retryAfterSeconds: 60 };
  }
  return null;
}
