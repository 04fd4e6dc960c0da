/**
 * People's comments beside what they are about (a deliverable's page, a step's card): each thread with its anchor,
 * its comments rendered by the deliverable's safe Markdown renderer (raw HTML escaped, unsafe links dropped, bounded),
 * a reply form and resolve (or reopen); and a form for a new comment. The same rules as
 * /api/v1/…/comments (src/platform/comments.ts).
 */
import { COMMENT_LIMITS } from "../../domain/research/comments";
import type { CommentView } from "../../platform/comments";
import { shortTime } from "./format";
import { MarkdownNote } from "./markdown-note";

/** The threads of a list of comments: each first comment with its replies, oldest first. */
function threadsOf(comments: readonly CommentView[]): { first: CommentView; replies: CommentView[] }[] {
  const threads = new Map<string, { first: CommentView; replies: CommentView[] }>();
  for (const comment of comments) if (comment.replyTo === null) threads.set(comment.commentId, { first: comment, replies: [] });
  for (const comment of comments) if (comment.replyTo !== null) threads.get(comment.replyTo)?.replies.push(comment);
  return [...threads.values()];
}

const byline = (comment: CommentView) => `${comment.author ? comment.author.name : "a former member"}, ${shortTime(Date.parse(comment.createdAt))}`;

function OneComment({ comment }: { comment: CommentView }) {
  return (
    <div class="comment" id={`comment-${comment.commentId}`}>
      <p class="muted">{byline(comment)}</p>
      <MarkdownNote text={comment.body} class="comment-body" />
    </div>
  );
}

function Hidden({ csrf }: { csrf: string }) {
  return <input type="hidden" name="csrf" value={csrf} />;
}

/** `action` is where the target's comments are posted: `/dashboard/outputs/{id}/comments` or `…/plans/{id}/steps/{id}/comments`. */
export function CommentsSection(props: { action: string; comments: readonly CommentView[]; csrf: string; id: string; heading?: string; answeredHref?: (outputId: string) => string }) {
  const { action, csrf, id } = props;
  const threads = threadsOf(props.comments);
  const open = threads.filter((thread) => !thread.first.resolved).length;
  const counts = threads.length === 0 ? "none yet" : `${open} open, ${threads.length - open} resolved`;
  const list = (
    <>
      {threads.map(({ first, replies }) => (
        <div class={`card comment-thread${first.resolved ? " resolved" : ""}`} data-comment-thread={first.commentId}>
          {first.anchor?.heading ? <p class="muted">On the section “{first.anchor.heading}”</p> : null}
          {first.anchor?.quote ? <blockquote class="comment-quote">{first.anchor.quote}</blockquote> : null}
          <OneComment comment={first} />
          {replies.map((reply) => (
            <OneComment comment={reply} />
          ))}
          {first.resolved ? (
            <p class="muted">
              Resolved{first.resolvedBy ? ` by ${first.resolvedBy.name}` : ""}
              {first.answeredBy ? (
                <>
                  {" "}
                  by version {first.answeredBy.version} of <a href={props.answeredHref ? props.answeredHref(first.answeredBy.outputId) : `/dashboard/outputs/${first.answeredBy.outputId}`}>the deliverable</a>
                </>
              ) : null}
              .
            </p>
          ) : null}
          <form method="post" action={`${action}/${first.commentId}/resolve`} class="inline">
            <Hidden csrf={csrf} />
            <input type="hidden" name="resolved" value={first.resolved ? "false" : "true"} />
            <button type="submit">{first.resolved ? "Reopen" : "Resolve"}</button>
          </form>
          <details>
            <summary>Reply</summary>
            <form method="post" action={action}>
              <Hidden csrf={csrf} />
              <input type="hidden" name="replyTo" value={first.commentId} />
              <textarea name="body" aria-label="Reply" maxlength={COMMENT_LIMITS.bodyChars} rows={3} required />
              <button type="submit">Reply</button>
            </form>
          </details>
        </div>
      ))}
      <details open={props.heading !== undefined}>
        <summary>New comment</summary>
        <form method="post" action={action} class="comment-new">
          <Hidden csrf={csrf} />
          <textarea name="body" aria-label="Comment (Markdown)" maxlength={COMMENT_LIMITS.bodyChars} rows={4} required />
          <p>
            <label>
              On the section (heading, optional) <input type="text" name="heading" maxlength={COMMENT_LIMITS.headingChars} />
            </label>{" "}
            <label>
              About the passage (quote, optional) <input type="text" name="quote" maxlength={COMMENT_LIMITS.quoteChars} />
            </label>
          </p>
          <button class="primary" type="submit">
            Comment
          </button>
        </form>
      </details>
    </>
  );
  // A deliverable's page gives its comments a section; a step's card folds them away, open while a thread is.
  if (!props.heading) {
    return (
      <details class="comments" id={id} open={open > 0}>
        <summary>Comments: {counts}</summary>
        {list}
      </details>
    );
  }
  return (
    <section class="comments" id={id} aria-label={props.heading}>
      <h2>{props.heading}</h2>
      <p class="muted">
        {threads.length === 0 ? "No comments yet." : `${counts}.`} The assistant reads open comments as people's words and may answer them with a new version. Mention a member by
        e-mail address to notify them.
      </p>
      {list}
    </section>
  );
}
