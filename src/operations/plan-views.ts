import { z } from "zod";
import { clipJson, clipNullable } from "../domain/clip";
import type { Actor, PlanState, Step } from "../domain/plans/model";
import { derivePlanStatusWithReviews, progressOf, stalledSteps } from "../domain/plans/status";
import { BudgetView, budgetView } from "./budget-views";
// An approval shows the whole plan (question, every step, budget, rationale): what the person approves must all be there.
import { APPROVAL_PRESENTATION_MAX } from "../domain/plans/approval";
import { isoOrNull, ParamId } from "./params";
import type { OperationContext } from "./operation";
import { NO_REVIEW_PEOPLE, ReviewPerson, type ReviewPeople } from "./review-people";

export const ParamPlanId = ParamId("plan");
export const ParamStepId = ParamId("step");

/** The acting user and the OAuth client or API key they act through, as plan audit entries name them. */
export const actorOf = (ctx: Pick<OperationContext, "principal">): Actor => ({
  userId: ctx.principal.userId,
  clientId: ctx.principal.clientId ?? ctx.principal.apiKeyId ?? null,
});

/** Parallel workers under one credential tell themselves apart with workerId; otherwise the credential is the worker. */
export const workerIdOf = (ctx: OperationContext, workerId: string | undefined) =>
  workerId ?? `${ctx.principal.userId}/${ctx.principal.clientId ?? ctx.principal.apiKeyId ?? "session"}`;

export const StepRef = z.object({ stepId: z.string(), stepOrder: z.number(), stepType: z.string() });

export const stepRef = (step: Step) => ({ stepId: step.stepId, stepOrder: step.stepOrder, stepType: step.stepType });

/** A step as handed to the worker that will execute it. */
export const WorkStep = StepRef.extend({
  instructions: z.string(),
  /** Present for a step of a parallel group. */
  parallelGroup: z.string().optional(),
  /** Present (true) when failing the step fails the plan. */
  critical: z.literal(true).optional(),
  status: z.string(),
});

export const workStep = (step: Step): z.infer<typeof WorkStep> => ({
  ...stepRef(step),
  instructions: step.instructions,
  ...(step.parallelGroup !== null ? { parallelGroup: step.parallelGroup } : {}),
  ...(step.critical ? { critical: true as const } : {}),
  status: step.status,
});

/**
 * A step's summary as every face returns it: always an object, so a reader finds labelled values. The bounded result
 * when it is an object; `{ text }` when the result is text (and for a summary stored before summaries were bounded
 * values, clipped JSON text, read as that text: stored summaries are never rewritten), `{ items }` for a list,
 * `{ value }` for a number or a boolean; `{ note }` for a step that was skipped or failed; null for a step with neither.
 */
export const ResultSummary = z.record(z.string(), z.unknown()).nullable();

/** seed 004 `get_plan_status`, plus in-progress and failed steps. */
export const PlanStatusView = z.object({
  planId: z.string(),
  name: z.string(),
  status: z.string(),
  derivedStatus: z.string(),
  stalled: z.boolean(),
  progress: z.number(),
  totalSteps: z.number(),
  currentStep: StepRef.extend({ status: z.string() }).nullable(),
  completedSteps: z.array(
    StepRef.extend({ status: z.string(), resultSummary: ResultSummary, confidence: z.number().nullable(), finishedAt: z.string().nullable() }),
  ),
  pendingSteps: z.array(StepRef),
  inProgressSteps: z.array(StepRef.extend({ status: z.string(), claimedAt: z.string().nullable(), lastActivityAt: z.string().nullable() })),
  failedSteps: z.array(StepRef.extend({ reason: z.string().nullable() })),
  failureReason: z.string().nullable(),
  /**
   * What waits for a person: checkpoint steps (stepId) and the plan's own reviews (approval, budget: reviewId,
   * no step). Answered with submit_review, passing the stepId or the reviewId.
   */
  pendingReviews: z.array(
    z.object({
      reviewId: z.string(),
      kind: z.enum(["step", "approval", "budget"]),
      stepId: z.string().nullable(),
      stepOrder: z.number().nullable(),
      stepType: z.string().nullable(),
      presentation: z.string(),
      questions: z.array(z.string()),
      requestedAt: z.string(),
      /** An approval: the plan version it approves (submit_review's planVersion). */
      planVersion: z.number().optional(),
      /** The member meant to decide it, or null (anyone). */
      assignee: ReviewPerson.nullable(),
      /** An approval in an org with an approver group: who approves. */
      approvers: z.array(ReviewPerson).optional(),
    }),
  ),
  /** Limits and what has been spent; null when the plan has no budget. */
  budget: BudgetView,
  updatedAt: z.string(),
});

const assigneeView = (userId: string | null | undefined, people: ReviewPeople) => (userId ? (people.byId.get(userId) ?? null) : null);

/** A review's presentation as the status view carries it: enough to decide on, bounded (the step context has it whole). */
const REVIEW_PRESENTATION_CHARS = 2_000;


export function planStatusView(state: PlanState, now: number, people: ReviewPeople = NO_REVIEW_PEOPLE): z.infer<typeof PlanStatusView> {
  const { plan, steps } = state;
  const current = steps.find((step) => step.status === "in_progress" || step.status === "awaiting_input");
  const terminal = plan.status === "completed" || plan.status === "failed" || plan.status === "cancelled";
  return {
    planId: plan.planId,
    name: plan.name,
    status: plan.status,
    derivedStatus: derivePlanStatusWithReviews(plan, steps),
    stalled: !terminal && (plan.status === "stalled" || stalledSteps(state, now).length > 0),
    progress: progressOf(steps),
    totalSteps: steps.length,
    currentStep: current ? { ...stepRef(current), status: current.status } : null,
    completedSteps: steps
      .filter((step) => step.status === "completed" || step.status === "skipped")
      .map((step) => ({
        ...stepRef(step),
        status: step.status,
        resultSummary: resultSummaryOf(step),
        confidence: step.confidence,
        finishedAt: isoOrNull(step.finishedAt),
      })),
    pendingSteps: steps.filter((step) => step.status === "pending").map(stepRef),
    inProgressSteps: steps
      .filter((step) => step.status === "in_progress" || step.status === "awaiting_input")
      .map((step) => ({ ...stepRef(step), status: step.status, claimedAt: isoOrNull(step.claimedAt), lastActivityAt: isoOrNull(step.lastActivityAt) })),
    failedSteps: steps.filter((step) => step.status === "failed").map((step) => ({ ...stepRef(step), reason: step.note })),
    failureReason: plan.failureReason,
    pendingReviews: [
      // A cancelled or failed plan waits for nobody: its unanswered plan review is moot.
      ...(terminal ? [] : (plan.reviews ?? []))
        .filter((review) => review.decision === null)
        .map((review) => ({
          reviewId: review.reviewId,
          kind: review.kind,
          stepId: null,
          stepOrder: null,
          stepType: null,
          presentation: clipNullable(review.presentation, review.kind === "approval" ? APPROVAL_PRESENTATION_MAX : REVIEW_PRESENTATION_CHARS) ?? "",
          questions: review.questions,
          requestedAt: new Date(review.requestedAt).toISOString(),
          ...(review.kind === "approval" ? { planVersion: plan.version } : {}),
          assignee: assigneeView(review.assignee, people),
          ...(review.kind === "approval" && people.approvers.length ? { approvers: people.approvers } : {}),
        })),
      ...steps
        .filter((step) => step.status === "awaiting_input" && step.review && step.review.decision === null)
        .map((step) => ({
          ...stepRef(step),
          reviewId: step.stepId,
          kind: "step" as const,
          presentation: clipNullable(step.review?.presentation ?? "", REVIEW_PRESENTATION_CHARS) ?? "",
          questions: step.review?.questions ?? [],
          requestedAt: new Date(step.review?.requestedAt ?? plan.updatedAt).toISOString(),
          assignee: assigneeView(step.review?.assignee, people),
        })),
    ],
    budget: budgetView(state, now),
    updatedAt: new Date(plan.updatedAt).toISOString(),
  };
}

/** The status figures without the per-state step lists, for views that list the steps themselves. */
export const PlanStatusBrief = PlanStatusView.pick({
  status: true,
  derivedStatus: true,
  stalled: true,
  progress: true,
  totalSteps: true,
  currentStep: true,
  failureReason: true,
  budget: true,
  updatedAt: true,
});

export function planStatusBrief(state: PlanState, now: number): z.infer<typeof PlanStatusBrief> {
  const { status, derivedStatus, stalled, progress, totalSteps, currentStep, failureReason, budget, updatedAt } = planStatusView(state, now);
  return { status, derivedStatus, stalled, progress, totalSteps, currentStep, failureReason: clipNullable(failureReason, 500), budget, updatedAt };
}

/**
 * Adds rows while their JSON fits in `budget` characters; the first always, so a page is never empty, unless
 * `takeFirst` is false (the rows continue a page that has some already).
 */
export function fillBudget<T>(rows: Iterable<T>, budget: number, cost: (row: T) => number = (row) => JSON.stringify(row).length, takeFirst = true): T[] {
  const kept: T[] = [];
  let left = budget;
  for (const row of rows) {
    const size = cost(row);
    if ((kept.length > 0 || !takeFirst) && size > left) break;
    kept.push(row);
    left -= size;
  }
  return kept;
}

/** What status views show of a result: its JSON within this many characters, long strings clipped first. */
const SUMMARY = { budget: 400, stringChars: 160 } as const;

/** A result bounded for status views, stored as its JSON: the summary stays a valid value (an object, a list or text). */
export function summarize(value: unknown): string {
  return JSON.stringify(clipJson(value, SUMMARY).value);
}

export function resultSummaryOf(step: Pick<Step, "resultSummary" | "note">): z.infer<typeof ResultSummary> {
  const stored = step.resultSummary;
  if (stored === undefined || stored === null) return step.note ? { note: step.note } : null;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return { text: stored };
  }
  if (typeof value === "string") return { text: value };
  if (Array.isArray(value)) return { items: value };
  if (value !== null && typeof value === "object") return value as Record<string, unknown>;
  return { value };
}

/** The steps a command's modifications added, as its acknowledgement names them: left out when there are none. */
export function insertedStepsOf(
  modifications: readonly { after: readonly { stepId: string; stepOrder: number; stepType: string }[] }[],
): { insertedSteps?: z.infer<typeof StepRef>[] } {
  const inserted = modifications.flatMap((modification) => modification.after.map(({ stepId, stepOrder, stepType }) => ({ stepId, stepOrder, stepType })));
  return inserted.length > 0 ? { insertedSteps: inserted } : {};
}
