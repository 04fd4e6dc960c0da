
import type { Step } from "../../domain/plans/model";
import { stepPurpose } from "../../domain/plans/step-purpose";
import { resultSummaryOf } from "../../operations/plan-views";
import { duration, prettyJson, shortTime } from "./format";
import { LabelledValue } from "./labelled";
import { StatusBadge } from "./layout";
import { MarkdownNote } from "./markdown-note";
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

/** A summary that is only a text result (`{ text }`) reads as that text, without a label. */
function summaryText(summary: unknown): string | null {
  if (summary === null || typeof summary !== "object" || Array.isArray(summary)) return null;
  const entries = Object.entries(summary);
  return entries.length === 1 && entries[0]?.[0] === "text" && typeof entries[0][1] === "string" ? entries[0][1] : null;
}

export function StepCard({ step, stalled, who, worker, children }: { step: Step; stalled: boolean; who: (id: string) => string; worker: (id: string) => string; children?: unknown }) {
  const took = step.claimedAt !== null && step.finishedAt !== null ? step.finishedAt - step.claimedAt : null;
  const report = step.executionReport;
  // The stored summary read as every face returns it (an object); a step's note is shown on its own below.
  const summary = step.resultSummary ? resultSummaryOf(step) : (step.result ?? null);
  const purpose = stepPurpose(step.instructions);
  return (
    <div class="card" id={`step-${step.stepId}`} data-step-status={step.status}>
      <strong>
        {step.stepOrder}. {purpose}
      </strong>{" "}
      <span class="badge">{step.stepType}</span> <StatusBadge status={step.status} />
      {step.critical ? <span class="badge">critical</span> : null}
      {step.parallelGroup ? <span class="badge">group {step.parallelGroup}</span> : null}
      {step.origin !== "plan" ? <span class="badge">added by {step.origin}</span> : null}
      {stalled ? <span class="stall"> ⚠ stalled</span> : null}
      {/* The purpose is for a person; what the assistant was told, tool names and all, folds away. */}
      {purpose !== step.instructions.trim() ? (
        <details class="instructions">
          <summary>Instructions for the assistant</summary>
          <p>{step.instructions}</p>
        </details>
      ) : null}
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
            <dd class="result-summary">{summaryText(summary) ?? <LabelledValue value={summary} />}</dd>
          </>
        ) : null}
        {step.note ? (
          <>
            <dt>Note</dt>
            <dd>
              <MarkdownNote text={step.note} />
            </dd>
          </>
        ) : null}
        {step.review ? (
          <>
            <dt>Review</dt>
            <dd>
              <MarkdownNote text={step.review.presentation} class="review-presentation" />
              <ReviewQuestions questions={step.review.questions} />
              {step.review.decision ? (
                <>
                  <p>
                    <StatusBadge status={step.review.decision} /> by {who(step.review.decidedBy ?? "")} at {shortTime(step.review.decidedAt)}
                    {step.review.feedback ? ":" : ""}
                  </p>
                  {step.review.feedback ? <MarkdownNote text={step.review.feedback} class="review-feedback" /> : null}
                </>
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
          <MarkdownNote text={prettyJson(report.thinking, 8000)} />
          {report.webSearches.length ? (
            <>
              <h3>Web searches</h3>
              <LabelledValue value={report.webSearches} />
            </>
          ) : null}
          {report.webFetches.length ? (
            <>
              <h3>Web fetches</h3>
              <LabelledValue value={report.webFetches} />
            </>
          ) : null}
          {report.otherToolCalls.length ? (
            <>
              <h3>Other tool calls</h3>
              <LabelledValue value={report.otherToolCalls} />
            </>
          ) : null}
          {report.subagents.length ? (
            <>
              <h3>Subagents</h3>
              <LabelledValue value={report.subagents} />
            </>
          ) : null}
        </details>
      ) : null}
      {step.result !== null && step.result !== undefined ? (
        <details>
          <summary>Full result</summary>
          <LabelledValue value={step.result} />
        </details>
      ) : null}
      {children}
    </div>
  );
}
