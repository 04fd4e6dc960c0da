import type { HistoryPage } from "../../domain/plans/engine";
import type { PlanIndexEntry } from "../../domain/plans/index-entry";
import type { PlanState, Step } from "../../domain/plans/model";
import { derivePlanStatus, progressOf, stalledSteps } from "../../domain/plans/status";
import { duration, label, prettyJson, shortTime } from "./format";
import { Flash, Progress, StatusBadge } from "./layout";
import { type PlanFilters, STATUS_FILTERS } from "./queries";

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
                      {plan.stalled ? (
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

/**
 * The evidence ledger as the plan page shows it. Structurally a subset of the
 * ledger repository's `read()` result, so that result can be passed as it is.
 */
export interface EvidenceLedgerView {
  citationPolicy: string;
  subtopics: { subtopic: string; status: string; evidence: number; claims: number; groundedClaims: number }[];
  evidence: { ref: string; url: string; title: string }[];
  claims: {
    ref: string;
    subtopic: string;
    text: string;
    evidenceRefs: string[];
    confidence: number | null;
    /** Final status (claimOutcome): the critic's verdict where it ran, else the reviewers'. */
    status: string;
    grounded: boolean;
    finalConfidence: number | null;
    verdicts: { kind: string; judge: string; verdict: string; reasoning: string | null }[];
  }[];
}

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
  flash?: string | null;
  error?: string | null;
}

export function PlanDetail(props: PlanDetailProps) {
  const { plan, steps } = props.state;
  const stalledIds = new Set(stalledSteps(props.state, props.now).map((s) => s.stepId));
  const stalled = !["completed", "failed", "cancelled"].includes(plan.status) && (plan.status === "stalled" || stalledIds.size > 0);
  const progress = progressOf(steps);
  const current = steps.find((s) => s.status === "in_progress" || s.status === "awaiting_input");
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
      <div id="plan-summary" data-live>
        <dl class="kv card">
          <dt>Research question</dt>
          <dd>{plan.researchQuestion}</dd>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={plan.status} /> <span class="muted">derived:</span> <StatusBadge status={derivePlanStatus(steps)} />
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
          <dt>Current step</dt>
          <dd>{current ? `Step ${current.stepOrder} (${current.stepType}), ${label(current.status)}` : "—"}</dd>
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
          <dd>{plan.executionId ? <a href={`/dashboard/executions/${plan.executionId}`}>{plan.executionId}</a> : "—"}</dd>
          <dt>Created</dt>
          <dd>
            {shortTime(plan.createdAt)} by {who(plan.createdBy.userId)}
          </dd>
          <dt>Updated</dt>
          <dd>{shortTime(plan.updatedAt)}</dd>
        </dl>
      </div>

      <h2>Steps</h2>
      <div id="plan-steps" data-live>
        {steps.map((step) => (
          <StepCard step={step} stalled={stalledIds.has(step.stepId)} who={who} worker={worker} />
        ))}
      </div>

      <div id="plan-reviews" data-live>
        {steps
          .filter((s) => s.status === "awaiting_input" && s.review)
          .map((step) => (
            <ReviewForm planId={plan.planId} step={step} csrf={props.csrf} back={`/dashboard/plans/${plan.planId}`} />
          ))}
      </div>

      <section id="evidence-ledger" aria-labelledby="ledger-heading">
        {/* Evidence ledger (seed 001): rendered from the optional `ledger` prop; the data is wired by the ledger feature. */}
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

/** An audit entry's detail with its worker ids (claims and take-overs) named as people read them. */
function namedWorkers(detail: Record<string, unknown>, worker: (id: string) => string): Record<string, unknown> {
  const named = { ...detail };
  for (const key of ["workerId", "from"]) {
    const value = named[key];
    if (typeof value === "string") named[key] = worker(value);
  }
  return named;
}

/** The user and client of a default worker id ("<user>/<client>"); nulls for a label an assistant chose. */
export function splitWorkerId(workerId: string): [string | null, string] {
  const slash = workerId.indexOf("/");
  return slash > 0 ? [workerId.slice(0, slash), workerId.slice(slash + 1)] : [null, workerId];
}

function StepCard({ step, stalled, who, worker }: { step: Step; stalled: boolean; who: (id: string) => string; worker: (id: string) => string }) {
  const took = step.claimedAt !== null && step.finishedAt !== null ? step.finishedAt - step.claimedAt : null;
  const report = step.executionReport;
  const summary = step.resultSummary ?? (step.result === null || step.result === undefined ? null : prettyJson(step.result, 400));
  return (
    <div class="card" id={`step-${step.stepId}`} data-step-status={step.status}>
      <strong>
        {step.stepOrder}. {step.stepType}
      </strong>{" "}
      <StatusBadge status={step.status} />
      {step.critical ? <span class="badge">critical</span> : null}
      {step.parallelGroup ? <span class="badge">group {step.parallelGroup}</span> : null}
      {step.origin !== "plan" ? <span class="badge">added by {step.origin}</span> : null}
      {stalled ? <span class="stall"> ⚠ stalled</span> : null}
      <p>{step.instructions}</p>
      <dl class="kv">
        <dt>Claimed</dt>
        <dd>
          {shortTime(step.claimedAt)}
          {step.claimedBy ? <span class="muted"> by {worker(step.claimedBy)}</span> : null}
        </dd>
        <dt>Finished</dt>
        <dd>{shortTime(step.finishedAt)}</dd>
        <dt>Duration</dt>
        <dd>{duration(took)}</dd>
        {step.confidence !== null ? (
          <>
            <dt>Confidence</dt>
            <dd>{step.confidence.toFixed(2)}</dd>
          </>
        ) : null}
        {summary ? (
          <>
            <dt>Result summary</dt>
            <dd>{summary}</dd>
          </>
        ) : null}
        {step.note ? (
          <>
            <dt>Note</dt>
            <dd>{step.note}</dd>
          </>
        ) : null}
        {step.review ? (
          <>
            <dt>Review</dt>
            <dd>
              {step.review.presentation}
              {step.review.questions.length ? (
                <ul>
                  {step.review.questions.map((q) => (
                    <li>{q}</li>
                  ))}
                </ul>
              ) : null}
              {step.review.decision ? (
                <p>
                  <StatusBadge status={step.review.decision} /> by {who(step.review.decidedBy ?? "")} at {shortTime(step.review.decidedAt)}
                  {step.review.feedback ? `: ${step.review.feedback}` : ""}
                </p>
              ) : null}
            </dd>
          </>
        ) : null}
      </dl>
      {report ? (
        <details>
          <summary>
            Execution report ({report.webSearches.length} searches, {report.webFetches.length} fetches, {report.otherToolCalls.length} other tool calls,{" "}
            {report.subagents.length} subagents)
          </summary>
          <h3>Thinking</h3>
          <pre>{prettyJson(report.thinking, 8000)}</pre>
          {report.webSearches.length ? (
            <>
              <h3>Web searches</h3>
              <pre>{prettyJson(report.webSearches, 8000)}</pre>
            </>
          ) : null}
          {report.webFetches.length ? (
            <>
              <h3>Web fetches</h3>
              <pre>{prettyJson(report.webFetches, 8000)}</pre>
            </>
          ) : null}
          {report.otherToolCalls.length ? (
            <>
              <h3>Other tool calls</h3>
              <pre>{prettyJson(report.otherToolCalls, 8000)}</pre>
            </>
          ) : null}
          {report.subagents.length ? (
            <>
              <h3>Subagents</h3>
              <pre>{prettyJson(report.subagents, 8000)}</pre>
            </>
          ) : null}
        </details>
      ) : null}
      {step.result !== null && step.result !== undefined ? (
        <details>
          <summary>Full result</summary>
          <pre>{prettyJson(step.result)}</pre>
        </details>
      ) : null}
    </div>
  );
}

function EvidenceLedger({ ledger }: { ledger: EvidenceLedgerView | null }) {
  if (!ledger || (ledger.claims.length === 0 && ledger.evidence.length === 0 && ledger.subtopics.length === 0)) {
    return <p class="muted">No evidence recorded for this plan.</p>;
  }
  const sources = new Map(ledger.evidence.map((e) => [e.ref, e]));
  return (
    <div class="table-wrap">
      <p class="muted">
        Citation policy: {ledger.citationPolicy} · {ledger.evidence.length} sources · {ledger.claims.length} claims
      </p>
      <ul class="subtopics">
        {ledger.subtopics.map((s) => (
          <li>
            <span class={s.status === "GROUNDED" ? "badge" : "badge unverified"}>{s.status}</span> {s.subtopic}{" "}
            <span class="muted">
              ({s.groundedClaims}/{s.claims} claims grounded, {s.evidence} sources)
            </span>
          </li>
        ))}
      </ul>
      <table class="stack">
        <thead>
          <tr>
            <th>Claim</th>
            <th>Subtopic</th>
            <th>Evidence</th>
            <th>Status</th>
            <th>Verdicts</th>
          </tr>
        </thead>
        <tbody>
          {ledger.claims.map((claim) => (
            <tr>
              <td data-label="Claim">
                <strong>{claim.ref}</strong> {claim.text}
              </td>
              <td data-label="Subtopic">{claim.subtopic}</td>
              <td data-label="Evidence">
                {claim.evidenceRefs.map((ref) => {
                  const source = sources.get(ref);
                  return (
                    <div>
                      {ref}
                      {source ? <span class="muted"> {source.title}</span> : null}
                    </div>
                  );
                })}
              </td>
              <td data-label="Status">
                <span class={claim.grounded ? "badge" : "badge unverified"}>{claim.status}</span>
                {claim.finalConfidence !== null ? <span class="muted"> {claim.finalConfidence.toFixed(2)}</span> : null}
              </td>
              <td data-label="Verdicts">
                {claim.verdicts.length === 0 ? (
                  <span class="muted">pending review</span>
                ) : (
                  claim.verdicts.map((v) => (
                    <div>
                      <span class="badge">{v.verdict}</span> <span class="muted">{v.judge}</span>
                      {v.reasoning ? `: ${v.reasoning}` : ""}
                    </div>
                  ))
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

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
