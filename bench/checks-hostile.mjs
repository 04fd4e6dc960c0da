/**
 * `node bench/checks-hostile.mjs`: the hostile-page set against a real local Worker. Starts Cairn as the
 * end-to-end suite does (`wrangler dev` on a fresh state directory, migrated and seeded with the operator
 * tooling), serves the hostile pages on loopback (test/support/hostile-pages.mjs: PDF decompression bombs of
 * two and three Flate layers, deep, wide and unclosed HTML, and an ordinary 2 MiB page as a control), records
 * a source citing each through the REST API, waits for the verdicts and samples workerd's resident memory
 * (test/support/hostile-run.mjs). Prints each case and PASS or MISS (exit code 1 on a miss).
 *
 * `runHostileSet(options)` is the same run for other benches (`npm run bench:checks`):
 *   options.log        a function taking one line of progress (default: to stderr)
 *   options.boundMiB   workerd's allowed memory growth, MiB (default HOSTILE_MEMORY_BOUND_MIB, 256)
 *   options.withinMs   time each verdict may take (default HOSTILE_VERDICT_WITHIN_MS, 120 s)
 * and returns { peakMiB, boundMiB, baselineMiB, cases: [{ name, status, ms }], pass }: peakMiB is workerd's
 * peak resident memory growth over its level before the set; pass when every case has a verdict in time
 * (the control page verified, every PDF bomb unchecked) and peakMiB stays under boundMiB.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { addUser, applyMigrations, createApiKey, createOrg, findFreePort, startDevServer } from "../scripts/lib/local.mjs";
import { hostileCases, serveHostileCases } from "../test/support/hostile-pages.mjs";
import { checkHostileCases, HOSTILE_MEMORY_BOUND_MIB, HOSTILE_VERDICT_WITHIN_MS, watchMemory, workerdPids } from "../test/support/hostile-run.mjs";

const defaultLog = (line) => process.stderr.write(`[bench:checks-hostile] ${line}\n`);

/** Whether one case's verdict is what the set asks: any verdict, the control read whole, a PDF bomb not read. */
function caseMet(result, item) {
  if (result.status === "pending") return false;
  if (item.control) return result.status === "verified";
  if (item.contentType === "application/pdf") return result.status === "unchecked";
  return true;
}

export async function runHostileSet(options = {}) {
  const log = options.log ?? defaultLog;
  const boundMiB = options.boundMiB ?? HOSTILE_MEMORY_BOUND_MIB;
  const withinMs = options.withinMs ?? HOSTILE_VERDICT_WITHIN_MS;
  const persistTo = mkdtempSync(path.join(tmpdir(), "cairn-hostile-"));
  let server = null;
  let pages = null;
  try {
    log("building the hostile pages (the PDF bombs deflate 400 MiB of zeros)");
    const cases = await hostileCases();
    pages = await serveHostileCases(cases);
    await applyMigrations({ persistTo });
    await createOrg({ slug: "hostile", name: "Hostile pages" }, { persistTo });
    const email = "hostile-admin@cairn.test";
    await addUser({ org: "hostile", email, name: "Hostile Admin", role: "admin", password: "hostile-password-correct-horse" }, { persistTo });
    const { key: apiKey } = await createApiKey({ org: "hostile", userEmail: email, name: "hostile", scopes: ["research:read", "research:write"] }, { persistTo });
    server = await startDevServer({ port: await findFreePort(), persistTo, inspectorPort: await findFreePort(), logFile: path.join(persistTo, "wrangler.log") });
    const pids = workerdPids(server.port);
    if (pids.length === 0) throw new Error(`no workerd found under the wrangler dev on port ${server.port}`);
    const memory = watchMemory(pids);
    log(`workerd ${pids.join(", ")} at ${memory.baselineMiB.toFixed(0)} MiB; ${cases.length} cases served at ${pages.origin}`);
    const results = await checkHostileCases({ url: server.url, apiKey, origin: pages.origin, cases, withinMs });
    const { baselineMiB, peakGrowthMiB, alive } = memory.stop();
    const peakMiB = Math.round(peakGrowthMiB);
    const pass = alive && peakMiB < boundMiB && results.every((result, i) => caseMet(result, cases[i]));
    return { peakMiB, boundMiB, baselineMiB: Math.round(baselineMiB), cases: results, pass };
  } finally {
    await server?.stop();
    await pages?.close();
    rmSync(persistTo, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await runHostileSet();
  for (const item of result.cases) console.log(`${item.name.padEnd(48)} ${item.status.padEnd(10)} ${item.ms === null ? "–" : `${item.ms} ms`}`);
  console.log(`workerd peak growth ${result.peakMiB} MiB over ${result.baselineMiB} MiB (bound ${result.boundMiB} MiB)`);
  console.log(result.pass ? "PASS" : "MISS");
  process.exitCode = result.pass ? 0 : 1;
}
