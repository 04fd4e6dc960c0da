import type { ResearchOutput } from "../../domain/research/outputs";
import type { DeliverableChanges } from "../../domain/research/changes";
import { DeliverableChangesCard } from "./deliverable-changes";
import type { SourceVerification } from "../../domain/sources/verification";
import type { Child } from "hono/jsx";
import { shortTime } from "./format";
import { Flash } from "./layout";
import type { RenderedMarkdown } from "../../storage/rendered-outputs";
import { linkRefs, type RefLink } from "./markdown";
import type { SourceCounts } from "../../domain/sources/recheck";
import { SourceCountsLine, scoreText, VerificationBadge } from "./source-status";

/** A source of the plan's ledger that the deliverable cites. */
export interface CitedSource {
  ref: string;
  title: string;
  url: string;
  href: string;
  /** The quote the assistant recorded from it. */
  quote: string | null;
  verification: SourceVerification;
}

/** `[E3]`, `[C2]`, `[E1, E4]` in plain text (the forms the citation check reads). */
const REF_GROUP = /(\[(?:[EC]\d{1,5})(?:\s*[,;]\s*[EC]\d{1,5})*\])/;

/** Text shown as the text it is, each cited ref the ledger holds a link to its page. */
function TextWithRefs({ text, hrefOf }: { text: string; hrefOf: RefLink }) {
  return (
    <>
      {text.split(REF_GROUP).map((part, i) =>
        i % 2 === 0
          ? part
          : part.split(/([EC]\d{1,5})/).map((piece, j) => {
              const href = j % 2 === 1 ? hrefOf(piece) : null;
              return href ? (
                <a class="ref" href={href}>
                  {piece}
                </a>
              ) : (
                piece
              );
            }),
      )}
    </>
  );
}

/**
 * The content as it was delivered: Markdown rendered (raw HTML in it escaped, see markdown.ts; `rendered` is what its
 * version rendered to, kept from the first view), anything else as the text it is. Never rendered as HTML as sent:
 * it came from an assistant.
 */
export function DeliverableContent({ output, rendered, hrefOf }: { output: Pick<ResearchOutput, "content">; rendered: RenderedMarkdown | null; hrefOf: RefLink }) {
  if (rendered?.kind === "html") {
    return <div class="deliverable markdown" id="deliverable-content" dangerouslySetInnerHTML={{ __html: linkRefs(rendered.html, hrefOf) }} />;
  }
  return (
    <>
      {rendered ? <p class="muted" id="not-rendered">This Markdown is too complex to format, so it is shown as its text: {rendered.note}.</p> : null}
      <pre class="deliverable" id="deliverable-content">
        <TextWithRefs text={output.content} hrefOf={hrefOf} />
      </pre>
    </>
  );
}

/** The sources the deliverable cites and what Cairn found on each. */
function CitedSources({ sources }: { sources: CitedSource[] }) {
  return (
    <div class="table-wrap">
      <table class="stack" id="cited-sources">
        <thead>
          <tr>
            <th>Source</th>
            <th>Verification</th>
            <th>Checked</th>
          </tr>
        </thead>
        <tbody>
          {sources.map((source) => (
            <tr>
              <td data-label="Source">
                <a href={source.href}>
                  <strong>{source.ref}</strong> {source.title}
                </a>
                <div class="muted">{source.url}</div>
              </td>
              <td data-label="Verification">
                <VerificationBadge verification={source.verification} />
                {scoreText(source.verification.score) !== null ? <span class="muted"> score {scoreText(source.verification.score)}</span> : null}
                {source.verification.titleMismatch ? <span class="muted"> · title does not match the page</span> : null}
              </td>
              <td data-label="Checked">{source.verification.checkedAt ? shortTime(source.verification.checkedAt) : <span class="muted">not yet</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A deliverable as delivered, for the people of its org: the page ChatGPT's search and fetch link to. The
 * content is rendered (Markdown) or shown as text, each cited `[E#]` linking to its source's page; then the
 * sources it rests on with their verification, and its citations.
 */
export function DeliverablePage(props: {
  output: ResearchOutput;
  /** What its Markdown rendered to (kept per version), or null for a deliverable other than Markdown. */
  rendered: RenderedMarkdown | null;
  planName: string | null;
  author: string;
  /** Where each cited ref the plan's ledger holds leads. */
  hrefOf: RefLink;
  /** The ledger's sources the deliverable cites, in the order first cited. */
  sources: CitedSource[];
  /** The stored summary of its sources, kept by re-checks; null for a deliverable without one. */
  sourceCounts: SourceCounts | null;
  /** For a scheduled run's deliverable: what changed since the previous run's (deliverable-changes.tsx). */
  changes?: { previousOutputId: string; changes: DeliverableChanges } | null;
  flash?: string | undefined;
  /** What follows the deliverable on its page (its share links). */
  children?: Child;
}) {
  const { output, hrefOf } = props;
  return (
    <>
      <p class="muted">{output.planId ? <a href={`/dashboard/plans/${output.planId}`}>← {props.planName ?? "The plan"}</a> : <a href="/dashboard/plans">← Plans</a>}</p>
      <h1>{output.title}</h1>
      <Flash message={props.flash} />
      <p class="muted">
        {output.mediaType}, version {output.version}, updated {shortTime(output.updatedAt)} by {props.author}
      </p>
      <p id="downloads" class="muted">
        Download:{" "}
        <a href={`/dashboard/outputs/${output.outputId}/download?format=md`} download>
          Markdown
        </a>
        {" · "}
        <a href={`/dashboard/outputs/${output.outputId}/download?format=html`} download>
          HTML (print to PDF)
        </a>
        {" · "}
        <a href={`/dashboard/outputs/${output.outputId}/download?format=docx`} download>
          Word (DOCX)
        </a>
        {" · "}
        <a href={`/dashboard/outputs/${output.outputId}/download?format=pdf`} download>
          PDF
        </a>
      </p>
      {props.sourceCounts ? <SourceCountsLine counts={props.sourceCounts} /> : null}
      {props.changes ? <DeliverableChangesCard {...props.changes} /> : null}
      <DeliverableContent output={output} rendered={props.rendered} hrefOf={hrefOf} />
      {props.sources.length ? (
        <>
          <h2>Sources it rests on</h2>
          <CitedSources sources={props.sources} />
        </>
      ) : null}
      {output.citations.length ? (
        <>
          <h2>Citations</h2>
          <ol id="citations">
            {output.citations.map((citation) => {
              const href = citation.ref ? hrefOf(citation.ref) : null;
              return (
                <li>
                  {citation.ref ? <strong>{href ? <a href={href}>[{citation.ref}]</a> : `[${citation.ref}]`} </strong> : null}
                  {citation.title}
                  {citation.url && /^https?:\/\//.test(citation.url) ? (
                    <>
                      {" — "}
                      <a href={citation.url} rel="noopener noreferrer nofollow">
                        {citation.url}
                      </a>
                    </>
                  ) : null}
                </li>
              );
            })}
          </ol>
        </>
      ) : null}
      {props.children}
    </>
  );
}
