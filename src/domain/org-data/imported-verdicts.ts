import { validationError } from "../errors";
import type { PreparedSnapshot } from "../sources/quote-match";
import { fetchReasonOf, judgeClientText, judgeSource, type SourceVerification, storedEdits, type VerificationStatus } from "../sources/verification";
import type { ScalarValue, StoredRow } from "./format";

/**
 * A source's verdict arriving in an import file. A verdict is Cairn's own finding from reading the page, so a
 * file's is never simply taken: one reached on a page (verified, partial, not_found, or unchecked with a snapshot)
 * must name a snapshot the same file carries, and is judged again on that snapshot's text with the same pure
 * judge the source check uses; what is stored is that judgement. A file claiming more than the judge finds (a
 * `verified` whose snapshot does not hold the quote, a `partial` the judge calls `not_found`) is refused, naming
 * the line, rather than quietly downgraded: the import is all or nothing, and a file whose verdicts do not
 * match its own snapshots has been edited or damaged, which its importer must hear about (dropping the row's
 * `verification_` columns imports the source to be checked afresh). A verdict reached without a page
 * (unreachable, or unchecked for a content type Cairn cannot read) is taken within its bounds; `pending`, like
 * no verdict at all, is stored empty and the source is queued for checking after the import. A verdict reached on
 * the text the assistant sent for a page Cairn could not read (basis client_text) is held to that text the same
 * way: the row names it (`client_text_sha256`), the file carries it, and it is judged again on it. A verdict's
 * `edits` (each bracket of the quote and the page words it stands for) are the judge's too, never the file's. Pure.
 */

/** The verdict columns an export carries (`verification_requested_at` counts the org's own checks: never carried). */
export const VERDICT_COLUMNS = [
  "verification_status",
  "verification_reason",
  "verification_score",
  "verification_passage",
  "verification_basis",
  "verification_title_mismatch",
  "verification_snapshot",
  "verification_checked_at",
  "verification_edits",
] as const;

/** The first export format version whose evidence rows carry verdicts (and whose files carry snapshots). */
export const VERDICTS_SINCE_VERSION = 3;

/** How much each verdict reached on a page says the page holds the quote. */
const CLAIM: Readonly<Record<VerificationStatus, number>> = { verified: 3, partial: 2, not_found: 1, unchecked: 0, unreachable: 0, pending: 0 };

export interface CarriedSnapshot {
  sha256: string;
  title: string | null;
  text: string | PreparedSnapshot;
  fetchedAt: number;
}

/** A text the assistant sent for a page (record_evidence's sourceText), as an earlier line of the file carried it. */
export interface CarriedClientText {
  sha256: string;
  text: string | PreparedSnapshot;
}

type VerdictColumns = Record<(typeof VERDICT_COLUMNS)[number], ScalarValue>;

const EMPTY: VerdictColumns = Object.fromEntries(VERDICT_COLUMNS.map((column) => [column, null])) as VerdictColumns;

/** The snapshot a row's verdict names, or null (the file's text, checked for shape by the import policy). */
export const namedSnapshot = (row: StoredRow): string | null => (typeof row.verification_snapshot === "string" ? row.verification_snapshot : null);

/** The client text a row names, or null (the file's text, checked for shape by the import policy). */
export const namedClientText = (row: StoredRow): string | null => (typeof row.client_text_sha256 === "string" ? row.client_text_sha256 : null);

const columnsOf = (v: SourceVerification): VerdictColumns => ({
  verification_status: v.status,
  verification_reason: v.reason,
  verification_score: v.score,
  verification_passage: v.passage,
  verification_basis: v.basis,
  verification_title_mismatch: v.titleMismatch === null ? null : v.titleMismatch ? 1 : 0,
  verification_snapshot: v.snapshot,
  verification_checked_at: v.checkedAt,
  verification_edits: storedEdits(v.edits),
});

/**
 * The verdict columns an imported evidence row is written with. `row` passed the import policy (each cell within
 * its bounds); `snapshot` is the carried snapshot the row's verdict names (null when it names none). Throws a
 * validation error naming the line and the column when the verdict does not hold.
 */
export function importedVerdict(row: StoredRow, snapshot: CarriedSnapshot | null, line: number, clientText: CarriedClientText | null = null): VerdictColumns {
  const refuse = (column: string, message: string) =>
    validationError(`Line ${line}: ledger_evidence, column ${column}: ${message}.`, [{ path: `line ${line}.${column}`, message }]);
  const named = namedClientText(row);
  // A source keeps the assistant's text only when the same file carried it (never a text found elsewhere).
  if (named !== null && clientText?.sha256 !== named) throw refuse("client_text_sha256", `names client text ${named.slice(0, 12)}…, which no earlier line of this file carries`);
  const status = (row.verification_status ?? null) as VerificationStatus | null;
  const given = VERDICT_COLUMNS.filter((column) => column !== "verification_status" && row[column] !== null && row[column] !== undefined);
  if (status === null || status === "pending") {
    // Nothing was concluded: the source is checked afresh after the import.
    const stray = given[0];
    if (stray) throw refuse(stray, `must be empty for a source ${status === null ? "without a verdict" : "still pending"}`);
    return EMPTY;
  }
  if (row.verification_basis === "client_text") return clientTextVerdict(row, status, clientText, refuse);
  const sha = namedSnapshot(row);
  if (status === "unreachable" || (status === "unchecked" && sha === null)) {
    if (sha !== null) throw refuse("verification_snapshot", "must be empty for an unreachable source (no page was read)");
    for (const column of ["verification_score", "verification_passage", "verification_edits"] as const) {
      if (row[column] !== null && row[column] !== undefined) throw refuse(column, `must be empty for a source ${status} (nothing was compared)`);
    }
    if (status === "unreachable" && row.verification_title_mismatch !== null && row.verification_title_mismatch !== undefined) {
      throw refuse("verification_title_mismatch", "must be empty for an unreachable source (no title was read)");
    }
    return { ...EMPTY, ...Object.fromEntries(VERDICT_COLUMNS.map((column) => [column, row[column] ?? null])) };
  }
  if (sha === null) throw refuse("verification_snapshot", `a ${status} verdict names the snapshot it was reached on, and this one names none`);
  if (!snapshot || snapshot.sha256 !== sha) throw refuse("verification_snapshot", `names snapshot ${sha.slice(0, 12)}…, which no earlier line of this file carries`);
  const checkedAt = typeof row.verification_checked_at === "number" ? row.verification_checked_at : snapshot.fetchedAt;
  const judged = judgeSource(
    { quote: typeof row.quote === "string" ? row.quote : null, title: String(row.title) },
    { text: snapshot.text, title: snapshot.title, snapshot: sha },
    checkedAt,
  );
  if (CLAIM[status] > CLAIM[judged.status]) {
    throw refuse(
      "verification_status",
      `the file says ${status}, but judged again on the snapshot it names the source is ${judged.status}; a verdict is Cairn's own finding, so this one is refused (leave out the row's verification_ columns to have the source checked again)`,
    );
  }
  return columnsOf(judged);
}

/**
 * A verdict the file says was reached on the assistant's text: judged again on the text the row names (carried by
 * the file), as the source check judged it. Why Cairn could not read the page is taken from the verdict's reason
 * (nothing else in the file says it); everything else is the judge's.
 */
function clientTextVerdict(
  row: StoredRow,
  status: VerificationStatus,
  clientText: CarriedClientText | null,
  refuse: (column: string, message: string) => Error,
): VerdictColumns {
  if (!clientText) throw refuse("client_text_sha256", "a verdict on the assistant's text (basis client_text) names the text it was reached on, and this one names none");
  if (namedSnapshot(row) !== null) throw refuse("verification_snapshot", "must be empty for a verdict on the assistant's text (basis client_text): no page Cairn read stands behind it");
  const quote = typeof row.quote === "string" ? row.quote : "";
  if (!quote.trim()) throw refuse("verification_basis", "a verdict on the assistant's text is reached on a quote, and this source has none");
  if (typeof row.verification_checked_at !== "number") throw refuse("verification_checked_at", "a verdict on the assistant's text says when it was reached");
  const fetch = { status: "unchecked" as const, reason: fetchReasonOf(typeof row.verification_reason === "string" ? row.verification_reason : null) ?? "not stated in the imported file" };
  const judged = judgeClientText(quote, clientText.text, fetch, row.verification_checked_at);
  if (CLAIM[status] > CLAIM[judged.status]) {
    throw refuse(
      "verification_status",
      `the file says ${status}, but judged again on the assistant's text it names the source is ${judged.status}; a verdict is Cairn's own finding, so this one is refused (leave out the row's verification_ columns to have the source checked again)`,
    );
  }
  return columnsOf(judged);
}
