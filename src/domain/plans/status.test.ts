import { describe, expect, it } from "vitest";
import type { PlanState, Step, StepStatus, StepType } from "./model";
import { derivePlanStatus, nextStallDeadline, progressOf, stallDeadline, stalledSteps, stallThresholdMs } from "./status";

const MINUTE = 60_000;

const step = (overrides: Partial<Step> = {}): Step => ({
  stepId: "step_1",
  stepOrder: 1,
  stepType: "search",
  instructions: "look",
  parallelGroup: null,
  critical: false,
  stallThresholdMinutes: null,
  status: "pending",
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
  ...overrides,
});

const withStatuses = (...statuses: StepStatus[]) => statuses.map((status) => ({ status }));

/** A plan state holding just these steps; the plan record itself is irrelevant to status.ts. */
const stateOf = (steps: Step[]): PlanState => ({ plan: {} as PlanState["plan"], steps });

describe("derivePlanStatus (seed 004)", () => {
  it("is completed when every step is terminal, whatever the mix", () => {
    expect(derivePlanStatus(withStatuses("completed", "skipped", "failed"))).toBe("completed");
    expect(derivePlanStatus(withStatuses("completed"))).toBe("completed");
  });

  it("is completed even when every step failed", () => {
    expect(derivePlanStatus(withStatuses("failed", "failed", "failed"))).toBe("completed");
  });

  it("is awaiting_review when any step awaits input", () => {
    expect(derivePlanStatus(withStatuses("completed", "awaiting_input", "pending"))).toBe("awaiting_review");
    expect(derivePlanStatus(withStatuses("in_progress", "awaiting_input"))).toBe("awaiting_review");
  });

  it("is active while any step is open and none awaits input", () => {
    expect(derivePlanStatus(withStatuses("completed", "pending"))).toBe("active");
    expect(derivePlanStatus(withStatuses("failed", "in_progress", "skipped"))).toBe("active");
  });

  it("is active for an empty step list (not vacuously completed)", () => {
    expect(derivePlanStatus([])).toBe("active");
  });
});

describe("progressOf (seed 004: round((completed + skipped) / total * 100))", () => {
  it.each([
    [["completed", "pending", "pending"], 33],
    [["completed", "skipped", "pending"], 67],
    [["completed", "completed"], 100],
    [["skipped", "pending"], 50],
    [["pending", "in_progress", "awaiting_input"], 0],
    [["completed", "pending", "pending", "pending", "pending", "pending", "pending", "pending"], 13], // 12.5 rounds up
  ] as [StepStatus[], number][])("%j → %i", (statuses, expected) => {
    expect(progressOf(withStatuses(...statuses))).toBe(expected);
  });

  it("does not count failed steps, though they are terminal", () => {
    expect(progressOf(withStatuses("completed", "failed"))).toBe(50);
    expect(progressOf(withStatuses("failed", "failed", "skipped"))).toBe(33);
  });

  it("is 0 for a plan whose every step failed, while its derived status is completed", () => {
    const steps = withStatuses("failed", "failed");
    expect(progressOf(steps)).toBe(0);
    expect(derivePlanStatus(steps)).toBe("completed");
  });

  it("is 0 for an empty step list", () => {
    expect(progressOf([])).toBe(0);
  });
});

describe("stall deadlines", () => {
  it.each([
    ["search", 30],
    ["extract", 30],
    ["analyze", 20],
    ["critique", 20],
    ["synthesize", 45],
    ["checkpoint", 30],
    ["custom", 30],
  ] as [StepType, number][])("a %s step defaults to %i minutes", (stepType, minutes) => {
    expect(stallThresholdMs({ stepType, stallThresholdMinutes: null })).toBe(minutes * MINUTE);
    expect(stallDeadline(step({ stepType, status: "in_progress", lastActivityAt: 1_000 }))).toBe(1_000 + minutes * MINUTE);
  });

  it("uses the per-step override instead of the type default", () => {
    const overridden = step({ stepType: "synthesize", stallThresholdMinutes: 5, status: "in_progress", lastActivityAt: 0 });
    expect(stallDeadline(overridden)).toBe(5 * MINUTE);
  });

  it("has no deadline for steps that are not in progress, including ones awaiting input", () => {
    for (const status of ["pending", "awaiting_input", "completed", "failed", "skipped"] as StepStatus[]) {
      expect(stallDeadline(step({ status, lastActivityAt: 0 }))).toBeNull();
    }
  });

  it("never counts an awaiting_input step as stalled, however long it waits", () => {
    const waiting = step({ status: "awaiting_input", lastActivityAt: 0 });
    expect(stalledSteps(stateOf([waiting]), 1_000 * 24 * 60 * MINUTE)).toEqual([]);
    expect(nextStallDeadline(stateOf([waiting]))).toBeNull();
  });

  it("counts a step as stalled exactly from its deadline on", () => {
    const running = step({ stepType: "analyze", status: "in_progress", lastActivityAt: 0 });
    expect(stalledSteps(stateOf([running]), 20 * MINUTE - 1)).toEqual([]);
    expect(stalledSteps(stateOf([running]), 20 * MINUTE)).toEqual([running]);
  });

  it("puts the next deadline at the earliest in-progress deadline", () => {
    const steps = [
      step({ stepId: "a", stepType: "synthesize", status: "in_progress", lastActivityAt: 0 }), // 45 min
      step({ stepId: "b", stepType: "analyze", status: "in_progress", lastActivityAt: 10 * MINUTE }), // 30 min
      step({ stepId: "c", stepType: "search", status: "in_progress", lastActivityAt: 0, stallThresholdMinutes: 40 }), // 40 min
      step({ stepId: "d", stepType: "analyze", status: "awaiting_input", lastActivityAt: 0 }), // never
      step({ stepId: "e", stepType: "analyze", status: "completed", lastActivityAt: 0 }), // never
    ];
    expect(nextStallDeadline(stateOf(steps))).toBe(30 * MINUTE);
  });

  it("has no next deadline when nothing is in progress", () => {
    expect(nextStallDeadline(stateOf([step({ status: "pending" }), step({ status: "completed", lastActivityAt: 5 })]))).toBeNull();
  });
});
