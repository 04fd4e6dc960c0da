import type { Budget, Usage } from "./budget";

/** The research plan of seeds 000 and 004: ordered steps, each pulled, executed and submitted. */

export const STEP_TYPES = ["search", "extract", "analyze", "critique", "synthesize", "checkpoint", "custom"] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const STEP_STATUSES = ["pending", "in_progress", "awaiting_input", "completed", "failed", "skipped"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** Stored plan status. `derivedStatus` (status.ts) is computed from the steps and may differ. */
export const PLAN_STATUSES = ["active", "awaiting_review", "stalled", "completed", "failed", "cancelled"] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const TERMINAL_STEP_STATUSES: ReadonlySet<StepStatus> = new Set(["completed", "failed", "skipped"]);
export const TERMINAL_PLAN_STATUSES: ReadonlySet<PlanStatus> = new Set(["completed", "failed", "cancelled"]);

/** Minutes an in-progress step may go without activity before the plan counts as stalled. */
export const DEFAULT_STALL_MINUTES: Record<StepType, number> = {
  search: 30,
  extract: 30,
  analyze: 20,
  critique: 20,
  synthesize: 45,
  checkpoint: 30,
  custom: 30,
};

export const LIMITS = {
  stepsPerPlan: 60,
  instructionsChars: 8_000,
  resultBytes: 256 * 1024,
  reportBytes: 256 * 1024,
  branchingConditions: 20,
  questionsPerReview: 10,
} as const;

/** Who did something: the user, and the OAuth client or API key they did it through. */
export interface Actor {
  userId: string;
  clientId: string | null;
}

/** seed 000: every submission carries all five, empty arrays allowed. */
export interface ExecutionReport {
  thinking: string;
  webSearches: unknown[];
  webFetches: unknown[];
  otherToolCalls: unknown[];
  subagents: unknown[];
}

export interface Review {
  presentation: string;
  questions: string[];
  requestedAt: number;
  decision: "approve" | "revise" | "reject" | null;
  feedback: string | null;
  decidedAt: number | null;
  decidedBy: string | null;
  /** The member meant to decide it (their user id), or absent/null: anyone in the org (review-assignee.ts). */
  assignee?: string | null;
}

/** A gate on the whole plan, not a step: it never enters the step list or the progress formula. */
export const PLAN_REVIEW_KINDS = ["approval", "budget"] as const;
export type PlanReviewKind = (typeof PLAN_REVIEW_KINDS)[number];

export interface PlanReview extends Review {
  reviewId: string;
  /** approval: the plan waits for a person before its first step; budget: a spent limit waits for one. */
  kind: PlanReviewKind;
  /** When the reviewer's feedback was handed to the assistant with a step (get_next_step), or null. */
  noteDeliveredAt?: number | null;
}

export interface Step {
  stepId: string;
  /** 1-based position; renumbered after every modification. */
  stepOrder: number;
  stepType: StepType;
  instructions: string;
  parallelGroup: string | null;
  critical: boolean;
  stallThresholdMinutes: number | null;
  status: StepStatus;
  /** The claim handed to the caller of get_next_step; a submission must present it. */
  claimId: string | null;
  claimedBy: string | null;
  claimedAt: number | null;
  lastActivityAt: number | null;
  finishedAt: number | null;
  result: unknown;
  /** Hash of the submitted result, so the same submission twice is recognised. */
  resultHash: string | null;
  /** A short, bounded rendering of the result for status views (seed 004 `resultSummary`). */
  resultSummary?: string | null;
  confidence: number | null;
  executionReport: ExecutionReport | null;
  outputFormattingNotes: string | null;
  review: Review | null;
  /** Why it failed or was skipped. */
  note: string | null;
  /** How it entered the plan; "budget" is a budget review stored as a step by earlier versions (lifted to plan.reviews on load). */
  origin: "plan" | "modification" | "branching" | "review" | "budget";
}

/** A declarative quality gate (deep plans): after a step, if its confidence is low, insert steps. */
export interface BranchingCondition {
  conditionId: string;
  afterStepOrder: number;
  confidenceBelow: number;
  insertSteps: NewStep[];
  rationale: string;
  firedAt: number | null;
}

export interface NewStep {
  stepType: StepType;
  instructions: string;
  parallelGroup?: string | null;
  critical?: boolean;
  stallThresholdMinutes?: number | null;
}

export interface Plan {
  planId: string;
  orgId: string;
  name: string;
  researchQuestion: string;
  planDesignRationale: string;
  outputFormattingNotes: string | null;
  sessionId: string | null;
  executionId: string | null;
  status: PlanStatus;
  /** Overrides the per-type stall threshold for every step of this plan that sets none itself. */
  stallThresholdMinutes?: number | null;
  branchingConditions: BranchingCondition[];
  createdBy: Actor;
  createdAt: number;
  updatedAt: number;
  /** Increments with every modification (a plan version); transitions do not change it. */
  version: number;
  stalledAt: number | null;
  finishedAt: number | null;
  failureReason: string | null;
  /** Limits on what the plan may spend (budget.ts); absent on plans made before budgets. */
  budget?: Budget | null;
  usage?: Usage;
  /** Plan-level reviews (approval, budget), oldest first; absent on plans made before them. */
  reviews?: PlanReview[];
  /** A run a schedule made: its series and number (schedule.ts). Absent on every other plan, the series' own included. */
  seriesRun?: SeriesRunMark;
}

export interface SeriesRunMark {
  seriesId: string;
  runNumber: number;
}

export interface PlanState {
  plan: Plan;
  steps: Step[];
}

/** The plan-level review waiting for a person, if any (at most one waits at a time). */
export const pendingPlanReview = (plan: Pick<Plan, "reviews">): PlanReview | undefined => plan.reviews?.find((review) => review.decision === null);

export const isTerminalStep = (step: Pick<Step, "status">) => TERMINAL_STEP_STATUSES.has(step.status);
export const isTerminalPlan = (plan: Pick<Plan, "status">) => TERMINAL_PLAN_STATUSES.has(plan.status);
