import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PlanObject } from "../../src/durable-objects/plan-object";
import { completeNextStep, createPlan, ok, steps } from "../support/plans";
import { Visitor } from "../support/dashboard";
import { callTool, rest, seedApiKey, seedTenant } from "../support/worker";

interface PendingReview {
  reviewId: string;
  kind: string;
  stepId: string | null;
  presentation: string;
  questions: string[];
}

interface Status {
  status: string;
  derivedStatus: string;
  progress: number;
  totalSteps: number;
  pendingReviews: PendingReview[];
}

const statusOf = async (key: string, planId: string) => (await ok(key, "get_plan_status", { planId })) as unknown as Status;

async function approvalPlan(key: string, extra: Record<string, unknown> = {}) {
  return createPlan(key, { approval: "required", budget: { maxSteps: 6 }, ...extra });
}

describe("a plan that waits for approval", () => {
  it("asks before any step starts, shows the question, the steps, the budget and the rationale, and a revision's note reaches the assistant", async () => {
    const { apiKey, orgId, admin } = await seedTenant();
    // The person revises through an integration an admin granted plans:approve (the assistant's key cannot).
    const approver = (await seedApiKey(orgId, admin.userId, ["research:read", "research:write", "plans:approve"])).key;
    const created = await approvalPlan(apiKey);
    expect(created).toMatchObject({ status: "awaiting_review", totalSteps: 3 });

    const waiting = await ok(apiKey, "get_next_step", { planId: created.planId });
    expect(waiting).toMatchObject({ status: "awaiting_review", progress: 0, totalSteps: 3, pendingReviews: [{ kind: "approval" }] });
    const status = await statusOf(apiKey, created.planId);
    expect(status).toMatchObject({ status: "awaiting_review", derivedStatus: "awaiting_review", progress: 0, totalSteps: 3 });
    const [approval] = status.pendingReviews;
    expect(approval).toMatchObject({ kind: "approval", stepId: null });
    expect(approval?.presentation).toContain("Which vector database fits on-device search?");
    expect(approval?.presentation).toContain("1. [search] Do step 1\n");
    expect(approval?.presentation).toContain("0 of 6 steps used");
    expect(approval?.presentation).toContain("Search, then analyze, then synthesize");
    const reviewId = approval?.reviewId as string;

    // Revise: a note and a larger budget; the plan starts, and the note comes with the first step, once.
    const refused = await callTool(approver, "submit_review", { planId: created.planId, stepId: reviewId, planVersion: 1, decision: "revise" });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.body)).toContain("feedback is required to revise");
    const revised = await ok(approver, "submit_review", { planId: created.planId, stepId: reviewId, planVersion: 1, decision: "revise", feedback: "Only open-source databases.", budget: { maxSteps: 9 } });
    expect(revised.planStatus).toBe("active");
    const first = await ok(apiKey, "get_next_step", { planId: created.planId });
    expect(first).toMatchObject({ status: "step", step: { stepOrder: 1 }, reviewNotes: ["approval review (revise): Only open-source databases."] });
    const again = await ok(apiKey, "get_next_step", { planId: created.planId });
    expect(again.reviewNotes).toBeUndefined();
    expect((await statusOf(apiKey, created.planId)).pendingReviews).toEqual([]);

    const history = (await ok(apiKey, "get_plan_history", { planId: created.planId })) as { audit: { action: string; detail: { reviewId?: string } }[]; versions: { kind: string }[] };
    const actions = history.audit.map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["plan.created", "review.requested", "review.revise", "plan.modified.approval"]));
    expect(history.audit.find((entry) => entry.action === "review.revise")?.detail.reviewId).toBe(reviewId);
    expect(history.versions.map((version) => version.kind)).toContain("approval_revision");
    expect(((await statusOf(apiKey, created.planId)) as unknown as { budget: { limits: unknown } }).budget.limits).toEqual({ maxSteps: 9 });

    // Answered once: a second answer is refused.
    const twice = await callTool(approver, "submit_review", { planId: created.planId, stepId: reviewId, planVersion: 2, decision: "approve" });
    expect(twice.isError).toBe(true);
    expect(JSON.stringify(twice.body)).toContain("already answered");
  });

  it("a rejection ends the plan before anything is spent; another org cannot answer it", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const { planId } = await approvalPlan(a.apiKey);
    const reviewId = (await statusOf(a.apiKey, planId)).pendingReviews[0]?.reviewId as string;
    const foreign = await callTool(b.apiKey, "submit_review", { planId, stepId: reviewId, decision: "approve" });
    expect(foreign.isError).toBe(true);
    expect(JSON.stringify(foreign.body)).toContain("not_found");
    expect((await statusOf(a.apiKey, planId)).status).toBe("awaiting_review");

    const rejected = await ok(a.apiKey, "submit_review", { planId, stepId: reviewId, decision: "reject", feedback: "Not this quarter." });
    expect(rejected.planStatus).toBe("failed");
    expect(await ok(a.apiKey, "get_next_step", { planId })).toMatchObject({ status: "plan_failed", reason: "Rejected at approval: Not this quarter." });
  });

  it("a cancelled plan no longer lists its unanswered approval", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await approvalPlan(apiKey);
    await ok(apiKey, "cancel_plan", { planId, reason: "Changed our minds." });
    expect(await statusOf(apiKey, planId)).toMatchObject({ status: "cancelled", pendingReviews: [] });
    expect(await ok(apiKey, "get_next_step", { planId })).toMatchObject({ status: "plan_failed" });
  });

  it("a budget review stays off the step list: 4 steps with 2 done read 2 of 4, 50 %", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { steps: steps("search", "search", "analyze", "synthesize"), budget: { maxSteps: 2 } });
    await completeNextStep(apiKey, planId);
    await completeNextStep(apiKey, planId);
    const status = await statusOf(apiKey, planId);
    expect(status).toMatchObject({ status: "awaiting_review", progress: 50, totalSteps: 4, pendingReviews: [{ kind: "budget", stepId: null }] });
    const row = await env.DB.prepare("SELECT progress, total_steps, completed_steps, budget_exhausted FROM plans WHERE plan_id = ?").bind(planId).first();
    expect(row).toEqual({ progress: 50, total_steps: 4, completed_steps: 2, budget_exhausted: 1 });
  });
});

describe("budget reviews stored as steps by earlier versions", () => {
  it("are read as plan reviews, answered by their step id, and the step row goes", async () => {
    const { apiKey, orgId, admin } = await seedTenant();
    const { planId } = await createPlan(apiKey, { steps: steps("search", "search", "analyze", "synthesize"), budget: { maxSteps: 2 } });
    await completeNextStep(apiKey, planId);
    await completeNextStep(apiKey, planId);
    const stub = env.PLAN.getByName(`${orgId}:${planId}`);
    // Rewrite the stored plan the way earlier versions kept it: no plan reviews, a checkpoint step at position 3.
    await runInDurableObject(stub, (_i: PlanObject, state) => {
      const sql = state.storage.sql;
      const plan = JSON.parse(String(sql.exec("SELECT data FROM plan").one().data)) as { reviews?: { presentation: string; questions: string[]; requestedAt: number }[] };
      const review = plan.reviews?.[0];
      if (!review) throw new Error("no budget review to rewrite");
      plan.reviews = undefined;
      sql.exec("UPDATE plan SET data = ?", JSON.stringify(plan));
      sql.exec("UPDATE steps SET step_order = step_order + 1, data = json_set(data, '$.stepOrder', step_order + 1) WHERE step_order >= 3");
      const legacy = {
        stepId: "step_legacybudget",
        stepOrder: 3,
        stepType: "checkpoint",
        instructions: "Budget review: 2 of 2 steps used (100 %).",
        parallelGroup: null,
        critical: false,
        stallThresholdMinutes: null,
        status: "awaiting_input",
        claimId: null,
        claimedBy: null,
        claimedAt: null,
        lastActivityAt: review.requestedAt,
        finishedAt: null,
        result: null,
        resultHash: null,
        confidence: null,
        executionReport: null,
        outputFormattingNotes: null,
        review: { presentation: review.presentation, questions: review.questions, requestedAt: review.requestedAt, decision: null, feedback: null, decidedAt: null, decidedBy: null },
        note: null,
        origin: "budget",
      };
      sql.exec("INSERT INTO steps (step_id, step_order, data) VALUES (?, 3, ?)", legacy.stepId, JSON.stringify(legacy));
    });

    const status = await statusOf(apiKey, planId);
    expect(status).toMatchObject({ status: "awaiting_review", progress: 50, totalSteps: 4, pendingReviews: [{ kind: "budget", reviewId: "step_legacybudget", stepId: null }] });
    // A person raises a budget: an admin's key acting for people (plans:approve).
    const personKey = (await seedApiKey(orgId, admin.userId, ["research:write", "plans:approve"])).key;
    const raised = await ok(personKey, "submit_review", { planId, stepId: "step_legacybudget", decision: "approve", budget: { maxSteps: 4 } });
    expect(raised.planStatus).toBe("active");
    const rows = await runInDurableObject(stub, (_i: PlanObject, state) => state.storage.sql.exec("SELECT step_id, step_order FROM steps ORDER BY step_order").toArray());
    expect(rows.map((row) => row.step_order)).toEqual([1, 2, 3, 4]);
    expect(rows.some((row) => row.step_id === "step_legacybudget")).toBe(false);
    await completeNextStep(apiKey, planId);
    await completeNextStep(apiKey, planId);
    expect(await statusOf(apiKey, planId)).toMatchObject({ status: "completed", progress: 100, totalSteps: 4 });
  });
});

describe("the org's approval setting", () => {
  it("is read and changed by admins only, audited, and makes approval the default for new plans", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    const adminKey = (await seedApiKey(orgId, admin.userId, ["research:read", "research:write", "org:admin"])).key;

    // Each refusal names what was asked: reading is not changing.
    const readRefused = await rest(apiKey, "/org/settings");
    expect(readRefused.status).toBe(403);
    expect(await readRefused.text()).toMatch(/Reading the organization's settings needs the org:admin scope/);
    const changeRefused = await rest(apiKey, "/org/settings", { method: "PATCH", body: JSON.stringify({ planApproval: "required" }) });
    expect(changeRefused.status).toBe(403);
    expect(await changeRefused.text()).toMatch(/Changing the organization's settings needs the org:admin scope/);
    const none = { blockedDomains: [], preferredDomains: [] };
    expect(await (await rest(adminKey, "/org/settings")).json()).toEqual({ planApproval: "optional", sourcePolicy: none, sharing: "members", approvers: [] });
    const bad = await rest(adminKey, "/org/settings", { method: "PATCH", body: JSON.stringify({ planApproval: "always" }) });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("planApproval: One of required, optional");
    const unknown = await rest(adminKey, "/org/settings", { method: "PATCH", body: JSON.stringify({ planApproval: "required", other: 1 }) });
    expect(unknown.status).toBe(400);
    expect((await rest(adminKey, "/org/settings", { method: "DELETE" })).status).toBe(405);
    // PUT is PATCH's twin (the approver group is set with it): an empty change is refused, as with PATCH.
    expect((await rest(adminKey, "/org/settings", { method: "PUT", body: "{}" })).status).toBe(400);
    expect(await (await rest(adminKey, "/org/settings")).json()).toEqual({ planApproval: "optional", sourcePolicy: none, sharing: "members", approvers: [] });

    const set = await rest(adminKey, "/org/settings", { method: "PATCH", body: JSON.stringify({ planApproval: "required" }) });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ planApproval: "required", sourcePolicy: none, sharing: "members", approvers: [] });
    const audit = await env.DB.prepare("SELECT action, detail FROM audit_log WHERE org_id = ? AND action = 'org.settings_changed'").bind(orgId).all();
    expect(audit.results).toHaveLength(1);

    expect((await createPlan(apiKey)) as unknown as { status: string }).toMatchObject({ status: "awaiting_review" });
    // The plan's own "optional" does not lift the org's requirement.
    expect((await createPlan(apiKey, { approval: "optional" })) as unknown as { status?: string }).toMatchObject({ status: "awaiting_review" });
    // Another org keeps its own default.
    const other = await seedTenant();
    expect((await createPlan(other.apiKey)) as unknown as { status?: string }).not.toHaveProperty("status");
  });
});

describe("the dashboard's approval form", () => {
  it("shows the plan for approval in the inbox and revises its steps and budget there", async () => {
    const { apiKey, admin } = await seedTenant();
    const { planId, steps: created } = await approvalPlan(apiKey);
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const inbox = await (await visitor.get("/dashboard/reviews")).text();
    expect(inbox).toContain("Approve the plan");
    expect(inbox).toContain('data-review-kind="approval"');
    expect(inbox).toContain("Do step 2 (analyze)");
    const reviewId = (await statusOf(apiKey, planId)).pendingReviews[0]?.reviewId as string;
    expect(inbox).toContain(`action="/dashboard/plans/${planId}/steps/${reviewId}/review"`);

    const [first, second, third] = created;
    const response = await visitor.post(`/dashboard/plans/${planId}/steps/${reviewId}/review`, {
      csrf: Visitor.csrfOf(inbox),
      approvalReview: "1",
      decision: "revise",
      feedback: "Skip the analysis; compare licences instead.",
      [`instructions:${first?.stepId}`]: "Search open-source vector databases",
      [`instructions:${second?.stepId}`]: "Do step 2 (analyze)",
      [`remove:${second?.stepId}`]: "1",
      [`instructions:${third?.stepId}`]: "Do step 3 (synthesize)",
      followUpSteps: "Compare licences",
      planVersion: "1",
      maxSteps: "8",
      back: "/dashboard/reviews",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/dashboard/reviews?done=plan_revise");
    const status = (await ok(apiKey, "get_plan_status", { planId })) as { status: string; pendingSteps: { stepType: string }[]; budget: { limits: unknown } };
    expect(status.status).toBe("active");
    expect(status.pendingSteps.map((step) => step.stepType)).toEqual(["search", "synthesize", "custom"]);
    expect(status.budget.limits).toEqual({ maxSteps: 8 });
    const next = await ok(apiKey, "get_next_step", { planId });
    expect(next).toMatchObject({ step: { instructions: "Search open-source vector databases" }, reviewNotes: ["approval review (revise): Skip the analysis; compare licences instead."] });
    const detail = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    expect(detail).toContain("Plan reviews");
    expect(detail).toContain("Skip the analysis; compare licences instead.");
  });
});
