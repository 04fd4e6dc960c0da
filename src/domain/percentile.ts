/**
 * A percentile by the nearest-rank method: the smallest value with at least
 * p % of the values at or below it, i.e. the value at rank ceil(p/100 × n) of
 * the sorted values. Always one of the values; with fewer than 20 values the
 * 95th percentile is the largest (the dashboard's SQL computes the same rank).
 */
export function nearestRankPercentile(values: readonly number[], percent: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((percent / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
}
