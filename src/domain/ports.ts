import type { PageCursor } from "./pagination";
import type { PlanEngine, PlanIndex } from "./plans/engine";
import type { Artifact, ArtifactSummary, ArtifactType, SearchHit } from "./research/artifacts";
import type { ExtractionServices } from "./research/extraction";
import type { ResearchFeedback, ResearchOutput, ResearchOutputSummary } from "./research/outputs";
import type { SkillExecution, SkillExecutionStatus, SkillExecutionSummary } from "./skill-executions";

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
  search(orgId: string, ftsQuery: string, filters: ArtifactFilters, limit: number): Promise<SearchHit[]>;
  /** Removes the artifact and all its versions, writing the audit entry in the same batch. */
  delete(orgId: string, artifactId: string, audit: AuditEntry): Promise<boolean>;
}

export interface OutputRepository {
  save(output: ResearchOutput, expectedVersion: number | null): Promise<boolean>;
  get(orgId: string, outputId: string, version?: number): Promise<ResearchOutput | null>;
  list(orgId: string, filters: { planId?: string }, page: { after?: PageCursor; limit: number }): Promise<ResearchOutputSummary[]>;
  search(orgId: string, ftsQuery: string, filters: { planId?: string; since?: number }, limit: number): Promise<SearchHit[]>;
}

export interface FeedbackRepository {
  insert(feedback: ResearchFeedback): Promise<void>;
}

export interface Services {
  outputs: OutputRepository;
  feedback: FeedbackRepository;
  artifacts: ArtifactRepository;
  skillExecutions: SkillExecutionRepository;
  audit: AuditLog;
  plans: PlanEngine;
  planIndex: PlanIndex;
  extraction: ExtractionServices;
}
