import type { Budget } from "../../domain/plans/budget";
import type { PlanIndexEntry } from "../../domain/plans/index-entry";
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

export interface InboxItem {
  plan: PlanIndexEntry;
  subject: ReviewSubject;
  budget: Budget | null;
}

export function ReviewInbox(props: { items: InboxItem[]; csrf: string; flash?: string | null; error?: string | null }) {
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
          props.items.map(({ plan, subject, budget }) => (
            <div class="card" data-inbox-plan={plan.planId}>
              <p>
                <a href={`/dashboard/plans/${plan.planId}`}>
                  <strong>{plan.name}</strong>
                </a>{" "}
                <Progress value={plan.progress} />
                <br />
                <span class="muted">{plan.researchQuestion}</span>
              </p>
              <ReviewForm planId={plan.planId} subject={subject} csrf={props.csrf} back="/dashboard/reviews" budget={budget} researchQuestion={plan.researchQuestion} />
            </div>
          ))
        )}
      </div>
    </>
  );
}
