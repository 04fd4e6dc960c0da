
import type { Step } from "../../domain/plans/model";
import { duration, prettyJson, shortTime } from "./format";
import { StatusBadge } from "./layout";
import { ReviewQuestions } from "./review-form";

/** An audit entry's detail with its worker ids (claims and take-overs) named as people read them. */
export function namedWorkers(detail: Record<string, unknown>, worker: (id: string) => string): Record<string, unknown> {
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

export function StepCard({ step, stalled, who, worker }: { step: Step; stalled: boolean; who: (id: string) => string; worker: (id: string) => string }) {
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
              <ReviewQuestions questions={step.review.questions} />
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
