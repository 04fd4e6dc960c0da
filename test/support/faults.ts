import { createExecutionContext, createMessageBatch, evictDurableObject, getQueueResult, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { SourceCheckMessage } from "../../src/domain/ports";
import type { WebhookMessage } from "../../src/domain/webhooks/model";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { SOURCE_CHECK_QUEUE_NAME } from "../../src/platform/sources/consumer";
import { WEBHOOK_QUEUE_NAME } from "../../src/platform/webhooks/consumer";
import { fetchWorkerOver } from "./worker";

/**
 * Storage that fails on purpose. The Worker, its Durable Objects and its queue consumer are given
 * the real local bindings (D1, KV, the plan and search-session objects, the webhook queue's
 * producer), each wrapped so that every call to it is counted while the fault plan is armed, and
 * the N-th call fails:
 *   - "throw": the call throws before it reaches storage (D1, KV, a queue send, a Durable Object call);
 *   - "reset" (Durable Objects only): the call runs and commits in the object, then the object is
 *     reset (evicted: its memory gone, its storage kept) and its caller gets an error instead of the
 *     answer. (`ctx.abort()` in the middle of a call is not survivable in the test pool: workerd
 *     reports it as an uncaught exception. The crash tests in test/e2e kill the whole server instead.)
 *   - "race": before the N-th call goes on, another member's write runs to completion (a request
 *     racing the operation), and for operations that undo themselves on failure the next call throws.
 * The wrapped env is also handed to every plan and session object the Worker calls (their own
 * index writes and event sends go through it), and its queues are played by the test: messages sent
 * to the webhook queue are kept here and handed to the Worker's real consumer by `drainQueue`, those
 * sent to the source-check queue by `drainSourceChecks`, each with the platform's redelivery (a
 * message retried, or whose handler threw, comes again). The snapshot bucket (R2) is wrapped too.
 */

export interface Queued<Body> {
  id: string;
  body: Body;
  attempts: number;
}

export type FaultKind = "throw" | "reset" | "race";

export interface StorageCall {
  n: number;
  binding: string;
  what: string;
}

export class InjectedFault extends Error {
  constructor(call: StorageCall) {
    super(`injected storage fault at call ${call.n} (${call.binding}: ${call.what})`);
  }
}

/** What to fail, and what was called while armed. */
export class FaultPlan {
  armed = false;
  failAt: number | null = null;
  kind: FaultKind = "throw";
  calls: StorageCall[] = [];
  injected: StorageCall | null = null;
  /** For "race": the racing write, and whether the call after it fails. */
  race: (() => Promise<void>) | null = null;
  raceThenThrow = false;
  /** Messages sent to the webhook queue, not yet consumed. */
  queue: Queued<WebhookMessage>[] = [];
  /** Messages sent to the source-check queue, not yet consumed (only a scenario that checks sources drains them). */
  sourceChecks: Queued<SourceCheckMessage>[] = [];
  /** Durable Object names the Worker called (plan and session objects, orgs' source checkers), by namespace. */
  readonly objects = { PLAN: new Set<string>(), SEARCH_SESSION: new Set<string>(), SOURCE_CHECKER: new Set<string>() };

  /** Counts calls from now on, failing the `failAt`-th (1-based) with `kind`; null counts only. */
  arm(failAt: number | null, kind: FaultKind = "throw", race: { write: () => Promise<void>; thenThrow: boolean } | null = null): void {
    this.armed = true;
    this.failAt = failAt;
    this.kind = kind;
    this.calls = [];
    this.injected = null;
    this.race = race?.write ?? null;
    this.raceThenThrow = race?.thenThrow ?? false;
  }

  /** Runs the racing write, uncounted and unfaulted. */
  async runRace(): Promise<void> {
    this.armed = false;
    try {
      await this.race?.();
    } finally {
      this.armed = true;
    }
  }

  disarm(): StorageCall[] {
    this.armed = false;
    this.failAt = null;
    return this.calls;
  }

  /** Records a call; says whether it is the one to fail (and how). */
  hit(binding: string, what: string): FaultKind | null {
    if (!this.armed) return null;
    const call = { n: this.calls.length + 1, binding, what: what.replace(/\s+/g, " ").trim().slice(0, 100) };
    this.calls.push(call);
    if (this.kind === "race" && this.failAt !== null && this.raceThenThrow && call.n === this.failAt + 1) {
      this.injected = call;
      return "throw";
    }
    if (call.n !== this.failAt) return null;
    this.injected = call;
    return this.kind;
  }
}

type Fn = (...args: unknown[]) => unknown;

/** Before a call goes on: throws the injected fault, or lets the racing write run first. */
async function failOrRace(plan: FaultPlan, fault: FaultKind | null): Promise<void> {
  if (fault === "throw") throw new InjectedFault(plan.injected as StorageCall);
  if (fault === "race") await plan.runRace();
}

function faultyD1(db: D1Database, name: string, plan: FaultPlan): D1Database {
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        if (property === "__real") return target;
        if (property === "__sql") return sql;
        const value = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        if (["first", "all", "run", "raw"].includes(String(property))) {
          return async (...args: unknown[]) => {
            await failOrRace(plan, plan.hit(name, sql));
            return (value as Fn).apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
  return new Proxy(db, {
    get(target, property) {
      if (property === "withSession") return (constraint: string) => faultyD1(target.withSession(constraint) as unknown as D1Database, name, plan);
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const first = (statements[0] as unknown as { __sql?: string } | undefined)?.__sql ?? "";
          await failOrRace(plan, plan.hit(name, `batch of ${statements.length}: ${first}`));
          return target.batch(statements.map((s) => (s as unknown as { __real?: D1PreparedStatement }).__real ?? s));
        };
      }
      if (property === "exec") return async (sql: string) => {
        await failOrRace(plan, plan.hit(name, sql));
        return target.exec(sql);
      };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function faultyKv(kv: KVNamespace, plan: FaultPlan): KVNamespace {
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        // A key's kind (its first two parts), or a list's options.
        const what = typeof args[0] === "string" ? args[0].split(":").slice(0, 2).join(":") : JSON.stringify(args[0] ?? null);
        await failOrRace(plan, plan.hit("KV", `${String(property)} ${what}`));
        return (value as Fn).apply(target, args);
      };
    },
  });
}

/** A queue's producer, played by the test: sends are kept in `kept` for drainQueue or drainSourceChecks. */
function playedQueue<Body>(plan: FaultPlan, binding: string, kept: () => Queued<Body>[], what: (body: Body) => string): Queue<Body> {
  let next = 0;
  const keep = (body: Body) => kept().push({ id: `${binding.toLowerCase()}-${++next}`, body, attempts: 1 });
  return {
    async send(body: Body) {
      await failOrRace(plan, plan.hit(binding, `send ${what(body)}`));
      keep(body);
    },
    async sendBatch(messages: Iterable<MessageSendRequest<Body>>) {
      const list = [...messages];
      await failOrRace(plan, plan.hit(binding, `sendBatch of ${list.length} ${list[0] ? what(list[0].body) : ""}`));
      for (const message of list) keep(message.body);
    },
  } as unknown as Queue<Body>;
}

/** The snapshot bucket: each call is counted and may fail; named by what it reaches (an org's snapshots, URL pointers, client texts). */
function faultyR2(bucket: R2Bucket, plan: FaultPlan): R2Bucket {
  return new Proxy(bucket, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const first = args[0];
        const key = typeof first === "string" ? first : Array.isArray(first) ? String(first[0] ?? "") : ((first as { prefix?: string } | undefined)?.prefix ?? "");
        const count = Array.isArray(first) ? ` (${first.length})` : "";
        // "orgs/<org>/<kind>/<name>": the kind, without the org's id or the object's hash.
        await failOrRace(plan, plan.hit("R2", `${String(property)} ${key.split("/")[2] ?? key.split("/")[0] ?? ""}${count}`));
        return (value as Fn).apply(target, args);
      };
    },
  });
}

function faultyNamespace<T extends Rpc.DurableObjectBranded | undefined>(
  ns: DurableObjectNamespace<T>,
  binding: "PLAN" | "SEARCH_SESSION" | "SOURCE_CHECKER",
  plan: FaultPlan,
  objectEnv: () => Env,
): DurableObjectNamespace<T> {
  const stubOf = (stub: DurableObjectStub<T>, name: string) =>
    new Proxy(stub, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== "function" || property === "then") return value;
        return async (...args: unknown[]) => {
          plan.objects[binding].add(name);
          // The object works over the same faulty bindings (its index writes and event sends).
          await adoptEnv(target, objectEnv());
          const fault = plan.hit(binding, String(property));
          if (fault !== "reset") await failOrRace(plan, fault);
          // Reflect.apply: on an RPC stub, `.apply` would be a remote method of that name.
          const result = await Reflect.apply(value as Fn, target, args);
          if (fault === "reset") {
            // The object restarts: what it held in memory (a flush under way, its alarm bookkeeping) is gone, its storage stays.
            await evictDurableObject(target as DurableObjectStub).catch(() => undefined);
            throw new InjectedFault(plan.injected as StorageCall);
          }
          return result;
        };
      },
    });
  return new Proxy(ns, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "getByName") return (name: string) => stubOf(target.getByName(name), name);
      if (property === "get") {
        return (id: DurableObjectId) => {
          const name = id.name ?? id.toString();
          return stubOf(target.get(id), name);
        };
      }
      return value.bind(target);
    },
  });
}

/** Gives a live object instance the faulty env (its `env` is read at each use). */
async function adoptEnv(stub: DurableObjectStub<Rpc.DurableObjectBranded | undefined>, objectEnv: Env): Promise<void> {
  await runInDurableObject(stub as DurableObjectStub, (instance) => {
    (instance as unknown as { env: Env }).env = objectEnv;
  });
}

/** The real bindings, wrapped: what the Worker, its objects and its consumer are given in the battery. */
export function faultyEnv(plan: FaultPlan): Env {
  const base = env as unknown as Env & { RESEARCH_DB_2?: D1Database };
  const wrapped: Env & { RESEARCH_DB_2?: D1Database } = {
    ...base,
    DB: faultyD1(base.DB, "DB", plan),
    ...(base.RESEARCH_DB_2 ? { RESEARCH_DB_2: faultyD1(base.RESEARCH_DB_2, "RESEARCH_DB_2", plan) } : {}),
    OAUTH_KV: faultyKv(base.OAUTH_KV, plan),
    WEBHOOK_QUEUE: playedQueue<WebhookMessage>(plan, "QUEUE", () => plan.queue, (body) => body.kind),
    SOURCE_CHECK_QUEUE: playedQueue<SourceCheckMessage>(plan, "SOURCE_CHECK_QUEUE", () => plan.sourceChecks, (body) => (body.recheck ? "re-check" : "check")),
    SOURCE_SNAPSHOTS: faultyR2(base.SOURCE_SNAPSHOTS, plan),
    PLAN: faultyNamespace(base.PLAN, "PLAN", plan, () => wrapped),
    SEARCH_SESSION: faultyNamespace(base.SEARCH_SESSION, "SEARCH_SESSION", plan, () => wrapped),
    SOURCE_CHECKER: faultyNamespace(base.SOURCE_CHECKER, "SOURCE_CHECKER", plan, () => wrapped),
  };
  return wrapped;
}

/** A fault plan, the env over it, and the Worker's fetch over that env. */
export function faultHarness() {
  const plan = new FaultPlan();
  const faulty = faultyEnv(plan);
  return { plan, env: faulty, fetch: fetchWorkerOver(faulty) };
}

/**
 * Runs the alarm of every object named, as the platform would (each with the faulty env): a plan's
 * outbox retry, a session's index retry. An object with no alarm set is left alone.
 */
export async function runAlarms(faulty: Env, binding: "PLAN" | "SEARCH_SESSION" | "SOURCE_CHECKER", names: Iterable<string>): Promise<void> {
  const namespace = (env as unknown as Env)[binding] as DurableObjectNamespace;
  for (const name of names) {
    const stub = namespace.getByName(name);
    await adoptEnv(stub, faulty);
    try {
      await runDurableObjectAlarm(stub);
    } catch {
      // A failed alarm is retried by the platform: the caller runs the alarms again.
    }
  }
}

export const runPlanAlarms = (faulty: Env, names: Iterable<string>) => runAlarms(faulty, "PLAN", names);

/** Hands a played queue's messages to the Worker's real queue handler as a batch of `queueName`, until none is left. */
async function drain<Body>(queued: Queued<Body>[], queueName: string, faulty: Env, maxRounds: number): Promise<number> {
  for (let round = 1; round <= maxRounds; round++) {
    if (queued.length === 0) return round - 1;
    const taken = queued.splice(0, 10);
    const batch = createMessageBatch<Body>(
      queueName,
      taken.map((m) => ({ id: m.id, timestamp: new Date(), body: m.body, attempts: m.attempts })),
    );
    const ctx = createExecutionContext();
    let threw = false;
    try {
      await worker.queue(batch as MessageBatch<unknown>, faulty as never);
    } catch {
      threw = true;
    }
    const result = await getQueueResult(batch, ctx);
    const retried = new Set(result.retryMessages.map((m) => m.msgId));
    for (const message of taken) {
      // A handler that returns acks every message it did not retry; one that throws has all of them redelivered.
      const again = threw || result.retryBatch.retry || retried.has(message.id);
      if (again) queued.push({ ...message, attempts: message.attempts + 1 });
    }
  }
  throw new Error(`the ${queueName} queue did not drain in ${maxRounds} rounds: ${JSON.stringify(queued.map((m) => m.body))}`);
}

/**
 * Hands the webhook queue's messages to the Worker's real queue handler, one batch per round, until none
 * is left: acked messages leave, retried ones (or all, when the handler throws) come again, as the
 * platform redelivers. Delays are not waited out. Returns the number of rounds.
 */
export const drainQueue = (plan: FaultPlan, faulty: Env, maxRounds = 20) => drain(plan.queue, WEBHOOK_QUEUE_NAME, faulty, maxRounds);

/**
 * The same for the source-check queue: each batch goes to the source-check consumer (a batch of that queue), which
 * hands the checks to each org's checker; then every checker called runs its alarm (over the faulty env; one already
 * running is joined) until it has nothing left to run, as the platform would. A check's retries are not waited out
 * (the workers config retries at once).
 */
export async function drainSourceChecks(plan: FaultPlan, faulty: Env, maxRounds = 20): Promise<number> {
  const rounds = await drain(plan.sourceChecks, SOURCE_CHECK_QUEUE_NAME, faulty, maxRounds);
  const namespace = (env as unknown as Env).SOURCE_CHECKER;
  for (const name of plan.objects.SOURCE_CHECKER) {
    // Named by the org's id (a hex id where the runtime gave the Worker no name).
    const stub = namespace.get(/^[0-9a-f]{64}$/.test(name) ? namespace.idFromString(name) : namespace.idFromName(name));
    await adoptEnv(stub, faulty);
    // A check can reach the checker after its last alarm (handed over again by the pending sweep through the queue, on
    // its own time): with no alarm to run, wait a moment for one while checks are left, rather than assume none comes.
    for (let run = 0, idle = 0; run < maxRounds && idle < 50; ) {
      const ran = await runDurableObjectAlarm(stub).catch(() => true);
      if (ran) run++;
      else if ((await stub.pending()) === 0) break;
      else {
        idle++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const left = await stub.pending();
    if (left > 0) throw new Error(`the source checker of ${name} still holds ${left} check(s) after ${maxRounds} runs`);
  }
  return rounds;
}
