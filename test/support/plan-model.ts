import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { CairnError, type ErrorCode } from "../../src/domain/errors";
import type { CommandResult, HistoryPage, PlanCommand } from "../../src/domain/plans/engine";
import { indexEntryOf, type PlanIndexEntry } from "../../src/domain/plans/index-entry";
import type { NewId, NextStepOutcome, PlanEvent, PlanModification, Submission, Transition } from "../../src/domain/plans/machine";
import { type Actor, isTerminalPlan, type PlanState, TERMINAL_STEP_STATUSES } from "../../src/domain/plans/model";
import { nextStallDeadline, progressOf } from "../../src/domain/plans/status";
import type { RpcResult } from "../../src/domain/rpc-result";
import type { PlanObject } from "../../src/durable-objects/plan-object";

/**
 * The machinery of the plan model test (test/workers/plan-model.test.ts): a
 * pure model of one plan (the state machine applied to its own state, with its
 * own ids and the same clock as the object), the real plan object behind its
 * stub, and the comparison of the two after every command.
 *
 * The object draws random ids (steps it inserts, claims, conditions); the model
 * draws predictable ones. Each real id is paired with the model id found at the
 * same position the first time it appears, and from then on every real value is
 * translated into model ids before it is compared, so an id that changes, moves
 * or disappears shows up as a difference.
 */

export const MINUTE = 60_000;
export const ACTOR: Actor = { userId: "usr_model", clientId: "cli_model" };
/** Who the stall alarm acts as (plan-object.ts). */
export const ALARM_ACTOR: Actor = { userId: "system", clientId: "plan-alarm" };

/**
 * One clock for the test, the object and the model. `Date.now` is mocked to it in
 * the test isolate, which is also the objects' isolate, so the alarm handler and
 * the alarm scheduling see the same time the commands carry. It starts far ahead
 * of the wall clock: every alarm the objects set then lies in the real future and
 * never fires on its own during the run; alarms run only when a command runs them.
 */
export const clock = { now: 0 };

/** How often each command outcome and each event occurred over the whole file: proof the runs reach the interesting states. */
export const coverage: Record<string, number> = {};
export const count = (key: string) => {
  coverage[key] = (coverage[key] ?? 0) + 1;
};

export interface AuditEntry {
  action: string;
  stepId: string | null;
  detail: unknown;
  actorUserId: string;
  actorClientId: string | null;
  createdAt: number;
}

export interface Observation {
  withResults: PlanState;
  withoutResults: PlanState;
  history: HistoryPage;
  alarm: number | null;
  outbox: number;
  index: Record<string, unknown> | null;
}

export class PlanModel {
  state!: PlanState;
  now: number;
  #ids = 0;
  readonly newId: NewId = (prefix) => `${prefix}_model${++this.#ids}`;
  readonly audit: AuditEntry[] = [];
  readonly versions: (PlanModification & { actorUserId: string; actorClientId: string | null; createdAt: number })[] = [];
  /** The last entry the object projected to the D1 index, and how many it has projected (its outbox sequence). */
  indexed: PlanIndexEntry | null = null;
  projections = 0;
  /** Where the object's one alarm should stand. */
  alarmAt: number | null = null;
  stallEpisodes = 0;
  /** Every claim handed out, current or stale (model ids). */
  readonly claims: { stepId: string; claimId: string }[] = [];
  /** Submissions the plan accepted (model ids). */
  readonly accepted: Submission[] = [];
  readonly realToModel = new Map<string, string>();
  readonly modelToReal = new Map<string, string>();
  commands = 0;

  constructor(
    readonly planId: string,
    readonly orgId: string,
    start: number,
  ) {
    this.now = start;
  }

  /** The time of the next command: a second later than the last one. */
  tick(): number {
    this.now += 1_000;
    clock.now = this.now;
    return this.now;
  }

  advance(ms: number): void {
    this.now += ms;
    clock.now = this.now;
  }

  /** Pairs real and model ids found at the same positions, the first time each appears. */
  learn(real: PlanState, model: PlanState): void {
    const pair = (realId: string | null | undefined, modelId: string | null | undefined) => {
      if (!realId || !modelId || this.realToModel.has(realId) || this.modelToReal.has(modelId)) return;
      this.realToModel.set(realId, modelId);
      this.modelToReal.set(modelId, realId);
    };
    model.steps.forEach((step, i) => {
      pair(real.steps[i]?.stepId, step.stepId);
      pair(real.steps[i]?.claimId, step.claimId);
    });
    model.plan.branchingConditions.forEach((condition, i) => {
      pair(real.plan.branchingConditions[i]?.conditionId, condition.conditionId);
    });
  }

  toModel<T>(value: T): T {
    return mapStrings(value, this.realToModel);
  }

  toReal<T>(value: T): T {
    return mapStrings(value, this.modelToReal);
  }

  /** Records what the object writes for a transition it persists: audit, versions, one index projection. */
  record(transition: Transition, actor: Actor, now: number): void {
    for (const event of transition.events) {
      this.audit.push(auditEntry(event, actor, now));
      count(`event ${event.action}`);
    }
    for (const modification of transition.modifications) this.versions.push({ ...modification, actorUserId: actor.userId, actorClientId: actor.clientId, createdAt: now });
    this.stallEpisodes += transition.events.filter((event) => event.action === "plan.stalled").length;
    this.projections += 1;
    this.indexed = indexEntryOf(transition.state, now, this.projections);
  }

  /** Where plan-object.ts `#scheduleAlarm` puts the alarm once the outbox is empty. */
  scheduleAlarm(now: number): void {
    const deadline = this.state.plan.status === "stalled" || isTerminalPlan(this.state.plan) ? null : nextStallDeadline(this.state);
    this.alarmAt = deadline === null ? null : Math.max(deadline, now + 1);
  }
}

const auditEntry = (event: PlanEvent, actor: Actor, now: number): AuditEntry => ({
  action: event.action,
  stepId: event.stepId,
  detail: event.detail,
  actorUserId: actor.userId,
  actorClientId: actor.clientId,
  createdAt: now,
});

function mapStrings<T>(value: T, map: Map<string, string>): T {
  if (typeof value === "string") return (map.get(value) ?? value) as T;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)])) as T;
  }
  return value;
}

/** JSON's view of a value: what survives storage (no undefined members, no -0). */
export const plain = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

/** Drops results and execution reports from every step in a value (a state, an outcome). */
export function withoutResults<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutResults) as T;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([key, item]) => [key, withoutResults(item)]);
    const object = Object.fromEntries(entries);
    if ("stepOrder" in object && "result" in object) return { ...object, result: null, executionReport: null };
    return object;
  }
  return value;
}

export interface RealPlan {
  stub: DurableObjectStub<PlanObject>;
  planId: string;
  orgId: string;
  last: Observation | null;
}

export const stubOf = (orgId: string, planId: string) => env.PLAN.getByName(`${orgId}:${planId}`);

/** Everything the object and the D1 index hold for the plan, in one call to the object and one to D1. */
export async function observe(real: RealPlan): Promise<Observation> {
  const [inside, index] = await Promise.all([
    runInDurableObject(real.stub, async (instance: PlanObject, state) => {
      const withResults = await instance.read({ withResults: true });
      const bare = await instance.read({ withResults: false });
      const history = await instance.history({ beforeAuditSeq: null, limit: 1_000 });
      const outbox = state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM outbox").one().n;
      return { withResults, bare, history, alarm: await state.storage.getAlarm(), outbox };
    }),
    env.DB.prepare("SELECT * FROM plans WHERE plan_id = ?").bind(real.planId).first<Record<string, unknown>>(),
  ]);
  if (!inside.withResults.ok || !inside.bare.ok || !inside.history.ok) throw new Error(`the object cannot be read: ${JSON.stringify(inside)}`);
  return {
    withResults: inside.withResults.value,
    withoutResults: inside.bare.value,
    history: inside.history.value,
    alarm: inside.alarm,
    outbox: inside.outbox,
    index,
  };
}

/** The D1 row an index entry becomes: snake_case columns, booleans as 0/1, `seq` as `index_seq`. */
const indexColumns = (entry: PlanIndexEntry) =>
  Object.fromEntries(
    Object.entries(entry).map(([key, value]) => [
      key === "seq" ? "index_seq" : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      typeof value === "boolean" ? Number(value) : value,
    ]),
  );

/**
 * Compares the object, its history, its alarm and the D1 index with the model, and
 * checks what must hold whatever the model says: the index shows the object's
 * status and progress, the outbox is drained, a stall is recorded once per episode,
 * and nothing already final (a finished step, a failed or cancelled plan, an audit
 * entry, a version) changes afterwards.
 */
export async function verify(model: PlanModel, real: RealPlan, label: string, returned?: PlanState): Promise<Observation> {
  const seen = await observe(real);
  const at = `${label} (command ${model.commands})`;

  if (returned) expect(plain(withoutResults(seen.withoutResults)), `${at}: read() = what run() returned`).toEqual(plain(withoutResults(returned)));
  expect(plain(withoutResults(seen.withoutResults)), `${at}: read() with and without results`).toEqual(plain(withoutResults(seen.withResults)));
  model.learn(seen.withResults, model.state);
  expect(plain(model.toModel(seen.withResults)), `${at}: object state = model state`).toEqual(plain(model.state));

  const audit = [...seen.history.audit].reverse();
  expect(
    audit.map((entry) => entry.seq),
    `${at}: audit sequence`,
  ).toEqual(audit.map((_, i) => i + 1));
  expect(
    plain(model.toModel(audit.map(({ seq: _seq, ...entry }) => entry))),
    `${at}: audit trail`,
  ).toEqual(plain(model.audit));
  expect(plain(model.toModel(seen.history.versions)), `${at}: plan versions`).toEqual(plain(model.versions));
  const stalls = audit.filter((entry) => entry.action === "plan.stalled" || entry.action === "plan.stall_cleared").map((entry) => entry.action);
  expect(
    stalls.every((action, i) => action === (i % 2 === 0 ? "plan.stalled" : "plan.stall_cleared")),
    `${at}: plan.stalled and plan.stall_cleared alternate: ${stalls.join(", ")}`,
  ).toBe(true);
  expect(stalls.filter((action) => action === "plan.stalled").length, `${at}: one plan.stalled per stall episode`).toBe(model.stallEpisodes);

  expect(seen.outbox, `${at}: outbox drained`).toBe(0);
  expect(seen.index, `${at}: D1 index shows the object's status and progress`).toMatchObject({
    status: seen.withResults.plan.status,
    progress: progressOf(seen.withResults.steps),
  });
  expect(seen.index, `${at}: D1 index = last projection`).toMatchObject(indexColumns(model.indexed as PlanIndexEntry));
  expect(seen.alarm, `${at}: the one alarm`).toBe(model.alarmAt);

  const before = real.last;
  if (before) {
    const old = before.withResults;
    const now = seen.withResults;
    expect(now.plan.version, `${at}: version never goes back`).toBeGreaterThanOrEqual(old.plan.version);
    expect(now.plan.version - old.plan.version, `${at}: one version row per new version`).toBe(seen.history.versions.length - before.history.versions.length);
    if (old.plan.status === "failed" || old.plan.status === "cancelled") expect(now.plan.status, `${at}: terminal plan status absorbs`).toBe(old.plan.status);
    for (const step of old.steps.filter((s) => TERMINAL_STEP_STATUSES.has(s.status))) {
      const later = now.steps.find((s) => s.stepId === step.stepId);
      expect(later && { status: later.status, result: later.result, resultHash: later.resultHash }, `${at}: finished step ${step.stepId} stays as it was`).toEqual({
        status: step.status,
        result: step.result,
        resultHash: step.resultHash,
      });
    }
    expect(audit.slice(0, before.history.audit.length), `${at}: the audit trail only grows`).toEqual([...before.history.audit].reverse());
  }
  real.last = seen;
  return seen;
}

type ModelCall = (state: PlanState, now: number, newId: NewId) => Transition & { outcome?: NextStepOutcome; replayed?: boolean };

export type Executed = { ok: true; value: CommandResult; replayed: boolean | undefined } | { ok: false; code: ErrorCode };

/**
 * Runs one command on the model and on the object (the command is written in model
 * ids and translated), at the same time, and compares what came back: the same
 * error code and an untouched object, or the same state, outcome and versions.
 */
export async function execute(model: PlanModel, real: RealPlan, label: string, command: PlanCommand, call: ModelCall): Promise<Executed> {
  model.commands += 1;
  const at = `${label} (command ${model.commands})`;
  const now = model.tick();
  let expected: ReturnType<ModelCall> | { error: ErrorCode };
  try {
    expected = call(model.state, now, model.newId);
  } catch (error) {
    if (!(error instanceof CairnError)) throw error;
    expected = { error: error.code };
  }
  const result = (await real.stub.run(model.toReal(command), ACTOR, now)) as unknown as RpcResult<CommandResult>;

  if ("error" in expected) {
    expect(result.ok ? { ok: true, state: result.value.state.plan.status } : result.error.code, `${at}: error code`).toBe(expected.error);
    const seen = await observe(real);
    expect(seen, `${at}: a refused command changes nothing`).toEqual(real.last);
    count(`${command.kind}${"modification" in command ? `.${command.modification.action}` : ""} -> ${expected.error}`);
    return { ok: false, code: expected.error };
  }
  if (!result.ok) throw new Error(`${at}: the model accepts it, the object answers ${JSON.stringify(result.error)}`);
  const { value } = result;
  model.learn(value.state, expected.state);
  expect(plain(withoutResults(model.toModel(value.state))), `${at}: returned state`).toEqual(plain(withoutResults(expected.state)));
  expect(plain(withoutResults(model.toModel(value.outcome))), `${at}: outcome`).toEqual(plain(withoutResults(expected.outcome)));
  expect(plain(model.toModel(value.modifications)), `${at}: modifications`).toEqual(plain(expected.modifications));
  expect(value.replayed, `${at}: replayed`).toBe(expected.replayed);

  // plan-object.ts persists when the machine hands back a new state or an event; every command reschedules the alarm.
  if (expected.state !== model.state || expected.events.length > 0) model.record(expected, ACTOR, now);
  model.state = expected.state;
  model.scheduleAlarm(now);
  count(`${command.kind}${"modification" in command ? `.${command.modification.action}` : ""} -> ok${value.outcome ? ` ${value.outcome.status}${"resumed" in value.outcome && value.outcome.resumed ? " resumed" : ""}` : ""}${value.replayed ? " replayed" : ""}`);
  await verify(model, real, label, value.state);
  return { ok: true, value, replayed: value.replayed };
}
