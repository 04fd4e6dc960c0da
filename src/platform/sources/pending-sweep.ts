import { CHECK_FAILURE_REASONS, PENDING_SWEEP, sweepAction, sweepAfterMs } from "../../domain/sources/check-scheduling";
import { unchecked } from "../../domain/sources/verification";
import type { Env } from "../../env";
import { markRequeued, pendingSources, recordVerdictIfPending } from "../../storage/source-check-runs";
import { bindingOf } from "../org-homes";
import { sourceCheckQueue } from "./producer";
import { log } from "../log";

export interface PendingSwept {
  /** Checks sent once more. */
  requeued: number;
  /** Sources marked unchecked: their check, sent again already, still brought no verdict. */
  givenUp: number;
}

/**
 * The pending sweep (every five minutes): each source pending since before sweepAfterMs ago has its check sent once
 * more (its message lost, or never sent) or, sent again already, is marked unchecked ("no verdict within N minutes"),
 * oldest first, at most PENDING_SWEEP.perOrg of an org and perRun in all, in every org's home database. One database
 * failing never stops the others, and a failure never stops the cron's other work (it throws nothing).
 */
export async function sweepPendingSources(env: Env, now: number): Promise<PendingSwept> {
  const swept: PendingSwept = { requeued: 0, givenUp: 0 };
  let results: { home_database: string }[];
  try {
    ({ results } = await env.DB.prepare("SELECT DISTINCT home_database FROM orgs WHERE home_database IS NOT NULL").all<{ home_database: string }>());
  } catch (error) {
    // The cron's other work (retention, re-checks) still runs; the next run sweeps.
    log("error", "pending sources not swept; the next run tries again", { error: String(error) });
    return swept;
  }
  let left: number = PENDING_SWEEP.perRun;
  for (const { home_database: homeName } of results) {
    if (left <= 0) break;
    try {
      const home = bindingOf(env, homeName);
      const pending = await pendingSources(home, now - sweepAfterMs(), { perOrg: PENDING_SWEEP.perOrg, limit: left });
      left -= pending.length;
      const again = pending.filter((source) => sweepAction(source) === "requeue");
      // Sent first, marked after: a send that fails leaves them for the next run.
      await sourceCheckQueue(env).enqueue(again.map(({ orgId, planId, n }) => ({ orgId, planId, n })));
      await markRequeued(home, again, now);
      swept.requeued += again.length;
      for (const source of pending.filter((s) => sweepAction(s) === "give_up")) {
        if (await recordVerdictIfPending(home, source.orgId, source.planId, source.n, unchecked(CHECK_FAILURE_REASONS.noVerdict(), now))) swept.givenUp++;
      }
    } catch (error) {
      log("error", "pending sources not swept in a database; the next run tries again", { database: homeName, error: String(error) });
    }
  }
  if (swept.requeued || swept.givenUp) log("warn", "source checks left pending were swept", { ...swept });
  return swept;
}
