/**
 * How the source-check queue's consumer shares its work out, and how every check ends in a verdict. Pure: the
 * consumer (platform/sources/consumer.ts) and the pending sweep (platform/sources/pending-sweep.ts) apply it.
 */
import { SOURCE_CHECK_LIMITS } from "./verification";

export const SOURCE_CHECK_CONCURRENCY = {
  /** Pages one batch fetches at once (a batch holds at most 10 messages: wrangler.toml max_batch_size). */
  fetchesPerBatch: 10,
  /**
   * Checks of one org in flight at once, across every batch the platform runs in parallel: an org recording many
   * slow pages takes at most this many of the consumer's slots; its other checks wait their turn.
   */
  perOrgInFlight: 20,
  /** A check counts as in flight this long after it started (the fetch's 15 s deadline, reading and writes, with room). */
  inFlightLeaseMs: 60_000,
  /**
   * An org over its in-flight cap has its check sent again this much later (not a retry: it spends no attempt): one
   * fetch's deadline, by when a slot has usually freed, so a long backlog turns over at most once per 15 s.
   */
  deferSeconds: 15,
  /** Attempts the queue gives a message: wrangler.toml max_retries (3) + 1. The last one always ends in a verdict. */
  maxAttempts: 4,
} as const;

/** The pending sweep: the five-minute cron of wrangler.toml. */
export const PENDING_SWEEP = {
  /** How often the sweep runs (wrangler.toml crons "*\/5 * * * *"). */
  everyMs: 5 * 60 * 1000,
  /** Sources one run handles per org, and in all, oldest first: the rest are the next run's. */
  perOrg: 100,
  perRun: 1_000,
} as const;

/**
 * A source pending this long is swept. Two runs must fit in the bound: the first finds it (pending less than
 * sweepAfterMs + everyMs) and sends its check again; the next, one period later and still within
 * SOURCE_CHECK_LIMITS.pendingMaxMs, marks it unchecked if no verdict came. So no source stays pending past the bound,
 * even when the message sent again is lost too.
 */
export const sweepAfterMs = (): number => SOURCE_CHECK_LIMITS.pendingMaxMs - 2 * PENDING_SWEEP.everyMs;

/** What the sweep does with a source still pending: its check sent once more, or given up on (unchecked). */
export function sweepAction(source: { requeuedAt: number | null }): "requeue" | "give_up" {
  return source.requeuedAt === null ? "requeue" : "give_up";
}

const minutes = (ms: number) => Math.round(ms / 60_000);

/** Why a source ends unchecked when its check never finished: reasons a reader of the ledger understands. */
export const CHECK_FAILURE_REASONS = {
  /** Every attempt of the check failed on Cairn's side (storage, not the page). */
  attemptsSpent: (attempts: number) => `not checked: Cairn's check failed ${attempts} times in a row (a fault on Cairn's side, not the page's)`,
  /** The queue gave the check up (dead-lettered). */
  deadLettered: "not checked: the check never completed (its queue message ran out of retries)",
  /** Reading the fetched content failed (a page Cairn's reader cannot handle). */
  unreadable: "not checked: Cairn could not read this page's content",
  /** Nothing came back within the bound. */
  noVerdict: () => `not checked: no verdict within ${minutes(SOURCE_CHECK_LIMITS.pendingMaxMs)} minutes`,
} as const;

/** Whether this delivery of a message is the queue's last: a failure now must still record a verdict. */
export const isLastAttempt = (attempts: number): boolean => attempts >= SOURCE_CHECK_CONCURRENCY.maxAttempts;

/**
 * Runs `work` on each item with at most `limit` running at once, in order of start; every item's outcome is kept
 * (one failing never stops the others).
 */
export async function eachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<PromiseSettledResult<void>[]> {
  const results: PromiseSettledResult<void>[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        await work(items[i] as T);
        results[i] = { status: "fulfilled", value: undefined };
      } catch (reason) {
        results[i] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}

/** Items grouped by a key, groups in order of first appearance, items in order within each. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return [...groups.values()];
}
