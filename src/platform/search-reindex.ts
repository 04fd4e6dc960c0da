import type { Env } from "../env";
import { indexPendingArtifacts } from "../storage/artifact-index-forms";
import { bindingOf } from "./org-homes";
import { homeDatabaseNames } from "./webhooks/sweeper";

/**
 * Artifacts given their indexed forms per statement batch, and how long one cron run may spend on them. An
 * artifact of 2 KB of Japanese costs ≈ 6 ms of index work (bench/search-scripts.mjs): a batch holds its
 * database ≈ 0.3 s, so searches meanwhile wait little; a million such artifacts take about a day of runs.
 */
export const REINDEX_BATCH = 50;
export const REINDEX_BUDGET_MS = 20_000;

/**
 * The five-minute cron's share of re-indexing what was stored before words inside Japanese, Chinese,
 * Korean and Thai runs were indexed (migration 0039): in every database orgs live in, batches of the
 * oldest listed artifacts until none is left or the run's time is spent. It throws nothing: what is
 * left waits for the next run. How many it took off the list.
 */
export async function indexPendingArtifactsEverywhere(env: Env, budgetMs = REINDEX_BUDGET_MS): Promise<number> {
  const until = Date.now() + budgetMs;
  let done = 0;
  try {
    for (const name of await homeDatabaseNames(env)) {
      let db: D1Database;
      try {
        db = bindingOf(env, name);
      } catch {
        continue; // logged by bindingOf
      }
      while (Date.now() < until) {
        const taken = await indexPendingArtifacts(db, REINDEX_BATCH);
        done += taken;
        if (taken < REINDEX_BATCH) break;
      }
    }
  } catch (error) {
    console.error(JSON.stringify({ level: "error", message: "re-indexing artifacts failed; the next run goes on", error: String(error) }));
  }
  return done;
}
