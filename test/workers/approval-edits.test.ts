import { describe, expect, it } from "vitest";
import { completeNextStep, createPlan, ok, steps } from "../support/plans";
import { callTool, rest, seedApiKey, seedTenant } from "../support/worker";

/**
 * submit_review's `edits`: a person revising a plan at approval changes a pending step's instructions or removes
 * it, through the tool or REST under a credential an admin granted plans:approve (an integration acting for
 * people), as the dashboard's form does. The assistant's own key creates the plans and cannot answer them.
 */

/** The seeded tenant with the key of an integration acting for people (plans:approve), the admin's. */
async function tenantWithApprover() {
  const tenant = await seedTenant();
  const approver = (await seedApiKey(tenant.orgId, tenant.admin.userId, ["research:read", "research:write", "plans:approve"])).key;
  return { ...tenant, approver };
}

interface Status {
  status: string;
  pendingSteps: { stepId: string; stepOrder: number; stepType: string; instructions?: string }[];
  pendingReviews: { reviewId: string; kind: string }[];
}

const statusOf = async (key: string, planId: string) => (await ok(key, "get_plan_status", { planId })) as unknown as Status;

/** What a refused answer must leave as it was: the plan's status, steps, reviews and versions. */
async function footprint(key: string, planId: string) {
  const history = (await ok(key, "get_plan_history", { planId })) as { versions: unknown[]; audit: unknown[] };
  return { status: await statusOf(key, planId), versions: history.versions.length, audit: history.audit.length };
}

async function approvalPlan(key: string) {
  const created = await createPlan(key, { approval: "required", steps: steps("search", "analyze", "synthesize") });
  const reviewId = (await statusOf(key, created.planId)).pendingReviews[0]?.reviewId as string;
  return { ...created, reviewId };
}

const errorOf = (body: Record<string, unknown>) => (body as { error?: { code?: string; message?: string } }).error ?? {};

describe("submit_review's step edits at approval", () => {
  it("edit one step's instructions and remove another: the plan starts as edited, with a version and the note", async () => {
    const { apiKey, approver } = await tenantWithApprover();
    const { planId, reviewId, steps: created } = await approvalPlan(apiKey);
    const [first, second] = created;
    const revised = await ok(approver, "submit_review", {
      planId,
      stepId: reviewId,
      planVersion: 1,
      decision: "revise",
      feedback: "Open-source only; no separate analysis.",
      edits: [
        { stepId: first?.stepId, instructions: "Search open-source vector databases" },
        { stepId: second?.stepId, remove: true },
      ],
    });
    expect(revised.planStatus).toBe("active");
    const status = await statusOf(apiKey, planId);
    expect(status.pendingSteps.map((step) => [step.stepOrder, step.stepType])).toEqual([
      [1, "search"],
      [2, "synthesize"],
    ]);
    const next = await ok(apiKey, "get_next_step", { planId });
    expect(next).toMatchObject({
      step: { stepId: first?.stepId, instructions: "Search open-source vector databases" },
      reviewNotes: ["approval review (revise): Open-source only; no separate analysis."],
    });
    const history = (await ok(apiKey, "get_plan_history", { planId })) as { versions: { kind: string; before: { stepId: string }[] }[] };
    const revision = history.versions.find((version) => version.kind === "approval_revision");
    expect(revision?.before.map((step) => step.stepId).sort()).toEqual([first?.stepId, second?.stepId].sort());
  });

  it("refuses, and changes nothing, edits that do not fit the plan's approval", async () => {
    const { apiKey, approver } = await tenantWithApprover();
    const { planId, reviewId, steps: created } = await approvalPlan(apiKey);
    const [first, second, third] = created;
    const other = await approvalPlan(apiKey);
    // A waiting plan changes only through its approval, so no step stops being pending before it is answered
    // (a step no longer pending is refused by the domain: approval.test.ts).
    const skip = await callTool(apiKey, "modify_plan", { planId, action: "skip", stepId: third?.stepId, reason: "Out of scope", modificationRationale: "Narrowed" });
    expect(errorOf(skip.body)).toMatchObject({ code: "conflict", message: expect.stringContaining(reviewId) });
    const before = await footprint(apiKey, planId);
    const revise = (edits: unknown[], extra: Record<string, unknown> = {}) =>
      callTool(approver, "submit_review", { planId, stepId: reviewId, planVersion: 1, decision: "revise", feedback: "Narrower.", edits, ...extra });

    const cases: [string, Awaited<ReturnType<typeof revise>>, string, string][] = [
      ["another plan's step", await revise([{ stepId: other.steps[0]?.stepId, instructions: "Elsewhere" }]), "not_found", other.steps[0]?.stepId ?? ""],
      ["neither instructions nor remove", await revise([{ stepId: first?.stepId }]), "validation", "instructions or remove"],
      ["both instructions and remove", await revise([{ stepId: first?.stepId, instructions: "x", remove: true }]), "validation", "not both"],
      ["the same step twice", await revise([{ stepId: first?.stepId, instructions: "a" }, { stepId: first?.stepId, remove: true }]), "validation", "edited twice"],
      [
        "every remaining step removed",
        await revise([{ stepId: first?.stepId, remove: true }, { stepId: second?.stepId, remove: true }, { stepId: third?.stepId, remove: true }]),
        "validation",
        "reject it instead",
      ],
      ["edits with approve", await callTool(approver, "submit_review", { planId, stepId: reviewId, planVersion: 1, decision: "approve", edits: [{ stepId: first?.stepId, remove: true }] }), "validation", "decision revise"],
      ["more edits than a plan has steps", await revise(Array.from({ length: 61 }, (_, i) => ({ stepId: `step_${i}`, remove: true }))), "validation", "edits"],
      ["instructions past the bound", await revise([{ stepId: first?.stepId, instructions: "x".repeat(8_001) }]), "validation", "instructions"],
    ];
    for (const [what, result, code, message] of cases) {
      expect(result.isError, what).toBe(true);
      expect(errorOf(result.body).code, what).toBe(code);
      expect(JSON.stringify(result.body), what).toContain(message);
    }
    // The other plan's step is untouched too.
    expect((await statusOf(apiKey, other.planId)).pendingSteps.map((step) => step.stepId)).toEqual(other.steps.map((step) => step.stepId));
    expect(await footprint(apiKey, planId)).toEqual(before);
    expect(before.status.status).toBe("awaiting_review");
  });

  it("refuses edits on a step's review and on a budget review, leaving each waiting", async () => {
    const { apiKey } = await seedTenant();
    const checkpoint = await createPlan(apiKey, { steps: [{ stepType: "checkpoint", instructions: "Confirm the scope" }, { stepType: "search", instructions: "Search" }] });
    const claimed = (await ok(apiKey, "get_next_step", { planId: checkpoint.planId })) as { step: { stepId: string }; claimId: string };
    await ok(apiKey, "request_user_review", { planId: checkpoint.planId, stepId: claimed.step.stepId, claimId: claimed.claimId, presentation: "Scope", questions: [] });
    const stepReview = await callTool(apiKey, "submit_review", {
      planId: checkpoint.planId,
      stepId: claimed.step.stepId,
      decision: "revise",
      feedback: "Wider.",
      edits: [{ stepId: checkpoint.steps[1]?.stepId, instructions: "Search wider" }],
    });
    expect(stepReview.isError).toBe(true);
    expect(errorOf(stepReview.body)).toMatchObject({ code: "validation", message: expect.stringContaining("approval review") });
    expect((await statusOf(apiKey, checkpoint.planId)).pendingReviews).toMatchObject([{ reviewId: claimed.step.stepId, kind: "step" }]);

    const budgeted = await createPlan(apiKey, { steps: steps("search", "search", "synthesize"), budget: { maxSteps: 1 } });
    await completeNextStep(apiKey, budgeted.planId);
    const [budgetReview] = (await statusOf(apiKey, budgeted.planId)).pendingReviews;
    expect(budgetReview?.kind).toBe("budget");
    const onBudget = await callTool(apiKey, "submit_review", {
      planId: budgeted.planId,
      stepId: budgetReview?.reviewId,
      decision: "approve",
      budget: { maxSteps: 3 },
      edits: [{ stepId: budgeted.steps[2]?.stepId, remove: true }],
    });
    expect(onBudget.isError).toBe(true);
    expect(errorOf(onBudget.body)).toMatchObject({ code: "validation", message: expect.stringContaining("approval review") });
    const after = await statusOf(apiKey, budgeted.planId);
    expect(after.pendingReviews).toMatchObject([{ kind: "budget" }]);
    expect(after.pendingSteps).toHaveLength(2);
  });

  it("REST takes the same edits on the review route", async () => {
    const { apiKey, approver } = await tenantWithApprover();
    const { planId, reviewId, steps: created } = await approvalPlan(apiKey);
    const [, second, third] = created;
    const bad = await rest(approver, `/plans/${planId}/steps/${reviewId}/review`, {
      method: "POST",
      body: JSON.stringify({ decision: "revise", planVersion: 1, feedback: "Shorter.", edits: [{ stepId: "step_nope", remove: true }] }),
    });
    expect(bad.status).toBe(404);
    expect(bad.headers.get("content-type")).toContain("application/problem+json");
    const response = await rest(approver, `/plans/${planId}/steps/${reviewId}/review`, {
      method: "POST",
      body: JSON.stringify({ decision: "revise", planVersion: 1, feedback: "Shorter.", edits: [{ stepId: second?.stepId, remove: true }, { stepId: third?.stepId, instructions: "Write a one-page brief" }] }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ decision: "revise", planStatus: "active" });
    const status = await statusOf(apiKey, planId);
    expect(status.pendingSteps.map((step) => step.stepType)).toEqual(["search", "synthesize"]);
  });
});
