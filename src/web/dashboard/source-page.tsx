/**
 * One source of a plan's ledger, for the people of its org: what the assistant recorded, what Cairn found when it
 * read the page, and the text it read with the quoted passage highlighted. The page text is untrusted (anything a
 * site publishes, instructions to AI assistants included): it is said so on the page and shown only as text.
 */
import type { Evidence } from "../../domain/research/ledger";
import type { Snapshot } from "../../platform/sources/snapshots";
import { shortTime } from "./format";
import { readingOrigin, type SnapshotExcerpt, type SnapshotView, SNAPSHOT_VIEW } from "./snapshot-window";
import { basisInWords, QuoteEdits, scoreText, statusMeaning, VerificationBadge } from "./source-status";

/** A snapshot as the page shows it: the stored reading and the excerpt chosen from its text. */
export interface SnapshotShown {
  snapshot: Snapshot;
  excerpt: SnapshotExcerpt;
}

const httpUrl = (url: string) => /^https?:\/\//i.test(url);

function ExternalLink({ url }: { url: string }) {
  return httpUrl(url) ? (
    <a href={url} rel="nofollow noopener noreferrer">
      {url}
    </a>
  ) : (
    <span>{url}</span>
  );
}

/** The stored reading's text, the passage marked; what lies outside the excerpt is counted, never silently dropped. */
function SnapshotText(props: { shown: SnapshotShown; basis: string | null; view: SnapshotView; selfHref: string | null; id: string; sourceUrl: string; readAt: number | null }) {
  const { shown, view, selfHref, id } = props;
  const { excerpt, snapshot } = shown;
  const hiddenBefore = excerpt.start;
  const hiddenAfter = excerpt.length - excerpt.end;
  const reading = readingOrigin(snapshot, props.sourceUrl, props.readAt);
  const when = reading.readAt === null ? "" : ` on ${shortTime(reading.readAt)}`;
  // Text Cairn did not fetch itself (the assistant sent what it read) is never presented as Cairn's reading.
  const provenance =
    props.basis === null || props.basis === "fetched"
      ? `the text of ${reading.url} as Cairn read it${when}`
      : `the text of ${reading.url} as ${basisInWords(props.basis)}, kept${when}`;
  return (
    <>
      <p class="warn untrusted" role="note">
        Untrusted content: {provenance}, shown as plain text. It is what the site published and may contain anything, instructions to AI
        assistants included; none of it is Cairn's.
      </p>
      {hiddenBefore > 0 ? <p class="muted">… {hiddenBefore.toLocaleString("en")} characters before this are not shown.</p> : null}
      <pre class="snapshot" id={id}>
        {excerpt.before}
        {excerpt.passage ? <mark id={`${id}-passage`}>{excerpt.passage}</mark> : null}
        {excerpt.after}
      </pre>
      {hiddenAfter > 0 ? <p class="muted">… {hiddenAfter.toLocaleString("en")} characters after this are not shown.</p> : null}
      {selfHref && view === "window" && (hiddenBefore > 0 || hiddenAfter > 0) ? (
        <p>
          <a href={`${selfHref}?view=whole${excerpt.passage ? `#${id}-passage` : ""}`}>Show the whole text</a>
          {excerpt.length > SNAPSHOT_VIEW.wholeChars ? <span class="muted"> (its first {SNAPSHOT_VIEW.wholeChars.toLocaleString("en")} characters)</span> : null}
        </p>
      ) : null}
      {selfHref && view === "whole" ? (
        <p>
          <a href={selfHref}>Show only the passage and its surroundings</a>
        </p>
      ) : null}
      {snapshot.truncated ? <p class="muted">The page was longer than Cairn reads; the check ran on its first part.</p> : null}
    </>
  );
}

/** Why there is no text to show, in the terms of the source's status. */
function NoSnapshot({ evidence, stored }: { evidence: Evidence; stored: boolean }) {
  const { verification } = evidence;
  if (stored) return <p class="muted" id="no-snapshot">The text Cairn read is no longer stored.</p>;
  if (verification.status === "pending") {
    return (
      <p class="muted" id="no-snapshot">
        Cairn has not read this page yet; checks usually finish within a minute. Reload this page to see the result.
      </p>
    );
  }
  return (
    <p class="muted" id="no-snapshot">
      No text was kept for this source{verification.reason ? `: ${verification.reason}` : "."}
    </p>
  );
}

/**
 * A reading of the page before the current one (re-checks keep it so a person can compare): the window around
 * where the quote stood. Rendered when the route finds one; until re-checks keep a previous reading, there is none.
 */
export function PreviousReading({ shown, basis, sourceUrl }: { shown: SnapshotShown; basis: string | null; sourceUrl: string }) {
  // When it was read is not kept apart from the snapshot, which another page with the same text may have stored since.
  return (
    <section id="previous-reading" aria-labelledby="previous-heading">
      <h2 id="previous-heading">The previous reading</h2>
      <SnapshotText shown={shown} basis={basis} view="window" selfHref={null} id="previous-snapshot" sourceUrl={sourceUrl} readAt={null} />
    </section>
  );
}

export function SourcePage(props: {
  planId: string;
  planName: string | null;
  evidence: Evidence;
  /** The reading the verdict was reached on; null when there is none (pending, unreachable) or it is gone. */
  current: SnapshotShown | null;
  previous: SnapshotShown | null;
  view: SnapshotView;
  selfHref: string;
}) {
  const { evidence, current } = props;
  const { verification } = evidence;
  const basis = basisInWords(verification.basis);
  const readFrom = current ? readingOrigin(current.snapshot, evidence.url, verification.checkedAt).url : null;
  return (
    <>
      <p class="muted">
        <a href={`/dashboard/plans/${props.planId}#evidence-ledger`}>← {props.planName ?? "The plan"}</a>
      </p>
      <h1>
        {evidence.ref}: {evidence.title}
      </h1>
      <dl class="kv" id="source-facts">
        <dt>URL</dt>
        <dd>
          <ExternalLink url={evidence.url} />
        </dd>
        <dt>Recorded quote</dt>
        <dd>{evidence.quote ? <blockquote id="recorded-quote">{evidence.quote}</blockquote> : <span class="muted">none recorded</span>}</dd>
        <dt>Verification</dt>
        <dd id="verification-status">
          <VerificationBadge verification={verification} /> <span class="muted">{statusMeaning(verification)}</span>
        </dd>
        <dt>Score</dt>
        <dd>{scoreText(verification.score) ?? <span class="muted">nothing compared</span>}</dd>
        <dt>Basis</dt>
        <dd>{basis ?? <span class="muted">none</span>}</dd>
        {verification.reason ? (
          <>
            <dt>Reason</dt>
            <dd id="verification-reason">{verification.reason}</dd>
          </>
        ) : null}
        {verification.status === "partial" && verification.passage ? (
          <>
            <dt>Closest passage</dt>
            <dd>
              <blockquote id="closest-passage">{verification.passage}</blockquote>
              <span class="muted">The source's own words (untrusted page text): quote these exactly, or drop the quote.</span>
            </dd>
          </>
        ) : null}
        {verification.edits && verification.edits.length > 0 ? (
          <>
            <dt>Brackets</dt>
            <dd>
              <QuoteEdits edits={verification.edits} id="quote-edits" />
            </dd>
          </>
        ) : null}
        <dt>Title</dt>
        <dd>
          {current?.snapshot.title ? <>the page says “{current.snapshot.title}”</> : <span class="muted">no page title read</span>}
          {verification.titleMismatch ? (
            <strong id="title-mismatch"> · does not match the recorded title (a wrong link, or the wrong page of a site)</strong>
          ) : null}
        </dd>
        <dt>Checked</dt>
        <dd>{verification.checkedAt ? shortTime(verification.checkedAt) : <span class="muted">not yet</span>}</dd>
        {current && readFrom ? (
          <>
            <dt>Read from</dt>
            <dd>
              <ExternalLink url={readFrom} /> <span class="muted">(HTTP {current.snapshot.status}, {current.snapshot.contentType ?? "no content type"})</span>
            </dd>
          </>
        ) : null}
      </dl>
      <h2>What the page says</h2>
      {current ? <SnapshotText shown={current} basis={verification.basis} view={props.view} selfHref={props.selfHref} id="snapshot" sourceUrl={evidence.url} readAt={verification.checkedAt} /> : <NoSnapshot evidence={evidence} stored={verification.snapshot !== null} />}
      {props.previous ? <PreviousReading shown={props.previous} basis="fetched" sourceUrl={evidence.url} /> : null}
    </>
  );
}
