import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PlanObject } from "../../src/durable-objects/plan-object";
import { completeNextStep, createPlan, ok, REPORT, steps } from "../support/plans";
import { Visitor } from "../support/dashboard";
import { callTool, seedApiKey, seedTenant } from "../support/worker";

const stubOf = (orgId: string, planId: string) => env.PLAN.getByName(`${orgId}:${planId}`);

interface BudgetView {
  limits: Record<string, unknown>;
  used: { steps: number; inputTokens: number; outputTokens: number; toolCalls: number };
  lines: { dimension: string; used: number; limit: number; percent: number }[];
  exhausted: boolean;
  warning: string | null;
}

describe("plan budgets through the operations and the plan object", () => {
  it("a step budget pauses the plan for a person, shows used / limit everywhere, and a raise lets it complete", async () => {
    const { apiKey, orgId, admin } = await seedTenant();
    const { planId } = await createPlan(apiKey, { steps: steps("search", "search", "analyze", "synthesize", "synthesize"), budget: { maxSteps: 4 } });
    for (let i = 0; i < 3; i++) await completeNextStep(apiKey, planId);

    // The fourth step is the 80 % mark (4 of 4 is the limit; 3 of 4 = 75 %, so the warning comes with the fourth claim).
    const fourth = (await ok(apiKey, "get_next_step", { planId })) as { status: string; budgetWarning?: string; step: { stepId: string }; claimId: string };
    expect(fourth.status).toBe("step");
    expect(fourth.budgetWarning).toBeUndefined(); // 4 of 4 reached: no "nearly", the review follows the result
    const submitted = await ok(apiKey, "submit_step_result", { planId, stepId: fourth.step.stepId, claimId: fourth.claimId, result: { ok: 1 }, confidence: 0.9, stepExecutionReport: REPORT, usage: { inputTokens: 1200, outputTokens: 300 } });
    expect(submitted.planStatus).toBe("awaiting_review");

    const exhausted = (await ok(apiKey, "get_next_step", { planId })) as { status: string; reason: string; pendingReviews: { reviewId: string; kind: string }[]; totalSteps: number; progress: number };
    expect(exhausted.status).toBe("budget_exhausted");
    expect(exhausted.reason).toContain("4 of 4 steps used");
    expect((exhausted as unknown as { exhausted: unknown }).exhausted).toEqual([{ dimension: "steps", used: 4, limit: 4 }]);
    expect(exhausted.pendingReviews).toMatchObject([{ kind: "budget" }]);
    // The review is the plan's, not a step: 4 of 5 steps done is still 80 %.
    expect(exhausted).toMatchObject({ totalSteps: 5, progress: 80 });
    const reviewStepId = exhausted.pendingReviews[0]?.reviewId as string;

    const status = (await ok(apiKey, "get_plan_status", { planId })) as { status: string; budget: BudgetView; pendingReviews: { kind: string; reviewId: string; stepId: string | null }[]; totalSteps: number };
    expect(status.status).toBe("awaiting_review");
    expect(status.budget).toMatchObject({ limits: { maxSteps: 4 }, used: { steps: 4, inputTokens: 1200, outputTokens: 300, toolCalls: 0 }, exhausted: true });
    expect(status.budget.lines).toEqual([{ dimension: "steps", used: 4, limit: 4, percent: 100 }]);
    expect(status.pendingReviews).toMatchObject([{ kind: "budget", reviewId: reviewStepId, stepId: null }]);
    expect(status.totalSteps).toBe(5);
    const context = (await ok(apiKey, "get_research_context", { planId })) as { status: { budget: BudgetView } };
    expect(context.status.budget.used.steps).toBe(4);

    // The index behind lists and analytics knows the plan waits at its budget.
    const row = await env.DB.prepare("SELECT budget_percent, budget_exhausted FROM plans WHERE plan_id = ?").bind(planId).first();
    expect(row).toEqual({ budget_percent: 100, budget_exhausted: 1 });

    // A raise is a person's: the assistant's key is refused, naming the dashboard page; an integration acting for people
    // (plans:approve) raises. A raise that leaves the limit spent is refused and changes nothing; a real one resumes the plan.
    const byAssistant = await callTool(apiKey, "submit_review", { planId, stepId: reviewStepId, decision: "approve", budget: { maxSteps: 5 } });
    expect(byAssistant.body).toMatchObject({ error: { code: "forbidden", url: expect.stringContaining(`/dashboard/plans/${planId}`) } });
    const personKey = (await seedApiKey(orgId, admin.userId, ["research:write", "plans:approve"])).key;
    const tooSmall = await callTool(personKey, "submit_review", { planId, stepId: reviewStepId, decision: "approve", budget: { maxSteps: 4 } });
    expect(tooSmall.isError).toBe(true);
    expect(JSON.stringify(tooSmall.body)).toContain("budget.maxSteps");
    expect(((await ok(apiKey, "get_plan_status", { planId })) as { status: string }).status).toBe("awaiting_review");
    const raised = await ok(personKey, "submit_review", { planId, stepId: reviewStepId, decision: "approve", budget: { maxSteps: 5 } });
    expect(raised.planStatus).toBe("active");

    const last = (await ok(apiKey, "get_next_step", { planId })) as { status: string; budgetWarning?: string };
    expect(last.status).toBe("step");
    await completeNextStep(apiKey, planId);
    const done = (await ok(apiKey, "get_plan_status", { planId })) as { status: string; budget: BudgetView; progress: number };
    expect(done.status).toBe("completed");
    expect(done.progress).toBe(100);
    expect(done.budget.used.steps).toBe(5);

    const history = (await ok(apiKey, "get_plan_history", { planId })) as { audit: { action: string }[] };
    const actions = history.audit.map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["plan.budget_exhausted", "review.approve", "plan.budget_raised", "plan.completed"]));
  });

  it("warns at 80 % in the step answer", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { steps: steps("search", "search", "search", "search", "search", "search"), budget: { maxSteps: 5 } });
    for (let i = 0; i < 3; i++) await completeNextStep(apiKey, planId);
    const fourth = (await ok(apiKey, "get_next_step", { planId })) as { budgetWarning?: string };
    expect(fourth.budgetWarning).toContain("4 of 5 steps used (80 %)");
  });

  it("the deadline is caught by the plan's alarm, which then opens exactly one budget review", async () => {
    const { apiKey, orgId } = await seedTenant();
    const deadline = new Date(Date.now() + 60 * 60_000).toISOString();
    const { planId } = await createPlan(apiKey, { budget: { deadline } });
    const stub = stubOf(orgId, planId);
    // One alarm for the plan: the earliest of the deadline and any stall deadline.
    expect(await runInDurableObject(stub, (_i: PlanObject, state) => state.storage.getAlarm())).toBe(Date.parse(deadline));
    // Move the deadline into the past, as if the hour had gone by.
    await runInDurableObject(stub, (_i: PlanObject, state) => {
      state.storage.sql.exec("UPDATE plan SET data = json_set(data, '$.budget.deadline', ?)", Date.now() - 1000);
    });
    await runDurableObjectAlarm(stub);
    await runDurableObjectAlarm(stub);
    const status = (await ok(apiKey, "get_plan_status", { planId })) as { status: string; pendingReviews: { kind: string }[]; budget: BudgetView };
    expect(status.status).toBe("awaiting_review");
    expect(status.pendingReviews.map((review) => review.kind)).toEqual(["budget"]);
    expect(status.budget.exhausted).toBe(true);
    const history = (await ok(apiKey, "get_plan_history", { planId })) as { audit: { action: string; actorClientId: string | null }[] };
    const exhaustions = history.audit.filter((entry) => entry.action === "plan.budget_exhausted");
    expect(exhaustions).toHaveLength(1);
    expect(exhaustions[0]?.actorClientId).toBe("plan-alarm");
    // Ending there skips what never started and completes the plan.
    const reviewStepId = (status.pendingReviews[0] as unknown as { reviewId: string }).reviewId;
    const ended = await ok(apiKey, "submit_review", { planId, stepId: reviewStepId, decision: "reject" });
    expect(ended.planStatus).toBe("completed");
  });

  it("refuses a bad budget with a clear error and creates nothing", async () => {
    const { apiKey } = await seedTenant();
    for (const budget of [{ maxSteps: 0 }, { maxSteps: 1.5 }, { deadline: "tomorrow" }, { deadline: "2020-01-01T00:00:00Z" }, { maxSteps: 3, extra: 1 }]) {
      const result = await callTool(apiKey, "create_research_plan", { name: "[Scan] Budgets", researchQuestion: "q", steps: steps("search"), planDesignRationale: "r", budget });
      expect(result.isError, JSON.stringify(budget)).toBe(true);
    }
    const listed = (await ok(apiKey, "list_active_plans", {})) as { plans: unknown[] };
    expect(listed.plans).toEqual([]);
  });

  it("the dashboard shows the budget bars, and a person raises the budget from the review form", async () => {
    const { apiKey, admin } = await seedTenant();
    const { planId } = await createPlan(apiKey, { steps: steps("search", "search", "analyze"), budget: { maxSteps: 1, maxToolCalls: 50 } });
    await completeNextStep(apiKey, planId);
    const status = (await ok(apiKey, "get_plan_status", { planId })) as { pendingReviews: { reviewId: string; kind: string }[] };
    const reviewStepId = status.pendingReviews[0]?.reviewId as string;
    expect(status.pendingReviews[0]?.kind).toBe("budget");

    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const page = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    expect(page).toContain('data-budget="steps"');
    expect(page).toContain("1 of 1 steps used (100 %)");
    expect(page).toContain('data-budget="toolCalls"');
    expect(page).toContain("Budget review");
    expect(page).toContain(`data-review-kind="budget"`);
    // The form offers half as much again (at least two more steps).
    expect(page).toMatch(/name="maxSteps" type="number" min="1" value="3"/);
    const list = await (await visitor.get("/dashboard/plans")).text();
    expect(list).toContain("budget spent: waiting for a person");

    const csrf = Visitor.csrfOf(page);
    const response = await visitor.post(`/dashboard/plans/${planId}/steps/${reviewStepId}/review`, { csrf, decision: "approve", maxSteps: "3", maxToolCalls: "50" });
    expect(response.status).toBe(303);
    const after = (await ok(apiKey, "get_plan_status", { planId })) as { status: string; budget: BudgetView };
    expect(after.status).toBe("active");
    expect(after.budget.limits).toEqual({ maxSteps: 3, maxToolCalls: 50 });
    const analytics = await (await visitor.get("/dashboard/analytics")).text();
    expect(analytics).toMatch(/id="budget-use">\s*33%/);
  });
});
