/**
 * Argument completion (MCP `completion/complete`): what a client may ask to
 * complete, and how much it gets back. Pure; storage answers the queries.
 */

/** Things whose ids complete: the resource templates' variables and the prompts' planId. */
export type CompletableKind = "plans" | "artifacts" | "outputs";

/** At most this many suggestions per request, newest first (MCP allows 100; a picker shows a few). */
export const COMPLETION_LIMIT = 20;
/** Longest text considered: ids are at most 64 characters, topics are matched on a short prefix. */
const MAX_TYPED = 64;
const ID_PREFIX = /^[A-Za-z0-9_-]*$/;

export interface CompletionPort {
  /** Ids of the org's records of `kind` starting with `prefix`, newest first, at most `limit`. */
  ids(kind: CompletableKind, orgId: string, prefix: string, limit: number): Promise<string[]>;
  /** Topics of the org's plans (their names without the mode tag) containing `text`, newest first, at most `limit`. */
  topics(orgId: string, text: string, limit: number): Promise<string[]>;
}

/** The id prefix to search for, or null when what was typed cannot begin an id (no query needed). */
export function idPrefix(typed: string): string | null {
  return typed.length <= MAX_TYPED && ID_PREFIX.test(typed) ? typed : null;
}

/** The text to match topics on: one line, trimmed, bounded. */
export function topicText(typed: string): string {
  return typed.replace(/\s+/g, " ").trim().slice(0, MAX_TYPED);
}

/** A plan's topic as people typed it: its name without the "[Scan] " / "[Deep] " tag. */
export function topicOfPlanName(name: string): string {
  return name.replace(/^\[(Scan|Deep)\]\s*/i, "").trim();
}

/** The completion result: distinct values, at most the limit, and whether more were found. */
export function completionResult(values: readonly string[], limit = COMPLETION_LIMIT): { values: string[]; hasMore: boolean } {
  const distinct = [...new Set(values)];
  return { values: distinct.slice(0, limit), hasMore: distinct.length > limit };
}
