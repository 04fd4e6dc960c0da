/**
 * A short text an assistant wrote for a person (a review's presentation, a question, a note) rendered as Markdown
 * by the deliverable's renderer (markdown.ts: raw HTML escaped, unsafe link protocols dropped, bounded), or, past
 * its limits, shown as its text with its line breaks kept.
 */
import { renderNote } from "./markdown";

export function MarkdownNote({ text, class: extra }: { text: string; class?: string }) {
  const html = renderNote(text);
  const classes = `markdown note${extra ? ` ${extra}` : ""}`;
  return html === null ? <div class={`${classes} as-text`}>{text}</div> : <div class={classes} dangerouslySetInnerHTML={{ __html: html }} />;
}
