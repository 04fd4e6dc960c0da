
import type { Budget } from "../../domain/plans/budget";
import type { Step } from "../../domain/plans/model";
import { BudgetRaiseFields } from "./budget";
import { shortTime } from "./format";

// ---------------------------------------------------------------------------
// Review form (plan page and inbox)

export function ReviewForm(props: { planId: string; step: Step; csrf: string; back: string; budget?: Budget | null; now?: number }) {
  const { step } = props;
  const id = step.stepId;
  const budgetReview = step.origin === "budget";
  return (
    <form class="card review-form" method="post" action={`/dashboard/plans/${props.planId}/steps/${id}/review`} data-review-step={id}>
      <input type="hidden" name="csrf" value={props.csrf} />
      <input type="hidden" name="back" value={props.back} />
      <h3>{budgetReview ? `Budget review (step ${step.stepOrder})` : `Review step ${step.stepOrder} (${step.stepType})`}</h3>
      {step.review ? (
        <>
          <p>{step.review.presentation}</p>
          <ReviewQuestions questions={step.review.questions} />
          <p class="muted">Requested {shortTime(step.review.requestedAt)}</p>
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
        <li>{q}</li>
      ))}
    </ul>
  );
}
