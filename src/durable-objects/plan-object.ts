import { DurableObject } from "cloudflare:workers";
import { asc, desc, inArray, lt } from "drizzle-orm";
import { type DrizzleSqliteDODatabase, drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import { CairnError, conflict } from "../domain/errors";
import { rpcFailure, type RpcResult } from "../domain/rpc-result";
import { newId } from "../domain/ids";
import { type CommandResult, type HistoryPage, NO_PLAN_HERE, type PlanCommand } from "../domain/plans/engine";
import { changesListing, indexEntryOf, type PlanIndexEntry } from "../domain/plans/index-entry";
import {
  cancelPlan,
  createPlan,
  liftLegacyReviews,
  modifyPlan,
  type NextStepOutcome,
  nextStep,
  onAlarm,
  requestReview,
  submitResult,
  submitReview,
  type Transition,
} from "../domain/plans/machine";
import { assignReview } from "../domain/plans/review-assignee";
import { type Actor, isTerminalPlan, type PlanState, type Step } from "../domain/plans/model";
import { nextStallDeadline } from "../domain/plans/status";
import type { ApprovalMode } from "../domain/plans/approval";
import { importedPlanHold } from "../domain/plans/spend-gate";
import { nextBudgetAlarm } from "../domain/plans/budget-review";
import type { TableDump } from "../domain/org-data/format";
import { orgBeingErased } from "../domain/org-data/write-gate";
import type { Env } from "../env";
import migrations from "./migrations/migrations";
import { dumpTables, restoreTables } from "./storage-dump";
import { PlanOutbox } from "./plan-outbox";
import { auditRows, planRow, stepRows, versionRows } from "./plan-schema";
import { planWebhookEvents } from "../domain/webhooks/plan-events";


/** The tables an export carries (not the outbox: index updates in flight). */
const PLAN_TABLES = ["plan", "steps", "versions", "audit"] as const;
/** The audit's sequence is the object's own: an export leaves it out, an import numbers the entries afresh in order. */
const PLAN_MANAGED_COLUMNS = { audit: ["seq"] } as const;
const MAX_ALARM_RETRIES = 5;


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
  readonly #outbox: PlanOutbox;
  /** Transitions persisted by this instance: tells a finished flush whether the state it began with is still the newest. */
  #writes = 0;
  /** The alarm as last set by this instance; undefined when unknown (a fresh instance, or after the alarm fired). */
  #armedAt: number | null | undefined = undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#db = drizzle(ctx.storage);
    this.#outbox = new PlanOutbox(this.#db);
    void ctx.blockConcurrencyWhile(async () => {
      migrate(this.#db, migrations);
    });
  }

  async run(command: PlanCommand, actor: Actor, now = Date.now()): Promise<RpcResult<CommandResult>> {
    let applied: { result: CommandResult; changesListing: boolean };
    try {
      applied = this.#apply(command, actor, now);
    } catch (error) {
      if (error instanceof CairnError) return rpcFailure(error);
      throw error;
    }
    await this.#afterWrite(applied.result.state, applied.changesListing);
    // A command that landed after its org's erasure began (it was admitted before): nothing of it stays.
    if (this.#outbox.orgClosed) {
      await this.erase();
      return rpcFailure(orgBeingErased(null));
    }
    // The index write the caller waited for, as a D1 position: its next list, even from a replica, shows it.
    const bookmark = applied.changesListing ? this.#outbox.indexBookmark : null;
    return { ok: true, value: applied.result, ...(bookmark ? { bookmark } : {}) };
  }

  /** The plan as stored, with results and reports of the named steps (or of all steps). */
  async read(options: { withResults: boolean | string[] }): Promise<RpcResult<PlanState>> {
    const state = this.#load(options.withResults);
    if (!state) return rpcFailure(new CairnError("not_found", NO_PLAN_HERE));
    return { ok: true, value: state };
  }

  async history(options: { beforeAuditSeq: number | null; limit: number }): Promise<RpcResult<HistoryPage>> {
    if (!this.#load(false)) return rpcFailure(new CairnError("not_found", NO_PLAN_HERE));
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
    return dumpTables(this.ctx.storage.sql, PLAN_TABLES, PLAN_MANAGED_COLUMNS);
  }

  /**
   * Recreates an exported plan in this (empty) object: rows as exported, ids
   * already remapped by the importer; the stall alarm is armed as the plan's
   * state asks, so a plan resumes where it was. It then goes through the spend
   * gate as the org it arrives in lets it spend (`orgApproval`): a plan that can
   * still spend where approval applies waits for a person of this org (audited,
   * its index updated before the answer). Answers whether it waits for approval.
   */
  async importState(tables: TableDump, orgApproval: ApprovalMode, now: number): Promise<RpcResult<{ planId: string; awaitingApproval: boolean }>> {
    if (this.#load(false)) return rpcFailure(conflict("This plan already exists; an import never overwrites one."));
    try {
      this.ctx.storage.transactionSync(() => restoreTables(this.ctx.storage.sql, tables, PLAN_TABLES));
    } catch (error) {
      return rpcFailure(new CairnError("validation", `The plan's state does not fit: ${error instanceof Error ? error.message : String(error)}`));
    }
    let state = this.#load(false);
    if (!state) return rpcFailure(new CairnError("validation", "The plan's state has no plan row."));
    const held = importedPlanHold(orgApproval, state, now, (prefix) => newId(prefix));
    if (held) {
      this.#persist(state, held, { userId: "system", clientId: "import" }, now);
      state = held.state;
      await this.#afterWrite(state, true);
    } else {
      await this.#scheduleAlarm(state);
    }
    const awaitingApproval = (state.plan.reviews ?? []).some((review) => review.kind === "approval" && review.decision === null);
    return { ok: true, value: { planId: state.plan.planId, awaitingApproval } };
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
      await this.#outbox.flush(this.env);
      if (this.#outbox.orgClosed) {
        await this.erase();
        state = null;
      }
    } catch (error) {
      // Let the platform retry with backoff; after repeated failure, stop relying on it and re-arm ourselves.
      if ((info?.retryCount ?? 0) < MAX_ALARM_RETRIES) throw error;
      console.error(JSON.stringify({ level: "error", message: "plan alarm failed; re-armed", error: String(error) }));
    } finally {
      if (!this.#outbox.orgClosed) await this.#scheduleAlarm(state);
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
      case "assign_review":
        transition = assignReview(state, command, now);
        break;
      case "cancel":
        transition = cancelPlan(state, command.reason, now);
        break;
      case "resume":
        transition = { state, events: [{ action: "session_resumed", stepId: null, detail: { sessionId: command.sessionId } }], modifications: [] };
        break;
    }
    const queued = transition.state !== state || transition.events.length > 0 ? this.#persist(state, transition, actor, now) : null;
    return {
      result: {
        state: transition.state,
        modifications: transition.modifications,
        ...(outcome ? { outcome } : {}),
        ...(replayed !== undefined ? { replayed } : {}),
      },
      changesListing: queued !== null && changesListing(indexEntryOf(state, now, 0), queued),
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
    // Budget reviews stored as steps by earlier versions are read as the plan reviews they are.
    return liftLegacyReviews({ plan: JSON.parse(row.data), steps });
  }

  /** Writes a transition in one synchronous transaction: state, versions, audit and the outbox; returns the index entry it queued. */
  #persist(previous: PlanState | null, transition: Transition, actor: Actor, now: number): PlanIndexEntry {
    const { state } = transition;
    const entry = indexEntryOf(state, now, 0);
    const before = new Map(previous?.steps.map((step) => [step.stepId, step]) ?? []);
    this.#writes++;
    this.ctx.storage.transactionSync(() => {
      this.#db
        .insert(planRow)
        .values({ planId: state.plan.planId, data: JSON.stringify(state.plan) })
        .onConflictDoUpdate({ target: planRow.planId, set: { data: JSON.stringify(state.plan) } })
        .run();
      const kept = new Set(state.steps.map((step) => step.stepId));
      const stored = this.#db.select({ stepId: stepRows.stepId }).from(stepRows).all().map((row) => row.stepId);
      const removed = stored.filter((stepId) => !kept.has(stepId));
      if (removed.length) this.#db.delete(stepRows).where(inArray(stepRows.stepId, removed)).run();
      // A row read but not kept (a lifted legacy review) shifted the others' positions: write them all.
      const rewriteAll = removed.some((stepId) => !before.has(stepId));
      for (const step of state.steps) {
        if (!rewriteAll && before.get(step.stepId) === step) continue;
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
      // Webhook events are decided here, with the state they describe, and leave only through the outbox.
      this.#outbox.record(entry, planWebhookEvents(state, transition.events, now, () => newId("msg")), now);
    });
    return entry;
  }

  /**
   * Sends the outbox on after a command. The caller waits for it only when the command changed how
   * the plan is listed (created, renamed, cancelled, finished, stalled…): then `list_active_plans`
   * shows it as soon as the call answers. Progress, the current step and timestamps leave right after
   * the answer instead, so a step transition costs the caller no D1 write. The alarm is armed before
   * the flush: an update the flush loses is retried within a second, one that fails on its schedule.
   */
  async #afterWrite(state: PlanState, waitForIndex: boolean): Promise<void> {
    await this.#scheduleAlarm(state);
    const flushed = this.#flushAndRearm(state);
    if (waitForIndex) await flushed;
    else this.ctx.waitUntil(flushed);
  }

  /** Flushes, then re-arms so a flush that worked leaves only the plan's own deadlines. */
  async #flushAndRearm(state: PlanState): Promise<void> {
    const writes = this.#writes;
    try {
      await this.#outbox.flush(this.env);
    } catch (error) {
      // The outbox keeps the update and the alarm retries it; the caller's command has succeeded.
      console.error(JSON.stringify({ level: "warn", message: "plan outbox deferred", error: String(error) }));
    }
    if (this.#outbox.orgClosed) {
      await this.erase();
      return;
    }
    // Other commands may have committed while the flush waited on D1: the alarm follows the newest state.
    await this.#scheduleAlarm(this.#writes === writes ? state : this.#load(false));
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
    const retry = this.#outbox.retryAt(now);
    if (retry !== null) candidates.push(retry);
    const at = candidates.length ? Math.min(...candidates) : null;
    if (at === this.#armedAt) return;
    if (at === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(at);
    this.#armedAt = at;
  }
}
