import { notFound, validationError } from "../errors";
import { LIMITS, type NewStep, type PlanState, type Step } from "./model";
import type { NewId, StepSnapshot } from "./transition";

/** The plan's ordered step list: making, finding, replacing, inserting and renumbering steps. */

export const snapshot = (step: Step): StepSnapshot => ({
  stepId: step.stepId,
  stepOrder: step.stepOrder,
  stepType: step.stepType,
  instructions: step.instructions,
  status: step.status,
  parallelGroup: step.parallelGroup,
});

export function newStep(spec: NewStep, origin: Step["origin"], newId: NewId): Step {
  return {
    stepId: newId("step"),
    stepOrder: 0,
    stepType: spec.stepType,
    instructions: spec.instructions,
    parallelGroup: spec.parallelGroup ?? null,
    critical: spec.critical ?? false,
    stallThresholdMinutes: spec.stallThresholdMinutes ?? null,
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
    origin,
  };
}

export const renumber = (steps: Step[]): Step[] => steps.map((step, index) => (step.stepOrder === index + 1 ? step : { ...step, stepOrder: index + 1 }));

/**
 * The state with a new step list, renumbered. A branching condition names its step by
 * position, so it moves with its step; a condition whose step was removed can never fire and goes.
 */
export function withSteps(state: PlanState, steps: Step[]): PlanState {
  const renumbered = renumber(steps);
  const orderOf = new Map(renumbered.map((step) => [step.stepId, step.stepOrder]));
  const branchingConditions = state.plan.branchingConditions.flatMap((condition) => {
    const stepId = state.steps[condition.afterStepOrder - 1]?.stepId;
    const order = stepId === undefined ? undefined : orderOf.get(stepId);
    if (order === undefined) return [];
    return order === condition.afterStepOrder ? [condition] : [{ ...condition, afterStepOrder: order }];
  });
  return { ...state, steps: renumbered, plan: { ...state.plan, branchingConditions } };
}

/** Steps that share a parallel group must stand together, or "the group" would mean two places. */
export function assertGroupsContiguous(steps: readonly Pick<Step, "parallelGroup">[]): void {
  const closed = new Set<string>();
  let current: string | null = null;
  steps.forEach((step, index) => {
    if (step.parallelGroup !== current) {
      if (current !== null) closed.add(current);
      if (step.parallelGroup !== null && closed.has(step.parallelGroup)) {
        throw validationError(`Steps of parallel group "${step.parallelGroup}" must be consecutive.`, [
          { path: `steps.${index}.parallelGroup`, message: "Group already closed earlier in the plan" },
        ]);
      }
      current = step.parallelGroup;
    }
  });
}

export function assertStepCount(count: number): void {
  if (count > LIMITS.stepsPerPlan) {
    throw validationError(`A plan has at most ${LIMITS.stepsPerPlan} steps; this change would make ${count}.`, [
      { path: "steps", message: `At most ${LIMITS.stepsPerPlan} steps` },
    ]);
  }
}

export function findStep(state: PlanState, stepId: string): Step {
  const step = state.steps.find((candidate) => candidate.stepId === stepId);
  if (!step) throw notFound("step", stepId);
  return step;
}

export function replaceStep(state: PlanState, next: Step): PlanState {
  return { ...state, steps: state.steps.map((step) => (step.stepId === next.stepId ? next : step)) };
}


export function insertAfter(state: PlanState, afterStepId: string | null, specs: NewStep[], origin: Step["origin"], newId: NewId) {
  assertStepCount(state.steps.length + specs.length);
  const added = specs.map((spec) => newStep(spec, origin, newId));
  let index = afterStepId === null ? state.steps.length : state.steps.findIndex((step) => step.stepId === afterStepId) + 1;
  // Steps the plan inserts on its own (quality gates, review follow-ups) go after the whole parallel group, never into it.
  const group = state.steps[index - 1]?.parallelGroup ?? null;
  if (origin !== "modification" && group !== null) while (state.steps[index]?.parallelGroup === group) index++;
  const next = withSteps(state, [...state.steps.slice(0, index), ...added, ...state.steps.slice(index)]);
  assertGroupsContiguous(next.steps);
  return { state: next, added: next.steps.filter((step) => added.some((a) => a.stepId === step.stepId)) };
}

