import type { CreatePlanInput, Modification, NextStepOutcome, PlanModification, ReviewDecision, Submission } from "./machine";
import type { Actor, PlanState } from "./model";
import type { PlanIndexEntry } from "./index-entry";

/** What an empty plan object answers: the plan was never created under this org's name. */
export const NO_PLAN_HERE = "No plan here.";

/** A command for one plan, carried to its Durable Object. */
export type PlanCommand =
  | { kind: "create"; input: CreatePlanInput }
  | { kind: "next"; workerId: string }
  | { kind: "submit"; submission: Submission }
  | { kind: "modify"; modification: Modification; rationale: string }
  | { kind: "request_review"; stepId: string; claimId: string; presentation: string; questions: string[]; assignee?: string | null }
  | { kind: "assign_review"; reviewId: string; assignee: string | null }
  | { kind: "submit_review"; decision: ReviewDecision }
  | { kind: "cancel"; reason: string }
  | { kind: "resume"; sessionId: string };

export interface CommandResult {
  state: PlanState;
  /** The plan versions this command created (modifications, quality gates, review follow-ups). */
  modifications: PlanModification[];
  outcome?: NextStepOutcome;
  replayed?: boolean;
}

export interface HistoryPage {
  versions: { version: number; kind: string; rationale: string; before: unknown; after: unknown; actorUserId: string; actorClientId: string | null; createdAt: number }[];
  audit: { seq: number; action: string; stepId: string | null; detail: unknown; actorUserId: string; actorClientId: string | null; createdAt: number }[];
  nextAuditSeq: number | null;
}

/**
 * What operations need from the plan engine. Every call names the org: a plan
 * of another org is simply not there (not_found), exactly like a missing one.
 * Failures are thrown as CairnError.
 */
export interface PlanEngine {
  run(orgId: string, planId: string, command: PlanCommand, actor: Actor, now: number): Promise<CommandResult>;
  /** `withResults`: true for every step's result and report, or the ids of the steps to include them for. */
  read(orgId: string, planId: string, withResults: boolean | string[]): Promise<PlanState>;
  history(orgId: string, planId: string, beforeAuditSeq: number | null, limit: number): Promise<HistoryPage>;
}

export interface PlanIndex {
  /** Non-terminal plans of the org, most recently updated first. */
  /** `seriesRunDue`: a run a schedule made that nobody has started (read in the same query: a list is one D1 query). */
  listActive(orgId: string, page: { after?: { updatedAt: number; planId: string }; limit: number }): Promise<(PlanIndexEntry & { seriesRunDue: boolean })[]>;
}
