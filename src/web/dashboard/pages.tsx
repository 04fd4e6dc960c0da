import type { PlanIndexEntry } from "../../domain/plans/index-entry";
import type { Budget } from "../../domain/plans/budget";
import { SCOPE_DESCRIPTIONS, SCOPES, type Scope } from "../../domain/scopes";
import type { SkillExecution, SkillExecutionSummary } from "../../domain/skill-executions";
import { label, prettyJson, shortTime } from "./format";
import { Flash, Progress, StatusBadge } from "./layout";
import { ReviewForm, type ReviewSubject } from "./review-form";
import type { ApiKeyRow, FeedbackRow, MemberRow } from "./queries";

// ---------------------------------------------------------------------------
// Sign-in and messages

export function SignIn(props: { csrf: string; email?: string; error?: string; next?: string }) {
  return (
    <div class="signin card">
      <h1>Sign in to the Cairn dashboard</h1>
      <Flash message={props.error} kind="error" />
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
              <ReviewForm planId={plan.planId} subject={subject} csrf={props.csrf} back="/dashboard/reviews" budget={budget} />
            </div>
          ))
        )}
      </div>
    </>
  );
}

// ---------------------------------------------------------------------------
// Skill executions

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

const show = (value: unknown) => (value === undefined || value === null || value === "" ? "—" : typeof value === "string" ? value : prettyJson(value, 4000));

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
        <dd>{show(m.priorResearchCheck)}</dd>
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

// ---------------------------------------------------------------------------
// Org admin

export function Admin(props: {
  members: MemberRow[];
  keys: ApiKeyRow[];
  csrf: string;
  selfId: string;
  orgSlug: string;
  createdKey?: { name: string; key: string } | null;
  flash?: string | null;
  error?: string | null;
}) {
  return (
    <>
      <h1>Org admin</h1>
      <Flash message={props.flash} />
      <Flash message={props.error} kind="error" />
      {props.createdKey ? (
        <div class="card" id="new-key">
          <p>
            <strong>API key “{props.createdKey.name}” created.</strong> Copy it now: it is shown only once and Cairn keeps only its hash.
          </p>
          <p class="secret" id="new-key-value">
            {props.createdKey.key}
          </p>
        </div>
      ) : null}
      <p>
        <a href="/dashboard/admin/webhooks" id="webhooks-link">
          Webhooks →
        </a>{" "}
        <span class="muted">events to your own systems (plan stalled, review requested, completed, failed, budget spent, deliverable stored)</span>
      </p>
      <h2>Members</h2>
      <div class="table-wrap">
        <table class="stack" id="members">
          <thead>
            <tr>
              <th>Member</th>
              <th>Role</th>
              <th>Joined</th>
              <th>Access</th>
            </tr>
          </thead>
          <tbody>
            {props.members.map((m) => (
              <tr data-member={m.email}>
                <td data-label="Member">
                  {m.displayName} <span class="muted">{m.email}</span>
                  {m.userId === props.selfId ? <span class="badge">you</span> : null}
                </td>
                <td data-label="Role">
                  <form class="inline" method="post" action={`/dashboard/admin/members/${m.userId}/role`}>
                    <input type="hidden" name="csrf" value={props.csrf} />
                    <select name="role" aria-label={`Role of ${m.email}`}>
                      {["member", "admin"].map((r) => (
                        <option value={r} selected={m.role === r}>
                          {r}
                        </option>
                      ))}
                    </select>{" "}
                    <button type="submit">Save</button>
                  </form>
                </td>
                <td data-label="Joined">{shortTime(m.joinedAt)}</td>
                <td data-label="Access">
                  {m.userId === props.selfId ? null : (
                    <form class="inline" method="post" action={`/dashboard/admin/members/${m.userId}/remove`}>
                      <input type="hidden" name="csrf" value={props.csrf} />
                      <button type="submit" aria-label={`Remove ${m.email} from the organization`}>
                        Remove
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="muted">Add people with the operator CLI: npm run cairn -- user add --org … --email … --role member.</p>
      <h2>API keys</h2>
      <form class="card" method="post" action="/dashboard/admin/keys" id="create-key">
        <input type="hidden" name="csrf" value={props.csrf} />
        <h3>Create a key for yourself</h3>
        <label for="key-name">Name</label>
        <br />
        <input id="key-name" type="text" name="name" required maxlength={100} />
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((scope: Scope) => (
            <label class="check" title={SCOPE_DESCRIPTIONS[scope]}>
              <input type="checkbox" name="scope" value={scope} checked={scope !== "org:admin"} /> {scope}{" "}
            </label>
          ))}
        </fieldset>
        <button class="primary" type="submit">
          Create key
        </button>
      </form>
      <div class="table-wrap">
        <table class="stack" id="keys">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Owner</th>
              <th>Scopes</th>
              <th>Created</th>
              <th>Last used</th>
              <th>State</th>
            </tr>
          </thead>
          <tbody>
            {props.keys.map((k) => (
              <tr data-key-id={k.id} data-key-name={k.name}>
                <td data-label="Name">{k.name}</td>
                <td data-label="Key">
                  <code>{k.prefix}…</code>
                </td>
                <td data-label="Owner">{k.ownerEmail}</td>
                <td data-label="Scopes">{k.scopes.join(", ")}</td>
                <td data-label="Created">{shortTime(k.createdAt)}</td>
                <td data-label="Last used">{shortTime(k.lastUsedAt)}</td>
                <td data-label="State">
                  {k.revokedAt !== null ? (
                    <span class="badge failed">revoked {shortTime(k.revokedAt)}</span>
                  ) : (
                    <form class="inline" method="post" action={`/dashboard/admin/keys/${k.id}/revoke`}>
                      <input type="hidden" name="csrf" value={props.csrf} />
                      <button class="danger" type="submit">
                        Revoke
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Delete this organization</h2>
      <form class="card" method="post" action="/dashboard/admin/org/delete" id="delete-org">
        <input type="hidden" name="csrf" value={props.csrf} />
        <p>
          Erases everything of <strong>{props.orgSlug}</strong> for good: plans, research, deliverables, evidence, search sessions, members'
          access, API keys and the audit trail. People who belong to no other organization are removed too. Export it first if you may need it:{" "}
          <code>npm run cairn -- export --org {props.orgSlug} --out {props.orgSlug}.ndjson</code>.
        </p>
        <label for="delete-confirm">Type the organization's slug to confirm</label>
        <br />
        <input id="delete-confirm" type="text" name="confirm" required autocomplete="off" pattern={props.orgSlug.replace(/[^a-z0-9-]/g, "")} />{" "}
        <button class="danger" type="submit">
          Delete {props.orgSlug} and everything in it
        </button>
      </form>
    </>
  );
}
