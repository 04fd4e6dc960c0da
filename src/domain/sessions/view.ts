import { deriveBranches, deriveGaps, deriveSources, sourceRefsOf } from "./derive";
import { type KnowledgeGap, type ResponseMode, type SearchSession, type SessionSource, type SessionStep, TRUST } from "./model";
import { clip } from "./text";

/** Bounds of a response, so a long session never floods the caller's context. */
export const VIEW_LIMITS = {
  /** auto mode: full up to this many steps, summary beyond (seed 002). */
  autoFullSteps: 8,
  fullSteps: 25,
  lastSteps: 3,
  fullSources: 30,
  summarySources: 10,
  gaps: 20,
  textChars: 1500,
  summaryChars: 4000,
} as const;

export interface StepView {
  stepNumber: number;
  searchStep: string;
  reasoning?: string;
  confidence?: string;
  isRevision: boolean;
  revisesStep?: number;
  /** Later steps that revise this one. */
  revisedBy?: number[];
  branchId?: string;
  branchFromStep?: number;
  knowledgeGap?: string;
  rejectedApproaches?: string;
  sources: string[];
  recordedAt: string;
}

export interface GapView {
  gapId: string;
  text: string;
  status: "open" | "addressed";
  openedAtStep: number;
  addressedAtStep?: number;
}

export interface SourceView {
  ref: string;
  url: string;
  title: string;
  snippet?: string;
  steps: number[];
}

export interface SessionView {
  sessionId: string;
  responseMode: ResponseMode;
  steps?: StepView[];
  lastSteps?: StepView[];
  currentStep: StepView | null;
  stepIndex: number;
  gaps: GapView[];
  sources: SourceView[];
  summary: string;
  isComplete: boolean;
  startedAt: string;
  completedAt: string | null;
  researchGoal: string | null;
  totalStepsEstimate: number | null;
  trust: typeof TRUST;
}

const iso = (ms: number) => new Date(ms).toISOString();
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function stepView(step: SessionStep, sources: readonly SessionSource[], revisedBy: number[]): StepView {
  const text = (value: string | null) => (value === null ? undefined : clip(value, VIEW_LIMITS.textChars));
  const view: StepView = {
    stepNumber: step.stepNumber,
    searchStep: clip(step.searchStep, VIEW_LIMITS.textChars),
    reasoning: text(step.reasoning),
    confidence: step.confidence ?? undefined,
    isRevision: step.isRevision,
    revisesStep: step.revisesStep ?? undefined,
    revisedBy: revisedBy.length > 0 ? revisedBy : undefined,
    branchId: step.branchId ?? undefined,
    branchFromStep: step.branchFromStep ?? undefined,
    knowledgeGap: text(step.knowledgeGap),
    rejectedApproaches: text(step.rejectedApproaches),
    sources: sourceRefsOf(step, sources),
    recordedAt: iso(step.recordedAt),
  };
  // Absent rather than null: every byte of a response is paid for in the caller's context.
  return Object.fromEntries(Object.entries(view).filter(([, value]) => value !== undefined)) as unknown as StepView;
}

const gapView = (gap: KnowledgeGap): GapView => ({
  gapId: gap.gapId,
  text: clip(gap.text, VIEW_LIMITS.textChars),
  status: gap.status,
  openedAtStep: gap.openedAtStep,
  ...(gap.addressedAtStep !== null ? { addressedAtStep: gap.addressedAtStep } : {}),
});

const sourceView = (source: SessionSource): SourceView => ({
  ref: source.ref,
  url: source.url,
  title: source.title,
  ...(source.snippet ? { snippet: clip(source.snippet, VIEW_LIMITS.textChars) } : {}),
  steps: source.steps,
});

/** The recovery summary: the caller's own running summary when it gave one, else the facts of the session. */
function summaryOf(session: SearchSession, gaps: readonly KnowledgeGap[], sources: number): string {
  if (session.sessionSummary) return clip(session.sessionSummary, VIEW_LIMITS.summaryChars);
  const open = gaps.filter((gap) => gap.status === "open").length;
  const branches = deriveBranches(session.steps)
    .map((branch) => `${branch.branchId}${branch.fromStep ? ` from step ${branch.fromStep}` : ""}`)
    .join(", ");
  const estimate = session.totalStepsEstimate ? ` of about ${session.totalStepsEstimate}` : "";
  return (
    `${plural(session.steps.length, "step")}${estimate}, ${plural(sources, "source")}, ${plural(open, "open gap")}` +
    `${branches ? `; branches: ${branches}` : ""}; ${session.completedAt === null ? "in progress" : "complete"}.`
  );
}

/**
 * The session as the caller reads it. `full` lists the steps (the latest
 * `fullSteps` of them); `summary` gives the last few steps, the summary and the
 * gaps; auto picks full for up to 8 steps. `notes` says what was left out.
 */
export function sessionView(session: SearchSession, requested: ResponseMode | undefined): { view: SessionView; notes: string[] } {
  const notes: string[] = [];
  const mode: ResponseMode = requested ?? (session.steps.length <= VIEW_LIMITS.autoFullSteps ? "full" : "summary");
  const sources = deriveSources(session.steps);
  const gaps = deriveGaps(session.steps);
  const revisions = new Map<number, number[]>();
  for (const step of session.steps) {
    if (step.revisesStep !== null) revisions.set(step.revisesStep, [...(revisions.get(step.revisesStep) ?? []), step.stepNumber]);
  }
  const views = (steps: readonly SessionStep[]) => steps.map((step) => stepView(step, sources, revisions.get(step.stepNumber) ?? []));

  const stepLimit = mode === "full" ? VIEW_LIMITS.fullSteps : VIEW_LIMITS.lastSteps;
  const shownSteps = session.steps.slice(-stepLimit);
  if (mode === "full" && shownSteps.length < session.steps.length) {
    notes.push(`Showing the last ${shownSteps.length} of ${session.steps.length} steps.`);
  }
  const sourceLimit = mode === "full" ? VIEW_LIMITS.fullSources : VIEW_LIMITS.summarySources;
  const shownSources = sources.slice(-sourceLimit);
  if (shownSources.length < sources.length) notes.push(`Showing the latest ${shownSources.length} of ${sources.length} sources.`);
  const orderedGaps = [...gaps.filter((gap) => gap.status === "open"), ...gaps.filter((gap) => gap.status === "addressed").reverse()];
  const shownGaps = orderedGaps.slice(0, VIEW_LIMITS.gaps);
  if (shownGaps.length < gaps.length) notes.push(`Showing ${shownGaps.length} of ${gaps.length} knowledge gaps (open ones first).`);

  const last = session.steps[session.steps.length - 1];
  return {
    notes,
    view: {
      sessionId: session.sessionId,
      responseMode: mode,
      ...(mode === "full" ? { steps: views(shownSteps) } : { lastSteps: views(shownSteps) }),
      currentStep: last ? (views([last])[0] ?? null) : null,
      stepIndex: last?.stepNumber ?? 0,
      gaps: shownGaps.map(gapView),
      sources: shownSources.map(sourceView),
      summary: summaryOf(session, gaps, sources.length),
      isComplete: session.completedAt !== null,
      startedAt: iso(session.startedAt),
      completedAt: session.completedAt === null ? null : iso(session.completedAt),
      researchGoal: session.researchGoal,
      totalStepsEstimate: session.totalStepsEstimate,
      trust: TRUST,
    },
  };
}
