/**
 * Source re-checks from the operator CLI: the Worker's POST /api/v1/sources/recheck (org:admin), with the same
 * temporary admin key and the same Worker (--url, the deployment with --remote, or a local wrangler dev) as the
 * webhook commands.
 */
import { normalizeSlug } from "./operators.mjs";
import { callWorker } from "./worker-call.mjs";
import { runSql, sqlInt, sqlString } from "./wrangler.mjs";

/** How long a command that started the Worker itself waits for the re-checks it queued (they run in that Worker). */
const LOCAL_WAIT_MS = 120_000;

/**
 * Queues a re-check of the org's sources cited by stored deliverables (oldest-checked first, at most a batch).
 * When the command started a local Worker for this, it waits for the verdicts before stopping it.
 * @returns {Promise<{ queued: number, batchLimit: number, waited?: { checked: number, pending: number } }>}
 */
export async function recheckSources(options) {
  const started = Date.now();
  return callWorker(options, {
    what: "sources recheck",
    method: "POST",
    path: "/sources/recheck",
    read: async (response, worker, target) => {
      const answer = await response.json();
      if (!worker.started || answer.queued === 0) return answer;
      return { ...answer, waited: await waitForVerdicts(normalizeSlug(options.org), target, started) };
    },
  });
}

/** Polls the org's home database until no source re-checked since `since` is still on its way (or the wait is over). */
async function waitForVerdicts(slug, target, since) {
  const [org] = await runSql(`SELECT id, home_database FROM orgs WHERE slug = ${sqlString(slug)}`, target);
  const options = { ...target, ...(org?.home_database && org.home_database !== "DB" ? { database: org.home_database } : {}) };
  const query = `SELECT COALESCE(SUM(verification_checked_at >= verification_requested_at), 0) AS checked,
                        COALESCE(SUM(COALESCE(verification_checked_at, 0) < verification_requested_at), 0) AS pending
                   FROM ledger_evidence WHERE org_id = ${sqlString(org?.id)} AND verification_requested_at >= ${sqlInt(since - 1000)}`;
  let counts = { checked: 0, pending: 0 };
  for (const deadline = Date.now() + LOCAL_WAIT_MS; Date.now() < deadline; ) {
    const [row] = await runSql(query, options);
    counts = { checked: Number(row?.checked ?? 0), pending: Number(row?.pending ?? 0) };
    if (counts.pending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  // Events decided by the verdicts leave through the webhook queue of the same Worker: a moment to send them.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  return counts;
}
