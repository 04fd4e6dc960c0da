import type { ResearchOutput } from "../../domain/research/outputs";
import { shortTime } from "./format";

/**
 * A deliverable as delivered, for the people of its org: the page ChatGPT's
 * search and fetch link to. The content is shown as the text it is (escaped,
 * never rendered as HTML: it came from an assistant), with its citations.
 */
export function DeliverablePage(props: { output: ResearchOutput; planName: string | null; author: string }) {
  const { output } = props;
  return (
    <>
      <p class="muted">{output.planId ? <a href={`/dashboard/plans/${output.planId}`}>← {props.planName ?? "The plan"}</a> : <a href="/dashboard/plans">← Plans</a>}</p>
      <h1>{output.title}</h1>
      <p class="muted">
        {output.mediaType}, version {output.version}, updated {shortTime(output.updatedAt)} by {props.author}
      </p>
      <pre class="deliverable" id="deliverable-content">
        {output.content}
      </pre>
      {output.citations.length ? (
        <>
          <h2>Citations</h2>
          <ol id="citations">
            {output.citations.map((citation) => (
              <li>
                {citation.ref ? <strong>[{citation.ref}] </strong> : null}
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
            ))}
          </ol>
        </>
      ) : null}
    </>
  );
}
