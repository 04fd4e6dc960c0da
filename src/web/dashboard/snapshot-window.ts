/**
 * Which part of a snapshot's text the source page shows. A page's text runs to megabytes, so by default the page
 * shows a window around the located passage (or the opening of the text when there is none), and on request the
 * whole text up to a bound. Pure: offsets in, pieces out.
 */

export const SNAPSHOT_VIEW = {
  /** Characters shown either side of the passage. */
  contextChars: 1_500,
  /** Characters shown from the start when no passage was located. */
  openingChars: 3_000,
  /** The most of the text the "whole text" view shows (the rest is said to be left out). */
  wholeChars: 500_000,
} as const;

export type SnapshotView = "window" | "whole";

export interface SnapshotExcerpt {
  /** Text before the passage, the passage itself (empty when none is highlighted), and the text after. */
  before: string;
  passage: string;
  after: string;
  /** Offsets of the excerpt in the whole text (end exclusive). */
  start: number;
  end: number;
  /** The text's length, so the page can say how much it does not show. */
  length: number;
}

/** Moves an offset off the second half of a surrogate pair, so no character is cut in two. */
function onCharacter(text: string, offset: number): number {
  const code = text.charCodeAt(offset);
  return code >= 0xdc00 && code <= 0xdfff ? offset + 1 : offset;
}

/**
 * A cut point moved forward (a start: just past the space) or back (an end: onto the space) to the nearest
 * whitespace within a few characters, so words stay whole.
 */
function onSpace(text: string, offset: number, direction: 1 | -1): number {
  for (let i = 0; i < 40; i++) {
    const at = offset + i * direction;
    if (at <= 0 || at >= text.length) return Math.max(0, Math.min(text.length, at));
    if (/\s/.test(text[at] ?? "")) return direction === 1 ? at + 1 : at;
  }
  return offset;
}

/**
 * The excerpt to show: for `window`, the passage with SNAPSHOT_VIEW.contextChars either side (or the text's
 * opening); for `whole`, the text from its start up to SNAPSHOT_VIEW.wholeChars. A passage outside the excerpt,
 * or with offsets that do not fit the text, is not highlighted.
 */
export function snapshotExcerpt(text: string, passage: { start: number; end: number } | null, view: SnapshotView): SnapshotExcerpt {
  const located = passage && passage.start >= 0 && passage.end > passage.start && passage.end <= text.length ? passage : null;
  let start: number;
  let end: number;
  if (view === "whole") {
    start = 0;
    end = Math.min(text.length, SNAPSHOT_VIEW.wholeChars);
  } else if (located) {
    start = located.start <= SNAPSHOT_VIEW.contextChars ? 0 : onSpace(text, located.start - SNAPSHOT_VIEW.contextChars, 1);
    end = located.end + SNAPSHOT_VIEW.contextChars >= text.length ? text.length : onSpace(text, located.end + SNAPSHOT_VIEW.contextChars, -1);
  } else {
    start = 0;
    end = Math.min(text.length, SNAPSHOT_VIEW.openingChars);
  }
  start = onCharacter(text, start);
  end = onCharacter(text, end);
  if (!located || located.start < start || located.end > end) {
    return { before: text.slice(start, end), passage: "", after: "", start, end, length: text.length };
  }
  return {
    before: text.slice(start, located.start),
    passage: text.slice(located.start, located.end),
    after: text.slice(located.end, end),
    start,
    end,
    length: text.length,
  };
}

/**
 * Where and when a reading was taken, as the source page names it. Snapshots are addressed by their text, so two
 * pages with the same text share one, and its `url`, `finalUrl` and `fetchedAt` are those of whichever page stored
 * it last: they are this source's only when the snapshot names this source's URL. Otherwise the reading is named by
 * the source's own URL, and its time is `fallbackTime` (the verdict's, for the current reading; unknown for an
 * earlier one), never another page's.
 */
export function readingOrigin(
  snapshot: { url: string; finalUrl: string; fetchedAt: number },
  sourceUrl: string,
  fallbackTime: number | null,
): { url: string; readAt: number | null } {
  return snapshot.url === sourceUrl ? { url: snapshot.finalUrl, readAt: snapshot.fetchedAt } : { url: sourceUrl, readAt: fallbackTime };
}
