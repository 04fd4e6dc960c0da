import type { SkillExecution, SkillExecutionSummary } from "../../domain/skill-executions";
import { label, shortTime } from "./format";
import { LabelledValue } from "./labelled";
import { StatusBadge } from "./layout";
import type { FeedbackRow } from "./queries";

/** Skill executions: the list with its status filter, and one execution with its interview record and feedback. */
export function ExecutionsList(props: { executions: SkillExecutionSummary[]; status: string; nextCursor: string | null }) {
  return (
    <>
      <h1>Skill executions</h1>
      <form class="filters" method="get" action="/dashboard/executions">
        <span>
          <label for="x-status">Status</label>
          <br />
          <select id="x-status" name="status">
            {["all", "started", "executing", "completed", "failed"].map((s) => (
              <option value={s} selected={props.status === s}>
                {s}
              </option>
            ))}
          </select>
        </span>
        <button type="submit">Filter</button>
      </form>
      {props.executions.length === 0 ? (
        <p class="muted">No skill executions.</p>
      ) : (
        <div class="table-wrap">
          <table class="stack">
            <thead>
              <tr>
                <th>Topic</th>
                <th>Skill</th>
                <th>Status</th>
                <th>Route</th>
                <th>Plan</th>
                <th>Started</th>
              </tr>
            </thead>
            <tbody>
              {props.executions.map((e) => (
                <tr>
                  <td data-label="Topic">
                    <a href={`/dashboard/executions/${e.executionId}`}>{e.topic ?? e.executionId}</a>
                  </td>
                  <td data-label="Skill">{e.skillName}</td>
                  <td data-label="Status">
                    <StatusBadge status={e.status} />
                  </td>
                  <td data-label="Route">{e.delegatedTo ?? "—"}</td>
                  <td data-label="Plan">{e.planId ? <a href={`/dashboard/plans/${e.planId}`}>plan</a> : "—"}</td>
                  <td data-label="Started">{shortTime(e.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.nextCursor ? (
        <p>
          <a href={`/dashboard/executions?status=${encodeURIComponent(props.status)}&cursor=${encodeURIComponent(props.nextCursor)}`}>Older →</a>
        </p>
      ) : null}
    </>
  );
}

/** seed 000's eight interview elements, in the order the interview asks them. */
const INTERVIEW_ELEMENTS: [string, string][] = [
  ["topic", "Topic"],
  ["researchType", "Research type"],
  ["scope", "Scope"],
  ["depthSignals", "Depth signals"],
  ["decisionContext", "Decision context"],
  ["knownContext", "Known context"],
  ["outputMediaType", "Output media type"],
  ["outputFormattingInstructions", "Output formatting"],
];

/** An interview element as labelled text: a list of words as one line ("quick, thorough"), an object as "Label: value" lines. */
const show = (value: unknown) => <LabelledValue value={value} />;

/** What each prior-research decision means, for a person (the stored value is the assistant's token). */
const PRIOR_RESEARCH_WORDS: Record<string, string> = {
  none_found: "none found: new research",
  use_existing: "use the existing research",
  refresh: "refresh: plan again on the existing research",
  unique: "unique: new research, the overlap is coincidental",
};

/** The prior-research check with its decision in words; anything else as the assistant sent it. */
function priorResearchInWords(check: unknown): unknown {
  if (check === null || typeof check !== "object" || Array.isArray(check)) return check;
  const { decision } = check as { decision?: unknown };
  return typeof decision === "string" && PRIOR_RESEARCH_WORDS[decision] ? { ...check, decision: PRIOR_RESEARCH_WORDS[decision] } : check;
}

export function ExecutionDetail(props: { execution: SkillExecution; feedback: FeedbackRow[]; planName: string | null }) {
  const { execution } = props;
  const m = execution.metadata;
  const questions = Array.isArray(m.clarifyingQuestions) ? (m.clarifyingQuestions as { question?: unknown; answer?: unknown }[]) : [];
  return (
    <>
      <p class="muted">
        <a href="/dashboard/executions">← Skill executions</a>
      </p>
      <h1>{typeof m.topic === "string" && m.topic ? m.topic : execution.executionId}</h1>
      <dl class="kv card">
        <dt>Skill</dt>
        <dd>{execution.skillName}</dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={execution.status} />
          {execution.errorMessage ? ` ${execution.errorMessage}` : ""}
        </dd>
        <dt>Routed to</dt>
        <dd>{show(m.delegatedTo)}</dd>
        <dt>Routing rationale</dt>
        <dd>{show(m.routingRationale)}</dd>
        <dt>Linked plan</dt>
        <dd>{execution.planId ? <a href={`/dashboard/plans/${execution.planId}`}>{props.planName ?? execution.planId}</a> : "—"}</dd>
        <dt>Session</dt>
        <dd>{execution.sessionId ?? "—"}</dd>
        <dt>Started / finished</dt>
        <dd>
          {shortTime(execution.createdAt)} / {shortTime(execution.completedAt)}
        </dd>
        {execution.closedReason ? (
          <>
            <dt>Closed</dt>
            <dd>{execution.closedReason}</dd>
          </>
        ) : null}
      </dl>
      <h2>Interview</h2>
      <dl class="kv card" id="interview">
        {INTERVIEW_ELEMENTS.map(([key, name]) => (
          <>
            <dt>{name}</dt>
            <dd>{show(m[key])}</dd>
          </>
        ))}
        <dt>Clarifying questions</dt>
        <dd>
          {questions.length ? (
            <ul>
              {questions.map((q) => (
                <li>
                  {show(q.question)} — <em>{show(q.answer)}</em>
                </li>
              ))}
            </ul>
          ) : (
            show(m.skipQuestionsReason ? `Skipped: ${String(m.skipQuestionsReason)}` : null)
          )}
        </dd>
        <dt>Original request</dt>
        <dd>{show(m.originalQuery)}</dd>
        <dt>Prior research</dt>
        <dd>{show(priorResearchInWords(m.priorResearchCheck))}</dd>
      </dl>
      <h2>Feedback</h2>
      {props.feedback.length === 0 ? (
        <p class="muted">No feedback yet.</p>
      ) : (
        props.feedback.map((f) => (
          <div class="card">
            <strong>{label(f.phase)}</strong> <span class="muted">{shortTime(f.createdAt)}</span>
            {f.satisfaction !== null ? <span class="badge">satisfaction {f.satisfaction}/5</span> : null}
            {f.followUpRequested ? <span class="badge">follow-up requested</span> : null}
            <p>{f.summary}</p>
            {f.improvementSuggestions.length ? (
              <ul class="muted">
                {f.improvementSuggestions.map((s) => (
                  <li>{s}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ))
      )}
    </>
  );
}
