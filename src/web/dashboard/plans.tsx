import type { HistoryPage } from "../../domain/plans/engine";
import type { ScheduleView } from "../../platform/schedules/schedules";
import { PlanScheduleCard } from "./schedule-card";
import type { PlanIndexEntry } from "../../domain/plans/index-entry";
import type { PlanState } from "../../domain/plans/model";
import { derivePlanStatusWithReviews, progressOf, stalledSteps } from "../../domain/plans/status";
import { label, prettyJson, shortTime } from "./format";
import { Flash, Progress, StatusBadge } from "./layout";
import { type PlanFilters, STATUS_FILTERS } from "./queries";
import { EvidenceLedger, type EvidenceLedgerView } from "./plan-ledger";
import { namedWorkers, splitWorkerId, StepCard } from "./plan-steps";
import { BudgetBars } from "./budget";
import { PlanReviewHistory, ReviewForm } from "./review-form";
import { ApprovalDecision } from "./approval-decision";
import { stepPurpose } from "../../domain/plans/step-purpose";
import type { CommentView } from "../../platform/comments";
import { CommentsSection } from "./comments";

// ---------------------------------------------------------------------------
// Plans list

export function PlansList(props: { plans: PlanIndexEntry[]; filters: PlanFilters; more: boolean }) {
  const { filters } = props;
  return (
    <>
      <h1>Research plans</h1>
      <form class="filters" method="get" action="/dashboard/plans">
        <span>
          <label for="f-status">Status</label>
          <br />
          <select id="f-status" name="status">
            {STATUS_FILTERS.map((status) => (
              <option value={status} selected={filters.status === status}>
                {status === "open" ? "open (not finished)" : label(status)}
              </option>
            ))}
          </select>
        </span>
        <span>
          <label for="f-q">Name or question</label>
          <br />
          <input id="f-q" type="search" name="q" value={filters.query} maxlength={200} />
        </span>
        <label class="check">
          <input type="checkbox" name="stalled" value="1" checked={filters.stalledOnly} /> stalled only
        </label>
        <button type="submit">Filter</button>
      </form>
      <div id="plans-live" data-live>
        {props.plans.length === 0 ? (
          <p class="muted">No plans match.</p>
        ) : (
          <div class="table-wrap">
            <table class="stack" id="plans-table">
              <thead>
                <tr>
                  <th>Plan</th>
                  <th>Status</th>
                  <th>Derived</th>
                  <th>Progress</th>
                  <th>Current step</th>
                  <th>Updated</th>
                </tr>
              </thead>
              <tbody>
                {props.plans.map((plan) => (
                  <tr data-plan-id={plan.planId}>
                    <td data-label="Plan">
                      <a href={`/dashboard/plans/${plan.planId}`}>{plan.name}</a>
                      <br />
                      <span class="muted">{plan.researchQuestion}</span>
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={plan.status} />
                      {/* A plan whose own status is "stalled" says so once; the warning is for one stalled under another status. */}
                      {plan.stalled && plan.status !== "stalled" ? (
                        <>
                          {" "}
                          <span class="stall" title="A step has had no activity beyond its stall threshold">
                            ⚠ stalled
                          </span>
                        </>
                      ) : null}
                    </td>
                    <td data-label="Derived">
                      <StatusBadge status={plan.derivedStatus} />
                    </td>
                    <td data-label="Progress">
                      <Progress value={plan.progress} />
                      <br />
                      <span class="muted">
                        {plan.completedSteps}/{plan.totalSteps} done{plan.failedSteps ? `, ${plan.failedSteps} failed` : ""}
                      </span>
                      {plan.budgetPercent === null ? null : (
                        <>
                          <br />
                          <span class="muted" data-budget-percent={String(plan.budgetPercent)}>
                            budget {plan.budgetExhausted ? "spent: waiting for a person" : `${plan.budgetPercent}% used`}
                          </span>
                        </>
                      )}
                    </td>
                    <td data-label="Current step">{plan.currentStepOrder === null ? "—" : `Step ${plan.currentStepOrder} of ${plan.totalSteps}`}</td>
                    <td data-label="Updated">{shortTime(plan.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {props.more ? <p class="muted">Showing the {props.plans.length} most recently updated plans; narrow the filters to see others.</p> : null}
      </div>
    </>
  );
}

// ---------------------------------------------------------------------------
// Plan detail


interface StepSnapshot {
  stepId: string;
  stepOrder: number;
  stepType: string;
  instructions: string;
  status: string;
}

const snapshots = (value: unknown): StepSnapshot[] =>
  Array.isArray(value) ? (value.filter((s) => s && typeof s === "object" && typeof (s as StepSnapshot).stepId === "string") as StepSnapshot[]) : [];

type DiffLine = { kind: "add" | "del" | "chg"; text: string };

/** What a modification changed, step by step: added, removed, moved or rewritten. */
export function diffSteps(beforeRaw: unknown, afterRaw: unknown): DiffLine[] {
  const before = snapshots(beforeRaw);
  const after = snapshots(afterRaw);
  const lines: DiffLine[] = [];
  const afterById = new Map(after.map((s) => [s.stepId, s]));
  const beforeById = new Map(before.map((s) => [s.stepId, s]));
  for (const old of before) {
    const now = afterById.get(old.stepId);
    if (!now) {
      lines.push({ kind: "del", text: `− step ${old.stepOrder} (${old.stepType}): ${old.instructions}` });
      continue;
    }
    if (now.stepOrder !== old.stepOrder) lines.push({ kind: "chg", text: `↕ step ${old.stepOrder} → ${now.stepOrder} (${now.stepType})` });
    if (now.instructions !== old.instructions) {
      lines.push({ kind: "del", text: `− step ${old.stepOrder}: ${old.instructions}` });
      lines.push({ kind: "add", text: `+ step ${now.stepOrder}: ${now.instructions}` });
    }
    if (now.status !== old.status) lines.push({ kind: "chg", text: `~ step ${now.stepOrder}: ${old.status} → ${now.status}` });
  }
  for (const added of after) {
    if (!beforeById.has(added.stepId)) lines.push({ kind: "add", text: `+ step ${added.stepOrder} (${added.stepType}): ${added.instructions}` });
  }
  return lines;
}

export interface PlanDetailProps {
  state: PlanState;
  history: HistoryPage;
  now: number;
  csrf: string;
  /** User id → name and e-mail, for naming actors. */
  people: Map<string, string>;
  /** Client id (API key, OAuth client, the dashboard) → what a person reads; absent ids are shown as they are. */
  clients?: Map<string, string>;
  /** The evidence ledger (seed 001), when the plan has one; wired by the ledger feature. */
  ledger?: EvidenceLedgerView | null;
  /** The topic of the plan's skill execution (its interview's), to name the link by; absent or null shows the id. */
  executionTopic?: string | null;
  flash?: string | null;
  error?: string | null;
  /** The plan's schedule (its own, or the series it is a run of); null when it has none. */
  schedule?: ScheduleView | null;
  /** People's comments on each step, by step id. */
  stepComments?: Map<string, CommentView[]>;
}

export function PlanDetail(props: PlanDetailProps) {
  const { plan, steps } = props.state;
  const stalledIds = new Set(stalledSteps(props.state, props.now).map((s) => s.stepId));
  const stalled = !["completed", "failed", "cancelled"].includes(plan.status) && (plan.status === "stalled" || stalledIds.size > 0);
  const progress = progressOf(steps);
  const current = steps.find((s) => s.status === "in_progress" || s.status === "awaiting_input");
  const finished = ["completed", "failed", "cancelled"].includes(plan.status);
  const openReviews = finished ? [] : (plan.reviews ?? []).filter((review) => review.decision === null);
  const approval = openReviews.find((review) => review.kind === "approval");
  const orderOf = new Map(steps.map((s) => [s.stepId, s.stepOrder]));
  const who = (userId: string) => props.people.get(userId) ?? userId;
  const via = (clientId: string) => props.clients?.get(clientId) ?? clientId;
  // A step's worker is "<user>/<client>" unless the assistant chose its own label (parallel workers).
  const worker = (workerId: string) => {
    const [userId, clientId] = splitWorkerId(workerId);
    return userId && props.people.has(userId) ? `${who(userId)} via ${via(clientId)}` : workerId;
  };
  return (
    <>
      <p class="muted">
        <a href="/dashboard/plans">← Plans</a>
      </p>
      <h1>{plan.name}</h1>
      <Flash message={props.flash} />
      <Flash message={props.error} kind="error" />
      {/* An approval waiting is the first thing on the page the approval link opens: the banner, then the decision. */}
      <div id="plan-approval" data-live>
        {approval ? (
          <>
            <p class="warn" id="approval-banner" role="status">
              <strong>This plan waits for your approval.</strong> Nothing runs until a person approves, revises or rejects it.
            </p>
            <ApprovalDecision
              planId={plan.planId}
              review={approval}
              researchQuestion={plan.researchQuestion}
              steps={steps}
              planVersion={plan.version}
              budget={plan.budget ?? null}
              csrf={props.csrf}
              back={`/dashboard/plans/${plan.planId}`}
              now={props.now}
            />
          </>
        ) : null}
      </div>
      <div id="plan-summary" data-live>
        <dl class="kv card">
          <dt>Research question</dt>
          <dd>{plan.researchQuestion}</dd>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={plan.status} /> <span class="muted">derived:</span> <StatusBadge status={derivePlanStatusWithReviews(plan, steps)} />
            {stalled ? (
              <>
                {" "}
                <span class="stall">⚠ stalled: a step has had no activity beyond its threshold</span>
              </>
            ) : null}
          </dd>
          <dt>Progress</dt>
          <dd>
            <Progress value={progress} id="plan-progress" /> <span class="muted">of {steps.length} steps</span>
          </dd>
          <dt>Budget</dt>
          <dd>
            <BudgetBars state={props.state} now={props.now} />
          </dd>
          <dt>Current step</dt>
          <dd>{current ? `Step ${current.stepOrder}: ${stepPurpose(current.instructions)} (${current.stepType}), ${label(current.status)}` : "—"}</dd>
          <dt>Design rationale</dt>
          <dd>{plan.planDesignRationale}</dd>
          {plan.outputFormattingNotes ? (
            <>
              <dt>Output formatting</dt>
              <dd>{plan.outputFormattingNotes}</dd>
            </>
          ) : null}
          {plan.failureReason ? (
            <>
              <dt>Failure</dt>
              <dd>{plan.failureReason}</dd>
            </>
          ) : null}
          <dt>Skill execution</dt>
          <dd id="plan-execution">
            {plan.executionId ? <a href={`/dashboard/executions/${plan.executionId}`}>{props.executionTopic || `Execution ${plan.executionId}`}</a> : "—"}
          </dd>
          <dt>Created</dt>
          <dd>
            {shortTime(plan.createdAt)} by {who(plan.createdBy.userId)}
          </dd>
          <dt>Updated</dt>
          <dd>{shortTime(plan.updatedAt)}</dd>
        </dl>
      </div>

      {props.schedule !== undefined ? <PlanScheduleCard planId={plan.planId} schedule={props.schedule} csrf={props.csrf} /> : null}

      <h2>Steps</h2>
      <div id="plan-steps" data-live>
        {steps.map((step) => (
          <StepCard step={step} stalled={stalledIds.has(step.stepId)} who={who} worker={worker}>
            <CommentsSection action={`/dashboard/plans/${plan.planId}/steps/${step.stepId}/comments`} comments={props.stepComments?.get(step.stepId) ?? []} csrf={props.csrf} id={`comments-${step.stepId}`} />
          </StepCard>
        ))}
      </div>

      <div id="plan-reviews" data-live>
        {openReviews
          .filter((review) => review.kind !== "approval")
          .map((review) => (
            <ReviewForm planId={plan.planId} subject={{ planReview: review, steps, planVersion: plan.version }} csrf={props.csrf} back={`/dashboard/plans/${plan.planId}`} budget={plan.budget ?? null} now={props.now} />
          ))}
        {steps
          .filter((s) => s.status === "awaiting_input" && s.review)
          .map((step) => (
            <ReviewForm planId={plan.planId} subject={{ step }} csrf={props.csrf} back={`/dashboard/plans/${plan.planId}`} budget={plan.budget ?? null} now={props.now} />
          ))}
        <PlanReviewHistory reviews={plan.reviews ?? []} who={who} />
      </div>

      <section id="evidence-ledger" aria-labelledby="ledger-heading" data-live>
        {/* The evidence ledger of a deep plan: rendered from the optional `ledger` prop (none for plans without one). */}
        <h2 id="ledger-heading">Evidence ledger</h2>
        <EvidenceLedger ledger={props.ledger ?? null} />
      </section>

      <h2>Modifications</h2>
      <div id="plan-modifications" data-live>
        {props.history.versions.length === 0 ? (
          <p class="muted">No modifications: the plan runs as created.</p>
        ) : (
          props.history.versions.map((version) => (
            <div class="card">
              <strong>
                Version {version.version}: {label(version.kind)}
              </strong>{" "}
              <span class="muted">
                {shortTime(version.createdAt)} by {who(version.actorUserId)}
                {version.actorClientId ? ` via ${via(version.actorClientId)}` : ""}
              </span>
              <p>
                <em>Rationale:</em> {version.rationale || "—"}
              </p>
              <pre class="diff">
                {diffSteps(version.before, version.after).map((line) => (
                  <span class={line.kind}>
                    {line.text}
                    {"\n"}
                  </span>
                ))}
              </pre>
            </div>
          ))
        )}
      </div>

      <h2>Audit log</h2>
      <div id="plan-audit" data-live class="table-wrap">
        <table class="stack">
          <thead>
            <tr>
              <th>When</th>
              <th>Action</th>
              <th>Step</th>
              <th>Who</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {props.history.audit.map((entry) => (
              <tr>
                <td data-label="When">{shortTime(entry.createdAt)}</td>
                <td data-label="Action">{entry.action}</td>
                <td data-label="Step">{entry.stepId ? (orderOf.get(entry.stepId) ?? "removed") : "—"}</td>
                <td data-label="Who">
                  {who(entry.actorUserId)}
                  {entry.actorClientId ? <span class="muted"> via {via(entry.actorClientId)}</span> : null}
                </td>
                <td data-label="Detail">
                  {entry.detail && typeof entry.detail === "object" && Object.keys(entry.detail).length > 0 ? (
                    <details>
                      <summary>detail</summary>
                      <pre>{prettyJson(namedWorkers(entry.detail as Record<string, unknown>, worker), 4000)}</pre>
                    </details>
                  ) : (
                    "—"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {props.history.nextAuditSeq !== null ? <p class="muted">Older entries: see get_plan_history.</p> : null}
      </div>
    </>
  );
}
