import { asc, desc, eq, lte } from "drizzle-orm";
import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import { CairnError } from "../domain/errors";
import { refusedByDatabaseGate } from "../domain/org-data/write-gate";
import { FROM_PRIMARY, newerBookmark } from "../domain/read-position";
import type { PlanIndexEntry } from "../domain/plans/index-entry";
import type { WebhookEvent } from "../domain/webhooks/events";
import type { WebhookMessage } from "../domain/webhooks/model";
import type { Env } from "../env";
import { homeDatabase } from "../platform/org-homes";
import { upsertPlanIndex } from "../storage/plan-index";
import { outboxRows, webhookOutboxRows } from "./plan-schema";

/** Delay before the next try, by how many tries have failed: the alarm's schedule for what is left here. */
const RETRY_MS = [1_000, 5_000, 30_000, 120_000, 600_000];
const retryDelay = (attempts: number): number => RETRY_MS[Math.min(attempts, RETRY_MS.length - 1)] ?? 600_000;

/**
 * What a plan object owes the world outside it after a command: the newest
 * entry of the org's plan index (D1, in the org's home database) and the
 * webhook events (the queue). Both are written in the command's own
 * transaction and wait in the object's SQLite until taken, so a crash or a
 * failed write loses nothing: the object's alarm retries them (see `retryAt`).
 */
export class PlanOutbox {
  readonly #db: DrizzleSqliteDODatabase;
  #flushing: Promise<void> | null = null;
  #indexBookmark: string | null = null;
  #orgClosed = false;

  constructor(db: DrizzleSqliteDODatabase) {
    this.#db = db;
  }

  /** Inside the command's transaction: the plan's index entry (its seq is the row's, set when sent) and its events. */
  record(entry: PlanIndexEntry, events: readonly WebhookEvent[], now: number): void {
    this.#db.insert(outboxRows).values({ payload: JSON.stringify(entry), createdAt: now }).run();
    for (const event of events) this.#db.insert(webhookOutboxRows).values({ payload: JSON.stringify(event), createdAt: now }).run();
  }

  /**
   * Whether the org refused this plan's index for good: erased (the directory no longer holds it), or being
   * erased (its database refused the row). A plan in that state is one a call admitted before the erasure
   * wrote late; its object then erases itself (PlanObject), so nothing of it outlives the org.
   */
  get orgClosed(): boolean {
    return this.#orgClosed;
  }

  /** Sends the newest index entry to D1 and the events to their queue, clearing what was taken. One flush at a time. */
  flush(env: Env): Promise<void> {
    if (!this.#flushing) {
      // Each on its own: the index is not held up by the queue, nor the queue by D1.
      this.#flushing = Promise.allSettled([this.#drainIndex(env), this.#drainEvents(env)])
        .then(([index, webhooks]) => {
          if (index.status === "rejected") throw new Error(`plan index update: ${String(index.reason)}`);
          if (webhooks.status === "rejected") throw new Error(`webhook events to the queue: ${String(webhooks.reason)}`);
        })
        .finally(() => (this.#flushing = null));
    }
    return this.#flushing;
  }

  /**
   * The D1 bookmark of the newest index write this instance made (in the org's home database), or null:
   * a caller given it (REST or MCP) reads the plan in its list even from a replica.
   */
  get indexBookmark(): string | null {
    return this.#indexBookmark;
  }

  /** When the alarm should try again for what is still here, or null when nothing waits. */
  retryAt(now: number): number | null {
    const newest = this.#db.select().from(outboxRows).orderBy(desc(outboxRows.seq)).limit(1).get();
    const oldestEvent = this.#db.select().from(webhookOutboxRows).orderBy(asc(webhookOutboxRows.seq)).limit(1).get();
    const times = [newest, oldestEvent].filter((row) => row !== undefined).map((row) => now + retryDelay(row.attempts));
    return times.length ? Math.min(...times) : null;
  }

  /** Hands the events to the queue in order, oldest first; a failure keeps them for the alarm's retry. */
  async #drainEvents(env: Env): Promise<void> {
    const rows = this.#db.select().from(webhookOutboxRows).orderBy(asc(webhookOutboxRows.seq)).limit(100).all();
    const [first] = rows;
    const last = rows.at(-1);
    if (!first || !last) return;
    try {
      await env.WEBHOOK_QUEUE.sendBatch(rows.map((row) => ({ body: { kind: "event", event: JSON.parse(row.payload) } satisfies WebhookMessage })));
    } catch (error) {
      this.#db.update(webhookOutboxRows).set({ attempts: first.attempts + 1 }).where(lte(webhookOutboxRows.seq, last.seq)).run();
      throw error;
    }
    this.#db.delete(webhookOutboxRows).where(lte(webhookOutboxRows.seq, last.seq)).run();
  }

  async #drainIndex(env: Env): Promise<void> {
    // Commands that commit while a write is in flight add newer entries: keep going until none is left.
    for (let round = 0; round < 5; round++) {
      const latest = this.#db.select().from(outboxRows).orderBy(desc(outboxRows.seq)).limit(1).get();
      if (!latest) return;
      try {
        const entry: PlanIndexEntry = JSON.parse(latest.payload);
        // The index lives with the org's research, in its home database (remembered per isolate after the first read).
        const home = await homeDatabase(env, entry.orgId).catch((error: unknown) => {
          // An org the directory no longer holds was erased: nothing lists its plans, so there is nothing to index.
          if (error instanceof CairnError && error.code === "not_found") {
            this.#orgClosed = true;
            return null;
          }
          throw error;
        });
        if (home) {
          // Through a session only to learn the write's bookmark: writes always go to the primary.
          const session = home.withSession(FROM_PRIMARY);
          const indexed = await upsertPlanIndex(session, { ...entry, seq: latest.seq }).then(
            () => true,
            (error: unknown) => {
              // The org is being erased or is gone, and its database refused the row: no retry will list this plan.
              if (refusedByDatabaseGate(error)) {
                this.#orgClosed = true;
                return false;
              }
              throw error;
            },
          );
          if (indexed) this.#indexBookmark = newerBookmark(this.#indexBookmark, session.getBookmark());
        }
      } catch (error) {
        this.#db.update(outboxRows).set({ attempts: latest.attempts + 1 }).where(eq(outboxRows.seq, latest.seq)).run();
        throw error;
      }
      this.#db.delete(outboxRows).where(lte(outboxRows.seq, latest.seq)).run();
    }
  }
}
