import { beforeEach, describe, expect, it } from "vitest";
import { CairnError } from "../errors";
import { nextBudgetAlarm } from "./budget-review";
import { type CreatePlanInput, createPlan, modifyPlan, type NewId, nextStep, onAlarm, submitResult, submitReview } from "./machine";
import type { NewStep, PlanState, Step } from "./model";
import { progressOf } from "./status";

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;
const actor = { userId: "usr_1", clientId: "cli_1" };
/** A person answers (a budget is raised only by one). */
const person = { approver: "person" as const, approvalUrl: "https://cairn.test/dashboard/plans/pln_1" };
const report = { thinking: "t", webSearches: [{ q: "a" }, { q: "b" }], webFetches: [], otherToolCalls: [], subagents: [] };

let newId: NewId;
beforeEach(() => {
  let n = 0;
  newId = (prefix) => `${prefix}_${++n}`;
});

const steps = (count: number, group: string | null = null): NewStep[] =>
  Array.from({ length: count }, (_, i) => ({ stepType: "search" as const, instructions: `search ${i + 1}`, parallelGroup: group }));

const create = (list: NewStep[], overrides: Partial<CreatePlanInput> = {}): PlanState =>
  createPlan(
    {
      planId: "pln_1",
      orgId: "org_1",
      name: "[Deep] Heat pumps",
      researchQuestion: "Which heat pump?",
      steps: list,
      branchingConditions: [],
      planDesignRationale: "because",
      outputFormattingNotes: null,
      sessionId: null,
      executionId: null,
      ...overrides,
    },
    actor,
    T0,
    newId,
  ).state;

function take(state: PlanState, worker: string, now = T0) {
  const next = nextStep(state, worker, now, newId);
  if (next.outcome.status !== "step") throw new Error(`expected a step, got ${next.outcome.status}`);
  return { state: next.state, step: next.outcome.step, claimId: next.outcome.claimId };
}

function submit(state: PlanState, step: Step, claimId: string, usage?: { inputTokens?: number; outputTokens?: number; toolCalls?: number }, now = T0) {
  return submitResult(
    state,
    { stepId: step.stepId, claimId, result: { done: step.stepId }, resultHash: `h-${step.stepId}`, confidence: 0.9, executionReport: report, outputFormattingNotes: null, ...(usage ? { usage } : {}) },
    now,
    newId,
  );
}

/** Takes and finishes steps one by one until the plan stops handing them out. */
function runSequential(state: PlanState, limit = 100): PlanState {
  let current = state;
  for (let i = 0; i < limit; i++) {
    const next = nextStep(current, "w", T0, newId);
    if (next.outcome.status !== "step") return next.state;
    current = submit(next.state, next.outcome.step, next.outcome.claimId).state;
  }
  return current;
}

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return error instanceof CairnError ? error.code : String(error);
  }
  return "no error";
};

const budgetReview = (state: PlanState) => state.plan.reviews?.find((r) => r.kind === "budget");
const reviewIdOf = (state: PlanState) => budgetReview(state)?.reviewId ?? "none";

describe("a step budget", () => {
  it("counts started steps and pauses at the limit for a person, right after the result that spent it", () => {
    let state = create(steps(5), { budget: { maxSteps: 3 } });
    for (let i = 0; i < 2; i++) {
      const taken = take(state, "w");
      state = submit(taken.state, taken.step, taken.claimId).state;
    }
    const third = take(state, "w");
    expect(third.state.plan.usage?.steps).toBe(3);
    const after = submit(third.state, third.step, third.claimId);
    expect(after.events.map((e) => e.action)).toContain("plan.budget_exhausted");
    expect(after.state.plan.status).toBe("awaiting_review");
    const review = budgetReview(after.state);
    expect(review).toMatchObject({ kind: "budget", decision: null });
    expect(review?.presentation).toContain("3 of 3 steps used");
    // The review is on the plan, not in its steps: 3 of 5 done stays 60 %.
    expect(after.state.steps).toHaveLength(5);
    expect(progressOf(after.state.steps)).toBe(60);

    const asked = nextStep(after.state, "w", T0, newId);
    expect(asked.outcome.status).toBe("budget_exhausted");
    if (asked.outcome.status === "budget_exhausted") expect(asked.outcome.exhausted).toEqual([{ dimension: "steps", used: 3, limit: 3, fraction: 1 }]);
    expect(asked.state).toBe(after.state);
  });

  it("a raise at review lets the plan go on and complete", () => {
    const paused = runSequential(create(steps(5), { budget: { maxSteps: 3 } }));
    const review = { stepId: reviewIdOf(paused) };
    expect(codeOf(() => submitReview(paused, { stepId: review.stepId, decision: "approve", feedback: null, followUpSteps: [], authority: person }, actor, T0, newId))).toBe("validation");
    expect(codeOf(() => submitReview(paused, { stepId: review.stepId, decision: "approve", feedback: null, followUpSteps: [], budget: { maxSteps: 3 }, authority: person }, actor, T0, newId))).toBe("validation");
    expect(codeOf(() => submitReview(paused, { stepId: review.stepId, decision: "revise", feedback: "more", followUpSteps: [] }, actor, T0, newId))).toBe("validation");
    // Step edits revise an approval; a budget review refuses them rather than raise the budget and drop them.
    const pendingStep = paused.steps.find((s) => s.status === "pending")?.stepId ?? "";
    const withEdits = { stepId: review.stepId, decision: "approve" as const, feedback: null, followUpSteps: [], budget: { maxSteps: 5 }, stepEdits: [{ stepId: pendingStep, remove: true }] };
    expect(codeOf(() => submitReview(paused, withEdits, actor, T0, newId))).toBe("validation");
    // The assistant (no person's authority) may end the plan at its budget but never raise it.
    expect(codeOf(() => submitReview(paused, { stepId: review.stepId, decision: "approve", feedback: null, followUpSteps: [], budget: { maxSteps: 5 } }, actor, T0, newId))).toBe("forbidden");
    const raised = submitReview(paused, { stepId: review.stepId, decision: "approve", feedback: "go on", followUpSteps: [], budget: { maxSteps: 5 }, authority: person }, actor, T0, newId);
    expect(raised.state.plan.budget).toEqual({ maxSteps: 5 });
    expect(raised.state.plan.status).toBe("active");
    expect(raised.events.map((e) => e.action)).toEqual(["review.approve", "plan.budget_raised"]);
    const done = runSequential(raised.state);
    expect(done.plan.status).toBe("completed");
    expect(done.plan.usage?.steps).toBe(5);
    expect(done.steps).toHaveLength(5);
    expect(done.plan.reviews?.map((r) => r.decision)).toEqual(["approve"]);
  });

  it("ending at review skips what never started and completes with what the plan has", () => {
    const paused = runSequential(create(steps(5), { budget: { maxSteps: 2 } }));
    const review = { stepId: reviewIdOf(paused) };
    const ended = submitReview(paused, { stepId: review.stepId, decision: "reject", feedback: "enough", followUpSteps: [] }, actor, T0, newId);
    expect(ended.state.plan.status).toBe("completed");
    expect(ended.state.steps.map((s) => s.status)).toEqual(["completed", "completed", "skipped", "skipped", "skipped"]);
    expect(progressOf(ended.state.steps)).toBe(100);
    expect(ended.events.map((e) => e.action)).toEqual(["review.reject", "plan.ended_at_budget", "plan.completed"]);
    expect(ended.state.plan.failureReason).toBeNull();
  });

  it("warns at 80 % through the step answer's lines (no pause before the limit)", () => {
    let state = create(steps(10), { budget: { maxSteps: 10 } });
    state = runSequential(state, 8);
    expect(state.plan.usage?.steps).toBe(8);
    expect(budgetReview(state)).toBeUndefined();
  });
});

describe("exhaustion in the middle of a parallel group", () => {
  it("in-flight steps may finish, no new step starts, and the review goes after the group", () => {
    let state = create([...steps(4, "g"), { stepType: "synthesize", instructions: "write" }], { budget: { maxSteps: 2 } });
    const a = take(state, "a");
    const b = take(a.state, "b");
    state = b.state;
    const c = nextStep(state, "c", T0, newId);
    expect(c.outcome.status).toBe("budget_exhausted");
    expect(c.events.map((e) => e.action)).toEqual(["plan.budget_exhausted"]);
    state = c.state;
    expect(budgetReview(state)?.decision).toBeNull();
    expect(state.steps.map((s) => s.parallelGroup)).toEqual(["g", "g", "g", "g", null]);
    expect(state.plan.usage?.steps).toBe(2);
    // The worker of an in-flight step gets it back and may finish it; the others get nothing new.
    expect(nextStep(state, "a", T0, newId).outcome).toMatchObject({ status: "step", resumed: true });
    expect(nextStep(state, "d", T0, newId).outcome.status).toBe("budget_exhausted");
    state = submit(state, a.step, a.claimId).state;
    state = submit(state, b.step, b.claimId).state;
    expect(state.steps.filter((s) => s.status === "completed")).toHaveLength(2);
    expect(state.steps).toHaveLength(5);
    expect(state.plan.status).toBe("awaiting_review");
  });

  it("ending at review while a step is in flight completes the plan when that step finishes", () => {
    let state = create(steps(3, "g"), { budget: { maxSteps: 1 } });
    const a = take(state, "a");
    state = nextStep(a.state, "b", T0, newId).state;
    state = submitReview(state, { stepId: reviewIdOf(state), decision: "reject", feedback: "stop", followUpSteps: [] }, actor, T0, newId).state;
    expect(state.plan.status).toBe("active");
    const finished = submit(state, a.step, a.claimId);
    expect(finished.state.plan.status).toBe("completed");
    expect(finished.state.steps.map((s) => s.status)).toEqual(["completed", "skipped", "skipped"]);
  });
});

describe("token and tool-call budgets", () => {
  it("accumulate the usage each result reports and pause when a limit is reached", () => {
    let state = create(steps(4), { budget: { maxTokens: 1000, maxToolCalls: 100 } });
    let taken = take(state, "w");
    state = submit(taken.state, taken.step, taken.claimId, { inputTokens: 500, outputTokens: 100 }).state;
    expect(state.plan.usage).toEqual({ steps: 1, inputTokens: 500, outputTokens: 100, toolCalls: 2 });
    expect(budgetReview(state)).toBeUndefined();
    taken = take(state, "w");
    const spent = submit(taken.state, taken.step, taken.claimId, { inputTokens: 300, outputTokens: 150, toolCalls: 7 });
    expect(spent.state.plan.usage).toEqual({ steps: 2, inputTokens: 800, outputTokens: 250, toolCalls: 9 });
    expect(spent.events.find((e) => e.action === "plan.budget_exhausted")?.detail).toEqual({ reviewId: reviewIdOf(spent.state), exhausted: [{ dimension: "tokens", used: 1050, limit: 1000 }] });
  });

  it("a replayed result is not counted twice", () => {
    const state = create(steps(2), { budget: { maxTokens: 1000 } });
    const taken = take(state, "w");
    const once = submit(taken.state, taken.step, taken.claimId, { inputTokens: 400 });
    const twice = submit(once.state, taken.step, taken.claimId, { inputTokens: 400 });
    expect(twice.replayed).toBe(true);
    expect(twice.state.plan.usage?.inputTokens).toBe(400);
  });

  it("the last step spending the budget completes the plan: nothing is left to pause", () => {
    const state = create(steps(1), { budget: { maxSteps: 1 } });
    const done = runSequential(state);
    expect(done.plan.status).toBe("completed");
    expect(budgetReview(done)).toBeUndefined();
  });
});

describe("a deadline", () => {
  it("is refused when already past, and the alarm opens the review once it passes", () => {
    expect(codeOf(() => create(steps(2), { budget: { deadline: T0 - 1 } }))).toBe("validation");
    let state = create(steps(3), { budget: { deadline: T0 + HOUR } });
    expect(nextBudgetAlarm(state, T0)).toBe(T0 + HOUR);
    expect(onAlarm(state, T0 + HOUR - 1, newId).events).toEqual([]);
    const fired = onAlarm(state, T0 + HOUR, newId);
    expect(fired.events.map((e) => e.action)).toEqual(["plan.budget_exhausted"]);
    state = fired.state;
    expect(state.plan.status).toBe("awaiting_review");
    expect(nextBudgetAlarm(state, T0 + HOUR)).toBeNull();
    expect(onAlarm(state, T0 + 2 * HOUR, newId).events).toEqual([]);
    const raised = submitReview(state, { stepId: reviewIdOf(state), decision: "approve", feedback: null, followUpSteps: [], budget: { deadline: T0 + 3 * HOUR }, authority: person }, actor, T0 + HOUR, newId);
    expect(nextBudgetAlarm(raised.state, T0 + HOUR)).toBe(T0 + 3 * HOUR);
  });
});

describe("changing a budget with modify_plan", () => {
  it("records a version, and a limit set below what is used opens the review at once", () => {
    let state = runSequential(create(steps(4)), 2);
    expect(state.plan.budget).toBeNull();
    const set = modifyPlan(state, { action: "budget", budget: { maxSteps: 2 } }, "keep it short", T0, newId);
    expect(set.modifications.map((m) => m.kind)).toEqual(["budget"]);
    expect(set.events.map((e) => e.action)).toEqual(["plan.modified.budget", "plan.budget_exhausted"]);
    state = set.state;
    expect(codeOf(() => modifyPlan(state, { action: "budget", budget: { maxSteps: 10 } }, "more", T0, newId))).toBe("invalid_transition");
  });
});
