/**
 * The arithmetic of the analytics charts, apart from their markup: day buckets
 * with the missing days filled in, and a "nice" axis maximum. Pure (no DOM, no
 * bindings), so it is tested on its own.
 */

export const DAY_MS = 86_400_000;

/** One day's figures, keyed by the UTC day's start. */
export interface DayBucket {
  day: number;
  values: number[];
}

/** Every UTC day from the one holding `since` to the one holding `now`, with zeros where storage had no row. */
export function fillDays(rows: readonly DayBucket[], since: number, now: number, width: number): DayBucket[] {
  const byDay = new Map(rows.map((row) => [row.day, row.values]));
  const first = Math.floor(since / DAY_MS) * DAY_MS;
  const last = Math.floor(now / DAY_MS) * DAY_MS;
  const days: DayBucket[] = [];
  for (let day = first; day <= last; day += DAY_MS) days.push({ day, values: byDay.get(day) ?? new Array(width).fill(0) });
  return days;
}

/** The smallest of 1, 2, 5 × 10^k at or above `value` (at least 1): an axis top people read at a glance. */
export function niceMax(value: number): number {
  if (!(value > 1)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

/** "24 Nov" for a UTC day start: chart labels say the day, not the time. */
export function dayLabel(day: number): string {
  const date = new Date(day);
  return `${date.getUTCDate()} ${["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][date.getUTCMonth()]}`;
}

/** Which of `count` bars get an x-axis label: at most `max`, evenly spaced, always the last. */
export function labelledIndexes(count: number, max = 7): Set<number> {
  if (count <= max) return new Set(Array.from({ length: count }, (_, i) => i));
  const every = Math.ceil(count / max);
  const picked = new Set<number>();
  for (let i = count - 1; i >= 0; i -= every) picked.add(i);
  return picked;
}
