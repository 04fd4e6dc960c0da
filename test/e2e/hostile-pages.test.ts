/**
 * No page can exhaust the source checker, end to end: the real local server checks sources citing pages built
 * to exhaust it (PDF decompression bombs whose Flate layers stack to 400 MiB, HTML nested 10,000 to 100,000
 * deep, half a million unclosed tags, 2 MiB of attributes on one element) and an ordinary 2 MiB page as a
 * control, each served on loopback. Every source gets a verdict within HOSTILE_VERDICT_WITHIN_MS, and workerd's
 * resident memory (read from /proc for the server's own workerd) grows by less than HOSTILE_MEMORY_BOUND_MIB.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { hostileCases, type ServedCase, serveHostileCases } from "../support/hostile-pages.mjs";
import { checkHostileCases, HOSTILE_MEMORY_BOUND_MIB, HOSTILE_VERDICT_WITHIN_MS, watchMemory, workerdPids } from "../support/hostile-run.mjs";

const server = inject("server");

let cases: ServedCase[];
let pages: Awaited<ReturnType<typeof serveHostileCases>>;
beforeAll(async () => {
  cases = await hostileCases();
  pages = await serveHostileCases(cases);
});
afterAll(async () => {
  await pages?.close();
});

/** Checks `group` (recorded together, so checked in one batch) and asserts its verdicts and workerd's memory growth. */
async function checkGroup(group: ServedCase[]) {
  const pids = workerdPids(new URL(server.url).port);
  expect(pids.length).toBeGreaterThan(0);
  const memory = watchMemory(pids);
  const results = await checkHostileCases({ url: server.url, apiKey: server.apiKey, origin: pages.origin, cases: group });
  const { baselineMiB, peakGrowthMiB, alive } = memory.stop();
  console.log(
    [
      `workerd ${pids.join(", ")}: ${baselineMiB.toFixed(0)} MiB before, peak growth ${peakGrowthMiB.toFixed(0)} MiB (bound ${HOSTILE_MEMORY_BOUND_MIB} MiB)`,
      ...results.map((result) => `${result.name}: ${result.status}${result.ms === null ? "" : ` in ${result.ms} ms`}`),
    ].join("\n"),
  );
  expect(alive).toBe(true);
  for (const [i, result] of results.entries()) {
    expect(result.status, result.name).not.toBe("pending");
    // A hostile page is left unchecked (its reader's bounds) or judged on what was read; the control page is read whole.
    expect(["verified", "partial", "not_found", "unchecked"], result.name).toContain(result.status);
    if (group[i]?.control) expect(result.status, result.name).toBe("verified");
    if (group[i]?.contentType === "application/pdf") expect(result.status, result.name).toBe("unchecked");
  }
  expect(peakGrowthMiB).toBeLessThan(HOSTILE_MEMORY_BOUND_MIB);
}

const bound = `a verdict within ${HOSTILE_VERDICT_WITHIN_MS / 1000} s each, workerd growing by less than ${HOSTILE_MEMORY_BOUND_MIB} MiB`;

describe("hostile pages against the source checker", () => {
  it(`PDF decompression bombs (two and three Flate layers, 400 MiB in 1.5 KB): unchecked, ${bound}`, { timeout: HOSTILE_VERDICT_WITHIN_MS + 60_000 }, async () => {
    await checkGroup(cases.filter((item) => item.contentType === "application/pdf"));
  });

  it(`HTML nested, repeated or unclosed past reason, and an ordinary 2 MiB page: ${bound}`, { timeout: HOSTILE_VERDICT_WITHIN_MS + 60_000 }, async () => {
    await checkGroup(cases.filter((item) => item.contentType !== "application/pdf"));
  });
});
