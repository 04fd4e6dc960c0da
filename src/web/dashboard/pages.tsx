import type { Budget } from "../../domain/plans/budget";
import type { PlanIndexEntry } from "../../domain/plans/index-entry";
import type { ReviewPersonView } from "../../operations/review-people";
import { type SsoOffer, SsoForm } from "../pages";
import { Flash, Progress } from "./layout";
import { ReviewForm, type ReviewSubject } from "./review-form";

/** The dashboard's small pages: sign-in, a message, the review inbox. */

export function SignIn(props: { csrf: string; email?: string; error?: string; next?: string; sso?: SsoOffer }) {
  return (
    <div class="signin card">
      <h1>Sign in to the Cairn dashboard</h1>
      <Flash message={props.error} kind="error" />
      {props.sso ? (
        <p>
          <a class="button primary" id="sso-continue" href={props.sso.href}>
            Continue with {props.sso.providerName}
          </a>
        </p>
      ) : null}
      <form method="post" action="/dashboard/sign-in">
        <input type="hidden" name="csrf" value={props.csrf} />
        {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
        <label for="email">E-mail</label>
        <input id="email" name="email" type="email" autocomplete="username" required value={props.email ?? ""} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <p>
          <button class="primary" type="submit">
            Sign in
          </button>
        </p>
      </form>
      <SsoForm next={props.next} email={props.email} />
    </div>
  );
}

export function Message(props: { title: string; message: string; kind?: "error" | "warn" }) {
  return (
    <>
      <h1>{props.title}</h1>
      <p class={props.kind ?? "error"}>{props.message}</p>
      <p>
        <a href="/dashboard/plans">Back to the plans</a>
      </p>
    </>
  );
}

// ---------------------------------------------------------------------------
// Review inbox

/** Who a review is assigned to, and a control to hand it to another member (or to no one). */
function AssigneeControl(props: { planId: string; reviewId: string; assignee: ReviewPersonView | null; mine: boolean; csrf: string }) {
  const { assignee } = props;
  return (
    <form class="assignee" method="post" action={`/dashboard/plans/${props.planId}/reviews/${props.reviewId}/assignee`} data-assignee-form={props.reviewId}>
      <input type="hidden" name="csrf" value={props.csrf} />
      <p>
        {props.mine ? <strong class="assigned-to-you">Assigned to you</strong> : assignee ? <span>Assigned to {assignee.name || assignee.email} ({assignee.email})</span> : <span class="muted">Not assigned: anyone may answer</span>}{" "}
        <label for={`assignee-${props.reviewId}`}>Reassign to (a member's e-mail; empty for no one)</label>{" "}
        <input id={`assignee-${props.reviewId}`} type="email" name="email" maxlength={254} value={assignee?.email ?? ""} />{" "}
        <button type="submit">Reassign</button>
      </p>
    </form>
  );
}

export interface InboxItem {
  plan: PlanIndexEntry;
  subject: ReviewSubject;
  budget: Budget | null;
  /** The member meant to decide it (a current member), or null. */
  assigneeUserId: string | null;
  assignee: ReviewPersonView | null;
}

export function ReviewInbox(props: { items: InboxItem[]; userId: string; csrf: string; flash?: string | null; error?: string | null }) {
  return (
    <>
      <h1>Review inbox</h1>
      <p class="muted">Every plan and step of your organization waiting for a person. Approving lets the plan start or continue, exactly as submit_review does.</p>
      <Flash message={props.flash} />
      <Flash message={props.error} kind="error" />
      <div id="inbox-live" data-live>
        {props.items.length === 0 ? (
          <p class="muted" id="inbox-empty">
            Nothing awaits review.
          </p>
        ) : (
          props.items.map(({ plan, subject, budget, assignee, assigneeUserId }) => (
            <div class="card" data-inbox-plan={plan.planId} data-assigned={assigneeUserId === props.userId ? "you" : assignee ? "other" : "none"}>
              <p>
                <a href={`/dashboard/plans/${plan.planId}`}>
                  <strong>{plan.name}</strong>
                </a>{" "}
                <Progress value={plan.progress} />
                <br />
                <span class="muted">{plan.researchQuestion}</span>
              </p>
              <AssigneeControl planId={plan.planId} reviewId={"step" in subject ? subject.step.stepId : subject.planReview.reviewId} assignee={assignee} mine={assigneeUserId === props.userId} csrf={props.csrf} />
              <ReviewForm planId={plan.planId} subject={subject} csrf={props.csrf} back="/dashboard/reviews" budget={budget} researchQuestion={plan.researchQuestion} />
            </div>
          ))
        )}
      </div>
    </>
  );
}
