import { ERROR_CODES, validationError } from "../errors";
import { PLAN_STATUSES, LIMITS as PLAN_LIMITS } from "../plans/model";
import { ARTIFACT_LIMITS, ARTIFACT_TYPES } from "../research/artifacts";
import { CITATION_POLICIES, CRITIC_VERDICTS, LEDGER_LIMITS, normalizeClaim, REVIEWER_VERDICTS } from "../research/ledger";
import { FEEDBACK_PHASES, MEDIA_TYPES, OUTPUT_LIMITS } from "../research/outputs";
import { SESSION_LIMITS } from "../sessions/model";
import { METADATA_MAX_BYTES, SKILL_EXECUTION_STATUSES, storedMetadataIssue } from "../skill-executions";
import { SOURCE_CHECK_LIMITS, VERIFICATION_STATUSES } from "../sources/verification";
import { type RowTable, SERVER_MANAGED_COLUMNS, type StoredRow } from "./format";
import { VERDICT_COLUMNS, VERDICTS_SINCE_VERSION } from "./imported-verdicts";
import {
  actor,
  bool,
  type CellRule,
  cellIssue,
  client,
  httpUrl,
  id,
  int,
  isRecord,
  json,
  jsonBytes,
  MAX_VERSION,
  objectValue,
  oneOf,
  orgColumn,
  real,
  stringList,
  text,
  time,
  version,
} from "./import-rules";
import { bodyIssue, COMMENT_LIMITS } from "../research/comments";

/**
 * What an import may write into each D1 table: an allowlist of columns, each with
 * the rule its operation holds it to (types, bounds, enums, JSON parsed and bounded
 * like the operation bounds it). A row is refused, naming its line and column,
 * when it carries a column not listed (a server-managed one above all), misses a
 * required one, or breaks a rule. Pure; the importer applies it to every row.
 */

/** Never a column of any row: SQLite's own row keys. */
const ROW_KEYS = new Set(["rowid", "oid", "_rowid_"]);

/** Tables restored only into an org that holds none of their rows: its own history is never mixed with a file's, nor a file replayed. */
export const ONLY_INTO_EMPTY: ReadonlySet<RowTable> = new Set(["audit_log", "tool_call_log"]);

const planId = (nullable = false) => id("plan", nullable);
const title = (max: number) => text(max, { min: 1 });
const confidence = real(0, 1, true);
const sessionRef = text(200, { nullable: true });
/** What record_evidence takes as a source's content hash (its own SHA-256 hex when the caller gives none). */
const hash = text(128, { min: 8, pattern: /^[A-Za-z0-9:_-]+$/, shape: "a content hash (letters, digits, colon, underscore, hyphen)" });

const artifactContent = json(ARTIFACT_LIMITS.contentBytes);
const tags = json(jsonBytes(ARTIFACT_LIMITS.tags * (ARTIFACT_LIMITS.tagChars + 3) + 2), stringList(ARTIFACT_LIMITS.tags, ARTIFACT_LIMITS.tagChars));
const citations = json(jsonBytes(OUTPUT_LIMITS.citations * 2600), (value) => {
  if (!Array.isArray(value) || value.length > OUTPUT_LIMITS.citations) return `must be a list of at most ${OUTPUT_LIMITS.citations} citations`;
  const fits = (c: unknown) =>
    isRecord(c) &&
    typeof c.title === "string" &&
    c.title.length <= 500 &&
    (c.ref === undefined || (typeof c.ref === "string" && c.ref.length <= 20)) &&
    (c.url === undefined || (typeof c.url === "string" && c.url.length <= 2000));
  const bad = value.findIndex((c) => !fits(c));
  return bad >= 0 ? `citation ${bad} must be {title, ref?, url?} within the operation's bounds` : null;
});
const executionMetadata = json(METADATA_MAX_BYTES, (value) => {
  const issue = storedMetadataIssue(value);
  return issue ? `${issue.path}: ${issue.message}` : null;
});
/** An audit entry's detail: what the operations write is a small object. */
const auditDetail = json(256 * 1024, objectValue);

const artifactColumns = {
  org_id: orgColumn,
  title: title(ARTIFACT_LIMITS.titleChars),
  content: artifactContent,
  content_text: text(ARTIFACT_LIMITS.contentTextChars, { min: 1 }),
  confidence,
  tags,
  source_url: httpUrl(true),
  version,
  created_by: actor(),
  created_at: time(),
};
const outputColumns = {
  org_id: orgColumn,
  title: title(OUTPUT_LIMITS.titleChars),
  media_type: oneOf(MEDIA_TYPES),
  content: text(OUTPUT_LIMITS.contentChars, { min: 1 }),
  formatting_instructions: text(8000, { nullable: true }),
  citations,
  version,
  created_by: actor(),
  created_at: time(),
};

export const IMPORT_POLICY: Readonly<Partial<Record<RowTable, Readonly<Record<string, CellRule>>>>> = {
  skill_executions: {
    id: id("exec"),
    org_id: orgColumn,
    user_id: actor(),
    client_id: client,
    skill_name: text(100, { min: 1 }),
    status: oneOf(SKILL_EXECUTION_STATUSES),
    session_id: sessionRef,
    plan_id: planId(true),
    metadata: executionMetadata,
    error_message: text(4000, { nullable: true }),
    closed_reason: text(1000, { nullable: true }),
    version,
    created_at: time(),
    updated_at: time(),
    completed_at: time(true),
  },
  plans: {
    plan_id: planId(),
    org_id: orgColumn,
    name: text(200, { min: 1 }),
    research_question: text(4000),
    status: oneOf(PLAN_STATUSES),
    derived_status: oneOf(["active", "awaiting_review", "completed"]),
    progress: int(0, 100),
    stalled: bool,
    total_steps: int(0, PLAN_LIMITS.stepsPerPlan),
    completed_steps: int(0, PLAN_LIMITS.stepsPerPlan),
    failed_steps: int(0, PLAN_LIMITS.stepsPerPlan),
    current_step_order: int(1, PLAN_LIMITS.stepsPerPlan, true),
    session_id: sessionRef,
    execution_id: id("exec", true),
    created_by: actor(),
    created_at: time(),
    updated_at: time(),
    budget_percent: int(0, 999, true),
    budget_exhausted: bool,
  },
  artifacts: {
    ...artifactColumns,
    id: id("art"),
    artifact_type: oneOf(ARTIFACT_TYPES),
    plan_id: planId(true),
    step_id: id("step", true),
    tag_index: text(ARTIFACT_LIMITS.tags * (ARTIFACT_LIMITS.tagChars + 1) + 2),
    updated_at: time(),
  },
  artifact_versions: { ...artifactColumns, artifact_id: id("art") },
  research_outputs: { ...outputColumns, id: id("out"), plan_id: planId(true), execution_id: id("exec", true), updated_at: time() },
  research_output_versions: { ...outputColumns, output_id: id("out") },
  research_feedback: {
    id: id("fb"),
    org_id: orgColumn,
    plan_id: planId(true),
    output_id: id("out", true),
    execution_id: id("exec", true),
    phase: oneOf(FEEDBACK_PHASES),
    satisfaction: int(1, 5, true),
    summary: text(8000, { min: 1 }),
    improvement_suggestions: json(jsonBytes(20 * 2003 + 2), stringList(20, 2000)),
    follow_up_requested: bool,
    created_by: actor(),
    created_at: time(),
  },
  comments: {
    id: id("cmt"),
    org_id: orgColumn,
    output_id: id("out", true),
    plan_id: planId(true),
    step_id: id("step", true),
    reply_to: id("cmt", true),
    body: text(COMMENT_LIMITS.bodyChars, { min: 1 }),
    anchor_heading: text(COMMENT_LIMITS.headingChars, { nullable: true }),
    anchor_quote: text(COMMENT_LIMITS.quoteChars, { nullable: true }),
    author_user_id: actor(),
    created_at: time(),
    resolved_at: time(true),
    resolved_by: actor(true),
    answered_by_output_id: id("out", true),
    answered_by_version: int(1, MAX_VERSION, true),
  },
  evidence_ledgers: {
    org_id: orgColumn,
    plan_id: planId(),
    citation_policy: oneOf(CITATION_POLICIES),
    subtopics: json(jsonBytes(LEDGER_LIMITS.subtopicsPerPlan * (LEDGER_LIMITS.subtopicChars + 3) + 2), stringList(LEDGER_LIMITS.subtopicsPerPlan, LEDGER_LIMITS.subtopicChars)),
    created_at: time(),
    updated_at: time(),
  },
  ledger_evidence: {
    org_id: orgColumn,
    plan_id: planId(),
    n: int(1, LEDGER_LIMITS.evidencePerPlan),
    url: httpUrl(),
    title: title(500),
    facts: text(LEDGER_LIMITS.factsChars, { min: 1 }),
    quote: text(LEDGER_LIMITS.factsChars, { nullable: true }),
    fetched_at: time(true),
    content_hash: hash,
    subtopic: text(LEDGER_LIMITS.subtopicChars, { nullable: true }),
    query: text(500, { nullable: true }),
    recorded_by: actor(),
    created_at: time(),
    evidence_ref: text(200, { nullable: true }),
    temporal_intent: text(50, { nullable: true }),
    freshness: text(50, { nullable: true }),
    removed_stale_years: json(
      512,
      (value) => (Array.isArray(value) && value.length <= 20 && value.every((y) => Number.isInteger(y) && y >= 1900 && y <= 2200) ? null : "must list at most 20 years"),
      true,
    ),
    // A source's verdict: bounded here, and held to its snapshot by imported-verdicts.ts.
    verification_status: oneOf(VERIFICATION_STATUSES, true),
    verification_reason: text(2000, { nullable: true }),
    verification_score: real(0, 1, true),
    // The passage is cut at its bound and marked with an ellipsis.
    verification_passage: text(SOURCE_CHECK_LIMITS.passageChars + 1, { nullable: true }),
    verification_basis: oneOf(["fetched", "client_text"], true),
    verification_title_mismatch: int(0, 1, true),
    verification_snapshot: text(64, { nullable: true, pattern: /^[0-9a-f]{64}$/, shape: "the SHA-256 of a snapshot the file carries (64 lowercase hex digits)" }),
    verification_checked_at: time(true),
    // Each bracket of the quote with the page words it stands for: shape only, the import judges them afresh.
    verification_edits: json(
      jsonBytes(SOURCE_CHECK_LIMITS.editsListed * (2 * SOURCE_CHECK_LIMITS.editChars + 40)),
      (value) =>
        Array.isArray(value) &&
        value.length <= SOURCE_CHECK_LIMITS.editsListed &&
        value.every(
          (edit) =>
            edit !== null &&
            typeof edit === "object" &&
            typeof edit.bracket === "string" &&
            typeof edit.replaces === "string" &&
            edit.bracket.length <= SOURCE_CHECK_LIMITS.editChars + 1 &&
            edit.replaces.length <= SOURCE_CHECK_LIMITS.editChars + 1,
        )
          ? null
          : `must list at most ${SOURCE_CHECK_LIMITS.editsListed} brackets, each {"bracket", "replaces"} of at most ${SOURCE_CHECK_LIMITS.editChars} characters`,
      true,
    ),
    // The text the assistant sent for the page: a client_text line of the same file (imported-verdicts.ts).
    client_text_sha256: text(64, { nullable: true, pattern: /^[0-9a-f]{64}$/, shape: "the SHA-256 of a client text the file carries (64 lowercase hex digits)" }),
  },
  ledger_claims: {
    id: id("clm"),
    org_id: orgColumn,
    plan_id: planId(),
    n: int(1, LEDGER_LIMITS.claimsPerPlan),
    subtopic: text(LEDGER_LIMITS.subtopicChars, { min: 1 }),
    subtopic_key: text(LEDGER_LIMITS.subtopicChars, { min: 1 }),
    text: text(LEDGER_LIMITS.claimChars, { min: 1 }),
    normalized: text(LEDGER_LIMITS.claimChars * 2),
    evidence_refs: json(jsonBytes(LEDGER_LIMITS.refsPerClaim * 35 + 2), stringList(LEDGER_LIMITS.refsPerClaim, 32, 1)),
    worker_ids: json(jsonBytes(64 * 103 + 2), stringList(64, 100)),
    confidence,
    high_stakes: bool,
    created_at: time(),
    updated_at: time(),
    reused_from: json(16 * 1024, objectValue, true),
  },
  ledger_verdicts: {
    org_id: orgColumn,
    plan_id: planId(),
    claim_n: int(1, LEDGER_LIMITS.claimsPerPlan),
    kind: oneOf(["reviewer", "critic"]),
    judge: text(100, { min: 1 }),
    shard: int(1, 2, true),
    verdict: oneOf([...REVIEWER_VERDICTS, ...CRITIC_VERDICTS]),
    reasoning: text(LEDGER_LIMITS.reasoningChars, { nullable: true }),
    confidence,
    created_at: time(),
  },
  search_sessions: {
    session_id: id("srch"),
    org_id: orgColumn,
    created_by: actor(),
    research_goal: text(SESSION_LIMITS.goalChars, { nullable: true }),
    status: oneOf(["active", "completed", "expired"]),
    step_count: int(0, 1_000),
    started_at: time(),
    last_activity_at: time(),
    expires_at: time(),
    completed_at: time(true),
  },
  audit_log: {
    id: id("aud"),
    org_id: orgColumn,
    actor_user_id: actor(),
    actor_client_id: client,
    action: text(100, { min: 1, pattern: /^[a-z][a-z0-9_.]*$/, shape: "an action name" }),
    target_type: text(50, { min: 1, pattern: /^[a-z][a-z0-9_]*$/, shape: "a record kind" }),
    target_id: text(200, { min: 1 }),
    detail: auditDetail,
    created_at: time(),
  },
  tool_call_log: {
    id: id("call"),
    org_id: orgColumn,
    user_id: actor(),
    client_id: client,
    api_key_id: id("key", true),
    face: oneOf(["mcp", "rest"]),
    operation: text(64, { min: 1, pattern: /^[a-z][a-z0-9_]*$/, shape: "an operation name" }),
    duration_ms: int(0, 24 * 3_600_000),
    outcome: oneOf(["ok", "error"]),
    error_code: oneOf(ERROR_CODES, true),
    correlation_id: text(100, { min: 1 }),
    created_at: time(),
  },
};

/** Columns with a default in the schema: a row may leave them out (rows of older exports do). */
const DEFAULTED: Readonly<Partial<Record<RowTable, ReadonlySet<string>>>> = {
  plans: new Set(["research_question", "budget_percent", "budget_exhausted"]),
  evidence_ledgers: new Set(["subtopics"]),
  ledger_claims: new Set(["high_stakes", "reused_from"]),
  ledger_evidence: new Set(["evidence_ref", "temporal_intent", "freshness", "removed_stale_years", "client_text_sha256", ...VERDICT_COLUMNS]),
};

/** Columns that restate others and must agree with them (the operations derive them). */
const DERIVED: Readonly<Partial<Record<RowTable, (row: StoredRow) => [string, string] | null>>> = {
  artifacts: (row) => {
    const tagList = JSON.parse(String(row.tags)) as string[];
    return row.tag_index === ` ${tagList.join(" ")} ` ? null : ["tag_index", "must be the tags, each between spaces"];
  },
  // As POST …/comments holds a comment: a body a person could have sent, about a deliverable or a step.
  comments: (row) => {
    const issue = bodyIssue(String(row.body));
    if (issue) return ["body", issue];
    return row.output_id !== null || (row.plan_id !== null && row.step_id !== null) ? null : ["output_id", "a comment is about a deliverable (output_id) or a step (plan_id and step_id)"];
  },
  ledger_claims: (row) => {
    if (row.subtopic_key !== String(row.subtopic).toLowerCase()) return ["subtopic_key", "must be the subtopic in lower case"];
    return row.normalized === normalizeClaim(String(row.text)) ? null : ["normalized", "must be the claim's text normalized"];
  },
};

/** Each set of columns no two rows of one org may share (the table's keys, less the org). */
export const UNIQUE_KEYS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  skill_executions: [["id"]],
  plans: [["plan_id"]],
  artifacts: [["id"]],
  artifact_versions: [["artifact_id", "version"]],
  research_outputs: [["id"]],
  research_output_versions: [["output_id", "version"]],
  research_feedback: [["id"]],
  comments: [["id"]],
  evidence_ledgers: [["plan_id"]],
  ledger_evidence: [["plan_id", "n"], ["plan_id", "url", "content_hash"]],
  ledger_claims: [["id"], ["plan_id", "n"], ["plan_id", "subtopic_key", "normalized"]],
  ledger_verdicts: [["plan_id", "claim_n", "kind", "judge"]],
  search_sessions: [["session_id"]],
  audit_log: [["id"]],
  tool_call_log: [["id"]],
};

/**
 * The row as the import may write it, or a validation error naming the line and the column.
 * `line` is the file's 1-based line number; `formatVersion` the file header's.
 */
export function checkImportRow(table: RowTable, row: StoredRow, line: number, formatVersion: number): StoredRow {
  const where = `Line ${line}: ${table}`;
  const policy = IMPORT_POLICY[table];
  if (!policy) throw validationError(`${where}: this table is not imported.`);
  const managed = SERVER_MANAGED_COLUMNS[table] ?? [];
  // Exports older than the verdicts never carried them: a file of that version holding one was not made by Cairn.
  const unwritten: readonly string[] = table === "ledger_evidence" && formatVersion < VERDICTS_SINCE_VERSION ? VERDICT_COLUMNS : [];
  for (const column of Object.keys(row)) {
    if (unwritten.includes(column)) {
      throw validationError(`${where}: column ${column} is not part of a version ${formatVersion} export (verdicts are carried from version ${VERDICTS_SINCE_VERSION} on). Leave it out of the row.`, [
        { path: `line ${line}.${column}`, message: "Not in this format version" },
      ]);
    }
    if (managed.includes(column) || ROW_KEYS.has(column)) {
      throw validationError(`${where}: column ${column} is assigned by the server; an import never sets it. Leave it out of the row.`, [
        { path: `line ${line}.${column}`, message: "Server-managed column" },
      ]);
    }
    if (!Object.hasOwn(policy, column)) throw validationError(`${where} has no column ${column}.`, [{ path: `line ${line}.${column}`, message: "Unknown column" }]);
  }
  const defaulted = DEFAULTED[table];
  for (const [column, rule] of Object.entries(policy)) {
    if (!Object.hasOwn(row, column) && defaulted?.has(column)) continue;
    const issue = cellIssue(rule, row[column]);
    if (issue) throw validationError(`${where}, column ${column}: ${issue}.`, [{ path: `line ${line}.${column}`, message: issue }]);
  }
  const derived = DERIVED[table]?.(row);
  if (derived) throw validationError(`${where}, column ${derived[0]}: ${derived[1]}.`, [{ path: `line ${line}.${derived[0]}`, message: derived[1] }]);
  return row;
}

/** The keys one row claims in its table, as strings to compare with the file's other rows. */
export const rowKeys = (table: RowTable, row: StoredRow): string[] =>
  (UNIQUE_KEYS[table] ?? []).map((columns) => `${table}(${columns.join(",")})=${JSON.stringify(columns.map((column) => row[column] ?? null))}`);
