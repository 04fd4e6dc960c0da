import { beforeEach, describe, expect, it } from "vitest";
import { CairnError } from "../errors";
import { type CreatePlanInput, createPlan, liftLegacyReviews, modifyPlan, type NewId, nextStep, submitResult, submitReview } from "./machine";
import { LIMITS, type NewStep, type PlanState, type Step } from "./model";
import { APPROVAL_PRESENTATION_MAX } from "./approval";
import { derivePlanStatus, progressOf } from "./status";
import { planWebhookEvents } from "../webhooks/plan-events";

const T0 = 1_700_000_000_000;
const actor = { userId: "usr_1", clientId: "cli_1" };
const report = { thinking: "t", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] };

let newId: NewId;
beforeEach(() => {
  let n = 0;
  newId = (prefix) => `${prefix}_${++n}`;
});

const steps = (count: number): NewStep[] => Array.from({ length: count }, (_, i) => ({ stepType: "search" as const, instructions: `search ${i + 1}` }));

const create = (list: NewStep[], overrides: Partial<CreatePlanInput> = {}) =>
  createPlan(
    {
      planId: "pln_1",
      orgId: "org_1",
      name: "[Deep] Heat pumps",
      researchQuestion: "Which heat pump suits a 1950s house?",
      steps: list,
      branchingConditions: [],
      planDesignRationale: "Search installers first, then compare running costs.",
      outputFormattingNotes: null,
      sessionId: null,
      executionId: null,
      approval: "required",
      ...overrides,
    },
    actor,
    T0,
    newId,
  );

/** A person answering at the dashboard, naming the version they saw. */
const person = { authority: { approver: "person" as const, approvalUrl: "https://cairn.test/dashboard/plans/pln_1" }, planVersion: 1 };

const approvalOf = (state: PlanState) => state.plan.reviews?.find((r) => r.kind === "approval");
const idOf = (state: PlanState) => approvalOf(state)?.reviewId ?? "none";

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return error instanceof CairnError ? error.code : String(error);
  }
  return "no error";
};

function finish(state: PlanState, count: number): PlanState {
  let current = state;
  for (let i = 0; i < count; i++) {
    const next = nextStep(current, "w", T0, newId);
    if (next.outcome.status !== "step") throw new Error(`expected a step, got ${next.outcome.status}`);
    const step = next.outcome.step;
    current = submitResult(
      next.state,
      { stepId: step.stepId, claimId: next.outcome.claimId, result: "r", resultHash: `h${step.stepId}`, confidence: 0.9, executionReport: report, outputFormattingNotes: null },
      T0,
      newId,
    ).state;
  }
  return current;
}

describe("a plan created with approval required", () => {
  it("waits for approval with the question, the steps, the budget and the rationale, and starts nothing", () => {
    const created = create(steps(3), { budget: { maxSteps: 10 } });
    const { state } = created;
    expect(state.plan.status).toBe("awaiting_review");
    expect(state.steps).toHaveLength(3);
    expect(progressOf(state.steps)).toBe(0);
    expect(created.events.map((e) => e.action)).toEqual(["plan.created", "review.requested"]);
    const review = approvalOf(state);
    expect(review).toMatchObject({ kind: "approval", decision: null });
    expect(review?.presentation).toContain("Which heat pump suits a 1950s house?");
    expect(review?.presentation).toContain("1. [search] search 1");
    expect(review?.presentation).toContain("0 of 10 steps used");
    expect(review?.presentation).toContain("Search installers first");
    const asked = nextStep(state, "w", T0, newId);
    expect(asked.outcome).toMatchObject({ status: "awaiting_review", reviews: [{ reviewId: idOf(state) }] });
    expect(asked.state).toBe(state);
  });

  it("announces the approval as plan.review_requested with what the person decides on", () => {
    const created = create(steps(2));
    const [event] = planWebhookEvents(created.state, created.events, T0, () => "msg_1");
    expect(event).toMatchObject({ type: "plan.review_requested", data: { status: "awaiting_review", progress: 0, totalSteps: 2, review: { kind: "approval", reviewId: idOf(created.state) } } });
    expect(JSON.stringify(event?.data)).toContain("Which heat pump suits a 1950s house?");
    expect(event?.data.step).toBeUndefined();
  });

  it("announces the approval also as plan.approval_requested, with the same facts and its owner", () => {
    const created = create(steps(2));
    const events = planWebhookEvents(created.state, created.events, T0, () => `msg_${Math.random()}`);
    expect(events.map((e) => e.type)).toEqual(["plan.review_requested", "plan.approval_requested"]);
    expect(events[1]?.data).toEqual(events[0]?.data);
    expect(events[1]?.data.ownerUserId).toBe(created.state.plan.createdBy.userId);
    expect(events[1]?.eventId).not.toBe(events[0]?.eventId);
  });

  it("shows every step of the largest plan within the presentation's bound", () => {
    const long = (n: number) => "y".repeat(n);
    const many = Array.from({ length: LIMITS.stepsPerPlan }, (_, i) => ({ stepType: "search" as const, instructions: `${i + 1} ${long(7_990)}`, parallelGroup: `group-${i}` }));
    const { state } = create(many, { researchQuestion: long(4_000), planDesignRationale: long(8_000), budget: { maxSteps: 99, maxTokens: 1_000_000, maxToolCalls: 999, deadline: T0 + 86_400_000 } });
    const presentation = approvalOf(state)?.presentation ?? "";
    expect(presentation.length).toBeLessThanOrEqual(APPROVAL_PRESENTATION_MAX);
    expect(presentation).toContain(`${LIMITS.stepsPerPlan}. [search, parallel group-${LIMITS.stepsPerPlan - 1}] ${LIMITS.stepsPerPlan} y`);
    expect(presentation).toContain("Design rationale: y");
  });

  it("an optional approval starts at once", () => {
    const { state } = create(steps(2), { approval: "optional" });
    expect(state.plan.status).toBe("active");
    expect(state.plan.reviews).toBeUndefined();
    expect(nextStep(state, "w", T0, newId).outcome.status).toBe("step");
  });

  it("approve starts the plan; the review is answered once", () => {
    const { state } = create(steps(2));
    const approved = submitReview(state, { stepId: idOf(state), decision: "approve", feedback: null, followUpSteps: [], ...person }, actor, T0, newId);
    expect(approved.state.plan.status).toBe("active");
    expect(approved.events.map((e) => e.action)).toEqual(["review.approve"]);
    expect(approvalOf(approved.state)).toMatchObject({ decision: "approve", decidedBy: "usr_1" });
    expect(approved.state.plan.version).toBe(1);
    expect(codeOf(() => submitReview(approved.state, { stepId: idOf(state), decision: "approve", feedback: null, followUpSteps: [], ...person }, actor, T0, newId))).toBe("invalid_transition");
    const done = finish(approved.state, 2);
    expect(done.plan.status).toBe("completed");
    expect(progressOf(done.steps)).toBe(100);
  });

  it("revise edits steps and budget, records a version, and hands the note to the assistant once", () => {
    const { state } = create(steps(3), { budget: { maxSteps: 5 } });
    const [first, second] = state.steps as [Step, Step, Step];
    const revise = (extra: object) =>
      submitReview(state, { stepId: idOf(state), decision: "revise", feedback: "Focus on air-source pumps.", followUpSteps: [], ...person, ...extra }, actor, T0, newId);
    expect(codeOf(() => submitReview(state, { stepId: idOf(state), decision: "revise", feedback: null, followUpSteps: [], ...person }, actor, T0, newId))).toBe("validation");
    expect(codeOf(() => submitReview(state, { stepId: idOf(state), decision: "approve", feedback: null, followUpSteps: [], budget: { maxSteps: 9 }, ...person }, actor, T0, newId))).toBe("validation");
    expect(codeOf(() => revise({ stepEdits: [{ stepId: first.stepId }] }))).toBe("validation");
    expect(codeOf(() => revise({ stepEdits: [{ stepId: "step_nope", remove: true }] }))).toBe("not_found");
    expect(codeOf(() => revise({ stepEdits: state.steps.map((s) => ({ stepId: s.stepId, remove: true })) }))).toBe("validation");

    const revised = revise({
      stepEdits: [
        { stepId: first.stepId, instructions: "search air-source installers" },
        { stepId: second.stepId, remove: true },
      ],
      followUpSteps: [{ stepType: "custom", instructions: "compare noise levels" }],
      budget: { maxSteps: 8 },
    });
    const next = revised.state;
    expect(next.plan.status).toBe("active");
    expect(next.steps.map((s) => s.instructions)).toEqual(["search air-source installers", "search 3", "compare noise levels"]);
    expect(next.steps.map((s) => s.stepOrder)).toEqual([1, 2, 3]);
    expect(next.plan.budget).toEqual({ maxSteps: 8 });
    expect(next.plan.version).toBe(2);
    expect(revised.modifications).toMatchObject([{ version: 2, kind: "approval_revision", rationale: "Focus on air-source pumps." }]);
    expect(revised.events.map((e) => e.action)).toEqual(["review.revise", "plan.modified.approval"]);

    const pulled = nextStep(next, "w", T0, newId);
    expect(pulled.outcome).toMatchObject({ status: "step", reviewNotes: ["approval review (revise): Focus on air-source pumps."] });
    const again = nextStep(pulled.state, "w", T0, newId);
    expect(again.outcome.status).toBe("step");
    expect(again.outcome.status === "step" && again.outcome.reviewNotes).toBeFalsy();
  });

  it("an instruction edit is bounded like a new step's", () => {
    const { state } = create(steps(1));
    const stepId = state.steps[0]?.stepId ?? "";
    const long = "x".repeat(8_001);
    const revise = () => submitReview(state, { stepId: idOf(state), decision: "revise", feedback: "shorter", followUpSteps: [], stepEdits: [{ stepId, instructions: long }], ...person }, actor, T0, newId);
    expect(codeOf(revise)).toBe("validation");
  });

  it("edits only pending steps, one way each, and keeps a step to do", () => {
    const { state } = create(steps(3));
    const [first, second, third] = state.steps as [Step, Step, Step];
    // A waiting plan takes no modification; a step no longer pending is one a plan stored before that rule may hold.
    expect(codeOf(() => modifyPlan(state, { action: "skip", stepId: third.stepId, reason: "out of scope" }, "narrowed", T0, newId))).toBe("conflict");
    const skipped: PlanState = { ...state, steps: state.steps.map((s) => (s.stepId === third.stepId ? { ...s, status: "skipped" as const, finishedAt: T0 } : s)) };
    const revise = (stepEdits: { stepId: string; instructions?: string; remove?: boolean }[]) =>
      submitReview(skipped, { stepId: idOf(state), decision: "revise", feedback: "narrower", followUpSteps: [], stepEdits, ...person }, actor, T0, newId);
    expect(codeOf(() => revise([{ stepId: third.stepId, instructions: "again" }]))).toBe("invalid_transition");
    expect(codeOf(() => revise([{ stepId: first.stepId, instructions: "x", remove: true }]))).toBe("validation");
    // Only the skipped step would be left: nothing to do.
    expect(codeOf(() => revise([{ stepId: first.stepId, remove: true }, { stepId: second.stepId, remove: true }]))).toBe("validation");
    expect(revise([{ stepId: first.stepId, remove: true }]).state.steps.map((s) => s.stepId)).toEqual([second.stepId, third.stepId]);
  });

  it("reject fails the plan before anything is spent", () => {
    const { state } = create(steps(2));
    expect(codeOf(() => submitReview(state, { stepId: idOf(state), decision: "reject", feedback: null, followUpSteps: [] }, actor, T0, newId))).toBe("validation");
    const rejected = submitReview(state, { stepId: idOf(state), decision: "reject", feedback: "Not now.", followUpSteps: [] }, actor, T0, newId);
    expect(rejected.state.plan).toMatchObject({ status: "failed", failureReason: "Rejected at approval: Not now." });
    expect(rejected.events.map((e) => e.action)).toEqual(["review.reject", "plan.failed"]);
    expect(nextStep(rejected.state, "w", T0, newId).outcome.status).toBe("plan_failed");
  });

  it("a plan waiting for approval changes only through the approval: every modification is refused", () => {
    const { state } = create(steps(2), { budget: { maxSteps: 5 } });
    const [first] = state.steps as [Step, Step];
    const modifications = [
      { action: "add" as const, steps: [{ stepType: "analyze" as const, instructions: "weigh the costs" }] },
      { action: "remove" as const, stepId: first.stepId },
      { action: "skip" as const, stepId: first.stepId, reason: "no" },
      { action: "update" as const, stepId: first.stepId, instructions: "other" },
      { action: "budget" as const, budget: { maxSteps: 1000 } },
    ];
    for (const modification of modifications) expect(codeOf(() => modifyPlan(state, modification, "changing it", T0, newId)), modification.action).toBe("conflict");
    expect(approvalOf(state)?.presentation).toContain("Steps (2):");
  });
});

describe("plan-level reviews are not steps", () => {
  it("a budget review keeps a 4-step plan with 2 done at 2/4, 50 %", () => {
    const { state } = create(steps(4), { approval: "optional", budget: { maxSteps: 2 } });
    const paused = finish(state, 2);
    expect(paused.plan.status).toBe("awaiting_review");
    expect(paused.plan.reviews?.map((r) => r.kind)).toEqual(["budget"]);
    expect(paused.steps).toHaveLength(4);
    expect(progressOf(paused.steps)).toBe(50);
    // The spec's step-derived status is untouched by the plan's own reviews.
    expect(derivePlanStatus(paused.steps)).toBe("active");
  });

  it("a budget review stored as a step by an earlier version is read as a plan review and answered by its id", () => {
    const { state } = create(steps(4), { approval: "optional", budget: { maxSteps: 2 } });
    const paused = finish(state, 2);
    const review = paused.plan.reviews?.[0];
    if (!review) throw new Error("no review");
    // How earlier versions stored it: a checkpoint step at position 3, awaiting input.
    const legacyStep: Step = {
      ...(paused.steps[2] as Step),
      stepId: "step_legacy",
      stepType: "checkpoint",
      status: "awaiting_input",
      claimId: "claim_legacy",
      origin: "budget",
      review: { presentation: review.presentation, questions: review.questions, requestedAt: T0, decision: null, feedback: null, decidedAt: null, decidedBy: null },
    };
    const stored: PlanState = {
      plan: { ...paused.plan, reviews: undefined },
      steps: [...paused.steps.slice(0, 2), legacyStep, ...paused.steps.slice(2)].map((s, i) => ({ ...s, stepOrder: i + 1 })),
    };
    const lifted = liftLegacyReviews(stored);
    expect(lifted.steps.map((s) => s.stepOrder)).toEqual([1, 2, 3, 4]);
    expect(lifted.steps.some((s) => s.origin === "budget")).toBe(false);
    expect(progressOf(lifted.steps)).toBe(50);
    expect(lifted.plan.reviews).toMatchObject([{ reviewId: "step_legacy", kind: "budget", decision: null }]);
    expect(liftLegacyReviews(lifted)).toBe(lifted);
    const raised = submitReview(lifted, { stepId: "step_legacy", decision: "approve", feedback: null, followUpSteps: [], budget: { maxSteps: 4 }, authority: person.authority }, actor, T0, newId);
    expect(raised.state.plan.status).toBe("active");
    expect(finish(raised.state, 2).plan.status).toBe("completed");
  });
});
