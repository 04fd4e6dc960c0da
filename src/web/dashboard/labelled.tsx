/**
 * A value an assistant sent (a step's result summary, a skill execution's interview record, an execution report's
 * entries) as labelled text a person reads, never JSON: `{"key findings":"mono 24%"}` is "Key findings: mono 24%",
 * `["quick"]` is "quick". Bounded whatever its shape: long text, deep nesting and many entries end in a clear "…".
 */

import type { Child } from "hono/jsx";

export const LABELLED_LIMITS = {
  /** Characters of one text value. */
  textChars: 600,
  /** Levels of nesting shown; deeper values are "…". */
  depth: 4,
  /** Entries of one object or list shown; the rest are counted. */
  entries: 25,
  /** Values shown in all, across every level: a wide and deep value stops here. */
  values: 200,
} as const;

/** A key as a label: words split at camelCase, `_` and `-`, the first letter capital ("depthSignals" → "Depth signals"). */
export function labelOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : key;
}

const clipped = (text: string) => (text.length > LABELLED_LIMITS.textChars ? `${text.slice(0, LABELLED_LIMITS.textChars)}…` : text);

const isScalar = (value: unknown) => value === null || typeof value !== "object";

function scalarText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return clipped(value);
  return String(value);
}

/** Shares one count of values shown among every level of one value. */
interface Budget {
  left: number;
}

function Value({ value, depth, budget }: { value: unknown; depth: number; budget: Budget }): Child {
  budget.left--;
  if (isScalar(value)) return <>{scalarText(value)}</>;
  if (depth >= LABELLED_LIMITS.depth || budget.left <= 0) return <span class="muted">…</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <>—</>;
    // A list of words or numbers reads as one line: "quick, thorough".
    if (value.every(isScalar)) {
      const shown = value.slice(0, LABELLED_LIMITS.entries).map(scalarText);
      budget.left -= shown.length;
      return <>{`${shown.join(", ")}${value.length > shown.length ? `, … (${value.length - shown.length} more)` : ""}`}</>;
    }
    return <Entries entries={value.map((item) => [null, item])} depth={depth} budget={budget} />;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <>—</>;
  return <Entries entries={entries} depth={depth} budget={budget} />;
}

function Entries({ entries, depth, budget }: { entries: [string | null, unknown][]; depth: number; budget: Budget }) {
  const shown: [string | null, unknown][] = [];
  for (const entry of entries) {
    if (shown.length >= LABELLED_LIMITS.entries || budget.left <= 0) break;
    shown.push(entry);
  }
  const more = entries.length - shown.length;
  return (
    <ul class="labelled">
      {shown.map(([key, item]) => (
        <li>
          {key === null ? null : <span class="label">{labelOf(key)}:</span>} <Value value={item} depth={depth + 1} budget={budget} />
        </li>
      ))}
      {more > 0 ? <li class="muted">… ({more} more)</li> : null}
    </ul>
  );
}

/** The value as labelled text: an object as "Label: value" lines, a list of words as one line, text as it is. */
export function LabelledValue({ value }: { value: unknown }) {
  return <Value value={value} depth={0} budget={{ left: LABELLED_LIMITS.values }} />;
}
