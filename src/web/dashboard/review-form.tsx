
import type { Step } from "../../domain/plans/model";
import { shortTime } from "./format";

// ---------------------------------------------------------------------------
// Review form (plan page and inbox)

export function ReviewForm(props: { planId: string; step: Step; csrf: string; back: string }) {
  const { step } = props;
  const id = step.stepId;
  return (
    <form class="card review-form" method="post" action={`/dashboard/plans/${props.planId}/steps/${id}/review`} data-review-step={id}>
      <input type="hidden" name="csrf" value={props.csrf} />
      <input type="hidden" name="back" value={props.back} />
      <h3>
        Review step {step.stepOrder} ({step.stepType})
      </h3>
      {step.review ? (
        <>
          <p>{step.review.presentation}</p>
          {step.review.questions.length ? (
            <ul>
              {step.review.questions.map((q) => (
                <li>{q}</li>
              ))}
            </ul>
          ) : null}
          <p class="muted">Requested {shortTime(step.review.requestedAt)}</p>
        </>
      ) : null}
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
      <p>
        <button class="primary" type="submit">
          Submit review
        </button>
      </p>
    </form>
  );
}
