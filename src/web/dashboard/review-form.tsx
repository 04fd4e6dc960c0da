
import type { Budget } from "../../domain/plans/budget";
import type { PlanReview, Step } from "../../domain/plans/model";
import { stepPurpose } from "../../domain/plans/step-purpose";
import { ApprovalDecision } from "./approval-decision";
import { BudgetRaiseFields } from "./budget";
import { shortTime } from "./format";
import { MarkdownNote } from "./markdown-note";

// ---------------------------------------------------------------------------
// Review form (plan page and inbox)

/** What a review form answers: a checkpoint step, or one of the plan's own reviews (approval, budget). */
export type ReviewSubject = { step: Step } | { planReview: PlanReview; steps: readonly Step[]; planVersion: number };

export function ReviewForm(props: { planId: string; subject: ReviewSubject; csrf: string; back: string; budget?: Budget | null; now?: number; researchQuestion?: string }) {
  const { subject } = props;
  const planReview = "planReview" in subject ? subject.planReview : null;
  const step = "step" in subject ? subject.step : null;
  const id = planReview?.reviewId ?? step?.stepId ?? "";
  const review = planReview ?? step?.review ?? null;
  // Budget reviews stored as steps by earlier versions are read as plan reviews; the origin check keeps any straggler answerable.
  const budgetReview = planReview?.kind === "budget" || step?.origin === "budget";
  if (planReview?.kind === "approval" && "steps" in subject) {
    return (
      <ApprovalDecision
        planId={props.planId}
        review={planReview}
        researchQuestion={props.researchQuestion ?? ""}
        steps={subject.steps}
        planVersion={subject.planVersion}
        budget={props.budget}
        csrf={props.csrf}
        back={props.back}
        now={props.now ?? Date.now()}
      />
    );
  }
  const title = budgetReview ? "Budget review" : `Review step ${step?.stepOrder}: ${stepPurpose(step?.instructions ?? "")} (${step?.stepType})`;
  return (
    <form class="card review-form" method="post" action={`/dashboard/plans/${props.planId}/steps/${id}/review`} data-review-step={id} data-review-kind={planReview?.kind ?? "step"}>
      <input type="hidden" name="csrf" value={props.csrf} />
      <input type="hidden" name="back" value={props.back} />
      <h3>{title}</h3>
      {review ? (
        <>
          <MarkdownNote text={review.presentation} class="review-presentation" />
          <ReviewQuestions questions={review.questions} />
          <p class="muted">Requested {shortTime(review.requestedAt)}</p>
        </>
      ) : null}
      {budgetReview ? (
        <>
          <input type="hidden" name="budgetReview" value="1" />
          <fieldset>
            <legend>Decision</legend>
            <label class="check">
              <input type="radio" name="decision" value="approve" checked /> Raise the budget: the plan continues
            </label>
            <br />
            <label class="check">
              <input type="radio" name="decision" value="reject" /> End the plan with what it has: steps not started are skipped
            </label>
          </fieldset>
          <BudgetRaiseFields budget={props.budget} now={props.now ?? Date.now()} id={id} />
          <label for={`feedback-${id}`}>Note (optional)</label>
          <textarea id={`feedback-${id}`} name="feedback" maxlength={8000} />
        </>
      ) : (
        <StepReviewFields id={id} />
      )}
      <p>
        <button class="primary" type="submit">
          Submit review
        </button>
      </p>
    </form>
  );
}

function StepReviewFields({ id }: { id: string }) {
  return (
    <>
      <fieldset>
        <legend>Decision</legend>
        <label class="check">
          <input type="radio" name="decision" value="approve" checked /> Approve: the plan continues
        </label>
        <br />
        <label class="check">
          <input type="radio" name="decision" value="revise" /> Revise: add follow-up steps
        </label>
        <br />
        <label class="check">
          <input type="radio" name="decision" value="reject" /> Reject: the plan fails
        </label>
      </fieldset>
      <label for={`feedback-${id}`}>Feedback (required to revise or reject)</label>
      <textarea id={`feedback-${id}`} name="feedback" maxlength={8000} />
      <label for={`follow-${id}`}>Follow-up steps (revise; one instruction per line, optional)</label>
      <textarea id={`follow-${id}`} name="followUpSteps" maxlength={20000} />
    </>
  );
}

/** The questions a review asks, as a list (nothing when there are none). */
export function ReviewQuestions({ questions }: { questions: readonly string[] }) {
  if (questions.length === 0) return null;
  return (
    <ul>
      {questions.map((q) => (
        <li>
          <MarkdownNote text={q} class="review-question" />
        </li>
      ))}
    </ul>
  );
}

/** The plan's own reviews already answered (approval, budget): who decided what, and their note. */
export function PlanReviewHistory({ reviews, who }: { reviews: readonly PlanReview[]; who: (userId: string) => string }) {
  const decided = reviews.filter((review) => review.decision !== null);
  if (decided.length === 0) return null;
  return (
    <div class="card" id="plan-review-history">
      <h3>Plan reviews</h3>
      <ul>
        {decided.map((review) => (
          <li data-plan-review={review.reviewId}>
            {review.kind === "approval" ? "Approval" : "Budget review"}: <strong>{review.decision}</strong> by {who(review.decidedBy ?? "")} at {shortTime(review.decidedAt)}
            {review.feedback ? ":" : ""}
            {review.feedback ? <MarkdownNote text={review.feedback} class="review-feedback" /> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
