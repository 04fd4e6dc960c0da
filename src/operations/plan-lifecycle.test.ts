import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { completeNextStep, createPlan, ok, REPORT, steps } from "../../test/support/plans";
import { callTool, countRows, rest, seedTenant } from "../../test/support/worker";

describe("a research plan, end to end through the tools", () => {
  it("runs a sequential plan to completion with the seed's status figures at every step", async () => {
    const { apiKey } = await seedTenant();
    const { planId, steps: created } = await createPlan(apiKey);
    expect(created.map((s) => s.stepOrder)).toEqual([1, 2, 3]);

    const initial = await ok(apiKey, "get_plan_status", { planId });
    expect(initial).toMatchObject({ status: "active", derivedStatus: "active", progress: 0, totalSteps: 3, currentStep: null, stalled: false });

    const first = await ok(apiKey, "get_next_step", { planId });
    expect(first).toMatchObject({ status: "step", step: { stepOrder: 1, stepType: "search", status: "in_progress" } });
    expect(first).not.toHaveProperty("resumed"); // only a step claimed by an earlier session says so
    const again = await ok(apiKey, "get_next_step", { planId });
    expect(again).toMatchObject({ status: "step", resumed: true, claimId: first.claimId });

    const during = await ok(apiKey, "get_plan_status", { planId });
    expect(during).toMatchObject({ currentStep: { stepOrder: 1, status: "in_progress" }, inProgressSteps: [{ stepOrder: 1 }] });

    const step1 = (first.step as { stepId: string }).stepId;
    const submitted = await ok(apiKey, "submit_step_result", { planId, stepId: step1, claimId: first.claimId, result: { a: 1 }, confidence: 0.9, stepExecutionReport: REPORT });
    expect(submitted).toMatchObject({ status: "completed", replayed: false, progress: 33, planStatus: "active" });
    const replay = await ok(apiKey, "submit_step_result", { planId, stepId: step1, claimId: first.claimId, result: { a: 1 }, confidence: 0.9, stepExecutionReport: REPORT });
    expect(replay).toMatchObject({ replayed: true, progress: 33 });
    const different = await callTool(apiKey, "submit_step_result", { planId, stepId: step1, claimId: first.claimId, result: { a: 2 }, confidence: 0.9, stepExecutionReport: REPORT });
    expect(different.body).toMatchObject({ error: { code: "conflict" } });

    const stored = await ok(apiKey, "store_research", { artifactType: "source", title: "Step 1 source", content: {}, contentText: "source text", planId, stepId: step1 });
    const second = await ok(apiKey, "get_next_step", { planId });
    const context = await ok(apiKey, "get_step_context", { planId, stepId: (second.step as { stepId: string }).stepId, detail: "full" });
    expect(context).toMatchObject({
      earlierSteps: [{ stepOrder: 1, confidence: 0.9, result: { a: 1 }, resultSummary: { a: 1 }, artifacts: [{ artifactId: stored.artifactId, title: "Step 1 source", artifactType: "source" }] }],
    });

    await completeNextStep(apiKey, planId); // step 2 (already claimed: resumed)
    const last = await completeNextStep(apiKey, planId);
    expect(last.submitted).toMatchObject({ progress: 100, planStatus: "completed" });
    expect(await ok(apiKey, "get_next_step", { planId })).toMatchObject({ status: "plan_complete", progress: 100 });
    const done = await ok(apiKey, "get_plan_status", { planId });
    expect(done).toMatchObject({ status: "completed", derivedStatus: "completed", progress: 100, pendingSteps: [], currentStep: null });
    expect((done.completedSteps as unknown[]).length).toBe(3);
  });

  it("refuses a submission without all five report fields, and one that is too large, changing nothing", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    const next = await ok(apiKey, "get_next_step", { planId });
    const stepId = (next.step as { stepId: string }).stepId;
    const { subagents: _omitted, ...partial } = REPORT;
    const missing = await callTool(apiKey, "submit_step_result", { planId, stepId, claimId: next.claimId, result: {}, confidence: 0.5, stepExecutionReport: partial });
    expect(missing.body).toMatchObject({ error: { code: "validation", issues: [{ path: "stepExecutionReport.subagents" }] } });
    const huge = await callTool(apiKey, "submit_step_result", { planId, stepId, claimId: next.claimId, result: "x".repeat(300_000), confidence: 0.5, stepExecutionReport: REPORT });
    expect(huge.body).toMatchObject({ error: { code: "payload_too_large" } });
    // A result is structured data (an object, a list or text), as its published schema says.
    for (const result of [42, true, null]) {
      const bare = await callTool(apiKey, "submit_step_result", { planId, stepId, claimId: next.claimId, result, confidence: 0.5, stepExecutionReport: REPORT });
      expect(bare.body).toMatchObject({ error: { code: "validation", issues: [{ path: "result" }] } });
    }
    expect(await ok(apiKey, "get_plan_status", { planId })).toMatchObject({ progress: 0, currentStep: { status: "in_progress" } });
  });

  it("pauses at a checkpoint for review, and continues with follow-up steps after revise", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { steps: steps("search", "checkpoint", "synthesize") });
    await completeNextStep(apiKey, planId);
    const checkpoint = await ok(apiKey, "get_next_step", { planId });
    const stepId = (checkpoint.step as { stepId: string }).stepId;
    await ok(apiKey, "request_user_review", { planId, stepId, claimId: checkpoint.claimId, presentation: "Here is what we found", questions: ["Go deeper on cost?"] });
    expect(await ok(apiKey, "get_next_step", { planId })).toMatchObject({ status: "awaiting_review", reviewSteps: [{ stepId }] });
    expect(await ok(apiKey, "get_plan_status", { planId })).toMatchObject({ status: "awaiting_review", derivedStatus: "awaiting_review" });
    const reviewed = await ok(apiKey, "submit_review", { planId, stepId, decision: "revise", feedback: "Add pricing detail" });
    expect(reviewed).toMatchObject({ planStatus: "active", insertedSteps: [{ stepOrder: 3, stepType: "custom" }] });
    const followUp = await ok(apiKey, "get_next_step", { planId });
    expect(followUp).toMatchObject({ status: "step", step: { stepOrder: 3, stepType: "custom" } });
    expect((followUp.step as { instructions: string }).instructions).toContain("Add pricing detail");
  });

  it("fails the plan when a review rejects it", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { steps: steps("checkpoint", "synthesize") });
    const checkpoint = await ok(apiKey, "get_next_step", { planId });
    const stepId = (checkpoint.step as { stepId: string }).stepId;
    await ok(apiKey, "request_user_review", { planId, stepId, claimId: checkpoint.claimId, presentation: "Plan outline", questions: [] });
    expect(await ok(apiKey, "submit_review", { planId, stepId, decision: "reject", feedback: "Wrong question" })).toMatchObject({ planStatus: "failed" });
    expect(await ok(apiKey, "get_next_step", { planId })).toMatchObject({ status: "plan_failed" });
  });

  it("applies a quality gate: low confidence inserts the gate's steps, recorded as a plan version", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, {
      name: "[Deep] Vector databases",
      branchingConditions: [{ afterStep: 1, confidenceBelow: 0.6, insertSteps: steps("search"), rationale: "Too little evidence" }],
    });
    const { submitted } = await completeNextStep(apiKey, planId, 0.4);
    expect(submitted).toMatchObject({ insertedSteps: [{ stepOrder: 2, stepType: "search" }] });
    const history = await ok(apiKey, "get_plan_history", { planId });
    expect((history.versions as { kind: string; rationale: string }[]).map((v) => v.kind)).toEqual(["branch", "create"]); // newest first
    expect((history.versions as { rationale: string }[])[0]?.rationale).toContain("confidence 0.4 < 0.6");
  });

  it("modifies a running plan, keeping every change as a version with its rationale and diff", async () => {
    const { apiKey, admin, apiKeyId } = await seedTenant();
    const { planId, steps: created } = await createPlan(apiKey, { steps: steps("search", "analyze", "critique", "synthesize") });
    const [, analyze, critique, synthesize] = created;
    await ok(apiKey, "modify_plan", { planId, action: "add", steps: steps("search"), afterStepId: analyze?.stepId, modificationRationale: "Gap found" });
    await ok(apiKey, "modify_plan", { planId, action: "update", stepId: synthesize?.stepId, instructions: "Write a brief", modificationRationale: "User wants brevity" });
    await ok(apiKey, "modify_plan", { planId, action: "skip", stepId: critique?.stepId, reason: "Not needed", modificationRationale: "Scan depth" });
    const noRationale = await callTool(apiKey, "modify_plan", { planId, action: "skip", stepId: synthesize?.stepId, reason: "x" });
    expect(noRationale.body).toMatchObject({ error: { code: "validation" } });
    const missingField = await callTool(apiKey, "modify_plan", { planId, action: "update", stepId: synthesize?.stepId, modificationRationale: "x" });
    expect(missingField.body).toMatchObject({ error: { code: "validation", issues: [{ path: "instructions" }] } });
    const status = await ok(apiKey, "get_plan_status", { planId });
    expect(status).toMatchObject({ totalSteps: 5, progress: 20 });
    const history = await ok(apiKey, "get_plan_history", { planId });
    const versions = history.versions as { version: number; kind: string; rationale: string; before: { instructions: string }[]; after: { instructions: string }[]; actorUserId: string; actorClientId: string }[];
    expect(versions.map((v) => [v.version, v.kind])).toEqual([[4, "skip"], [3, "update"], [2, "add"], [1, "create"]]); // newest first
    expect(versions[1]).toMatchObject({ rationale: "User wants brevity", before: [{ instructions: "Do step 4 (synthesize)" }], after: [{ instructions: "Write a brief" }] });
    expect(versions[0]).toMatchObject({ actorUserId: admin.userId, actorClientId: apiKeyId });
    const audit = history.audit as { action: string }[];
    expect(audit.map((entry) => entry.action)).toContain("plan.modified.skip");
  });

  it("pages the audit trail newest first without repeating or skipping an entry", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    await completeNextStep(apiKey, planId);
    await completeNextStep(apiKey, planId);
    const all = (await ok(apiKey, "get_plan_history", { planId, limit: 100 })).audit as { action: string; createdAt: string }[];
    const paged: { action: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await ok(apiKey, "get_plan_history", { planId, limit: 2, ...(cursor ? { cursor } : {}) });
      paged.push(...(page.audit as { action: string }[]));
      cursor = (page.nextCursor as string | null) ?? undefined;
    } while (cursor);
    expect(paged).toEqual(all);
    expect(all.map((entry) => entry.action).slice(-2)).toEqual(["step.claimed", "plan.created"]);
  });

  it("cancels a plan idempotently; get_next_step then reports plan_failed", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    expect(await ok(apiKey, "cancel_plan", { planId, reason: "User changed mind" })).toMatchObject({ status: "cancelled" });
    expect(await ok(apiKey, "cancel_plan", { planId, reason: "again" })).toMatchObject({ status: "cancelled" });
    expect(await ok(apiKey, "get_next_step", { planId })).toMatchObject({ status: "plan_failed", reason: "Cancelled: User changed mind" });
  });

  it("auto-links the session's newest started skill execution, and is a no-op without one", async () => {
    const { apiKey } = await seedTenant();
    const older = await ok(apiKey, "log_skill_execution", { skillName: "research", sessionId: "s-42" });
    const newer = await ok(apiKey, "log_skill_execution", { skillName: "research", sessionId: "s-42" });
    const { planId, linkedExecutionId } = await createPlan(apiKey, { sessionId: "s-42" });
    expect(linkedExecutionId).toBe(newer.executionId);
    expect(await ok(apiKey, "get_skill_execution", { executionId: newer.executionId })).toMatchObject({
      status: "executing",
      planId,
      metadata: { planDesignRationale: "Search, then analyze, then synthesize" },
    });
    expect(await ok(apiKey, "get_skill_execution", { executionId: older.executionId })).toMatchObject({ status: "started", planId: null });
    expect((await createPlan(apiKey, { sessionId: "nobody" })).linkedExecutionId).toBeNull();
  });

  it("lists active plans from the index with the same progress, and resumes one with an audited session", async () => {
    const { apiKey, orgId } = await seedTenant();
    const a = await createPlan(apiKey);
    const b = await createPlan(apiKey);
    await completeNextStep(apiKey, a.planId);
    await ok(apiKey, "cancel_plan", { planId: b.planId, reason: "duplicate" });
    const listed = await ok(apiKey, "list_active_plans", {});
    expect(listed.plans).toEqual([expect.objectContaining({ planId: a.planId, progress: 33, status: "active" })]);
    const context = await ok(apiKey, "get_research_context", { planId: a.planId, sessionId: "second-session", detail: "full" });
    expect(context).toMatchObject({ plan: { planId: a.planId }, status: { progress: 33 }, steps: [{ stepOrder: 1, result: { findings: ["finding of step 1"] } }, { stepOrder: 2 }, { stepOrder: 3 }] });
    const history = await ok(apiKey, "get_plan_history", { planId: a.planId });
    expect(history.audit).toContainEqual(expect.objectContaining({ action: "session_resumed", detail: { sessionId: "second-session" } }));
    const row = await env.DB.prepare("SELECT progress, status FROM plans WHERE plan_id = ? AND org_id = ?").bind(a.planId, orgId).first();
    expect(row).toEqual({ progress: 33, status: "active" });
  });

  it("makes another org's plan and step ids indistinguishable from missing ones, on every plan tool", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const { planId, steps: created } = await createPlan(a.apiKey);
    const stepId = created[0]?.stepId ?? "";
    const calls: [string, Record<string, unknown>][] = [
      ["get_next_step", { planId }],
      ["get_step_context", { planId, stepId }],
      ["submit_step_result", { planId, stepId, claimId: "claim_x", result: {}, confidence: 1, stepExecutionReport: REPORT }],
      ["modify_plan", { planId, action: "skip", stepId, reason: "x", modificationRationale: "x" }],
      ["request_user_review", { planId, stepId, claimId: "claim_x", presentation: "x", questions: [] }],
      ["submit_review", { planId, stepId, decision: "approve" }],
      ["get_plan_status", { planId }],
      ["get_research_context", { planId, sessionId: "s" }],
      ["cancel_plan", { planId, reason: "x" }],
      ["get_plan_history", { planId }],
    ];
    const missing = "plan_0000000000000000000000000";
    for (const [tool, args] of calls) {
      const foreign = (await callTool(b.apiKey, tool, args)).body as { error: { code: string; message: string } };
      const absent = (await callTool(b.apiKey, tool, { ...args, planId: missing })).body as { error: { code: string; message: string } };
      expect(foreign.error.code, tool).toBe("not_found");
      expect(foreign.error.message.replace(planId, "ID"), tool).toBe(absent.error.message.replace(missing, "ID"));
    }
    expect(await ok(a.apiKey, "get_plan_status", { planId })).toMatchObject({ status: "active", progress: 0, currentStep: null });
    expect((await ok(b.apiKey, "list_active_plans", {})).plans).toEqual([]);
    expect((await rest(b.apiKey, `/plans/${planId}`)).status).toBe(404);
    expect(await countRows("plans")).toBeGreaterThan(0);
  });
});
