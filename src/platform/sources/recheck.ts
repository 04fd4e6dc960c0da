import { rateLimited } from "../../domain/errors";
import { RECHECK_LIMITS, recheckBatchSize } from "../../domain/sources/recheck";
import type { AuditEntry } from "../../domain/ports";
import type { Env } from "../../env";
import { markRechecksRequested, sourcesDueRecheck } from "../../storage/delivered-sources";
import { d1EvidenceLedger } from "../../storage/ledger-repository";
import { bindingOf, homeDatabase } from "../org-homes";
import { sourceCheckQueue } from "./producer";
import { log } from "../log";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Orgs one daily run re-checks, so a run stays well inside a Worker's limits (the rest are next day's, oldest-checked first). */
const ORGS_PER_RUN = 1_000;

export interface RecheckQueued {
  /** Sources handed to the source-check queue for re-checking. */
  queued: number;
  /** The most one run queues for an org. */
  batchLimit: number;
}

/**
 * Queues a re-check of the org's sources cited by stored deliverables, oldest-checked first, at most
 * RECHECK_LIMITS.batch and within the org's per-minute and per-day check limits (rate_limited, with when to
 * retry, when they leave nothing). Each is fetched again and its quote looked for on the new text. `audit`: the
 * audit entry of the request asking (written with the mark, in one batch).
 */
export async function queueRechecks(env: Env, orgId: string, now: number, audit: ((queued: number) => AuditEntry) | null = null): Promise<RecheckQueued> {
  const home = await homeDatabase(env, orgId);
  const queue = sourceCheckQueue(env);
  const used = await d1EvidenceLedger(home).sourceCheckRequests(orgId, { minute: now - MINUTE_MS, day: now - DAY_MS });
  const batch = recheckBatchSize(used, queue.limits);
  if ("refusal" in batch) throw rateLimited(batch.refusal.message, batch.refusal.retryAfterSeconds);
  const due = await sourcesDueRecheck(home, orgId, batch.size, now);
  // Sent first, marked after: a send that fails leaves nothing marked as on its way.
  await queue.enqueue(due.map(({ planId, n }) => ({ orgId, planId, n, recheck: true })));
  await markRechecksRequested(home, orgId, due, now, audit?.(due.length) ?? null);
  return { queued: due.length, batchLimit: RECHECK_LIMITS.batch };
}

/**
 * The daily cron: each org with stored deliverables citing sources (not being erased or imported) has a batch
 * re-checked. An org at its check limits waits for the next run; one org's failure never stops the others.
 */
export async function recheckDeliveredSources(env: Env, now: number): Promise<{ orgs: number; queued: number }> {
  const { results: orgs } = await env.DB.prepare(
    "SELECT id, home_database FROM orgs WHERE home_database IS NOT NULL AND erasing_since IS NULL AND importing_since IS NULL",
  ).all<{ id: string; home_database: string }>();
  const active = new Map(orgs.map((org) => [org.id, org.home_database]));
  let done = 0;
  let queued = 0;
  for (const homeName of new Set(active.values())) {
    if (done >= ORGS_PER_RUN) break;
    let citing: string[];
    try {
      const { results } = await bindingOf(env, homeName).prepare("SELECT DISTINCT org_id FROM research_output_sources").all<{ org_id: string }>();
      citing = results.map((row) => row.org_id).filter((orgId) => active.get(orgId) === homeName);
    } catch (error) {
      log("error", "source re-checks skipped for a database", { database: homeName, error: String(error) });
      continue;
    }
    for (const orgId of citing.slice(0, ORGS_PER_RUN - done)) {
      done++;
      try {
        queued += (await queueRechecks(env, orgId, now)).queued;
      } catch (error) {
        log("warn", "source re-checks not queued for an org; the next run tries again", { orgId, error: String(error) });
      }
    }
  }
  log("info", "source re-checks queued", { orgs: done, queued });
  return { orgs: done, queued };
}
