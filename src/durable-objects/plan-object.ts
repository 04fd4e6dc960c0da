import { DurableObject } from "cloudflare:workers";
import { asc, desc, eq, inArray, lt, lte } from "drizzle-orm";
import { type DrizzleSqliteDODatabase, drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import { CairnError, conflict, type ErrorCode, type ValidationIssue } from "../domain/errors";
import { newId } from "../domain/ids";
import { type CommandResult, type HistoryPage, NO_PLAN_HERE, type PlanCommand } from "../domain/plans/engine";
import { changesListing, indexEntryOf, type PlanIndexEntry } from "../domain/plans/index-entry";
import {
  cancelPlan,
  createPlan,
  modifyPlan,
  type NextStepOutcome,
  nextStep,
  onAlarm,
  requestReview,
  submitResult,
  submitReview,
  type Transition,
} from "../domain/plans/machine";
import { type Actor, isTerminalPlan, type PlanState, type Step } from "../domain/plans/model";
import { nextStallDeadline } from "../domain/plans/status";
import { nextBudgetAlarm } from "../domain/plans/budget-review";
import type { TableDump } from "../domain/org-data/format";
import type { Env } from "../env";
import { homeDatabase } from "../platform/org-homes";
import { upsertPlanIndex } from "../storage/plan-index";
import migrations from "./migrations/migrations";
import { dumpTables, restoreTables } from "./storage-dump";
import { auditRows, outboxRows, planRow, stepRows, versionRows, webhookOutboxRows } from "./plan-schema";
import { planWebhookEvents } from "../domain/webhooks/plan-events";
import type { WebhookMessage } from "../domain/webhooks/model";

/** What crosses the RPC boundary instead of a thrown error (RPC keeps only an error's message). */
export type RpcResult<T> = { ok: true; value: T } | { ok: false; error: { code: ErrorCode; message: string; issues?: ValidationIssue[] } };

const OUTBOX_RETRY_MS = [1_000, 5_000, 30_000, 120_000, 600_000];
/** The tables an export carries (not the outbox: index updates in flight). */
const PLAN_TABLES = ["plan", "steps", "versions", "audit"] as const;
const MAX_ALARM_RETRIES = 5;

const toRpcError = (error: CairnError): RpcResult<never> => ({
  ok: false,
  error: { code: error.code, message: error.message, ...(error.details.issues ? { issues: error.details.issues } : {}) },
});

/**
 * One research plan: its steps, reviews, versions and audit trail, in the
 * object's own SQLite. Every command loads the state, applies the pure state
 * machine and writes the result in one synchronous transaction, so commands on
 * one plan are serialized and never interleave. The D1 index is updated through
 * an outbox that the object's alarm retries until D1 has taken it; the same
 * single alarm also fires at the earliest stall deadline.
 */
export class PlanObject extends DurableObject<Env> {
  readonly #db: DrizzleSqliteDODatabase;
  #flushing: Promise<void> | null = null;
  /** Transitions persisted by this instance: tells a flush that ran after an answer whether its state is still the newest. */
  #writes = 0;
  /** The alarm as last set by this instance; undefined when unknown (a fresh instance, or after the alarm fired). */
  #armedAt: number | null | undefined = undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#db = drizzle(ctx.storage);
    void ctx.blockConcurrencyWhile(async () => {
      migrate(this.#db, migrations);
    });
  }

  async run(command: PlanCommand, actor: Actor, now = Date.now()): Promise<RpcResult<CommandResult>> {
    let applied: { result: CommandResult; changesListing: boolean };
    try {
      applied = this.#apply(command, actor, now);
    } catch (error) {
      if (error instanceof CairnError) return toRpcError(error);
      throw error;
    }
    await this.#afterWrite(applied.result.state, applied.changesListing);
    return { ok: true, value: applied.result };
  }

  /** The plan as stored, with results and reports of the named steps (or of all steps). */
  async read(options: { withResults: boolean | string[] }): Promise<RpcResult<PlanState>> {
    const state = this.#load(options.withResults);
    if (!state) return toRpcError(new CairnError("not_found", NO_PLAN_HERE));
    return { ok: true, value: state };
  }

  async history(options: { beforeAuditSeq: number | null; limit: number }): Promise<RpcResult<HistoryPage>> {
    if (!this.#load(false)) return toRpcError(new CairnError("not_found", NO_PLAN_HERE));
    const versions = this.#db.select().from(versionRows).orderBy(asc(versionRows.version)).all();
    const rows = this.#db
      .select()
      .from(auditRows)
      .where(options.beforeAuditSeq === null ? undefined : lt(auditRows.seq, options.beforeAuditSeq))
      .orderBy(desc(auditRows.seq))
      .limit(options.limit + 1)
      .all();
    const page = rows.slice(0, options.limit);
    return {
      ok: true,
      value: {
        versions: versions.map((v) => ({ ...v, before: JSON.parse(v.before), after: JSON.parse(v.after) })),
        audit: page.map((a) => ({ ...a, detail: JSON.parse(a.detail) })),
        nextAuditSeq: rows.length > options.limit ? (page[page.length - 1]?.seq ?? null) : null,
      },
    };
  }

  /** The plan's storage for an org export (the outbox is left out: the D1 index is exported itself). */
  async exportState(): Promise<TableDump | null> {
    if (!this.#load(false)) return null;
    return dumpTables(this.ctx.storage.sql, PLAN_TABLES);
  }

  /**
   * Recreates an exported plan in this (empty) object: rows as exported, ids
   * already remapped by the importer; the stall alarm is armed as the plan's
   * state asks, so a plan resumes exactly where it was.
   */
  async importState(tables: TableDump): Promise<RpcResult<{ planId: string }>> {
    if (this.#load(false)) return toRpcError(conflict("This plan already exists; an import never overwrites one."));
    try {
      this.ctx.storage.transactionSync(() => restoreTables(this.ctx.storage.sql, tables, PLAN_TABLES));
    } catch (error) {
      return toRpcError(new CairnError("validation", `The plan's state does not fit: ${error instanceof Error ? error.message : String(error)}`));
    }
    const state = this.#load(false);
    if (!state) return toRpcError(new CairnError("validation", "The plan's state has no plan row."));
    await this.#scheduleAlarm(state);
    return { ok: true, value: { planId: state.plan.planId } };
  }

  /**
   * Erases everything this object stores (org erasure, or undoing a failed import). The empty
   * tables are made again at once, so a late call finds no plan rather than no table.
   */
  async erase(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.#armedAt = undefined;
    migrate(this.#db, migrations);
  }

  override async alarm(info?: AlarmInvocationInfo): Promise<void> {
    this.#armedAt = undefined; // the alarm that fired is gone from storage
    let state = this.#load(false);
    try {
      if (state) {
        const now = Date.now();
        const transition = onAlarm(state, now, (prefix) => newId(prefix));
        if (transition.events.length > 0) this.#persist(state, transition, { userId: "system", clientId: "plan-alarm" }, now);
        state = transition.state;
      }
      await this.#flushOutbox();
    } catch (error) {
      // Let the platform retry with backoff; after repeated failure, stop relying on it and re-arm ourselves.
      if ((info?.retryCount ?? 0) < MAX_ALARM_RETRIES) throw error;
      console.error(JSON.stringify({ level: "error", message: "plan alarm failed; re-armed", error: String(error) }));
    } finally {
      await this.#scheduleAlarm(state);
    }
  }

  // ------------------------------------------------------------ internals

  /** Applies a command and persists it; `changesListing` says whether the caller waits for the plan index (see changesListing). */
  #apply(command: PlanCommand, actor: Actor, now: number): { result: CommandResult; changesListing: boolean } {
    const id = (prefix: string) => newId(prefix);
    if (command.kind === "create") {
      if (this.#load(false)) throw conflict(`Plan ${command.input.planId} already exists.`);
      const transition = createPlan(command.input, actor, now, id);
      this.#persist(null, transition, actor, now);
      return { result: { state: transition.state, modifications: transition.modifications }, changesListing: true };
    }
    const state = this.#load(false);
    if (!state) throw new CairnError("not_found", NO_PLAN_HERE);
    let transition: Transition;
    let outcome: NextStepOutcome | undefined;
    let replayed: boolean | undefined;
    switch (command.kind) {
      case "next": {
        const next = nextStep(state, command.workerId, now, id);
        transition = next;
        outcome = next.outcome;
        break;
      }
      case "submit": {
        const submitted = submitResult(state, command.submission, now, id);
        transition = submitted;
        replayed = submitted.replayed;
        break;
      }
      case "modify":
        transition = modifyPlan(state, command.modification, command.rationale, now, id);
        break;
      case "request_review":
        transition = requestReview(state, command, now);
        break;
      case "submit_review":
        transition = submitReview(state, command.decision, actor, now, id);
        break;
      case "cancel":
        transition = cancelPlan(state, command.reason, now);
        break;
      case "resume":
        transition = { state, events: [{ action: "session_resumed", stepId: null, detail: { sessionId: command.sessionId } }], modifications: [] };
        break;
    }
    const written = transition.state !== state || transition.events.length > 0;
    if (written) this.#persist(state, transition, actor, now);
    return {
      result: {
        state: transition.state,
        modifications: transition.modifications,
        ...(outcome ? { outcome } : {}),
        ...(replayed !== undefined ? { replayed } : {}),
      },
      changesListing: written && changesListing(indexEntryOf(state, now, 0), indexEntryOf(transition.state, now, 0)),
    };
  }

  #load(withResults: boolean | string[]): PlanState | null {
    const row = this.#db.select().from(planRow).get();
    if (!row) return null;
    const rows = this.#db.select().from(stepRows).orderBy(asc(stepRows.stepOrder)).all();
    const wanted = (stepId: string) => (Array.isArray(withResults) ? withResults.includes(stepId) : withResults);
    const steps = rows.map((r): Step => {
      const step = JSON.parse(r.data) as Step;
      return wanted(r.stepId)
        ? { ...step, result: r.result === null ? null : JSON.parse(r.result), executionReport: r.executionReport === null ? null : JSON.parse(r.executionReport) }
        : step;
    });
    return { plan: JSON.parse(row.data), steps };
  }

  /** Writes a transition in one synchronous transaction: state, versions, audit and the index outbox. */
  #persist(previous: PlanState | null, transition: Transition, actor: Actor, now: number): void {
    const { state } = transition;
    const before = new Map(previous?.steps.map((step) => [step.stepId, step]) ?? []);
    this.#writes++;
    this.ctx.storage.transactionSync(() => {
      this.#db
        .insert(planRow)
        .values({ planId: state.plan.planId, data: JSON.stringify(state.plan) })
        .onConflictDoUpdate({ target: planRow.planId, set: { data: JSON.stringify(state.plan) } })
        .run();
      const kept = new Set(state.steps.map((step) => step.stepId));
      const removed = [...before.keys()].filter((stepId) => !kept.has(stepId));
      if (removed.length) this.#db.delete(stepRows).where(inArray(stepRows.stepId, removed)).run();
      for (const step of state.steps) {
        if (before.get(step.stepId) === step) continue;
        // Results and reports live in their own columns, written only when a transition set them.
        const { result, executionReport, ...rest } = step;
        const data = JSON.stringify({ ...rest, result: null, executionReport: null });
        const extra = {
          ...(result !== null && result !== undefined ? { result: JSON.stringify(result) } : {}),
          ...(executionReport ? { executionReport: JSON.stringify(executionReport) } : {}),
        };
        this.#db
          .insert(stepRows)
          .values({ stepId: step.stepId, stepOrder: step.stepOrder, data, ...extra })
          .onConflictDoUpdate({ target: stepRows.stepId, set: { stepOrder: step.stepOrder, data, ...extra } })
          .run();
      }
      for (const modification of transition.modifications) {
        this.#db
          .insert(versionRows)
          .values({
            version: modification.version,
            kind: modification.kind,
            rationale: modification.rationale,
            before: JSON.stringify(modification.before),
            after: JSON.stringify(modification.after),
            actorUserId: actor.userId,
            actorClientId: actor.clientId,
            createdAt: now,
          })
          .run();
      }
      for (const event of transition.events) {
        this.#db
          .insert(auditRows)
          .values({ action: event.action, stepId: event.stepId, detail: JSON.stringify(event.detail), actorUserId: actor.userId, actorClientId: actor.clientId, createdAt: now })
          .run();
      }
      // The entry's own seq is the outbox row's, filled in when it is sent (see #drainOutbox).
      this.#db.insert(outboxRows).values({ payload: JSON.stringify(indexEntryOf(state, now, 0)), createdAt: now }).run();
      // Webhook events are decided here, with the state they describe, and leave only through this outbox.
      for (const event of planWebhookEvents(state, transition.events, now, () => newId("msg"))) {
        this.#db.insert(webhookOutboxRows).values({ payload: JSON.stringify(event), createdAt: now }).run();
      }
    });
  }

  /**
   * Sends the outbox on after a command. The caller waits for it only when the command changed how
   * the plan is listed (created, renamed, cancelled, finished, stalled…): then `list_active_plans`
   * shows it as soon as the call answers. Progress, the current step and timestamps leave right after
   * the answer instead, so a step transition costs the caller no D1 write; the alarm armed first
   * retries within a second if that flush is lost or fails.
   */
  async #afterWrite(state: PlanState, waitForIndex: boolean): Promise<void> {
    // Armed before the flush, so an update left in the outbox by a crash mid-flush is still retried;
    // re-armed after, so a flush that worked leaves only the stall deadline.
    await this.#scheduleAlarm(state);
    if (!waitForIndex) {
      this.ctx.waitUntil(this.#flushAfterAnswer(state));
      return;
    }
    await this.#flushOrDefer();
    await this.#scheduleAlarm(state);
  }

  async #flushAfterAnswer(state: PlanState): Promise<void> {
    const writes = this.#writes;
    await this.#flushOrDefer();
    // The alarm follows the newest state: read back only if another command committed meanwhile.
    await this.#scheduleAlarm(this.#writes === writes ? state : this.#load(false));
  }

  async #flushOrDefer(): Promise<void> {
    try {
      await this.#flushOutbox();
    } catch (error) {
      // The outbox keeps the update and the alarm retries it; the caller's command has succeeded.
      console.error(JSON.stringify({ level: "warn", message: "plan outbox deferred", error: String(error) }));
    }
  }

  /** Sends the newest index entry to D1 and the webhook events to their queue, clearing what was taken. One flush at a time. */
  #flushOutbox(): Promise<void> {
    if (!this.#flushing) {
      // Each outbox on its own: the index is not held up by the queue, nor the queue by D1.
      this.#flushing = Promise.allSettled([this.#drainOutbox(), this.#drainWebhookOutbox()])
        .then(([index, webhooks]) => {
          if (index.status === "rejected") throw new Error(`plan index update: ${String(index.reason)}`);
          if (webhooks.status === "rejected") throw new Error(`webhook events to the queue: ${String(webhooks.reason)}`);
        })
        .finally(() => (this.#flushing = null));
    }
    return this.#flushing;
  }

  /** Hands the webhook events to the queue in order, oldest first; a failure keeps them for the alarm's retry. */
  async #drainWebhookOutbox(): Promise<void> {
    const rows = this.#db.select().from(webhookOutboxRows).orderBy(asc(webhookOutboxRows.seq)).limit(100).all();
    if (rows.length === 0) return;
    try {
      await this.env.WEBHOOK_QUEUE.sendBatch(rows.map((row) => ({ body: { kind: "event", event: JSON.parse(row.payload) } satisfies WebhookMessage })));
    } catch (error) {
      const first = rows[0] as (typeof rows)[number];
      this.#db.update(webhookOutboxRows).set({ attempts: first.attempts + 1 }).where(lte(webhookOutboxRows.seq, (rows[rows.length - 1] as (typeof rows)[number]).seq)).run();
      throw error;
    }
    this.#db.delete(webhookOutboxRows).where(lte(webhookOutboxRows.seq, (rows[rows.length - 1] as (typeof rows)[number]).seq)).run();
  }

  async #drainOutbox(): Promise<void> {
    // Commands that commit while a write is in flight add newer entries: keep going until none is left.
    for (let round = 0; round < 5; round++) {
      const latest = this.#db.select().from(outboxRows).orderBy(desc(outboxRows.seq)).limit(1).get();
      if (!latest) return;
      try {
        const entry: PlanIndexEntry = JSON.parse(latest.payload);
        // The index lives with the org's research, in its home database (remembered per isolate after the first read).
        const home = await homeDatabase(this.env, entry.orgId).catch((error: unknown) => {
          // An org the directory no longer holds was erased: nothing lists its plans, so there is nothing to index.
          if (error instanceof CairnError && error.code === "not_found") return null;
          throw error;
        });
        if (home) await upsertPlanIndex(home, { ...entry, seq: latest.seq });
      } catch (error) {
        this.#db.update(outboxRows).set({ attempts: latest.attempts + 1 }).where(eq(outboxRows.seq, latest.seq)).run();
        throw error;
      }
      this.#db.delete(outboxRows).where(lte(outboxRows.seq, latest.seq)).run();
    }
  }

  /**
   * The one alarm: the earliest future stall deadline, or sooner when the outbox waits for a retry.
   * `state` is the plan as just written (or null when there is none), so nothing is read back.
   */
  async #scheduleAlarm(state: PlanState | null): Promise<void> {
    const now = Date.now();
    const candidates: number[] = [];
    // A finished plan never stalls, and a stalled one has already said so: neither needs the stall deadline.
    if (state && state.plan.status !== "stalled" && !isTerminalPlan(state.plan)) {
      const deadline = nextStallDeadline(state);
      if (deadline !== null) candidates.push(Math.max(deadline, now + 1));
    }
    const budgetDeadline = state ? nextBudgetAlarm(state, now) : null;
    if (budgetDeadline !== null) candidates.push(budgetDeadline);
    const newest = this.#db.select().from(outboxRows).orderBy(desc(outboxRows.seq)).limit(1).get();
    if (newest) candidates.push(now + (OUTBOX_RETRY_MS[Math.min(newest.attempts, OUTBOX_RETRY_MS.length - 1)] ?? 600_000));
    const oldestEvent = this.#db.select().from(webhookOutboxRows).orderBy(asc(webhookOutboxRows.seq)).limit(1).get();
    if (oldestEvent) candidates.push(now + (OUTBOX_RETRY_MS[Math.min(oldestEvent.attempts, OUTBOX_RETRY_MS.length - 1)] ?? 600_000));
    const at = candidates.length ? Math.min(...candidates) : null;
    if (at === this.#armedAt) return;
    if (at === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(at);
    this.#armedAt = at;
  }
}
