/**
 * The goal lines of `npm run bench:checks` (bench/checks.mjs), pure so test/unit/bench-goals.test.ts can hold
 * them to their thresholds: time to verdict for org A alone and while org B keeps slow pages in flight.
 */
import { nearestRankPercentile } from "../src/domain/percentile.ts";

export const CHECK_GOALS = { aloneP50Ms: 2_000, noisyP95Ms: 10_000 };

/**
 * Time to verdict in ms per source; a source whose verdict never came within the run counts as Infinity, so a
 * lost verdict is a miss, never a pass. Nothing measured is not a pass either.
 */
export function checkGoalLines({ alone, noisy }) {
  const p = (values, q) => (values.length ? (nearestRankPercentile(values, q) ?? Number.POSITIVE_INFINITY) : Number.NaN);
  const s = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : Number.isNaN(ms) ? "not measured" : "no verdict within the run");
  const aloneP50 = p(alone, 50);
  const noisyP95 = p(noisy, 95);
  const aloneOk = aloneP50 <= CHECK_GOALS.aloneP50Ms;
  const noisyOk = noisyP95 <= CHECK_GOALS.noisyP95Ms;
  return {
    pass: aloneOk && noisyOk,
    lines: [
      `Goal: org A alone, time to verdict p50 ≤ ${CHECK_GOALS.aloneP50Ms / 1000} s — ${aloneOk ? "PASS" : "MISS"} (${s(aloneP50)}, ${alone.length} sources)`,
      `Goal: org A beside a noisy neighbour, time to verdict p95 ≤ ${CHECK_GOALS.noisyP95Ms / 1000} s — ${noisyOk ? "PASS" : "MISS"} (${s(noisyP95)}, ${noisy.length} sources)`,
    ],
  };
}
