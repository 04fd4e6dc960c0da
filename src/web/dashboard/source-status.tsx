/**
 * How the dashboard shows what Cairn found on a cited page: the verification status as a badge, the score,
 * the basis of the check, and where a source's own page is. Shared by the ledger, the deliverable page and the
 * source page.
 */
import type { SourceCounts } from "../../domain/sources/recheck";
import { isDeadSource, type SourceVerification } from "../../domain/sources/verification";

/** A source's page: its snapshot with the quoted passage highlighted, and its verification. */
export const sourceHref = (planId: string, ref: string) => `/dashboard/plans/${planId}/sources/${ref}`;

/** A claim of the plan's ledger, on the plan page. */
export const claimHref = (planId: string, ref: string) => `/dashboard/plans/${planId}#claim-${ref}`;

/** What each status means, in a reader's words (the badge's tooltip and the source page's explanation). */
export const STATUS_MEANING: Record<string, string> = {
  pending: "Cairn has not read the page yet.",
  verified: "The quote is in the source, exactly or after normalizing typography and spacing.",
  partial: "Only part of the quote matches the closest passage of the source.",
  not_found: "Cairn read the source and the quote is not in it.",
  unreachable: "Cairn could not read the page, which may well be live: it refused Cairn (a bot wall, paywall or rate limit), timed out, failed to connect or answered with an error, or the address was refused.",
  unchecked: "Nothing was checked: no quote was recorded, or the content is not readable text.",
};

/** An unreachable page that does not exist (HTTP 404 or 410): what a dead or made-up link looks like. */
const DEAD_MEANING = "The page does not exist (HTTP 404 or 410): the link is dead, or was made up.";

/** What a verdict means in a reader's words: an unreachable page that does not exist is told from one that may be live. */
export const statusMeaning = (verification: Pick<SourceVerification, "status"> & { reason?: string | null }): string =>
  isDeadSource({ status: verification.status, reason: verification.reason ?? null }) ? DEAD_MEANING : (STATUS_MEANING[verification.status] ?? verification.status);

/** Who read the text the quote was checked against. Any basis not known here is shown by its name. */
const BASIS_WORDS: Record<string, string> = {
  fetched: "fetched by Cairn",
  client_text: "sent by the assistant (Cairn could not read the page itself)",
};

export const basisInWords = (basis: string | null) => (basis === null ? null : (BASIS_WORDS[basis] ?? basis));

export function VerificationBadge({ verification }: { verification: Pick<SourceVerification, "status"> & { reason?: string | null } }) {
  const { status } = verification;
  return (
    <span class={`badge source-${status}`} title={statusMeaning(verification)}>
      {status.replaceAll("_", " ")}
    </span>
  );
}

/** A score as people read it: two decimals, none when nothing was compared. */
export const scoreText = (score: number | null) => (score === null ? null : score.toFixed(2));

/**
 * Each bracket of the quote beside the page words it stands for (the page's text, untrusted: escaped like any
 * text), or nothing when the quote has no brackets.
 */
export function QuoteEdits({ edits, id }: { edits: SourceVerification["edits"]; id?: string }) {
  if (!edits || edits.length === 0) return null;
  return (
    <ul class="quote-edits" id={id} title="The quote's brackets and the page's own words each stands for (untrusted page text)">
      {edits.map((edit) => (
        <li>
          <code>{edit.bracket}</code> stands for {edit.replaces ? <q>{edit.replaces}</q> : <span class="muted">no words of the page</span>}
        </li>
      ))}
    </ul>
  );
}


/** The summary line of a deliverable's sources, as re-checks keep it. */
export function SourceCountsLine({ counts }: { counts: SourceCounts }) {
  const alarming = counts.changed > 0 || counts.gone > 0;
  return (
    <p id="source-counts" class={alarming ? "warn" : "muted"}>
      {counts.total} sources: {counts.verified} verified, {counts.changed} changed since delivery, {counts.gone} gone, {counts.unverified} unverified
    </p>
  );
}
