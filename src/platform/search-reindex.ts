import type { Env } from "../env";
import { INDEXED_TABLES, indexPendingRows } from "../storage/index-forms";
import { bindingOf } from "./org-homes";
import { homeDatabaseNames } from "./webhooks/sweeper";

/**
 * How long one cron run may spend giving rows their indexed forms. Each batch holds its database ≈ 0.3 s
 * (src/storage/index-forms.ts), so searches meanwhile wait little; a million artifacts of Japanese take about a
 * day of runs, an org's thousands of deliverables and claims minutes to an hour (docs/capacity.md).
 */
export const REINDEX_BUDGET_MS = 20_000;

/**
 * The five-minute cron's share of re-indexing what was stored before words inside Japanese, Chinese,
 * Korean and Thai runs were indexed (migrations 0039 for artifacts, 0042 for deliverables and claims): in
 * every database orgs live in, batches of the oldest listed rows of each table until none is left or the
 * run's time is spent. It throws nothing: what is left waits for the next run. How many it took off the lists.
 */
export async function indexPendingEverywhere(env: Env, budgetMs = REINDEX_BUDGET_MS): Promise<number> {
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
      for (const spec of INDEXED_TABLES) {
        while (Date.now() < until) {
          const taken = await indexPendingRows(db, spec);
          done += taken;
          if (taken < spec.batch) break;
        }
      }
    }
  } catch (error) {
    console.error(JSON.stringify({ level: "error", message: "re-indexing failed; the next run goes on", error: String(error) }));
  }
  return done;
}
