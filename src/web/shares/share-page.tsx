/**
 * A deliverable as a share link shows it to anyone holding the link: its public view (domain/research/public-view.ts)
 * — the deliverable, its version and date, and the sources it cites with what Cairn found on each, the cited passage
 * quoted from Cairn's reading of the page. Nothing else of the org: no plan, no member, no link into the dashboard,
 * no "what changed" against an earlier deliverable that was never shared. The page's text is untrusted: shown as
 * text, marked as the page's.
 */
import type { PublicDeliverable, PublicSource } from "../../domain/research/public-view";
import type { SourceVerification } from "../../domain/sources/verification";
import type { RenderedMarkdown } from "../../storage/rendered-outputs";
import { DeliverableContent } from "../dashboard/deliverable";
import { shortTime } from "../dashboard/format";
import type { RefLink } from "../dashboard/markdown";
import { basisInWords, statusMeaning, VerificationBadge } from "../dashboard/source-status";

/** The part of Cairn's reading of a source that the deliverable cites. */
export interface SharedReading {
  finalUrl: string;
  fetchedAt: number;
  /** Who read the text: "fetched" (Cairn) or what the assistant sent. */
  basis: string | null;
  /** The cited passage as the page has it, or null when it was not found on the reading. */
  passage: string | null;
}

/** A ledger source the deliverable cites (a citation the ledger does not hold is listed under Citations only). */
export interface SharedSource extends PublicSource {
  ref: string;
  url: string;
  verification: SourceVerification;
  reading: SharedReading | null;
}

/** A source's place on the page, where its refs in the text lead. */
export const sourceAnchor = (ref: string) => `source-${ref}`;

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

function Reading({ reading, refName }: { reading: SharedReading; refName: string }) {
  const who = reading.basis === null || reading.basis === "fetched" ? `as Cairn read it on ${shortTime(reading.fetchedAt)}` : `as ${basisInWords(reading.basis)}, kept on ${shortTime(reading.fetchedAt)}`;
  if (reading.passage === null) return <p class="muted">The quote was not found on the text of {reading.finalUrl} {who}.</p>;
  return (
    <>
      <p class="warn untrusted" role="note">
        The page's text: the cited passage of {reading.finalUrl} {who}, shown as plain text. It is what the site published; none of it is Cairn's.
      </p>
      <pre class="snapshot" id={`passage-${refName}`}>
        <mark>{reading.passage}</mark>
      </pre>
    </>
  );
}

function SharedSourceEntry({ source }: { source: SharedSource }) {
  const { verification } = source;
  return (
    <section class="card" id={sourceAnchor(source.ref)}>
      <h3>
        {source.ref}: {source.title}
      </h3>
      <p>
        <ExternalLink url={source.url} />
      </p>
      <p>
        <VerificationBadge verification={verification} /> <span class="muted">{statusMeaning(verification)}</span>
      </p>
      <p class="muted">Last checked: {verification.checkedAt ? shortTime(verification.checkedAt) : "not yet"}</p>
      {source.quote ? (
        <>
          <p class="muted">Quoted in the research:</p>
          <blockquote>{source.quote}</blockquote>
        </>
      ) : null}
      {source.reading ? <Reading reading={source.reading} refName={source.ref} /> : null}
    </section>
  );
}

export function SharePage(props: { view: PublicDeliverable; rendered: RenderedMarkdown | null; hrefOf: RefLink; sources: SharedSource[] }) {
  const { view } = props;
  return (
    <>
      <h1>{view.title}</h1>
      <p class="muted" id="share-facts">
        Version {view.version}, updated {shortTime(view.updatedAt)}. A read-only copy shared from Cairn, with the sources it rests on and what Cairn found on each.
      </p>
      <DeliverableContent output={view} rendered={props.rendered} hrefOf={props.hrefOf} />
      {props.sources.length ? (
        <section id="shared-sources">
          <h2>Sources</h2>
          {props.sources.map((source) => (
            <SharedSourceEntry source={source} />
          ))}
        </section>
      ) : null}
      {view.citations.length ? (
        <>
          <h2>Citations</h2>
          <ol id="citations">
            {view.citations.map((citation) => (
              <li>
                {citation.ref ? <strong>[{citation.ref}] </strong> : null}
                {citation.title}
                {citation.url && httpUrl(citation.url) ? (
                  <>
                    {" — "}
                    <ExternalLink url={citation.url} />
                  </>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </>
  );
}

/** The one answer for a link that opens nothing: unknown, revoked and expired alike. */
export function ShareNotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>This link does not open anything: it may have expired or been revoked. Ask the person who sent it for a new one.</p>
    </>
  );
}
