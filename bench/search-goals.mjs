/**
 * The goals `npm run bench:search` judges (pure: tested in test/unit/bench-goals.test.ts).
 *
 * At the default size (100,000 artifacts) every class's p95 inside the Worker ≤ 20 ms. Run at a
 * larger size (`--count 1000000`), the same run also measures 100,000 and judges how search scales:
 * the whole query set's p95 at the large size, its ratio to the same Worker's one-row read, every
 * class, the growth from 100,000, and the longest single search (workerd's clock advances only
 * across I/O, so a search's time inside the Worker is its database time plus the CPU between queries).
 */
export const SEARCH_GOALS = { p95Ms: 20, ingestS: 120, maxResponseTokens: 8000 };
export const SCALE_GOALS = { baseCount: 100_000, p95Ms: 40, floorRatio: 20, classP95Ms: 60, growth: 1.5, maxMs: 100 };

const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const verdict = (pass) => (pass ? "PASS" : "MISS");

/**
 * The scale goal lines for a run measured at `base` (100,000) and `large` artifacts; each is
 * `{ count, overall: { p95, max }, floor: { p95 }, byClass: [{ cls, p95, max }] }`.
 */
export function scaleGoalLines(base, large) {
  const n = large.count.toLocaleString("en-US");
  const ratio = large.overall.p95 / large.floor.p95;
  const growth = large.overall.p95 / base.overall.p95;
  const worstClass = [...large.byClass].sort((a, b) => b.p95 - a.p95)[0];
  const slowest = Math.max(...large.byClass.map((c) => c.max));
  const lines = [
    `Goal: p95 over the whole query set at ${n} ≤ ${SCALE_GOALS.p95Ms} ms: ${verdict(large.overall.p95 <= SCALE_GOALS.p95Ms)} (${fixed(large.overall.p95)} ms)`,
    `Goal: p95 at ${n} ≤ ${SCALE_GOALS.floorRatio}× the same Worker's one-row read: ${verdict(ratio <= SCALE_GOALS.floorRatio)} (${fixed(ratio, 1)}×, floor p95 ${fixed(large.floor.p95)} ms)`,
    `Goal: every class's p95 at ${n} ≤ ${SCALE_GOALS.classP95Ms} ms: ${verdict(worstClass.p95 <= SCALE_GOALS.classP95Ms)} (worst: ${worstClass.cls}, ${fixed(worstClass.p95)} ms)`,
    `Goal: p95 growth ${base.count.toLocaleString("en-US")} → ${n} ≤ ${SCALE_GOALS.growth}×: ${verdict(growth <= SCALE_GOALS.growth)} (${fixed(base.overall.p95)} → ${fixed(large.overall.p95)} ms, ${fixed(growth)}×)`,
    `Goal: no single search at ${n} longer than ${SCALE_GOALS.maxMs} ms: ${verdict(slowest <= SCALE_GOALS.maxMs)} (longest ${fixed(slowest)} ms)`,
  ];
  return lines;
}
