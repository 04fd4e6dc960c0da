import { DurableObject } from "cloudflare:workers";
import { CairnError } from "../domain/errors";
import type { SourceCheckMessage } from "../domain/ports";
import { CHECK_FAILURE_REASONS, isLastAttempt, retryDelayMs, SOURCE_CHECK_CONCURRENCY } from "../domain/sources/check-scheduling";
import type { Env } from "../env";
import { giveUp } from "../platform/sources/check-failures";
import { log } from "../platform/log";
import { type Checker, type CheckReady, checkerOf, checkSource, type PageFetches, sourceToCheck } from "../platform/sources/check-source";

/** One stored check: what the queue's message said, when it was asked for, when it is due, the attempts it failed. */
const SCHEMA = `CREATE TABLE IF NOT EXISTS checks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL, plan_id TEXT NOT NULL, n INTEGER NOT NULL, recheck INTEGER NOT NULL,
  asked_at INTEGER NOT NULL, due_at INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
  UNIQUE (plan_id, n))`;

type Row = {
  id: number;
  org_id: string;
  plan_id: string;
  n: number;
  recheck: number;
  asked_at: number;
  attempts: number;
};

interface Run {
  started: number;
  checker: Checker;
  done: Promise<void>;
  settle: () => void;
}

const bodyOf = (row: Row): SourceCheckMessage => ({ orgId: row.org_id, planId: row.plan_id, n: row.n, ...(row.recheck ? { recheck: true as const } : {}) });

/** SOURCE_CHECK_RETRY_BASE_SECONDS: the wait before a failed check's second attempt (0 retries at once; the tests do). */
function retryBaseMs(setting: string | undefined): number {
  const seconds = Number(setting);
  return setting !== undefined && setting !== "" && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : SOURCE_CHECK_CONCURRENCY.retryBaseMs;
}

/**
 * One org's source checker (named by the org's id): the queue's consumer hands it the org's checks and it runs them,
 * at most SOURCE_CHECK_CONCURRENCY.perOrgInFlight at once, so an org's slow pages hold only its own checks and never
 * a queue batch. Checks are stored here until they end (a restart loses none); those of one page run one after
 * another, the later ones reusing the first one's snapshot; a check that fails on Cairn's side is retried after a
 * doubling wait, and its last attempt ends the source unchecked, as the queue did before.
 *
 * A run (the alarm) takes due checks as slots free, including checks handed over while it runs, for
 * runBudgetMs; then it lets the checks under way end and schedules the next run at once. What it stores is bounded
 * by what the org may record (SOURCE_CHECKS_PER_MINUTE, SOURCE_CHECKS_PER_DAY) and each check's attempts.
 */
export class SourceCheckerObject extends DurableObject<Env> {
  #run: Run | null = null;
  #workers = 0;
  /** Checks taken by this run and not yet ended or put back. */
  readonly #taken = new Set<number>();
  /** Pages being checked now, each with the checks of the same page waiting for it. */
  readonly #pages = new Map<string, { row: Row; ready: CheckReady }[]>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(SCHEMA);
  }

  /** Stores the org's checks (a check already stored is not stored twice) and has them run: now, or as slots free. */
  async accept(bodies: readonly SourceCheckMessage[]): Promise<void> {
    const now = Date.now();
    for (const body of bodies) {
      this.ctx.storage.sql.exec(
        "INSERT INTO checks (org_id, plan_id, n, recheck, asked_at, due_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (plan_id, n) DO NOTHING",
        body.orgId,
        body.planId,
        body.n,
        body.recheck ? 1 : 0,
        now,
        now,
      );
    }
    if (this.#run) this.#spawn();
    else await this.ctx.storage.setAlarm(now);
  }

  /** Checks stored and not ended (a test's and an operator's view). */
  pending(): number {
    return this.ctx.storage.sql.exec<{ count: number }>("SELECT COUNT(*) AS count FROM checks").one().count;
  }

  override async alarm(): Promise<void> {
    if (this.#run) {
      this.#spawn();
      return this.#run.done;
    }
    let settle = () => {};
    const done = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const run: Run = { started: Date.now(), checker: checkerOf(this.env), done, settle };
    this.#run = run;
    try {
      // A run cut short (the object restarted) resumes by this alarm; the run's end replaces it.
      await this.ctx.storage.setAlarm(run.started + SOURCE_CHECK_CONCURRENCY.runBackstopMs);
    } catch (error) {
      log("warn", "the source checker's backstop alarm was not set", { error: String(error) });
    }
    this.#spawn();
    if (this.#workers === 0) this.#finish();
    return done;
  }

  /** Starts a worker per free slot while due checks wait. */
  #spawn(): void {
    while (this.#run && this.#workers < SOURCE_CHECK_CONCURRENCY.perOrgInFlight) {
      const row = this.#take();
      if (!row) return;
      this.#workers++;
      void this.#work(row).finally(() => {
        this.#workers--;
        if (this.#workers > 0) return;
        this.#spawn();
        if (this.#workers === 0) this.#finish();
      });
    }
  }

  /** The oldest due check not taken yet, taken; none once the run's budget is spent. */
  #take(): Row | null {
    const run = this.#run;
    if (!run || Date.now() - run.started >= SOURCE_CHECK_CONCURRENCY.runBudgetMs) return null;
    const rows = this.ctx.storage.sql
      .exec<Row>("SELECT id, org_id, plan_id, n, recheck, asked_at, attempts FROM checks WHERE due_at <= ? ORDER BY id LIMIT ?", Date.now(), this.#taken.size + 1)
      .toArray();
    const row = rows.find((r) => !this.#taken.has(r.id)) ?? null;
    if (row) this.#taken.add(row.id);
    return row;
  }

  async #work(first: Row): Promise<void> {
    for (let row: Row | null = first; row; row = this.#take()) {
      try {
        await this.#handle(row);
      } catch (error) {
        // Only this object's own storage can get here: the check stays stored for the next run.
        log("error", "a source check was left for the next run", { planId: row.plan_id, n: row.n, error: String(error) });
        this.#taken.delete(row.id);
        return;
      }
    }
  }

  async #handle(row: Row): Promise<void> {
    if (isLastAttempt(row.attempts)) return this.#giveUp(row);
    let ready: CheckReady | null;
    try {
      ready = await sourceToCheck(this.env, bodyOf(row));
    } catch (error) {
      return this.#failed(row, error);
    }
    if (!ready) return this.#ended(row);
    const page = ready.source.url;
    const waiting = this.#pages.get(page);
    // The worker checking this page checks this quote next, on the snapshot it stores.
    if (waiting) {
      waiting.push({ row, ready });
      return;
    }
    const queue: { row: Row; ready: CheckReady }[] = [];
    this.#pages.set(page, queue);
    // One fetch for the page's checks queued here: a failed one (its retries spent) answers them all.
    const fetches: PageFetches = new Map();
    try {
      for (let item: { row: Row; ready: CheckReady } | undefined = { row, ready }; item; item = queue.shift()) await this.#check(item.row, item.ready, fetches);
    } finally {
      this.#pages.delete(page);
      for (const left of queue) this.#taken.delete(left.row.id);
    }
  }

  async #check(row: Row, ready: CheckReady, fetches: PageFetches): Promise<void> {
    let putOff: { putOffMs: number } | null;
    try {
      putOff = await checkSource(this.env, this.#run?.checker ?? checkerOf(this.env), bodyOf(row), ready, row.asked_at, fetches);
    } catch (error) {
      return this.#failed(row, error);
    }
    // The page asked to be read again later (Retry-After), within the check's bound: no attempt spent.
    if (putOff) return this.#later(row, row.attempts, putOff.putOffMs);
    this.#ended(row);
  }

  async #failed(row: Row, error: unknown): Promise<void> {
    // The source is gone (its plan deleted, its org erased): nothing to check.
    if (error instanceof CairnError && error.code === "not_found") return this.#ended(row);
    const attempts = row.attempts + 1;
    const fields = { orgId: row.org_id, planId: row.plan_id, n: row.n, attempt: attempts, error: String(error) };
    if (!isLastAttempt(attempts)) {
      log("error", "source check failed; retried", fields);
      return this.#later(row, attempts, retryDelayMs(attempts, retryBaseMs(this.env.SOURCE_CHECK_RETRY_BASE_SECONDS)));
    }
    log("error", "source check failed on its last attempt; the source is marked unchecked", fields);
    return this.#giveUp({ ...row, attempts });
  }

  /** The last attempt failed: the source, still pending, ends unchecked; when even that write fails, the dead-letter queue's consumer tries it. */
  async #giveUp(row: Row): Promise<void> {
    try {
      await giveUp(this.env, bodyOf(row), CHECK_FAILURE_REASONS.attemptsSpent(SOURCE_CHECK_CONCURRENCY.maxAttempts));
      return this.#ended(row);
    } catch (error) {
      if (error instanceof CairnError && error.code === "not_found") return this.#ended(row);
      log("error", "an unchecked verdict was not recorded; the check goes to the dead-letter queue", { planId: row.plan_id, n: row.n, error: String(error) });
    }
    try {
      await this.env.SOURCE_CHECK_DLQ.send(bodyOf(row));
      this.#ended(row);
    } catch (error) {
      // Tried again later (the pending sweep too ends it within its bound).
      log("error", "a spent source check was not dead-lettered; tried again later", { planId: row.plan_id, n: row.n, error: String(error) });
      this.#later(row, row.attempts, retryDelayMs(SOURCE_CHECK_CONCURRENCY.maxAttempts));
    }
  }

  #ended(row: Row): void {
    this.ctx.storage.sql.exec("DELETE FROM checks WHERE id = ?", row.id);
    this.#taken.delete(row.id);
  }

  #later(row: Row, attempts: number, delayMs: number): void {
    this.ctx.storage.sql.exec("UPDATE checks SET attempts = ?, due_at = ? WHERE id = ?", attempts, Date.now() + delayMs, row.id);
    this.#taken.delete(row.id);
  }

  /** No worker left: the next run is set (or none) before anything else can run, so a check handed over now is never missed. */
  #finish(): void {
    const run = this.#run;
    if (!run) return;
    this.#run = null;
    const next = this.ctx.storage.sql.exec<{ at: number | null }>("SELECT MIN(due_at) AS at FROM checks").one().at;
    const scheduled = next === null ? this.ctx.storage.deleteAlarm() : this.ctx.storage.setAlarm(Math.max(next, Date.now()));
    scheduled.then(run.settle, (error: unknown) => {
      log("error", "the source checker's next run was not scheduled; the backstop alarm runs it", { error: String(error) });
      run.settle();
    });
  }
}
