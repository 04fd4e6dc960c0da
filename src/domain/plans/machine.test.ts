import { beforeEach, describe, expect, it } from "vitest";
import { CairnError } from "../errors";
import {
  type CreatePlanInput,
  cancelPlan,
  createPlan,
  markStalled,
  type Modification,
  modifyPlan,
  type NewId,
  nextStep,
  requestReview,
  type Submission,
  submitResult,
  submitReview,
} from "./machine";
import type { NewStep, PlanState, Step, StepType } from "./model";
import { assignReview } from "./review-assignee";
import { progressOf } from "./status";

const MINUTE = 60_000;
const T0 = 1_700_000_000_000;
const actor = { userId: "usr_1", clientId: "cli_1" };
const report = { thinking: "t", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] };

let newId: NewId;
beforeEach(() => {
  let n = 0;
  newId = (prefix) => `${prefix}_${++n}`;
});

const specs = (...types: StepType[]): NewStep[] => types.map((stepType, i) => ({ stepType, instructions: `${stepType} ${i + 1}` }));

const input = (steps: NewStep[], overrides: Partial<CreatePlanInput> = {}): CreatePlanInput => ({
  planId: "pln_1",
  orgId: "org_1",
  name: "[Scan] Heat pumps",
  researchQuestion: "Which heat pump?",
  steps,
  branchingConditions: [],
  planDesignRationale: "because",
  outputFormattingNotes: null,
  sessionId: null,
  executionId: null,
  ...overrides,
});

const create = (steps: NewStep[], overrides: Partial<CreatePlanInput> = {}) => createPlan(input(steps, overrides), actor, T0, newId).state;

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return error instanceof CairnError ? error.code : `not a CairnError: ${String(error)}`;
  }
  return "no error";
};

const stepAt = (state: PlanState, order: number): Step => {
  const step = state.steps.find((s) => s.stepOrder === order);
  if (!step) throw new Error(`no step ${order}`);
  return step;
};

/** nextStep that must hand out a step. */
function take(state: PlanState, worker: string, now: number) {
  const transition = nextStep(state, worker, now, newId);
  if (transition.outcome.status !== "step") throw new Error(`expected a step, got ${transition.outcome.status}`);
  return { ...transition, step: transition.outcome.step, claimId: transition.outcome.claimId, resumed: transition.outcome.resumed };
}

const submission = (stepId: string, claimId: string, overrides: Partial<Submission> = {}): Submission => ({
  stepId,
  claimId,
  result: { findings: stepId },
  resultHash: `hash-${stepId}`,
  confidence: 0.9,
  executionReport: report,
  outputFormattingNotes: null,
  ...overrides,
});

/** Claims the next step and submits it; returns the state after the submission. */
function runNext(state: PlanState, now: number, confidence = 0.9) {
  const taken = take(state, "w1", now);
  return submitResult(taken.state, submission(taken.step.stepId, taken.claimId, { confidence }), now, newId);
}

const modify = (state: PlanState, modification: Modification, now = T0 + MINUTE) => modifyPlan(state, modification, "needed", now, newId);

// ---------------------------------------------------------------- createPlan

describe("createPlan", () => {
  it("creates an active plan at version 1 with pending steps numbered 1..n", () => {
    const { state, events, modifications } = createPlan(input(specs("search", "analyze", "synthesize")), actor, T0, newId);
    expect(state.plan).toMatchObject({ status: "active", version: 1, createdAt: T0, createdBy: actor, finishedAt: null });
    expect(state.steps.map((s) => [s.stepOrder, s.stepType, s.status, s.origin])).toEqual([
      [1, "search", "pending", "plan"],
      [2, "analyze", "pending", "plan"],
      [3, "synthesize", "pending", "plan"],
    ]);
    expect(new Set(state.steps.map((s) => s.stepId)).size).toBe(3);
    expect(events).toEqual([{ action: "plan.created", stepId: null, detail: { steps: 3, name: "[Scan] Heat pumps" } }]);
    expect(modifications).toHaveLength(1);
    expect(modifications[0]).toMatchObject({ version: 1, kind: "create", rationale: "because", before: [] });
    expect(modifications[0]?.after.map((s) => s.stepOrder)).toEqual([1, 2, 3]);
  });

  it.each(["[Deep] Heat pumps", "[Scan] x"])("accepts the name %j", (name) => {
    expect(codeOf(() => create(specs("search"), { name }))).toBe("no error");
  });

  it.each(["Heat pumps", "[scan] Heat pumps", "[Deep]Heat pumps", "[Deep] ", "[Quick] Heat pumps", " [Scan] Heat pumps"])("rejects the name %j", (name) => {
    expect(codeOf(() => create(specs("search"), { name }))).toBe("validation");
  });

  it("needs at least one step", () => {
    expect(codeOf(() => create([]))).toBe("validation");
  });

  it("allows 60 steps and refuses 61", () => {
    const many = (n: number) => Array.from({ length: n }, () => ({ stepType: "search" as const, instructions: "s" }));
    expect(create(many(60)).steps).toHaveLength(60);
    expect(codeOf(() => create(many(61)))).toBe("validation");
  });

  it("requires the steps of a parallel group to be consecutive", () => {
    const grouped = (...groups: (string | null)[]) => groups.map((parallelGroup) => ({ stepType: "synthesize" as const, instructions: "s", parallelGroup }));
    expect(codeOf(() => create(grouped("a", "a", "b", "b", null)))).toBe("no error");
    expect(codeOf(() => create(grouped("a", null, "a")))).toBe("validation");
    expect(codeOf(() => create(grouped("a", "b", "a")))).toBe("validation");
  });

  it("requires branching conditions to name an existing step", () => {
    const withCondition = (afterStepOrder: number) => () =>
      create(specs("search", "analyze"), { branchingConditions: [{ afterStepOrder, confidenceBelow: 0.6, insertSteps: specs("search"), rationale: "r" }] });
    expect(codeOf(withCondition(0))).toBe("validation");
    expect(codeOf(withCondition(3))).toBe("validation");
    expect(codeOf(withCondition(1))).toBe("no error");
    expect(codeOf(withCondition(2))).toBe("no error");
  });

  it("gives each branching condition an id and leaves it unfired", () => {
    const state = create(specs("search"), { branchingConditions: [{ afterStepOrder: 1, confidenceBelow: 0.6, insertSteps: specs("search"), rationale: "r" }] });
    expect(state.plan.branchingConditions[0]).toMatchObject({ conditionId: expect.stringMatching(/^cond_/), firedAt: null });
  });
});

// ---------------------------------------------------------------- nextStep, sequential

describe("nextStep on a sequential plan", () => {
  it("claims step 1 without touching the input state", () => {
    const state = create(specs("search", "analyze"));
    const taken = take(state, "w1", T0 + 1);
    expect(taken.step.stepOrder).toBe(1);
    expect(taken.resumed).toBe(false);
    expect(stepAt(taken.state, 1)).toMatchObject({ status: "in_progress", claimId: taken.claimId, claimedBy: "w1", claimedAt: T0 + 1, lastActivityAt: T0 + 1 });
    expect(taken.events[0]).toMatchObject({ action: "step.claimed", stepId: taken.step.stepId });
    expect(stepAt(state, 1).status).toBe("pending");
  });

  it("hands the same step and claim again as a resume, from any session", () => {
    const first = take(create(specs("search", "analyze")), "w1", T0);
    const again = take(first.state, "w2", T0 + 5 * MINUTE);
    expect(again.step.stepId).toBe(first.step.stepId);
    expect(again.claimId).toBe(first.claimId);
    expect(again.resumed).toBe(true);
    expect(stepAt(again.state, 1).lastActivityAt).toBe(T0 + 5 * MINUTE);
  });

  it("moves to step 2 after step 1 is submitted", () => {
    const after1 = runNext(create(specs("search", "analyze")), T0);
    expect(stepAt(after1.state, 1)).toMatchObject({ status: "completed", resultHash: expect.any(String), confidence: 0.9, executionReport: report, finishedAt: T0 });
    const taken = take(after1.state, "w1", T0 + 1);
    expect(taken.step.stepOrder).toBe(2);
    expect(taken.resumed).toBe(false);
  });

  it("completes the plan with the last submission, then answers plan_complete", () => {
    const after1 = runNext(create(specs("search", "analyze")), T0);
    expect(after1.state.plan.status).toBe("active");
    const after2 = runNext(after1.state, T0 + MINUTE);
    expect(after2.state.plan).toMatchObject({ status: "completed", finishedAt: T0 + MINUTE });
    expect(after2.events.map((e) => e.action)).toEqual(["step.completed", "plan.completed"]);
    expect(nextStep(after2.state, "w1", T0 + 2 * MINUTE, newId).outcome).toEqual({ status: "plan_complete" });
  });
});

// ---------------------------------------------------------------- nextStep, parallel groups

describe("nextStep on a parallel group", () => {
  const synth = (parallelGroup: string | null = "g"): NewStep => ({ stepType: "synthesize", instructions: "part", parallelGroup });
  /** Step 1 done; steps 2 and 3 form a group; step 4 follows. */
  const groupReady = () => runNext(create([...specs("search"), synth(), synth(), synth(null)]), T0).state;

  it("does not open the group before the step ahead of it is done", () => {
    const first = take(create([...specs("search"), synth(), synth()]), "w1", T0);
    expect(take(first.state, "w2", T0 + 1).step.stepOrder).toBe(1);
  });

  it("gives two workers two different steps of the group and each its own step back", () => {
    const a = take(groupReady(), "wA", T0 + 1);
    const b = take(a.state, "wB", T0 + 2);
    expect([a.step.stepOrder, b.step.stepOrder]).toEqual([2, 3]);
    expect(b.claimId).not.toBe(a.claimId);
    const aAgain = take(b.state, "wA", T0 + 3);
    expect(aAgain).toMatchObject({ claimId: a.claimId, resumed: true });
    expect(aAgain.step.stepId).toBe(a.step.stepId);
    const bAgain = take(aAgain.state, "wB", T0 + 4);
    expect(bAgain).toMatchObject({ claimId: b.claimId, resumed: true });
  });

  it("tells a third worker to wait while every group step is taken", () => {
    const a = take(groupReady(), "wA", T0 + 1);
    const b = take(a.state, "wB", T0 + 2);
    const c = nextStep(b.state, "wC", T0 + 3, newId);
    expect(c.outcome.status).toBe("waiting");
    expect(c.outcome.status === "waiting" && c.outcome.inProgress.map((s) => s.stepOrder)).toEqual([2, 3]);
    expect(c.state).toBe(b.state);
  });

  it("moves past the group once all its steps are done", () => {
    const a = take(groupReady(), "wA", T0 + 1);
    const b = take(a.state, "wB", T0 + 2);
    const doneB = submitResult(b.state, submission(b.step.stepId, b.claimId), T0 + 3, newId);
    expect(nextStep(doneB.state, "wB", T0 + 4, newId).outcome.status).toBe("waiting");
    const doneA = submitResult(doneB.state, submission(a.step.stepId, a.claimId), T0 + 5, newId);
    expect(take(doneA.state, "wB", T0 + 6).step.stepOrder).toBe(4);
  });

  it("lets a stalled group step be taken over; the old claim then conflicts", () => {
    const a = take(groupReady(), "wA", T0); // synthesize: 45 minutes
    const b = take(a.state, "wB", T0 + 40 * MINUTE);
    expect(nextStep(b.state, "wC", T0 + 45 * MINUTE - 1, newId).outcome.status).toBe("waiting");

    const c = take(b.state, "wC", T0 + 45 * MINUTE);
    expect(c.step.stepId).toBe(a.step.stepId);
    expect(c.claimId).not.toBe(a.claimId);
    expect(c.resumed).toBe(false);
    expect(c.events[0]).toMatchObject({ action: "step.taken_over", detail: { workerId: "wC", from: "wA" } });

    expect(codeOf(() => submitResult(c.state, submission(a.step.stepId, a.claimId), T0 + 46 * MINUTE, newId))).toBe("conflict");
    const done = submitResult(c.state, submission(c.step.stepId, c.claimId), T0 + 46 * MINUTE, newId);
    expect(stepAt(done.state, 2).status).toBe("completed");
  });

  it("tells the worker whose step was taken over to wait instead of handing its old step back", () => {
    const a = take(groupReady(), "wA", T0);
    const b = take(a.state, "wB", T0 + 15 * MINUTE);
    const c = take(b.state, "wC", T0 + 45 * MINUTE);
    expect(c.step.stepId).toBe(a.step.stepId);
    const aAgain = nextStep(c.state, "wA", T0 + 46 * MINUTE, newId);
    expect(aAgain.outcome.status).toBe("waiting");
  });
});

// ---------------------------------------------------------------- submitResult

describe("submitResult", () => {
  const claimed = () => take(create(specs("search", "analyze")), "w1", T0);

  it("replays the same result: no change, no events", () => {
    const taken = claimed();
    const once = submitResult(taken.state, submission(taken.step.stepId, taken.claimId), T0 + 1, newId);
    const twice = submitResult(once.state, submission(taken.step.stepId, taken.claimId), T0 + 2, newId);
    expect(twice).toEqual({ state: once.state, events: [], modifications: [], replayed: true });
    expect(twice.state).toBe(once.state);
  });

  it("refuses a different result for a completed step", () => {
    const taken = claimed();
    const once = submitResult(taken.state, submission(taken.step.stepId, taken.claimId), T0 + 1, newId);
    expect(codeOf(() => submitResult(once.state, submission(taken.step.stepId, taken.claimId, { resultHash: "other" }), T0 + 2, newId))).toBe("conflict");
  });

  it("refuses a step that was never claimed", () => {
    const taken = claimed();
    expect(codeOf(() => submitResult(taken.state, submission(stepAt(taken.state, 2).stepId, "claim_x"), T0 + 1, newId))).toBe("invalid_transition");
  });

  it("refuses a stale or made-up claim", () => {
    const taken = claimed();
    expect(codeOf(() => submitResult(taken.state, submission(taken.step.stepId, "claim_x"), T0 + 1, newId))).toBe("conflict");
  });

  it("refuses an unknown step", () => {
    expect(codeOf(() => submitResult(claimed().state, submission("step_nope", "claim_x"), T0 + 1, newId))).toBe("not_found");
  });

  it("refuses results once the plan is cancelled", () => {
    const taken = claimed();
    const cancelled = cancelPlan(taken.state, "user said so", T0 + 1).state;
    expect(codeOf(() => submitResult(cancelled, submission(taken.step.stepId, taken.claimId), T0 + 2, newId))).toBe("invalid_transition");
  });

  it("refuses results once the plan has failed", () => {
    const taken = take(create([...specs("search"), { stepType: "analyze", instructions: "a", critical: true }]), "w1", T0);
    const failed = modify(taken.state, { action: "fail", stepId: stepAt(taken.state, 2).stepId, reason: "no data" }).state;
    expect(failed.plan.status).toBe("failed");
    expect(codeOf(() => submitResult(failed, submission(taken.step.stepId, taken.claimId), T0 + 2, newId))).toBe("invalid_transition");
  });

  it("refuses a result for a step waiting for review", () => {
    const taken = claimed();
    const waiting = requestReview(taken.state, { stepId: taken.step.stepId, claimId: taken.claimId, presentation: "p", questions: [] }, T0 + 1).state;
    expect(codeOf(() => submitResult(waiting, submission(taken.step.stepId, taken.claimId), T0 + 2, newId))).toBe("invalid_transition");
  });
});

// ---------------------------------------------------------------- branching conditions

describe("branching conditions", () => {
  const gate = (afterStepOrder: number, insertSteps = specs("search", "extract")) => ({ afterStepOrder, confidenceBelow: 0.6, insertSteps, rationale: "dig deeper" });
  const gated = (conditions = [gate(1)]) => create(specs("search", "analyze", "synthesize"), { name: "[Deep] Heat pumps", branchingConditions: conditions });

  it("inserts its steps right after the step when confidence is below the threshold", () => {
    const { state, events, modifications } = runNext(gated(), T0 + 1, 0.4);
    expect(state.steps.map((s) => [s.stepOrder, s.stepType, s.origin])).toEqual([
      [1, "search", "plan"],
      [2, "search", "branching"],
      [3, "extract", "branching"],
      [4, "analyze", "plan"],
      [5, "synthesize", "plan"],
    ]);
    expect(state.plan.version).toBe(2);
    expect(state.plan.branchingConditions[0]?.firedAt).toBe(T0 + 1);
    expect(modifications).toHaveLength(1);
    expect(modifications[0]).toMatchObject({ version: 2, kind: "branch", before: [], rationale: expect.stringContaining("dig deeper") });
    expect(modifications[0]?.after.map((s) => s.stepOrder)).toEqual([2, 3]);
    expect(events.map((e) => e.action)).toEqual(["step.completed", "plan.branched"]);
    expect(take(state, "w1", T0 + 2).step.origin).toBe("branching");
  });

  it("does not fire at or above the threshold", () => {
    const { state, modifications } = runNext(gated(), T0 + 1, 0.6);
    expect(state.steps).toHaveLength(3);
    expect(state.plan.version).toBe(1);
    expect(modifications).toEqual([]);
    expect(state.plan.branchingConditions[0]?.firedAt).toBeNull();
  });

  it("fires once: replaying the low-confidence submission inserts nothing more", () => {
    const taken = take(gated(), "w1", T0);
    const sub = submission(taken.step.stepId, taken.claimId, { confidence: 0.1 });
    const once = submitResult(taken.state, sub, T0 + 1, newId);
    const again = submitResult(once.state, sub, T0 + 2, newId);
    expect(again.replayed).toBe(true);
    expect(again.state.steps).toHaveLength(5);
    expect(again.state.plan.version).toBe(2);
  });

  it("stays with its step when steps are inserted before it", () => {
    let state = gated([gate(2, specs("critique"))]);
    const analyzeId = stepAt(state, 2).stepId;
    state = modify(state, { action: "add", afterStepId: stepAt(state, 1).stepId, steps: specs("extract") }).state; // analyze is now step 3
    state = runNext(state, T0 + 1).state; // search
    const afterExtract = runNext(state, T0 + 2, 0.1); // the new step 2: not the gated one
    expect(afterExtract.modifications).toEqual([]);
    const afterAnalyze = runNext(afterExtract.state, T0 + 3, 0.1);
    expect(afterAnalyze.events.find((e) => e.action === "plan.branched")?.stepId).toBe(analyzeId);
    expect(afterAnalyze.state.steps.map((s) => s.stepType)).toEqual(["search", "extract", "analyze", "critique", "synthesize"]);
  });

  it("never fires for a step that was removed", () => {
    let state = gated([gate(2, specs("critique"))]);
    state = modify(state, { action: "remove", stepId: stepAt(state, 2).stepId }).state;
    state = runNext(state, T0 + 1, 0.1).state;
    const last = runNext(state, T0 + 2, 0.1);
    expect(last.modifications).toEqual([]);
    expect(last.state.plan.status).toBe("completed");
  });

  it("inserts after the whole parallel group when the gated step is part of one", () => {
    const parallel = (n: number) => Array.from({ length: n }, () => ({ stepType: "synthesize" as const, instructions: "part", parallelGroup: "g" }));
    const state = create([...parallel(2), ...specs("critique")], { branchingConditions: [gate(1, specs("search"))] });
    const a = take(state, "wA", T0);
    const b = take(a.state, "wB", T0);
    const done = submitResult(b.state, submission(a.step.stepId, a.claimId, { confidence: 0.1 }), T0 + 1, newId);
    expect(done.state.steps.map((s) => [s.stepType, s.parallelGroup, s.status])).toEqual([
      ["synthesize", "g", "completed"],
      ["synthesize", "g", "in_progress"],
      ["search", null, "pending"],
      ["critique", null, "pending"],
    ]);
  });
});

// ---------------------------------------------------------------- modifyPlan

describe("modifyPlan", () => {
  const three = () => create(specs("search", "analyze", "synthesize"));

  it("adds steps after a given step, renumbers and records the version", () => {
    const state = three();
    const { state: next, events, modifications } = modify(state, { action: "add", afterStepId: stepAt(state, 1).stepId, steps: specs("critique") });
    expect(next.steps.map((s) => [s.stepOrder, s.stepType])).toEqual([
      [1, "search"],
      [2, "critique"],
      [3, "analyze"],
      [4, "synthesize"],
    ]);
    expect(stepAt(next, 2).origin).toBe("modification");
    expect(next.plan.version).toBe(2);
    expect(modifications).toEqual([{ version: 2, kind: "add", rationale: "needed", before: [], after: [expect.objectContaining({ stepOrder: 2, stepType: "critique", status: "pending" })] }]);
    expect(events[0]).toMatchObject({ action: "plan.modified.add", detail: { version: 2, rationale: "needed" } });
  });

  it("appends when no step is named, and refuses an unknown one", () => {
    const state = three();
    expect(modify(state, { action: "add", steps: specs("critique") }).state.steps.map((s) => s.stepType)).toEqual(["search", "analyze", "synthesize", "critique"]);
    expect(codeOf(() => modify(state, { action: "add", afterStepId: "step_nope", steps: specs("critique") }))).toBe("not_found");
  });

  it("increments the version with every modification", () => {
    let state = three();
    state = modify(state, { action: "add", steps: specs("critique") }).state;
    state = modify(state, { action: "update", stepId: stepAt(state, 1).stepId, instructions: "new" }).state;
    expect(state.plan.version).toBe(3);
  });

  it("removes a pending step and renumbers", () => {
    const state = three();
    const removed = stepAt(state, 2);
    const { state: next, modifications } = modify(state, { action: "remove", stepId: removed.stepId });
    expect(next.steps.map((s) => [s.stepOrder, s.stepType])).toEqual([
      [1, "search"],
      [2, "synthesize"],
    ]);
    expect(modifications[0]).toMatchObject({ kind: "remove", before: [{ stepId: removed.stepId, stepOrder: 2 }], after: [] });
  });

  it("removes only pending steps, and never the last one", () => {
    const taken = take(three(), "w1", T0);
    expect(codeOf(() => modify(taken.state, { action: "remove", stepId: taken.step.stepId }))).toBe("invalid_transition");
    const done = runNext(three(), T0).state;
    expect(codeOf(() => modify(done, { action: "remove", stepId: stepAt(done, 1).stepId }))).toBe("invalid_transition");
    const single = create(specs("search"));
    expect(codeOf(() => modify(single, { action: "remove", stepId: stepAt(single, 1).stepId }))).toBe("invalid_transition");
  });

  it("reorders the pending steps among the positions they hold", () => {
    let state = create(specs("search", "analyze", "critique", "synthesize"));
    state = runNext(state, T0).state;
    const [b, c, d] = [2, 3, 4].map((order) => stepAt(state, order).stepId) as [string, string, string];
    const { state: next, modifications } = modify(state, { action: "reorder", stepIds: [d, b, c] });
    expect(next.steps.map((s) => s.stepType)).toEqual(["search", "synthesize", "analyze", "critique"]);
    expect(next.steps.map((s) => s.stepOrder)).toEqual([1, 2, 3, 4]);
    expect(modifications[0]?.before.map((s) => s.stepId)).toEqual([b, c, d]);
    expect(modifications[0]?.after.map((s) => [s.stepId, s.stepOrder])).toEqual([
      [d, 2],
      [b, 3],
      [c, 4],
    ]);
  });

  it("refuses a reorder that is not a permutation of the pending steps", () => {
    const state = runNext(create(specs("search", "analyze", "critique")), T0).state;
    const [a, b, c] = [1, 2, 3].map((order) => stepAt(state, order).stepId) as [string, string, string];
    expect(codeOf(() => modify(state, { action: "reorder", stepIds: [c] }))).toBe("validation");
    expect(codeOf(() => modify(state, { action: "reorder", stepIds: [c, b, a] }))).toBe("validation");
    expect(codeOf(() => modify(state, { action: "reorder", stepIds: [c, c] }))).toBe("validation");
    expect(codeOf(() => modify(state, { action: "reorder", stepIds: [c, b] }))).toBe("no error");
  });

  it("refuses a reorder that would split a parallel group", () => {
    const groupOf = (parallelGroup: string | null): NewStep => ({ stepType: "synthesize", instructions: "s", parallelGroup });
    const state = create([groupOf("g"), groupOf("g"), groupOf(null)]);
    const [a, b, c] = [1, 2, 3].map((order) => stepAt(state, order).stepId) as [string, string, string];
    expect(codeOf(() => modify(state, { action: "reorder", stepIds: [a, c, b] }))).toBe("validation");
  });

  it("updates the instructions of pending and in-progress steps only, with a before/after diff", () => {
    const taken = take(three(), "w1", T0);
    const { state: next, modifications } = modify(taken.state, { action: "update", stepId: taken.step.stepId, instructions: "narrower" });
    expect(stepAt(next, 1)).toMatchObject({ instructions: "narrower", status: "in_progress", claimId: taken.claimId });
    expect(modifications[0]?.before[0]?.instructions).toBe("search 1");
    expect(modifications[0]?.after[0]?.instructions).toBe("narrower");
    const done = runNext(three(), T0).state;
    expect(codeOf(() => modify(done, { action: "update", stepId: stepAt(done, 1).stepId, instructions: "x" }))).toBe("invalid_transition");
  });

  it("fails a non-critical step and the plan carries on", () => {
    const taken = take(three(), "w1", T0);
    const { state: next } = modify(taken.state, { action: "fail", stepId: taken.step.stepId, reason: "source down" });
    expect(stepAt(next, 1)).toMatchObject({ status: "failed", note: "source down", claimId: null });
    expect(next.plan.status).toBe("active");
    expect(progressOf(next.steps)).toBe(0);
    expect(take(next, "w1", T0 + 1).step.stepOrder).toBe(2);
    expect(codeOf(() => submitResult(next, submission(taken.step.stepId, taken.claimId), T0 + 1, newId))).toBe("invalid_transition");
  });

  it("fails the plan when a critical step fails", () => {
    const state = create([...specs("search"), { stepType: "analyze", instructions: "a", critical: true }]);
    const { state: next, events } = modify(state, { action: "fail", stepId: stepAt(state, 2).stepId, reason: "no data" });
    expect(next.plan).toMatchObject({ status: "failed", finishedAt: T0 + MINUTE });
    expect(next.plan.failureReason).toContain("Critical step 2");
    expect(next.plan.failureReason).toContain("no data");
    expect(events.map((e) => e.action)).toEqual(["plan.modified.fail", "plan.failed"]);
    expect(nextStep(next, "w1", T0 + 2 * MINUTE, newId).outcome).toEqual({ status: "plan_failed", reason: next.plan.failureReason });
  });

  it("skips pending steps only; skipped steps count as progress", () => {
    const state = three();
    const { state: next } = modify(state, { action: "skip", stepId: stepAt(state, 2).stepId, reason: "covered" });
    expect(stepAt(next, 2)).toMatchObject({ status: "skipped", note: "covered" });
    expect(progressOf(next.steps)).toBe(33);
    const taken = take(state, "w1", T0);
    expect(codeOf(() => modify(taken.state, { action: "skip", stepId: taken.step.stepId, reason: "x" }))).toBe("invalid_transition");
  });

  it("completes the plan when the last open step is skipped", () => {
    let state = create(specs("search", "analyze"));
    state = runNext(state, T0).state;
    const { state: next } = modify(state, { action: "skip", stepId: stepAt(state, 2).stepId, reason: "enough" });
    expect(next.plan.status).toBe("completed");
  });

  it("requires a rationale", () => {
    const state = three();
    expect(codeOf(() => modifyPlan(state, { action: "add", steps: specs("critique") }, "   ", T0, newId))).toBe("validation");
  });

  it("reopens a completed plan when steps are added", () => {
    let state = create(specs("search"));
    state = runNext(state, T0).state;
    expect(state.plan.status).toBe("completed");
    const { state: next } = modify(state, { action: "add", steps: specs("critique") });
    expect(next.plan).toMatchObject({ status: "active", finishedAt: null, version: 2 });
    expect(take(next, "w1", T0 + 2 * MINUTE).step.stepType).toBe("critique");
  });

  it("refuses to modify a failed or cancelled plan", () => {
    const state = three();
    const cancelled = cancelPlan(state, "stop", T0).state;
    expect(codeOf(() => modify(cancelled, { action: "add", steps: specs("critique") }))).toBe("invalid_transition");
    const critical = create([{ stepType: "search", instructions: "s", critical: true }, ...specs("analyze")]);
    const failed = modify(critical, { action: "fail", stepId: stepAt(critical, 1).stepId, reason: "x" }).state;
    expect(codeOf(() => modify(failed, { action: "skip", stepId: stepAt(failed, 2).stepId, reason: "x" }))).toBe("invalid_transition");
  });
});

// ---------------------------------------------------------------- reviews

describe("requestReview and submitReview", () => {
  /** Step 1 done, the checkpoint (step 2) claimed and waiting for review; step 3 follows. */
  function awaitingReview() {
    const state = runNext(create(specs("search", "checkpoint", "synthesize")), T0).state;
    const taken = take(state, "w1", T0 + MINUTE);
    const requested = requestReview(taken.state, { stepId: taken.step.stepId, claimId: taken.claimId, presentation: "Findings so far", questions: ["Go on?"] }, T0 + 2 * MINUTE);
    return { ...requested, checkpoint: taken.step, claimId: taken.claimId };
  }
  const decide = (state: PlanState, stepId: string, decision: "approve" | "revise" | "reject", feedback: string | null = null, followUpSteps: NewStep[] = []) =>
    submitReview(state, { stepId, decision, feedback, followUpSteps }, actor, T0 + 3 * MINUTE, newId);

  it("puts the step and the plan into review", () => {
    const { state, events, checkpoint } = awaitingReview();
    expect(stepAt(state, 2)).toMatchObject({ status: "awaiting_input", review: { presentation: "Findings so far", questions: ["Go on?"], decision: null } });
    expect(state.plan.status).toBe("awaiting_review");
    expect(events.map((e) => e.action)).toEqual(["review.requested"]);
    const next = nextStep(state, "w1", T0 + 3 * MINUTE, newId);
    expect(next.outcome.status === "awaiting_review" && next.outcome.steps.map((s) => s.stepId)).toEqual([checkpoint.stepId]);
  });

  it("refuses a review for a stale claim, an unclaimed step or a step already in review", () => {
    const state = runNext(create(specs("search", "checkpoint", "synthesize")), T0).state;
    const taken = take(state, "w1", T0 + MINUTE);
    const ask = (s: PlanState, stepId: string, claimId: string) => () => requestReview(s, { stepId, claimId, presentation: "p", questions: [] }, T0 + 2 * MINUTE);
    expect(codeOf(ask(taken.state, taken.step.stepId, "claim_old"))).toBe("conflict");
    expect(codeOf(ask(taken.state, stepAt(taken.state, 3).stepId, taken.claimId))).toBe("invalid_transition");
    const { state: waiting } = awaitingReview();
    expect(codeOf(ask(waiting, stepAt(waiting, 2).stepId, stepAt(waiting, 2).claimId ?? ""))).toBe("invalid_transition");
  });

  it("approve completes the step and the plan moves on", () => {
    const { state, checkpoint } = awaitingReview();
    const { state: next, events } = decide(state, checkpoint.stepId, "approve");
    expect(stepAt(next, 2)).toMatchObject({ status: "completed", review: { decision: "approve", decidedBy: "usr_1", decidedAt: T0 + 3 * MINUTE } });
    expect(next.plan.status).toBe("active");
    expect(events[0]?.action).toBe("review.approve");
    expect(take(next, "w1", T0 + 4 * MINUTE).step.stepOrder).toBe(3);
  });

  it("revise completes the step and inserts a custom follow-up carrying the feedback", () => {
    const { state, checkpoint } = awaitingReview();
    const { state: next, modifications } = decide(state, checkpoint.stepId, "revise", "Look at Nordic makers");
    expect(stepAt(next, 2).status).toBe("completed");
    expect(stepAt(next, 3)).toMatchObject({ stepType: "custom", origin: "review", status: "pending", instructions: expect.stringContaining("Look at Nordic makers") });
    expect(stepAt(next, 4).stepType).toBe("synthesize");
    expect(next.plan.version).toBe(2);
    expect(modifications).toEqual([expect.objectContaining({ version: 2, kind: "review_follow_up", rationale: "Look at Nordic makers" })]);
    expect(take(next, "w1", T0 + 4 * MINUTE).step.stepType).toBe("custom");
  });

  it("revise uses the follow-up steps given instead of the default", () => {
    const { state, checkpoint } = awaitingReview();
    const { state: next } = decide(state, checkpoint.stepId, "revise", "more", specs("search", "analyze"));
    expect(next.steps.map((s) => s.stepType)).toEqual(["search", "checkpoint", "search", "analyze", "synthesize"]);
  });

  it("reject fails the step and the plan", () => {
    const { state, checkpoint } = awaitingReview();
    const { state: next } = decide(state, checkpoint.stepId, "reject", "Wrong question");
    expect(stepAt(next, 2)).toMatchObject({ status: "failed", review: { decision: "reject", feedback: "Wrong question" } });
    expect(next.plan.status).toBe("failed");
    expect(next.plan.failureReason).toContain("Wrong question");
  });

  it.each([
    ["revise", null],
    ["reject", null],
    ["revise", "  "],
    ["reject", ""],
  ] as const)("%s needs feedback (%j refused)", (decision, feedback) => {
    const { state, checkpoint } = awaitingReview();
    expect(codeOf(() => decide(state, checkpoint.stepId, decision, feedback))).toBe("validation");
  });

  it("refuses to answer a step that is not waiting for review", () => {
    const { state, checkpoint } = awaitingReview();
    const approved = decide(state, checkpoint.stepId, "approve").state;
    expect(codeOf(() => decide(approved, checkpoint.stepId, "approve"))).toBe("invalid_transition");
    expect(codeOf(() => decide(approved, stepAt(approved, 3).stepId, "approve"))).toBe("invalid_transition");
  });

  it("names an assignee when asked, reassigns (audited from and to), refuses a review not waiting, and the decision's audit names who was meant to decide", () => {
    const state = runNext(create(specs("search", "checkpoint", "synthesize")), T0).state;
    const taken = take(state, "w1", T0 + MINUTE);
    const asked = requestReview(taken.state, { stepId: taken.step.stepId, claimId: taken.claimId, presentation: "p", questions: [], assignee: "usr_2" }, T0 + 2 * MINUTE);
    expect(stepAt(asked.state, 2).review?.assignee).toBe("usr_2");
    expect(asked.events[0]?.detail).toMatchObject({ assignee: "usr_2" });
    const moved = assignReview(asked.state, { reviewId: taken.step.stepId, assignee: "usr_3" }, T0 + 3 * MINUTE);
    expect(stepAt(moved.state, 2).review?.assignee).toBe("usr_3");
    expect(moved.events).toEqual([{ action: "review.assigned", stepId: taken.step.stepId, detail: { reviewId: taken.step.stepId, from: "usr_2", to: "usr_3" } }]);
    // The same assignee again changes nothing and says nothing.
    expect(assignReview(moved.state, { reviewId: taken.step.stepId, assignee: "usr_3" }, T0 + 3 * MINUTE).events).toEqual([]);
    const decided = submitReview(moved.state, { stepId: taken.step.stepId, decision: "approve", feedback: null, followUpSteps: [] }, actor, T0 + 4 * MINUTE, newId);
    expect(decided.events[0]).toMatchObject({ action: "review.approve", detail: { assignee: "usr_3" } });
    expect(codeOf(() => assignReview(decided.state, { reviewId: taken.step.stepId, assignee: null }, T0 + 5 * MINUTE))).toBe("invalid_transition");
    expect(codeOf(() => assignReview(decided.state, { reviewId: "step_nope", assignee: null }, T0 + 5 * MINUTE))).toBe("not_found");
    // A plan review (an approval) is assigned by its reviewId; unassigning is null.
    const approval = create(specs("search"), { approval: "required" });
    const reviewId = approval.plan.reviews?.[0]?.reviewId ?? "";
    const assigned = assignReview(approval, { reviewId, assignee: "usr_2" }, T0 + MINUTE);
    expect(assigned.state.plan.reviews?.[0]?.assignee).toBe("usr_2");
    expect(assignReview(assigned.state, { reviewId, assignee: null }, T0 + 2 * MINUTE).state.plan.reviews?.[0]?.assignee).toBeNull();
  });

  it("never stalls a step that waits for review", () => {
    const { state } = awaitingReview();
    const later = markStalled(state, T0 + 1000 * MINUTE);
    expect(later.events).toEqual([]);
    expect(later.state).toBe(state);
  });
});

// ---------------------------------------------------------------- cancel

describe("cancelPlan", () => {
  it("cancels, idempotently, and nextStep then reports plan_failed", () => {
    const state = take(create(specs("search")), "w1", T0).state;
    const once = cancelPlan(state, "user stopped", T0 + 1);
    expect(once.state.plan).toMatchObject({ status: "cancelled", failureReason: "Cancelled: user stopped", finishedAt: T0 + 1 });
    expect(once.events.map((e) => e.action)).toEqual(["plan.cancelled"]);
    const twice = cancelPlan(once.state, "again", T0 + 2);
    expect(twice.state).toBe(once.state);
    expect(twice.events).toEqual([]);
    expect(nextStep(twice.state, "w1", T0 + 3, newId).outcome).toEqual({ status: "plan_failed", reason: "Cancelled: user stopped" });
  });

  it("refuses to cancel a completed or failed plan", () => {
    const completed = runNext(create(specs("search")), T0).state;
    expect(codeOf(() => cancelPlan(completed, "x", T0 + 1))).toBe("invalid_transition");
    const critical = create([{ stepType: "search", instructions: "s", critical: true }]);
    const failed = modify(critical, { action: "fail", stepId: stepAt(critical, 1).stepId, reason: "x" }).state;
    expect(codeOf(() => cancelPlan(failed, "x", T0 + 1))).toBe("invalid_transition");
  });
});

// ---------------------------------------------------------------- stall

describe("markStalled", () => {
  const running = () => take(create(specs("search", "analyze")), "w1", T0); // search: 30 minutes

  it("does nothing before the deadline", () => {
    const { state } = running();
    expect(markStalled(state, T0 + 30 * MINUTE - 1).state).toBe(state);
  });

  it("marks the plan stalled once, however often it runs", () => {
    const { state, step } = running();
    const first = markStalled(state, T0 + 30 * MINUTE);
    expect(first.state.plan).toMatchObject({ status: "stalled", stalledAt: T0 + 30 * MINUTE });
    expect(first.events).toEqual([{ action: "plan.stalled", stepId: step.stepId, detail: { stepIds: [step.stepId] } }]);
    const second = markStalled(first.state, T0 + 40 * MINUTE);
    expect(second.events).toEqual([]);
    expect(second.state.plan.stalledAt).toBe(T0 + 30 * MINUTE);
  });

  it("stays stalled through unrelated activity", () => {
    const { state } = running();
    const stalled = markStalled(state, T0 + 31 * MINUTE).state;
    const modified = modify(stalled, { action: "update", stepId: stepAt(stalled, 2).stepId, instructions: "x" }, T0 + 32 * MINUTE).state;
    expect(modified.plan.status).toBe("stalled");
  });

  it("clears the stall when the step is resumed", () => {
    const { state } = running();
    const stalled = markStalled(state, T0 + 31 * MINUTE).state;
    const resumed = take(stalled, "w2", T0 + 32 * MINUTE);
    expect(resumed.resumed).toBe(true);
    expect(resumed.state.plan).toMatchObject({ status: "active", stalledAt: null });
    expect(resumed.events.map((e) => e.action)).toEqual(["plan.stall_cleared"]);
    expect(markStalled(resumed.state, T0 + 33 * MINUTE).events).toEqual([]);
  });

  it("clears the stall when a stalled group step is taken over", () => {
    const group = Array.from({ length: 2 }, () => ({ stepType: "analyze" as const, instructions: "a", parallelGroup: "g" })); // 20 minutes
    const a = take(create(group), "wA", T0);
    const b = take(a.state, "wB", T0 + 15 * MINUTE);
    const stalled = markStalled(b.state, T0 + 21 * MINUTE).state;
    expect(stalled.plan.status).toBe("stalled");
    const c = take(stalled, "wC", T0 + 22 * MINUTE);
    expect(c.step.stepId).toBe(a.step.stepId);
    expect(c.state.plan.status).toBe("active");
    expect(c.events.map((e) => e.action)).toEqual(["step.taken_over", "plan.stall_cleared"]);
  });

  it("clears the stall when the step is submitted", () => {
    const { state, step, claimId } = running();
    const stalled = markStalled(state, T0 + 31 * MINUTE).state;
    const done = submitResult(stalled, submission(step.stepId, claimId), T0 + 32 * MINUTE, newId);
    expect(done.state.plan.status).toBe("active");
    expect(done.events.map((e) => e.action)).toEqual(["step.completed", "plan.stall_cleared"]);
  });
});

describe("regressions found in review", () => {
  it("keeps one line of work: a step added before the step in progress waits its turn", () => {
    let state = create(specs("search", "analyze"));
    const first = nextStep(state, "w", T0, newId);
    state = first.state;
    const inProgress = stepAt(state, 1);
    state = modifyPlan(state, { action: "add", steps: specs("custom") }, "late idea", T0, newId).state;
    state = modifyPlan(state, { action: "reorder", stepIds: state.steps.filter((s) => s.status === "pending").map((s) => s.stepId).reverse() }, "custom first", T0, newId).state;
    const again = nextStep(state, "w", T0 + MINUTE, newId);
    expect(again.outcome).toMatchObject({ status: "step", resumed: true, step: { stepId: inProgress.stepId } });
    expect(again.state.steps.filter((s) => s.status === "in_progress")).toHaveLength(1);
  });

  it("keeps a worker's result when a quality gate would overflow the step limit, recording the skipped gate", () => {
    const many = Array.from({ length: 60 }, () => ({ stepType: "search" as const, instructions: "x" }));
    let state = create(many, { branchingConditions: [{ afterStepOrder: 1, confidenceBelow: 0.9, insertSteps: specs("search"), rationale: "thin" }] });
    const claimed = nextStep(state, "w", T0, newId);
    state = claimed.state;
    const claimId = claimed.outcome.status === "step" ? claimed.outcome.claimId : "";
    const submitted = submitResult(state, { stepId: stepAt(state, 1).stepId, claimId, result: {}, resultHash: "h", confidence: 0.1, executionReport: report, outputFormattingNotes: null }, T0, newId);
    expect(stepAt(submitted.state, 1).status).toBe("completed");
    expect(submitted.state.steps).toHaveLength(60);
    expect(submitted.events.map((e) => e.action)).toContain("plan.branch_skipped");
  });

  it("fails the plan on a rejected review without rewriting the step's own criticality", () => {
    let state = create(specs("checkpoint", "synthesize"));
    const claimed = nextStep(state, "w", T0, newId);
    const claimId = claimed.outcome.status === "step" ? claimed.outcome.claimId : "";
    state = requestReview(claimed.state, { stepId: stepAt(claimed.state, 1).stepId, claimId, presentation: "p", questions: [] }, T0).state;
    const rejected = submitReview(state, { stepId: stepAt(state, 1).stepId, decision: "reject", feedback: "wrong question", followUpSteps: [] }, actor, T0, newId).state;
    expect(rejected.plan.status).toBe("failed");
    expect(rejected.plan.failureReason).toContain("wrong question");
    expect(stepAt(rejected, 1)).toMatchObject({ status: "failed", critical: false });
  });
});
