/** A stored piece of research (seed 000 `store_research`): findings, sources, analyses, datasets… */
export const ARTIFACT_TYPES = ["finding", "source", "analysis", "dataset", "summary", "report", "note", "other"] as const;
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];

export const ARTIFACT_LIMITS = {
  titleChars: 300,
  contentBytes: 512 * 1024,
  contentTextChars: 200_000,
  tags: 20,
  tagChars: 50,
  /**
   * The characters of JSON one read returns, everything included; longer text comes in pages by offset.
   * Dense text runs about 3.3 characters a cl100k token, so a read stays near 6,000 tokens (issue 4: ≤ 8,000).
   */
  readChars: 20_000,
} as const;

/**
 * Where a page of `text` starting at `offset` ends so that the page, as a JSON string, takes at most `room`
 * characters (escapes count), never splitting a surrogate pair. At least one character when any is left.
 */
export function pageEnd(text: string, offset: number, room: number): number {
  let end = Math.min(text.length, offset + Math.max(1, room));
  for (;;) {
    const size = JSON.stringify(text.slice(offset, end)).length - 2;
    if (size <= room || end - offset <= 1) break;
    // Escapes are spread unevenly: shrink in proportion and measure again.
    end = offset + Math.max(1, Math.min(end - offset - 1, Math.floor(((end - offset) * room) / size)));
  }
  const code = text.charCodeAt(end - 1);
  if (end < text.length && code >= 0xd800 && code <= 0xdbff) end += end - offset > 1 ? -1 : 1;
  return end;
}

/** Every text that came from outside is handed back with this label: material to weigh, never instructions. */
export const UNTRUSTED = "untrusted-external-content" as const;

export interface Artifact {
  artifactId: string;
  orgId: string;
  artifactType: ArtifactType;
  title: string;
  content: unknown;
  contentText: string;
  confidence: number | null;
  planId: string | null;
  stepId: string | null;
  tags: string[];
  sourceUrl: string | null;
  version: number;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

export type ArtifactSummary = Omit<Artifact, "content" | "contentText">;

export interface SearchHit {
  /** What was found: an artifact, a deliverable (research output) or a grounded claim of an evidence ledger. */
  kind: "artifact" | "output" | "claim";
  id: string;
  title: string;
  /** The artifact's type, the deliverable's media type, or the claim's status (SUPPORTED, SURVIVES, DOWNGRADE). */
  type: string;
  snippet: string;
  /**
   * Higher is better. From storage, bm25 negated (unrounded: in a small index a common word's weight is tiny, and
   * rounding would tie every hit at 0); in an answer, relative to the best hit (see `relativeRelevance`).
   */
  relevance: number;
  planId: string | null;
  sourceUrl: string | null;
  createdAt: number;
  /** The research question of the plan the artifact came from, when it came from one. */
  researchQuestion: string | null;
  /** The user's original request, when the plan was linked to a skill execution. */
  originalQuery: string | null;
}

/** Tags are matched exactly and case-insensitively; stored lower-cased, trimmed, without duplicates. */
export const normalizeTags = (tags: readonly string[]): string[] => [...new Set(tags.map((tag) => tag.trim().toLowerCase()).filter(Boolean))];

/**
 * Hits' scores as an answer shows them: each relative to the best hit's (the best is 1), rounded to three places and
 * never below 0.001, so the scores order the hits whatever the size of the index. Hits keep their order.
 */
export function relativeRelevance<T extends { relevance: number }>(hits: readonly T[]): T[] {
  const best = Math.max(0, ...hits.map((hit) => hit.relevance));
  return hits.map((hit) => ({ ...hit, relevance: best > 0 ? Math.max(0.001, Math.round((hit.relevance / best) * 1000) / 1000) : 0 }));
}
