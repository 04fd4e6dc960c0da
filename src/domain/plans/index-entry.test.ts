import { describe, expect, it } from "vitest";
import { changesListing, indexEntryOf } from "./index-entry";
import { cancelPlan, createPlan, markStalled, type NewId, nextStep, submitResult } from "./machine";
import type { PlanState } from "./model";

const T0 = 1_700_000_000_000;
const actor = { userId: "usr_1", clientId: "cli_1" };
const report = { thinking: "t", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] };
let n = 0;
const newId: NewId = (prefix) => `${prefix}_${++n}`;

const created = (): PlanState =>
  createPlan(
    {
      planId: "pln_1",
      orgId: "org_1",
      name: "[Scan] Heat pumps",
      researchQuestion: "Which heat pump?",
      steps: [
        { stepType: "search", instructions: "look", stallThresholdMinutes: 5 },
        { stepType: "synthesize", instructions: "write" },
      ],
      branchingConditions: [],
      planDesignRationale: "because",
      outputFormattingNotes: null,
      sessionId: null,
      executionId: null,
    },
    actor,
    T0,
    newId,
  ).state;

function claim(state: PlanState, now: number) {
  const next = nextStep(state, "w1", now, newId);
  if (next.outcome.status !== "step") throw new Error(`expected a step, got ${next.outcome.status}`);
  return { state: next.state, stepId: next.outcome.step.stepId, claimId: next.outcome.claimId };
}
const submit = (taken: ReturnType<typeof claim>, now: number) =>
  submitResult(taken.state, { stepId: taken.stepId, claimId: taken.claimId, result: { r: 1 }, resultHash: `h${now}`, confidence: 0.9, executionReport: report, outputFormattingNotes: null }, now, newId)
    .state;

/** Whether the move from `before` to `after` (both seen at `now`) must be in the plan list when the call answers. */
const urgent = (before: PlanState | null, after: PlanState, now: number) => changesListing(before ? indexEntryOf(before, now, 0) : null, indexEntryOf(after, now, 0));

describe("which plan index updates a caller waits for", () => {
  it("a new plan, a finished one and a cancelled one are listed so at once", () => {
    const plan = created();
    expect(urgent(null, plan, T0)).toBe(true);
    const first = claim(plan, T0 + 1);
    const second = claim(submit(first, T0 + 2), T0 + 3);
    const done = submit(second, T0 + 4);
    expect(done.plan.status).toBe("completed");
    expect(urgent(second.state, done, T0 + 4)).toBe(true);
    expect(urgent(plan, cancelPlan(plan, "no longer needed", T0 + 5).state, T0 + 5)).toBe(true);
  });

  it("a plan that stalls is listed as stalled at once", () => {
    const taken = claim(created(), T0 + 1);
    const later = T0 + 10 * 60_000;
    expect(urgent(taken.state, markStalled(taken.state, later).state, later)).toBe(true);
  });

  it("claiming a step and completing one that does not finish the plan only move progress: the update follows the answer", () => {
    const plan = created();
    const first = claim(plan, T0 + 1);
    expect(urgent(plan, first.state, T0 + 1)).toBe(false);
    const progressed = submit(first, T0 + 2);
    expect(indexEntryOf(progressed, T0 + 2, 0).progress).toBeGreaterThan(indexEntryOf(first.state, T0 + 2, 0).progress);
    expect(urgent(first.state, progressed, T0 + 2)).toBe(false);
  });
});
