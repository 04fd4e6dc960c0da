/** Small display helpers shared by the dashboard pages. */

export const isoTime = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/** "2026-11-21 14:03 UTC": server-rendered, so the same for every reader. */
export function shortTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || ms < 0) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

export const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : "—");

/** JSON for a `<pre>`, bounded so one huge result cannot make a page unusable. */
export function prettyJson(value: unknown, max = 20_000): string {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2) ?? "null";
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters)`;
}

export const label = (value: string) => value.replaceAll("_", " ");
