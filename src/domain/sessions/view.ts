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
  urlChars: 2000,
  summaryChars: 4000,
  /** The most JSON text one view takes; beyond it the tighter tiers below apply in turn. */
  budgetChars: 14_000,
} as const;

type Tier = { [K in Exclude<keyof typeof VIEW_LIMITS, "autoFullSteps" | "budgetChars">]: number };

/** Ever tighter bounds, tried in order until the view fits its budget: long sessions of long steps still fit. */
const TIERS: readonly Tier[] = [
  VIEW_LIMITS,
  { fullSteps: 10, lastSteps: 3, fullSources: 15, summarySources: 8, gaps: 10, textChars: 600, urlChars: 300, summaryChars: 1500 },
  { fullSteps: 6, lastSteps: 3, fullSources: 8, summarySources: 5, gaps: 6, textChars: 250, urlChars: 200, summaryChars: 600 },
  { fullSteps: 3, lastSteps: 2, fullSources: 4, summarySources: 3, gaps: 4, textChars: 120, urlChars: 150, summaryChars: 300 },
];

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

function stepView(step: SessionStep, sources: readonly SessionSource[], revisedBy: number[], tier: Tier): StepView {
  const text = (value: string | null) => (value === null ? undefined : clip(value, tier.textChars));
  const view: StepView = {
    stepNumber: step.stepNumber,
    searchStep: clip(step.searchStep, tier.textChars),
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

const gapView = (gap: KnowledgeGap, tier: Tier): GapView => ({
  gapId: gap.gapId,
  text: clip(gap.text, tier.textChars),
  status: gap.status,
  openedAtStep: gap.openedAtStep,
  ...(gap.addressedAtStep !== null ? { addressedAtStep: gap.addressedAtStep } : {}),
});

const sourceView = (source: SessionSource, tier: Tier): SourceView => ({
  ref: source.ref,
  url: clip(source.url, tier.urlChars),
  title: clip(source.title, tier.textChars),
  ...(source.snippet ? { snippet: clip(source.snippet, tier.textChars) } : {}),
  steps: source.steps,
});

/** Where the session stands: complete, expired (read-only after a period without steps), or still taking steps. */
const standingOf = (session: SearchSession): string =>
  session.completedAt !== null ? "complete" : session.expiredAt ? `expired ${iso(session.expiredAt)} (read-only)` : "in progress";

/** The recovery summary: the caller's own running summary when it gave one, else the facts of the session. */
function summaryOf(session: SearchSession, gaps: readonly KnowledgeGap[], sources: number, tier: Tier): string {
  if (session.sessionSummary) return clip(session.sessionSummary, tier.summaryChars);
  const open = gaps.filter((gap) => gap.status === "open").length;
  const branches = deriveBranches(session.steps)
    .map((branch) => `${branch.branchId}${branch.fromStep ? ` from step ${branch.fromStep}` : ""}`)
    .join(", ");
  const estimate = session.totalStepsEstimate ? ` of about ${session.totalStepsEstimate}` : "";
  return (
    `${plural(session.steps.length, "step")}${estimate}, ${plural(sources, "source")}, ${plural(open, "open gap")}` +
    `${branches ? `; branches: ${branches}` : ""}; ${standingOf(session)}.`
  );
}

/**
 * The session as the caller reads it. `full` lists the steps (the latest
 * `fullSteps` of them); `summary` gives the last few steps, the summary and the
 * gaps; auto picks full for up to 8 steps. `notes` says what was left out.
 */
export function sessionView(
  session: SearchSession,
  requested: ResponseMode | undefined,
  budgetChars: number = VIEW_LIMITS.budgetChars,
): { view: SessionView; notes: string[] } {
  let built = viewAt(session, requested, TIERS[0] as Tier);
  for (const tier of TIERS.slice(1)) {
    if (JSON.stringify(built.view).length <= budgetChars) return built;
    built = viewAt(session, requested, tier);
    built.notes.push(`Long texts are clipped to ${tier.textChars} characters to fit the response.`);
  }
  return built;
}

function viewAt(session: SearchSession, requested: ResponseMode | undefined, tier: Tier): { view: SessionView; notes: string[] } {
  const notes: string[] = [];
  const mode: ResponseMode = requested ?? (session.steps.length <= VIEW_LIMITS.autoFullSteps ? "full" : "summary");
  const sources = deriveSources(session.steps);
  const gaps = deriveGaps(session.steps);
  const revisions = new Map<number, number[]>();
  for (const step of session.steps) {
    if (step.revisesStep !== null) revisions.set(step.revisesStep, [...(revisions.get(step.revisesStep) ?? []), step.stepNumber]);
  }
  const views = (steps: readonly SessionStep[]) => steps.map((step) => stepView(step, sources, revisions.get(step.stepNumber) ?? [], tier));

  const stepLimit = mode === "full" ? tier.fullSteps : tier.lastSteps;
  const shownSteps = session.steps.slice(-stepLimit);
  if (mode === "full" && shownSteps.length < session.steps.length) {
    notes.push(`Showing the last ${shownSteps.length} of ${session.steps.length} steps.`);
  }
  const sourceLimit = mode === "full" ? tier.fullSources : tier.summarySources;
  const shownSources = sources.slice(-sourceLimit);
  if (shownSources.length < sources.length) notes.push(`Showing the latest ${shownSources.length} of ${sources.length} sources.`);
  const orderedGaps = [...gaps.filter((gap) => gap.status === "open"), ...gaps.filter((gap) => gap.status === "addressed").reverse()];
  const shownGaps = orderedGaps.slice(0, tier.gaps);
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
      gaps: shownGaps.map((gap) => gapView(gap, tier)),
      sources: shownSources.map((source) => sourceView(source, tier)),
      summary: summaryOf(session, gaps, sources.length, tier),
      isComplete: session.completedAt !== null,
      startedAt: iso(session.startedAt),
      completedAt: session.completedAt === null ? null : iso(session.completedAt),
      researchGoal: session.researchGoal,
      totalStepsEstimate: session.totalStepsEstimate,
      trust: TRUST,
    },
  };
}
