/**
 * A sequential search session (seed 002): the research trail an assistant records one
 * step at a time. Only the header and the steps are stored; gaps, branches and the
 * source list are derived from the steps (see derive.ts), so they can never drift.
 */
export const DEPTHS = ["quick", "standard", "thorough"] as const;
export type Depth = (typeof DEPTHS)[number];

export const CONFIDENCES = ["high", "medium", "low"] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const RESPONSE_MODES = ["full", "summary"] as const;
export type ResponseMode = (typeof RESPONSE_MODES)[number];

/** Input bounds; the operation's schema enforces them before anything reaches storage. */
export const SESSION_LIMITS = {
  searchStepChars: 4000,
  textChars: 2000,
  goalChars: 1000,
  summaryChars: 4000,
  branchIdChars: 64,
  sourcesPerStep: 10,
  urlChars: 2000,
  titleChars: 300,
  snippetChars: 1000,
} as const;

export interface StepSource {
  url: string;
  title: string;
  snippet: string | null;
}

/** What the caller sends for one step (the seed's fields, plus sources). */
export interface StepInput {
  sessionId?: string;
  stepNumber: number;
  searchStep: string;
  nextStepNeeded: boolean;
  reasoning?: string;
  confidence?: Confidence;
  isRevision?: boolean;
  revisesStep?: number;
  branchId?: string;
  branchFromStep?: number;
  knowledgeGap?: string;
  researchGoal?: string;
  sessionSummary?: string;
  rejectedApproaches?: string;
  totalStepsEstimate?: number;
  sources?: { url: string; title: string; snippet?: string }[];
}

/** One recorded step, as stored. Steps are never changed: a revision is a new step naming the one it revises. */
export interface SessionStep {
  stepNumber: number;
  searchStep: string;
  reasoning: string | null;
  confidence: Confidence | null;
  isRevision: boolean;
  revisesStep: number | null;
  branchId: string | null;
  branchFromStep: number | null;
  knowledgeGap: string | null;
  rejectedApproaches: string | null;
  sources: StepSource[];
  recordedAt: number;
}

export interface SessionHeader {
  sessionId: string;
  orgId: string;
  createdBy: string;
  researchGoal: string | null;
  sessionSummary: string | null;
  totalStepsEstimate: number | null;
  startedAt: number;
  lastActivityAt: number;
  expiresAt: number;
  completedAt: number | null;
  /** Set once the inactivity limit passed: the session is then read-only, its steps kept. */
  expiredAt?: number | null;
}

export interface SearchSession extends SessionHeader {
  steps: SessionStep[];
}

export interface KnowledgeGap {
  /** G1, G2, … in the order the gaps were first noted. */
  gapId: string;
  text: string;
  openedAtStep: number;
  status: "open" | "addressed";
  addressedAtStep: number | null;
}

export interface SessionSource extends StepSource {
  /** S1, S2, … by first appearance; the same URL attached again keeps its ref. */
  ref: string;
  steps: number[];
}

export interface Branch {
  branchId: string;
  fromStep: number | null;
  steps: number[];
}

/** Deployment settings (wrangler.toml [vars]); see config.ts. */
export interface SessionConfig {
  ttlMinutes: number;
  maxActivePerOrg: number;
  /** Active sessions one member may hold, so no one person can take all of the org's. */
  maxActivePerMember: number;
  maxStepsPerSession: number;
}

export const TRUST = "untrusted-external-content" as const;
