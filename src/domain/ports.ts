import type { SharingMode } from "./shares";
import type { ApprovalMode } from "./plans/approval";
import type { WebhookEvent } from "./webhooks/events";
import type { CompletionPort } from "./completion";
import type { ReusedFrom } from "./research/claim-reuse";
import type { PageCursor } from "./pagination";
import type { PlanEngine, PlanIndex } from "./plans/engine";
import type { PlanSeriesReader } from "./plans/schedule";
import type { Artifact, ArtifactSummary, ArtifactType, SearchHit } from "./research/artifacts";
import type { ExtractionServices } from "./research/extraction/model";
import type { CitationPolicy, Claim, Evidence, SearchMetadata, Verdict } from "./research/ledger";
import type { ResearchFeedback, ResearchOutput, ResearchOutputSummary } from "./research/outputs";
import type { SearchProvider } from "./sessions/search";
import type { SearchSessionStore } from "./sessions/store";
import type { SourceVerification, VerificationStatus } from "./sources/verification";
import type { SourcePolicy } from "./sources/source-policy";
import type { SourceCounts } from "./sources/recheck";
import type { SkillExecution, SkillExecutionStatus, SkillExecutionSummary } from "./skill-executions";
import type { Comment, CommentTarget } from "./research/comments";

/**
 * What operations need from storage. Every method takes the org id first: a
 * record of another org is never returned, so it looks exactly like a missing one.
 */
export interface SkillExecutionRepository {
  /** Stores a new execution and its audit entry together. */
  insert(execution: SkillExecution, audit: AuditEntry): Promise<void>;
  get(orgId: string, executionId: string): Promise<SkillExecution | null>;
  /**
   * Writes `next` and its audit entry only if the stored version is still
   * `expectedVersion`; false (and nothing written) when another write won.
   */
  replace(next: SkillExecution, expectedVersion: number, audit: AuditEntry): Promise<boolean>;
  /** Summaries, newest first; metadata stays in storage (it can be 64 KiB a row). */
  list(orgId: string, query: SkillExecutionQuery): Promise<SkillExecutionSummary[]>;
  /** seed 000 auto-linking: the newest execution of a session still in status started. */
  findLatestStarted(orgId: string, sessionId: string): Promise<SkillExecution | null>;
}

export interface SkillExecutionQuery {
  status?: SkillExecutionStatus;
  skillName?: string;
  sessionId?: string;
  planId?: string;
  after?: PageCursor;
  /** Rows to fetch (the page size plus one). */
  limit: number;
}

export interface AuditEntry {
  orgId: string;
  actorUserId: string;
  actorClientId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  detail: Record<string, unknown>;
}

export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
}

export interface ArtifactFilters {
  artifactType?: ArtifactType;
  planId?: string;
  tag?: string;
  since?: number;
}

export interface ArtifactRepository {
  /** Stores a new artifact, or a new version of an existing one (its previous version is kept). */
  save(artifact: Artifact, expectedVersion: number | null): Promise<boolean>;
  get(orgId: string, artifactId: string, version?: number): Promise<Artifact | null>;
  list(orgId: string, filters: ArtifactFilters, page: { after?: PageCursor; limit: number }): Promise<ArtifactSummary[]>;
  /** Removes the artifact and all its versions, writing the audit entry in the same batch. */
  delete(orgId: string, artifactId: string, audit: AuditEntry): Promise<boolean>;
}

export interface OutputRepository {
  /** Stores the output; a new one (`expectedVersion` null) with the webhook events announcing it, in the outbox, in the same transaction. */
  save(output: ResearchOutput, expectedVersion: number | null, events?: readonly WebhookEvent[], citedSources?: readonly number[]): Promise<boolean>;
  get(orgId: string, outputId: string, version?: number): Promise<ResearchOutput | null>;
  /**
   * How the ledger sources a deliverable's version cites (recorded with `citedSources` when it was stored) stand
   * now against their verdicts at delivery; null when none were recorded for that version.
   */
  sourceCounts(orgId: string, outputId: string, version: number): Promise<SourceCounts | null>;
  list(orgId: string, filters: { planId?: string }, page: { after?: PageCursor; limit: number }): Promise<ResearchOutputSummary[]>;
}

/** People's comments on deliverables and steps (src/domain/research/comments.ts), in the org's home database. */
export interface CommentRepository {
  /** Stores a comment with its webhook events (outbox, same transaction); a reply opens its thread again if it was resolved. */
  insert(comment: Comment, events: readonly WebhookEvent[]): Promise<void>;
  get(orgId: string, commentId: string): Promise<Comment | null>;
  /** The org's comments among `ids` (others' are not found). */
  getMany(orgId: string, ids: readonly string[]): Promise<Comment[]>;
  /** Every comment on a deliverable, or on a step, oldest first (at most COMMENT_LIMITS.perTarget exist). */
  onOutput(orgId: string, outputId: string): Promise<Comment[]>;
  onStep(orgId: string, planId: string, stepId: string): Promise<Comment[]>;
  /** Comments on any step of a plan, oldest first (the dashboard's plan page). */
  onPlanSteps(orgId: string, planId: string, limit: number): Promise<Comment[]>;
  /** Open comments, newest first: on a deliverable, or on a plan (its steps and its deliverables); `limit` rows. */
  openOnOutput(orgId: string, outputId: string, limit: number): Promise<Comment[]>;
  openOnPlan(orgId: string, planId: string, limit: number): Promise<Comment[]>;
  /** How many comments a deliverable or a step holds (for its bound). */
  count(orgId: string, target: CommentTarget): Promise<number>;
  /** Resolves (or, with `resolvedAt` null, opens) the threads whose first comments are `threads`. */
  setResolved(orgId: string, threads: readonly string[], resolution: { resolvedAt: number; resolvedBy: string; answeredBy: { outputId: string; version: number } | null } | null): Promise<void>;
}

export interface FeedbackRepository {
  insert(feedback: ResearchFeedback): Promise<void>;
}

export interface NewEvidence {
  url: string;
  title: string;
  facts: string;
  quote: string | null;
  fetchedAt: number | null;
  contentHash: string;
  subtopic: string | null;
  query: string | null;
  search: SearchMetadata;
  /** SHA-256 of the text the assistant sent for a page Cairn may not reach (ClientTextStore); absent when none. */
  clientText?: string | null;
}

export interface NewClaim {
  claimId: string;
  subtopic: string;
  text: string;
  evidenceRefs: string[];
  workerId: string | null;
  confidence: number | null;
  highStakes: boolean;
  reusedFrom?: ReusedFrom;
}

export interface NewVerdict extends Omit<Verdict, "createdAt"> {
  /** The claim's number: 3 for C3. */
  claimNumber: number;
}

export interface LedgerHeader {
  citationPolicy: CitationPolicy;
  subtopics: string[];
}

export interface EvidenceLedgerRepository {
  header(orgId: string, planId: string): Promise<LedgerHeader | null>;
  /** Creates the plan's ledger if it has none (policy `report` unless given) and adds subtopics; an existing policy stays. */
  ensure(orgId: string, planId: string, policy: CitationPolicy | null, subtopics: string[], now: number): Promise<LedgerHeader>;
  /** Numbers new evidence E<n> in order; a source already recorded (same url and hash) keeps its ref. */
  addEvidence(orgId: string, planId: string, items: NewEvidence[], recordedBy: string, now: number): Promise<{ ref: string; duplicate: boolean }[]>;
  /** Checks of the org's sources requested since each time (its per-minute and per-day limits). */
  sourceCheckRequests(orgId: string, since: { minute: number; day: number }): Promise<{ lastMinute: number; lastDay: number }>;
  /** What the source check of E<n> needs; null when the source is gone (plan deleted, org erased). */
  sourceToCheck(
    orgId: string,
    planId: string,
    n: number,
  ): Promise<{ url: string; title: string; quote: string | null; status: VerificationStatus | null; clientText: string | null } | null>;
  /**
   * Points the sources E# (already recorded) at the text the assistant sent for them, where it is new text, and
   * makes them pending again; returns the numbers of those changed (to check again).
   */
  attachClientText(orgId: string, planId: string, refs: string[], sha256: string, now: number): Promise<number[]>;
  /** The verdict of a source check, on the evidence row. */
  recordVerification(orgId: string, planId: string, n: number, verification: SourceVerification): Promise<void>;
  /** Numbers new claims C<n>; a claim with the same words in the same subtopic merges into the existing one. */
  addClaims(orgId: string, planId: string, claims: NewClaim[], now: number): Promise<{ claimId: string; ref: string; merged: boolean }[]>;
  /** A judge's verdict on a claim replaces that judge's earlier verdict on it. */
  addVerdicts(orgId: string, planId: string, verdicts: NewVerdict[], now: number): Promise<void>;
  counts(orgId: string, planId: string): Promise<{ evidence: number; claims: number; evidenceRefs: Set<string>; claimNumbers: Set<number> }>;
  /** Evidence (facts and quotes only when asked) and every claim with its verdicts. */
  read(orgId: string, planId: string, withText: boolean): Promise<{ evidence: Evidence[]; claims: Claim[] }>;
  getClaim(orgId: string, claimId: string): Promise<{ claim: Claim; evidence: Evidence[] } | null>;
  /** Full-text search over claims; the caller keeps the grounded ones. */
}

/** The org's own settings (one row per org, in the directory). */
export interface OrgSettings {
  /** What create_research_plan does when the caller gives no approval: "required" holds every new plan for a person. */
  planApproval(orgId: string): Promise<ApprovalMode>;
  setPlanApproval(orgId: string, mode: ApprovalMode): Promise<void>;
  /** Blocked and preferred domains (src/domain/sources/source-policy.ts); empty lists for an org that set none. */
  sourcePolicy(orgId: string): Promise<SourcePolicy>;
  /** Stores a policy checkSourcePolicy accepted. */
  setSourcePolicy(orgId: string, policy: SourcePolicy): Promise<void>;
  /** Who may share the org's deliverables by link (src/domain/shares.ts). */
  sharing(orgId: string): Promise<SharingMode>;
  setSharing(orgId: string, mode: SharingMode): Promise<void>;
  /** The org's locale (a BCP 47 tag), or null when none is set: the paper of its PDF downloads (src/domain/research/paper-size.ts). */
  locale(orgId: string): Promise<string | null>;
  setLocale(orgId: string, locale: string | null): Promise<void>;
  /** The approver group: the members who approve the org's plans, in the order named; empty for anyone who may. */
  approvers(orgId: string): Promise<OrgPerson[]>;
  /** Stores the group by e-mail: the members among them (who is not a member is refused before, and dropped here). */
  setApprovers(orgId: string, emails: readonly string[]): Promise<void>;
}

/** A member as reviews name them: who they are to the people reading (e-mail and display name). */
export interface OrgPerson {
  userId: string;
  email: string;
  name: string;
}

/** The org's members, found by e-mail or user id; anyone else is simply not among the answers. */
export interface OrgMembers {
  byEmails(orgId: string, emails: readonly string[]): Promise<OrgPerson[]>;
  byIds(orgId: string, userIds: readonly string[]): Promise<OrgPerson[]>;
}

export interface Services {
  ledger: EvidenceLedgerRepository;
  outputs: OutputRepository;
  feedback: FeedbackRepository;
  comments: CommentRepository;
  artifacts: ArtifactRepository;
  skillExecutions: SkillExecutionRepository;
  audit: AuditLog;
  plans: PlanEngine;
  planIndex: PlanIndex;
  extraction: ExtractionServices;
  /** Sequential search sessions (one Durable Object each) and their org-wide index. */
  sessions: SearchSessionStore;
  /** Configured web search providers, in order of preference; empty means the org's own research index. */
  searchProviders: readonly SearchProvider[];
  /** Suggestions for MCP argument completion (ids by prefix, earlier topics). */
  completions: CompletionPort;
  /** Webhook events decided outside a plan's object (a deliverable stored). */
  webhookEvents: WebhookEventPublisher;
  /** Full-text search over artifacts, deliverables and claims together. */
  researchSearch: ResearchSearch;
  orgSettings: OrgSettings;
  /** The org's members by e-mail or id (named reviewers and approvers). */
  members: OrgMembers;
  /** Hands recorded sources to the source-check queue (their verdicts land on the evidence rows later). */
  sourceChecks: SourceCheckQueue;
  /** Text assistants sent for pages Cairn may not reach (record_evidence's sourceText), kept under the org. */
  clientTexts: ClientTextStore;
  /** The texts of the pages Cairn read to check sources (the snapshots verdicts were reached on). */
  sourceSnapshots: SourceSnapshotReader;
  /** Plans' schedules and their runs (series), for status views and what changed between runs. */
  series: PlanSeriesReader;
}

/** The pages Cairn read, kept under the org, addressed by the SHA-256 of their text. What they say is untrusted. */
export interface SourceSnapshotReader {
  /** The snapshot's visible text, or null when the org has none by that hash (never read, or erased). */
  text(orgId: string, sha256: string): Promise<string | null>;
}

/** Text an assistant read on a page, kept under the org, addressed by its SHA-256 (erased with the org). */
export interface ClientTextStore {
  /**
   * Stores the texts and returns their SHA-256s (hex), in order. The same text is stored once; a text the org does
   * not hold yet counts toward its page bytes (SOURCE_SNAPSHOT_BYTES_PER_ORG), and when the new ones together would
   * pass that cap none is stored: `full` is the cap.
   */
  save(orgId: string, texts: string[]): Promise<{ sha256s: string[] } | { full: number }>;
  /** The text, or null when it is not (or no longer) stored. */
  get(orgId: string, sha256: string): Promise<string | null>;
  /** Deletes texts (a call that stored them lost its rows to the org's erasure). */
  remove(orgId: string, sha256s: string[]): Promise<void>;
}

/** One recorded source to check: E<n> of a plan of an org. */
export interface SourceCheckMessage {
  orgId: string;
  planId: string;
  n: number;
  /** A re-check of a source a stored deliverable cites: fetched fresh (no reuse window), compared with delivery. */
  recheck?: true;
}

export interface SourceCheckQueue {
  /** The org's per-minute and per-day limits on checks. */
  limits: { perMinute: number; perDay: number };
  enqueue(messages: SourceCheckMessage[]): Promise<void>;
}

export interface ClaimSearchHit {
  claim: Claim;
  snippet: string;
  relevance: number;
  researchQuestion: string | null;
}

/** The org's research memory searched at once: artifacts, deliverables and claims in one round trip. */
export interface ResearchSearch {
  search(
    orgId: string,
    ftsQuery: string,
    filters: ArtifactFilters,
    limits: { artifacts: number; outputs: number; claims: number },
  ): Promise<{ artifacts: SearchHit[]; outputs: SearchHit[]; claims: ClaimSearchHit[]; artifactsBeyondWindow: boolean }>;
}

/**
 * Hands webhook events already recorded in the outbox (with the change that decided them) to the
 * queue now. It never fails the caller: what the queue does not take stays in the outbox for the sweeper.
 */
export interface WebhookEventPublisher {
  publish(events: readonly WebhookEvent[]): Promise<void>;
}
