import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApprovalMode } from "./approval";
import { type Budget, normalizeBudget } from "./budget";
import { cancelPlan, createPlan, type CreatePlanInput, nextStep, submitResult, submitReview } from "./machine";
import type { PlanState } from "./model";
import { createTerms, importedPlanHold, scheduledRunInput, scheduleNeedsPerson, scheduleRefusal } from "./spend-gate";
import { MODES, planTemplate, RESEARCH_TYPES } from "./templates";

/**
 * May this plan spend? Over every path that makes a plan (created with steps, from a template, a schedule's run of
 * a plan as it stands after approval), for any org setting and plan approval and budget: a plan that must be
 * approved hands out no step before a person approves it, and the budget asked for is the budget the plan carries.
 */

const T0 = 1_700_000_000_000;
const DAY = 86_400_000;
const actor = { userId: "usr_1", clientId: null };
const person = { approver: "person" as const, approvalUrl: "https://cairn.test/dashboard/plans/pln_src" };

const idsFrom = () => {
  let n = 0;
  return (prefix: string) => `${prefix}_${++n}`;
};

const approvalArb = fc.constantFrom<ApprovalMode>("required", "optional");
const budgetArb: fc.Arbitrary<Budget | null> = fc.option(
  fc.record(
    { maxSteps: fc.integer({ min: 1, max: 50 }), maxToolCalls: fc.integer({ min: 1, max: 500 }), deadline: fc.integer({ min: T0 + 60_000, max: T0 + 30 * DAY }) },
    { requiredKeys: [] },
  ),
  { nil: null },
);

const baseInput = (planId: string, terms: { approval: ApprovalMode; budget: Budget | null }): CreatePlanInput => ({
  planId,
  orgId: "org_1",
  name: "[Scan] Heat pumps",
  researchQuestion: "Which heat pump?",
  steps: [
    { stepType: "search", instructions: "search" },
    { stepType: "synthesize", instructions: "write" },
  ],
  branchingConditions: [],
  planDesignRationale: "r",
  outputFormattingNotes: null,
  sessionId: null,
  executionId: null,
  ...terms,
});

/** Whether get_next_step hands out a step right after creation. */
const handsOutStep = (state: PlanState, now: number) => nextStep(state, "worker", now, idsFrom()).outcome.status === "step";

/** A person approves a plan waiting for approval (as the dashboard does), so it runs. */
function approvedByPerson(state: PlanState, now: number): PlanState {
  const review = state.plan.reviews?.find((candidate) => candidate.kind === "approval" && candidate.decision === null);
  if (!review) return state;
  return submitReview(state, { stepId: review.reviewId, decision: "approve", feedback: null, followUpSteps: [], authority: person, planVersion: state.plan.version }, actor, now, idsFrom()).state;
}

describe("one gate for every plan-making path", () => {
  it("no step before a required approval; the budget always carried (create, template, a schedule's run)", () => {
    fc.assert(
      fc.property(
        approvalArb,
        fc.option(approvalArb, { nil: undefined }),
        budgetArb,
        approvalArb,
        fc.integer({ min: 1, max: 20 }),
        fc.constantFrom(...RESEARCH_TYPES),
        fc.constantFrom(...MODES),
        (orgAtCreate, planApproval, budget, orgAtRun, runAfterDays, researchType, mode) => {
          // Created with its own steps.
          const asked = normalizeBudget(budget);
          const terms = createTerms(orgAtCreate, { approval: planApproval, budget });
          const created = createPlan(baseInput("pln_src", terms), actor, T0, idsFrom()).state;
          const mustApprove = orgAtCreate === "required" || planApproval === "required";
          expect(handsOutStep(created, T0)).toBe(!mustApprove);
          expect(created.plan.budget ?? null).toEqual(asked);

          // From a template: the template's suggested approval and budget go through the same terms.
          const template = planTemplate(researchType, mode, "heat pumps").createPlanArguments;
          const fromTemplate = createTerms(orgAtCreate, { approval: planApproval ?? template.approval, budget: budget ?? template.budget });
          const templated = createPlan({ ...baseInput("pln_tpl", fromTemplate), steps: template.steps }, actor, T0, idsFrom()).state;
          expect(handsOutStep(templated, T0)).toBe(!(orgAtCreate === "required" || (planApproval ?? template.approval) === "required"));
          expect(templated.plan.budget).toEqual(normalizeBudget(budget ?? template.budget));

          // A schedule's run of the plan once a person approved it: it waits for a person again when the org or the
          // plan asks, and carries the plan's budget (a deadline as far from the run's start as from the plan's).
          const series = approvedByPerson(created, T0 + 1);
          const runAt = T0 + runAfterDays * DAY;
          const run = createPlan(scheduledRunInput(series, { planId: "pln_run", orgId: "org_1", seriesId: "ser_1", runNumber: 1 }, orgAtRun, runAt), actor, runAt, idsFrom()).state;
          expect(handsOutStep(run, runAt)).toBe(!(orgAtRun === "required" || mustApprove));
          expect(run.plan.budget ?? null).toEqual(asked === null ? null : { ...asked, ...(asked.deadline === undefined ? {} : { deadline: runAt + (asked.deadline - T0) }) });
          expect(run.plan.usage).toEqual({ steps: 0, inputTokens: 0, outputTokens: 0, toolCalls: 0 });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("refuses to schedule a plan waiting for approval, rejected at approval or cancelled; says when scheduling is a person's", () => {
    const waiting = createPlan(baseInput("pln_w", { approval: "required", budget: { maxSteps: 2 } }), actor, T0, idsFrom()).state;
    expect(scheduleRefusal(waiting)?.code).toBe("conflict");
    expect(scheduleRefusal(waiting)?.message).toContain("approval");
    const review = waiting.plan.reviews?.[0];
    const rejected = submitReview(waiting, { stepId: review?.reviewId ?? "", decision: "reject", feedback: "No.", followUpSteps: [] }, actor, T0 + 1, idsFrom()).state;
    expect(scheduleRefusal(rejected)?.message).toContain("rejected");
    const open = createPlan(baseInput("pln_o", { approval: "optional", budget: null }), actor, T0, idsFrom()).state;
    expect(scheduleRefusal(open)).toBeNull();
    const cancelled = cancelPlan(open, "Not needed", T0 + 1).state;
    expect(scheduleRefusal(cancelled)?.message).toContain("cancelled");
    expect(scheduleRefusal(approvedByPerson(waiting, T0 + 1))).toBeNull();

    expect(scheduleNeedsPerson("optional", open)).toBe(false);
    expect(scheduleNeedsPerson("required", open)).toBe(true);
    expect(scheduleNeedsPerson("optional", approvedByPerson(waiting, T0 + 1))).toBe(true);
  });
});

describe("an imported plan goes through the same gate", () => {
  /** A plan as a file may describe it: created under any terms, approved (by anyone) or not, some steps done, one maybe in flight, maybe cancelled. */
  function describedPlan(terms: { approval: ApprovalMode; budget: Budget | null }, approved: boolean, stepsDone: number, inFlight: boolean, cancelled: boolean): PlanState {
    let plan = createPlan(baseInput("pln_imp", terms), actor, T0, idsFrom()).state;
    if (approved) plan = approvedByPerson(plan, T0 + 1);
    for (let done = 0; done < stepsDone + (inFlight ? 1 : 0); done++) {
      const next = nextStep(plan, "worker", T0 + 2, idsFrom());
      if (next.outcome.status !== "step") break;
      plan = next.state;
      if (done === stepsDone) break;
      const { step, claimId } = next.outcome;
      plan = submitResult(plan, { stepId: step.stepId, claimId, result: { n: done }, resultHash: `h${done}`, confidence: 0.9, executionReport: null, outputFormattingNotes: null }, T0 + 3, idsFrom()).state;
    }
    return cancelled && !["completed", "failed"].includes(plan.plan.status) ? cancelPlan(plan, "Ended", T0 + 4).state : plan;
  }

  it("holds a plan that can spend for a person where the org or the plan asks, its steps in flight too; leaves finished plans and the budget as they were", () => {
    fc.assert(
      fc.property(approvalArb, approvalArb, budgetArb, fc.boolean(), fc.integer({ min: 0, max: 2 }), fc.boolean(), fc.boolean(), (orgHere, planApproval, budget, approved, stepsDone, inFlight, cancelled) => {
        const described = describedPlan({ approval: planApproval, budget }, approved, stepsDone, inFlight, cancelled);
        const held = importedPlanHold(orgHere, described, T0 + DAY, (prefix) => `${prefix}_import`);
        const arrived = held?.state ?? described;
        expect(arrived.plan.budget ?? null).toEqual(described.plan.budget ?? null);
        if (["completed", "failed", "cancelled"].includes(described.plan.status)) {
          expect(held).toBeNull();
          return;
        }
        const mustApprove = orgHere === "required" || planApproval === "required";
        if (!mustApprove) {
          expect(held).toBeNull();
          return;
        }
        // No step, not even one the file says is in flight, before a person of this org approves, whatever the file said was approved.
        expect(handsOutStep(arrived, T0 + DAY)).toBe(false);
        expect(arrived.plan.reviews?.filter((review) => review.kind === "approval" && review.decision === null)).toHaveLength(1);
        // Approved here, it goes on (or meets its budget); a released step is counted once, when it starts again.
        const restarted = nextStep(approvedByPerson(arrived, T0 + DAY + 1), "worker", T0 + DAY + 2, idsFrom());
        expect(["step", "budget_exhausted"]).toContain(restarted.outcome.status);
        const done = described.steps.filter((step) => step.status === "completed").length;
        if (restarted.outcome.status === "step") expect(restarted.state.plan.usage?.steps).toBe(done + 1);
      }),
      { numRuns: 200 },
    );
  });
});
