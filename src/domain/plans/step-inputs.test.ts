import { describe, expect, it } from "vitest";
import type { Step } from "./model";
import { stepsBuiltOn } from "./step-inputs";

const step = (stepOrder: number, parallelGroup: string | null = null): Step => ({
  stepId: `step_${stepOrder}`,
  stepOrder,
  stepType: "analyze",
  instructions: "x",
  parallelGroup,
  critical: false,
  stallThresholdMinutes: null,
  status: "completed",
  claimId: null,
  claimedBy: null,
  claimedAt: null,
  lastActivityAt: null,
  finishedAt: null,
  result: null,
  resultHash: null,
  confidence: null,
  executionReport: null,
  outputFormattingNotes: null,
  review: null,
  note: null,
  origin: "plan",
});

// decompose, assess, 3 × synthesis, 2 × review, critic, report
const plan = [step(1), step(2), step(3, "synthesis"), step(4, "synthesis"), step(5, "synthesis"), step(6, "review"), step(7, "review"), step(8), step(9)];
const orders = (steps: Step[]) => steps.map((s) => s.stepOrder);

describe("stepsBuiltOn", () => {
  it("is the step before, for a sequential step", () => {
    expect(orders(stepsBuiltOn(plan, plan[1] as Step))).toEqual([1]);
    expect(orders(stepsBuiltOn(plan, plan[8] as Step))).toEqual([8]);
  });

  it("is nothing for the first step", () => {
    expect(stepsBuiltOn(plan, plan[0] as Step)).toEqual([]);
  });

  it("skips the step's own parallel group: every worker builds on what came before the group", () => {
    for (const worker of plan.slice(2, 5)) expect(orders(stepsBuiltOn(plan, worker))).toEqual([2]);
  });

  it("is every member of the group before it: a reviewer reads all the workers, the critic both reviewers", () => {
    expect(orders(stepsBuiltOn(plan, plan[5] as Step))).toEqual([3, 4, 5]);
    expect(orders(stepsBuiltOn(plan, plan[7] as Step))).toEqual([6, 7]);
  });

  it("does not depend on the order the steps are given in", () => {
    expect(orders(stepsBuiltOn([...plan].reverse(), plan[6] as Step))).toEqual([3, 4, 5]);
  });
});
