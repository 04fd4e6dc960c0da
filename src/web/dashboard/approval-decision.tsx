import type { Budget } from "../../domain/plans/budget";
import type { PlanReview, Step } from "../../domain/plans/model";
import { stepPurpose } from "../../domain/plans/step-purpose";
import { BudgetRaiseFields } from "./budget";
import { shortTime } from "./format";

// ---------------------------------------------------------------------------
// The approval decision: what a person opening the approval link needs on the first screen (the plan page's top,
// and the review inbox): what the plan will do, its budget, its steps one line each, and Approve / Revise / Reject.
// The changes a revision makes (each step's instructions, removals, added steps, the budget) fold away below.

/** A budget's limits in words: "up to 8 steps, 200,000 tokens, by 2026-12-01 09:00 UTC". */
export function budgetLimitsText(budget: Budget | null | undefined): string {
  const parts = [
    budget?.maxSteps !== undefined ? `${budget.maxSteps.toLocaleString("en")} steps` : null,
    budget?.maxTokens !== undefined ? `${budget.maxTokens.toLocaleString("en")} tokens` : null,
    budget?.maxToolCalls !== undefined ? `${budget.maxToolCalls.toLocaleString("en")} tool calls` : null,
  ].filter((part): part is string => part !== null);
  const by = budget?.deadline !== undefined ? `by ${new Date(budget.deadline).toISOString().replace("T", " ").slice(0, 16)} UTC` : null;
  if (parts.length === 0 && !by) return "no limit set: the plan may run as long as it needs";
  return [parts.length ? `up to ${parts.join(", ")}` : null, by].filter(Boolean).join(", ");
}

/** A step's line in the decision: short enough to stay one line at desktop width. */
const LINE_CHARS = 100;

export interface ApprovalDecisionProps {
  planId: string;
  review: PlanReview;
  researchQuestion: string;
  steps: readonly Step[];
  planVersion: number;
  budget: Budget | null | undefined;
  csrf: string;
  back: string;
  now: number;
}

export function ApprovalDecision(props: ApprovalDecisionProps) {
  const { review, steps } = props;
  const id = review.reviewId;
  return (
    <form
      class="card review-form approval-decision"
      id={`approval-${id}`}
      method="post"
      action={`/dashboard/plans/${props.planId}/steps/${id}/review`}
      data-review-step={id}
      data-review-kind="approval"
    >
      <input type="hidden" name="csrf" value={props.csrf} />
      <input type="hidden" name="back" value={props.back} />
      <input type="hidden" name="approvalReview" value="1" />
      {/* The version shown here is the one approved: a plan changed since is refused, not approved unseen. */}
      <input type="hidden" name="planVersion" value={String(props.planVersion)} />
      <h2>Approve the plan?</h2>
      <dl class="kv decision-facts">
        <dt>It will answer</dt>
        <dd>{props.researchQuestion}</dd>
        <dt>Budget</dt>
        <dd data-approval-budget>{budgetLimitsText(props.budget)}</dd>
        <dt>Steps ({steps.length})</dt>
        <dd>
          <ol class="step-lines" data-approval-steps>
            {steps.map((step) => (
              <li data-step-line={step.stepId}>
                {stepPurpose(step.instructions, LINE_CHARS)} <span class="muted">({step.stepType})</span>
              </li>
            ))}
          </ol>
        </dd>
      </dl>
      <label for={`feedback-${id}`}>Note for the assistant (needed to revise or reject)</label>
      <textarea id={`feedback-${id}`} name="feedback" maxlength={8000} rows={2} class="short" />
      <p class="decision-buttons">
        <button class="primary" type="submit" name="decision" value="approve" title="The plan starts as it stands">
          Approve
        </button>{" "}
        <button type="submit" name="decision" value="revise" title="The plan starts with the changes below and your note">
          Revise
        </button>{" "}
        <button class="danger" type="submit" name="decision" value="reject" title="The plan ends before anything is spent">
          Reject
        </button>{" "}
        <span class="muted">Requested {shortTime(review.requestedAt)}. Approve starts it as it stands; Reject ends it before anything is spent.</span>
      </p>
      <details class="revise-changes">
        <summary>Changes to send with Revise: steps and budget</summary>
        <fieldset>
          <legend>Steps</legend>
          {steps
            .filter((step) => step.status === "pending")
            .map((step) => (
              <div data-approval-step={step.stepId}>
                <label for={`instructions-${step.stepId}`}>
                  Step {step.stepOrder}: {stepPurpose(step.instructions)} ({step.stepType})
                </label>
                <textarea id={`instructions-${step.stepId}`} name={`instructions:${step.stepId}`} maxlength={8000}>
                  {step.instructions}
                </textarea>
                <label class="check">
                  <input type="checkbox" name={`remove:${step.stepId}`} value="1" /> Remove this step
                </label>
              </div>
            ))}
          <label for={`follow-${id}`}>Steps to add at the end (one instruction per line, optional)</label>
          <textarea id={`follow-${id}`} name="followUpSteps" maxlength={20000} />
        </fieldset>
        <BudgetRaiseFields budget={props.budget} now={props.now} id={id} legend="Budget (leave as it is to keep it)" suggest={false} />
      </details>
    </form>
  );
}
