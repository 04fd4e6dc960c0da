import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PlanObject } from "../../src/durable-objects/plan-object";
import type { Env } from "../../src/env";
import { seedOrg } from "../support/worker";

/**
 * The plan index (what `list_active_plans` and the dashboard read) on and off
 * the critical path of a plan command. The plan object is given a D1 binding
 * whose index writes wait at a gate the test opens, so "did the caller wait
 * for the index?" is answered by order, not by timing.
 */

const REPORT = { thinking: "t", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] };
const actor = { userId: "usr_fresh", clientId: "cli_fresh" };

/** The real database, except that each write to the plan index first waits for `open()` (or fails, after `fail()`). */
function gatedIndex(db: D1Database) {
  let failing = false;
  let open: () => void = () => {};
  let gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let waiting = 0;
  // The object writes the index through a session of the binding (to learn the write's bookmark): the gate holds both.
  const gated = <T extends D1Database | D1DatabaseSession>(db: T): T =>
    new Proxy(db, {
      get(target, property) {
        if (property === "withSession") return (constraint: string) => gated((target as D1Database).withSession(constraint));
        if (property !== "prepare") {
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === "function" ? value.bind(target) : value;
        }
        return (sql: string) => {
          const statement = target.prepare(sql);
          if (!/^\s*INSERT INTO plans\b/i.test(sql)) return statement;
          return {
            bind: (...values: unknown[]) => ({
              run: async () => {
                waiting++;
                await gate;
                if (failing) throw new Error("D1_ERROR: the index database is unavailable");
                return statement.bind(...values).run();
              },
            }),
          };
        };
      },
    });
  const wrapped = gated(db);
  return {
    db: wrapped,
    waiting: () => waiting,
    open: () => open(),
    fail: () => {
      failing = true;
    },
    close: () => {
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
    },
  };
}

const indexRow = (planId: string) =>
  env.DB.prepare("SELECT status, progress, current_step_order FROM plans WHERE plan_id = ?").bind(planId).first<{ status: string; progress: number; current_step_order: number | null }>();

/** Settles `promise` or answers "pending" after `ms` (long enough for anything not held by the gate). */
const within = <T,>(promise: Promise<T>, ms = 1_000): Promise<T | "pending"> =>
  Promise.race([promise, new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), ms))]);

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 3_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the plan index and the caller", () => {
  it("a claimed step answers without waiting for the index, which follows at once; finishing the plan waits for it", async () => {
    const orgId = await seedOrg();
    await env.DB.prepare("UPDATE orgs SET home_database = 'DB' WHERE id = ?").bind(orgId).run();
    const planId = `pln_fresh_${crypto.randomUUID().slice(0, 8)}`;
    const stub = env.PLAN.getByName(`${orgId}:${planId}`);
    const input = {
      planId,
      orgId,
      name: "[Scan] Fresh",
      researchQuestion: "q",
      steps: [{ stepType: "search" as const, instructions: "look" }],
      branchingConditions: [],
      planDesignRationale: "r",
      outputFormattingNotes: null,
      sessionId: null,
      executionId: null,
    };

    await runInDurableObject(stub, async (instance: PlanObject) => {
      const gated = gatedIndex(env.DB);
      Object.defineProperty(instance, "env", { value: { ...(env as unknown as Env), DB: gated.db } });

      // Creating: listed when the call answers, so the caller waits for the index.
      const creating = instance.run({ kind: "create", input }, actor, Date.now());
      expect(await within(creating)).toBe("pending");
      expect(gated.waiting()).toBe(1);
      gated.open();
      expect(await creating).toMatchObject({ ok: true });
      expect(await indexRow(planId)).toMatchObject({ status: "active", current_step_order: null });

      // Claiming the step moves only the current step: the answer comes first, the index right after.
      gated.close();
      const claimed = await within(instance.run({ kind: "next", workerId: "w1" }, actor, Date.now()));
      if (claimed === "pending" || !claimed.ok || claimed.value.outcome?.status !== "step") throw new Error(`the claim waited or failed: ${JSON.stringify(claimed)}`);
      expect(await indexRow(planId)).toMatchObject({ current_step_order: null });
      expect(await until(() => Promise.resolve(gated.waiting()), (n) => n === 2)).toBe(2);
      gated.open();
      expect(await until(() => indexRow(planId), (row) => row?.current_step_order === 1)).toMatchObject({ status: "active", current_step_order: 1 });

      // Submitting the last step finishes the plan: the caller waits until the index says so.
      gated.close();
      const { claimId, step } = claimed.value.outcome;
      const submission = { stepId: step.stepId, claimId, result: { r: 1 }, resultHash: "h1", confidence: 0.9, executionReport: REPORT, outputFormattingNotes: null };
      const finishing = instance.run({ kind: "submit", submission }, actor, Date.now());
      expect(await within(finishing)).toBe("pending");
      gated.open();
      expect(await finishing).toMatchObject({ ok: true, value: { state: { plan: { status: "completed" } } } });
      expect(await indexRow(planId)).toMatchObject({ status: "completed", progress: 100 });
    });
  });

  it("an index update that fails after the answer stays in the outbox, and the plan's alarm retries it (first after 5 s)", async () => {
    const orgId = await seedOrg();
    await env.DB.prepare("UPDATE orgs SET home_database = 'DB' WHERE id = ?").bind(orgId).run();
    const planId = `pln_retry_${crypto.randomUUID().slice(0, 8)}`;
    const stub = env.PLAN.getByName(`${orgId}:${planId}`);
    const input = { planId, orgId, name: "[Scan] Retry", researchQuestion: "q", steps: [{ stepType: "search" as const, instructions: "look" }], branchingConditions: [], planDesignRationale: "r", outputFormattingNotes: null, sessionId: null, executionId: null };
    expect(await stub.run({ kind: "create", input }, actor, Date.now())).toMatchObject({ ok: true });

    const before = Date.now();
    await runInDurableObject(stub, async (instance: PlanObject, state) => {
      const gated = gatedIndex(env.DB);
      gated.fail();
      gated.open();
      Object.defineProperty(instance, "env", { value: { ...(env as unknown as Env), DB: gated.db } });
      expect(await instance.run({ kind: "next", workerId: "w1" }, actor, Date.now())).toMatchObject({ ok: true, value: { outcome: { status: "step" } } });
      const attempts = () => Promise.resolve(state.storage.sql.exec<{ attempts: number }>("SELECT attempts FROM outbox").toArray()[0]?.attempts ?? 0);
      expect(await until(attempts, (n) => n === 1)).toBe(1);
      // The retry schedule after one failure (the stall deadline, minutes away, is later).
      const alarm = await until(() => state.storage.getAlarm(), (at) => at !== null && at <= Date.now() + 5_000);
      expect(alarm ?? Infinity).toBeLessThanOrEqual(Date.now() + 5_000);
      expect(alarm ?? 0).toBeGreaterThan(before);
      Object.defineProperty(instance, "env", { value: env });
    });
    expect(await indexRow(planId)).toMatchObject({ current_step_order: null });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await indexRow(planId)).toMatchObject({ current_step_order: 1 });
  });
});
