/**
 * A long deliverable's Markdown in parts that render, one by one, to exactly the HTML the whole renders to, so a
 * render can let other requests run between its parts instead of holding the instance's one thread for its whole
 * length (micromark has no way to pause). A part ends before a top-level ATX heading (`#` at the line's start) that
 * follows a blank line outside any fenced code: there every open block (paragraph, list, quote, table) has ended,
 * and CommonMark's blocks do not reach across it (a fence opened at a line's start is followed to its closing marker). Markdown whose meaning is document-wide is not split at all: link
 * reference definitions and footnotes (a part would lose the definition), and the HTML blocks that run across blank
 * lines (comments, `<pre>`, `<script>`, `<style>`, `<textarea>`, processing instructions, declarations, CDATA).
 */

const DOCUMENT_WIDE = [/^ {0,3}\[[^\]]*\]:/m, /\[\^/, /<(?:!|\?|pre\b|script\b|style\b|textarea\b)/i];
/**
 * A fence marker anywhere but at a line's start (indented, in a list item or a quote): such a fence ends with its
 * container rather than at a marker, which a line-by-line reading would mistake, so such a text is not split.
 */
const FENCE_INSIDE = /^[^\n`~]+(?:`{3,}|~{3,})/m;
const FENCE = /^(`{3,}|~{3,})/;
const HEADING = /^#{1,6}(?:[ \t]|$)/;

/** The parts, each at least `partChars` long but the last, or the whole text as one part when it may not be split. */
export function markdownParts(markdown: string, partChars: number): string[] {
  if (markdown.length <= partChars || DOCUMENT_WIDE.some((pattern) => pattern.test(markdown)) || FENCE_INSIDE.test(markdown)) return [markdown];
  const lines = markdown.split("\n");
  const parts: string[] = [];
  let start = 0;
  let startChar = 0;
  let at = 0;
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (fence) {
      // A fence closes with at least as many of its own characters, and nothing but spaces after them.
      const close = FENCE.exec(line);
      if (close?.[1] && close[1][0] === fence[0] && close[1].length >= fence.length && line.slice(close[0].length).trim() === "") fence = null;
    } else {
      const open = FENCE.exec(line);
      if (open?.[1]) fence = open[1];
      else if (i > start && HEADING.test(line) && (lines[i - 1] ?? "").trim() === "" && at - startChar >= partChars) {
        parts.push(`${lines.slice(start, i).join("\n")}\n`);
        start = i;
        startChar = at;
      }
    }
    at += line.length + 1;
  }
  parts.push(lines.slice(start).join("\n"));
  return parts;
}
