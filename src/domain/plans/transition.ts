import type { PlanState, StepStatus } from "./model";

/** What a pure transition returns: the next state, what happened (the audit trail) and the plan versions it made. */

export interface PlanEvent {
  action: string;
  stepId: string | null;
  detail: Record<string, unknown>;
}

export interface StepSnapshot {
  stepId: string;
  stepOrder: number;
  stepType: string;
  instructions: string;
  status: StepStatus;
  parallelGroup: string | null;
}

/** A plan version: one modification, why, and the steps it touched before and after. */
export interface PlanModification {
  version: number;
  kind: string;
  rationale: string;
  before: StepSnapshot[];
  after: StepSnapshot[];
}

export interface Transition {
  state: PlanState;
  events: PlanEvent[];
  modifications: PlanModification[];
}

export type NewId = (prefix: string) => string;
