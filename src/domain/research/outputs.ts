/** The deliverable of a plan (seed 000 phase 6) and the feedback on it. */
export const MEDIA_TYPES = ["markdown", "html", "json", "text", "slides_outline", "csv", "other"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const OUTPUT_LIMITS = { titleChars: 300, contentChars: 1_000_000, citations: 500, readChars: 20_000 } as const;

export interface Citation {
  /** An evidence ref (E1, E2, …) where the plan keeps an evidence ledger. */
  ref?: string;
  title: string;
  url?: string;
}

export interface ResearchOutput {
  outputId: string;
  orgId: string;
  planId: string | null;
  executionId: string | null;
  title: string;
  mediaType: MediaType;
  content: string;
  formattingInstructions: string | null;
  citations: Citation[];
  version: number;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

export type ResearchOutputSummary = Omit<ResearchOutput, "content">;

export const FEEDBACK_PHASES = ["initial", "closing"] as const;

export interface ResearchFeedback {
  feedbackId: string;
  orgId: string;
  planId: string | null;
  outputId: string | null;
  executionId: string | null;
  phase: (typeof FEEDBACK_PHASES)[number];
  satisfaction: number | null;
  summary: string;
  improvementSuggestions: string[];
  followUpRequested: boolean;
  createdBy: string;
  createdAt: number;
}
