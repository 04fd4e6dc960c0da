/**
 * How an org's source checks share the work out, and how every check ends in a verdict. Pure: the org's checker
 * (durable-objects/source-checker-object.ts) and the pending sweep (platform/sources/pending-sweep.ts) apply it.
 */
import { SOURCE_CHECK_LIMITS } from "./verification";

export const SOURCE_CHECK_CONCURRENCY = {
  /**
   * Checks of one org running at once, in the org's own checker (one Durable Object per org): an org recording many
   * slow pages holds at most this many fetches; its other checks wait their turn there, behind nobody else's.
   */
  perOrgInFlight: 20,
  /**
   * Attempts of one check: the org's checker retries a check that failed on Cairn's side, and its last attempt always
   * ends in a verdict. The same count is the queue's attempts of a hand-off to the checker (wrangler.toml
   * max_retries 3 + 1).
   */
  maxAttempts: 4,
  /** The wait before a failed check's next attempt, doubled at each (SOURCE_CHECK_RETRY_BASE_SECONDS overrides it). */
  retryBaseMs: 5_000,
  /**
   * How long one run of an org's checker starts new checks: then it lets the checks under way finish (each within the
   * fetch's attempts, 15 s each, and its writes) and schedules the next run at once, so a run stays far below an alarm's 15 minutes.
   */
  runBudgetMs: 5 * 60_000,
  /** A run cut short (its object restarted) resumes this long after it began, at the latest. */
  runBackstopMs: 10 * 60_000,
} as const;

/** The wait before attempt `attempt + 1` of a check after `attempt` failed ones: base, 2 × base, 4 × base… */
export const retryDelayMs = (attempt: number, baseMs: number = SOURCE_CHECK_CONCURRENCY.retryBaseMs): number => baseMs * 2 ** Math.max(0, attempt - 1);

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

/** Whether this attempt (a check's in the org's checker, or a hand-off's in the queue) is the last: a failure now must still record a verdict. */
export const isLastAttempt = (attempts: number): boolean => attempts >= SOURCE_CHECK_CONCURRENCY.maxAttempts;

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
