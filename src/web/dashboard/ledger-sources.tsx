/** The sources of a plan's ledger on the plan page: what Cairn found on each, each linking to its own page. */
import type { SourceChange } from "../../domain/sources/recheck";
import type { SourceVerification } from "../../domain/sources/verification";
import { QuoteEdits, scoreText, sourceHref, VerificationBadge } from "./source-status";

/** What a re-check after delivery found, in a reader's words. */
const CHANGE_WORDS: Record<SourceChange, string> = {
  changed: "changed since verified: the page no longer says the quote",
  gone: "gone since verified: the page no longer exists",
};

export function LedgerSources({
  planId,
  evidence,
}: {
  planId: string;
  evidence: { ref: string; url: string; title: string; verification: SourceVerification; recheck?: { change: SourceChange | null } }[];
}) {
  if (evidence.length === 0) return <p class="muted">No sources recorded.</p>;
  return (
    <table class="stack" id="ledger-sources">
      <thead>
        <tr>
          <th>Source</th>
          <th>Verification</th>
          <th>Score</th>
          <th>Closest passage or reason</th>
        </tr>
      </thead>
      <tbody>
        {evidence.map((source) => {
          const { verification } = source;
          return (
            <tr id={`source-${source.ref}`}>
              <td data-label="Source">
                <a href={sourceHref(planId, source.ref)}>
                  <strong>{source.ref}</strong> {source.title}
                </a>
                <div class="muted">{source.url}</div>
              </td>
              <td data-label="Verification">
                <VerificationBadge verification={verification} />
                {verification.titleMismatch ? <div class="muted">title does not match the page</div> : null}
                {source.recheck?.change ? (
                  <div class="warn" data-recheck={source.recheck.change}>
                    {CHANGE_WORDS[source.recheck.change]}
                  </div>
                ) : null}
              </td>
              <td data-label="Score">{scoreText(verification.score) ?? <span class="muted">–</span>}</td>
              <td data-label="Closest passage or reason">
                {verification.status === "partial" && verification.passage ? (
                  <blockquote class="passage" title="The page's own words (untrusted page text)">
                    {verification.passage}
                  </blockquote>
                ) : verification.reason ? (
                  <span class="muted">{verification.reason}</span>
                ) : null}
                {verification.status === "verified" || verification.status === "partial" ? <QuoteEdits edits={verification.edits} /> : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
