import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { completeNextStep, createPlan, ok, REPORT, steps } from "../../test/support/plans";
import { callTool, seedTenant } from "../../test/support/worker";
import type { PlanObject } from "./plan-object";

const stubOf = (orgId: string, planId: string) => env.PLAN.getByName(`${orgId}:${planId}`);

/** Moves every in-progress step's last activity into the past, as if its worker went quiet. */
async function ageInProgressSteps(orgId: string, planId: string, minutes: number) {
  await runInDurableObject(stubOf(orgId, planId), (_instance: PlanObject, state) => {
    state.storage.sql.exec(
      "UPDATE steps SET data = json_set(data, '$.lastActivityAt', json_extract(data, '$.lastActivityAt') - ?) WHERE json_extract(data, '$.status') = 'in_progress'",
      minutes * 60_000,
    );
  });
}

async function indexRow(planId: string) {
  return env.DB.prepare("SELECT status, stalled, progress, index_seq FROM plans WHERE plan_id = ?").bind(planId).first<{ status: string; stalled: number; progress: number; index_seq: number }>();
}


/**
 * D1 refusing the plan index's writes while its reads still answer: a plan's object is reached only for an id the
 * org's index lists (one read), so the read must work for the call to reach the object whose index write then fails.
 */
async function indexWritesFail(): Promise<void> {
  await env.DB.batch([
    env.DB.prepare("CREATE TRIGGER plans_index_down_insert BEFORE INSERT ON plans BEGIN SELECT RAISE(ABORT, 'the plan index is down'); END"),
    env.DB.prepare("CREATE TRIGGER plans_index_down_update BEFORE UPDATE ON plans BEGIN SELECT RAISE(ABORT, 'the plan index is down'); END"),
  ]);
}

async function indexWritesWork(): Promise<void> {
  await env.DB.batch([env.DB.prepare("DROP TRIGGER plans_index_down_insert"), env.DB.prepare("DROP TRIGGER plans_index_down_update")]);
}

describe("PlanObject", () => {
  it("lets exactly one of 50 concurrent different submissions win, and stores only its result", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    const next = await ok(apiKey, "get_next_step", { planId });
    const stepId = (next.step as { stepId: string }).stepId;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        callTool(apiKey, "submit_step_result", { planId, stepId, claimId: next.claimId, result: { worker: i }, confidence: 0.5, stepExecutionReport: REPORT }),
      ),
    );
    const winners = results.filter((r) => !r.isError);
    const conflicts = results.filter((r) => r.isError && (r.body as { error: { code: string } }).error.code === "conflict");
    expect(winners).toHaveLength(1);
    expect(conflicts).toHaveLength(49);
    const stored = await runInDurableObject(stubOf(orgId, planId), (_i: PlanObject, state) =>
      state.storage.sql.exec<{ result: string }>("SELECT result FROM steps WHERE step_id = ?", stepId).toArray(),
    );
    const winner = (winners[0]?.structured as { stepId: string } | undefined)?.stepId;
    expect(winner).toBe(stepId);
    expect(stored).toHaveLength(1);
    const context = await ok(apiKey, "get_research_context", { planId, detail: "full" });
    expect((context.steps as { result?: unknown }[])[0]?.result).toEqual(JSON.parse(stored[0]?.result ?? "null"));
  });

  it("marks a plan stalled once, however often the alarm runs, and progress clears the stall", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    await ok(apiKey, "get_next_step", { planId });
    const stub = stubOf(orgId, planId);
    expect(await runInDurableObject(stub, (_i: PlanObject, state) => state.storage.getAlarm())).toBeGreaterThan(Date.now() + 25 * 60_000);
    await ageInProgressSteps(orgId, planId, 31);
    await runDurableObjectAlarm(stub);
    await runInDurableObject(stub, (_i: PlanObject, state) => state.storage.setAlarm(Date.now() + 60_000));
    await runDurableObjectAlarm(stub);
    expect(await ok(apiKey, "get_plan_status", { planId })).toMatchObject({ status: "stalled", stalled: true });
    expect(await indexRow(planId)).toMatchObject({ status: "stalled", stalled: 1 });
    const history = await ok(apiKey, "get_plan_history", { planId });
    const stalls = (history.audit as { action: string; actorClientId: string }[]).filter((entry) => entry.action === "plan.stalled");
    expect(stalls).toHaveLength(1);
    expect(stalls[0]?.actorClientId).toBe("plan-alarm");

    await completeNextStep(apiKey, planId);
    expect(await ok(apiKey, "get_plan_status", { planId })).toMatchObject({ status: "active", stalled: false, progress: 33 });
    expect(await indexRow(planId)).toMatchObject({ status: "active", stalled: 0 });
  });

  it("arms its one alarm at the earliest stall deadline: step override, else plan override, else the type's default", async () => {
    const { apiKey, orgId } = await seedTenant();
    const alarmIn = async (planId: string) => {
      const at = await runInDurableObject(stubOf(orgId, planId), (_i: PlanObject, state) => state.storage.getAlarm());
      return Math.round(((at ?? 0) - Date.now()) / 60_000);
    };
    const byType = await createPlan(apiKey);
    await ok(apiKey, "get_next_step", { planId: byType.planId });
    expect(await alarmIn(byType.planId)).toBe(30);
    const byPlan = await createPlan(apiKey, { stallThresholdMinutes: 5 });
    await ok(apiKey, "get_next_step", { planId: byPlan.planId });
    expect(await alarmIn(byPlan.planId)).toBe(5);
    const byStep = await createPlan(apiKey, { stallThresholdMinutes: 5, steps: [{ stepType: "search", instructions: "x", stallThresholdMinutes: 2 }] });
    await ok(apiKey, "get_next_step", { planId: byStep.planId });
    expect(await alarmIn(byStep.planId)).toBe(2);
    await completeNextStep(apiKey, byStep.planId);
    expect(await runInDurableObject(stubOf(orgId, byStep.planId), (_i: PlanObject, state) => state.storage.getAlarm())).toBeNull();
  });

  it("keeps the index update when D1 fails, and the alarm retries it until the index matches", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    await indexWritesFail();
    try {
      await completeNextStep(apiKey, planId);
      const pending = await runInDurableObject(stubOf(orgId, planId), (_i: PlanObject, state) => state.storage.sql.exec("SELECT COUNT(*) AS n FROM outbox").one().n);
      expect(pending).toBeGreaterThan(0);
      const alarm = await runInDurableObject(stubOf(orgId, planId), (_i: PlanObject, state) => state.storage.getAlarm());
      expect(alarm).toBeLessThan(Date.now() + 10 * 60_000);
      await expect(runDurableObjectAlarm(stubOf(orgId, planId))).rejects.toThrow();
    } finally {
      await indexWritesWork();
    }
    expect((await indexRow(planId))?.progress).toBe(0);
    await runDurableObjectAlarm(stubOf(orgId, planId));
    expect(await indexRow(planId)).toMatchObject({ progress: 33, status: "active" });
    const left = await runInDurableObject(stubOf(orgId, planId), (_i: PlanObject, state) => state.storage.sql.exec("SELECT COUNT(*) AS n FROM outbox").one().n);
    expect(left).toBe(0);
  });

  it("stops leaning on platform retries after repeated alarm failures: it swallows the error and re-arms itself", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    await indexWritesFail();
    try {
      await completeNextStep(apiKey, planId);
      const stub = stubOf(orgId, planId);
      await runInDurableObject(stub, (_i: PlanObject, state) => state.storage.deleteAlarm());
      await expect(runInDurableObject(stub, (instance: PlanObject) => instance.alarm({ isRetry: true, retryCount: 1, scheduledTime: Date.now() }))).rejects.toThrow();
      await runInDurableObject(stub, (instance: PlanObject) => instance.alarm({ isRetry: true, retryCount: 5, scheduledTime: Date.now() }));
      const rearmed = await runInDurableObject(stub, (_i: PlanObject, state) => state.storage.getAlarm());
      expect(rearmed).toBeGreaterThan(Date.now());
    } finally {
      await indexWritesWork();
    }
    await runDurableObjectAlarm(stubOf(orgId, planId));
    expect(await indexRow(planId)).toMatchObject({ progress: 33 });
  });

  it("behaves the same after being evicted between calls", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    const first = await ok(apiKey, "get_next_step", { planId });
    await evictDurableObject(stubOf(orgId, planId));
    expect(await ok(apiKey, "get_next_step", { planId })).toMatchObject({ resumed: true, claimId: first.claimId });
    await evictDurableObject(stubOf(orgId, planId));
    await completeNextStep(apiKey, planId);
    await evictDurableObject(stubOf(orgId, planId));
    expect(await ok(apiKey, "get_plan_status", { planId })).toMatchObject({ progress: 33, completedSteps: [{ stepOrder: 1 }] });
  });

  it("hands each parallel worker a different step, the same worker its own, and a third worker waits", async () => {
    const { apiKey } = await seedTenant();
    const parallel = steps("search", "synthesize", "synthesize", "critique").map((step, i) => (i === 1 || i === 2 ? { ...step, parallelGroup: "synthesis" } : step));
    const { planId } = await createPlan(apiKey, { name: "[Deep] Parallel", steps: parallel });
    await completeNextStep(apiKey, planId);
    const a = await ok(apiKey, "get_next_step", { planId, workerId: "worker-a" });
    const b = await ok(apiKey, "get_next_step", { planId, workerId: "worker-b" });
    const c = await ok(apiKey, "get_next_step", { planId, workerId: "worker-c" });
    expect((a.step as { stepOrder: number }).stepOrder).toBe(2);
    expect((b.step as { stepOrder: number }).stepOrder).toBe(3);
    expect(c).toMatchObject({ status: "waiting" });
    expect(await ok(apiKey, "get_next_step", { planId, workerId: "worker-a" })).toMatchObject({ resumed: true, claimId: a.claimId });
    for (const [worker, next] of [["worker-b", b], ["worker-a", a]] as const) {
      await ok(apiKey, "submit_step_result", { planId, stepId: (next.step as { stepId: string }).stepId, claimId: next.claimId, result: { worker }, confidence: 0.8, stepExecutionReport: REPORT });
    }
    expect(await ok(apiKey, "get_next_step", { planId, workerId: "worker-c" })).toMatchObject({ status: "step", step: { stepOrder: 4 } });
  });

  it("refuses a plan over the step limit and a plan whose name lacks [Scan]/[Deep], writing nothing", async () => {
    const { apiKey } = await seedTenant();
    const tooMany = await callTool(apiKey, "create_research_plan", { name: "[Scan] x", researchQuestion: "q", steps: steps(...Array(61).fill("search")), planDesignRationale: "r" });
    expect(tooMany.body).toMatchObject({ error: { code: "validation" } });
    const badName = await callTool(apiKey, "create_research_plan", { name: "Vector databases", researchQuestion: "q", steps: steps("search"), planDesignRationale: "r" });
    expect(badName.body).toMatchObject({ error: { code: "validation", issues: [{ path: "name" }] } });
    expect((await ok(apiKey, "list_active_plans", {})).plans).toEqual([]);
  });
});
