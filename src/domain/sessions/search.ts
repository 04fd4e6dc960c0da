import { clip } from "./text";

/** One raw hit as a search provider returned it. */
export interface WebSearchResult {
  url: string;
  title: string;
  snippet: string;
}

/**
 * A web search API (Brave, Tavily, SearXNG) or the org's own research index,
 * behind one interface. Implementations bound their own time and throw
 * `SearchProviderError` with a message fit for the caller (never the response body).
 */
export interface SearchProvider {
  readonly name: string;
  search(query: string, options: { orgId: string; limit: number }): Promise<WebSearchResult[]>;
}

export class SearchProviderError extends Error {
  override readonly name = "SearchProviderError";
}

/** What one refinement query gave: results, or why there are none. */
export interface ProviderRun {
  provider: string;
  query: string;
  results: WebSearchResult[];
  error: string | null;
}

/** A raw result with its provenance: which provider, which query, which position. Never a synthesized answer. */
export interface RefinementResult {
  provider: string;
  query: string;
  url: string;
  title: string;
  snippet: string;
  rank: number;
}

export const REFINEMENT_LIMITS = { queries: 3, resultsPerQuery: 5, total: 12, titleChars: 300, snippetChars: 500 } as const;

const urlKey = (url: string) => url.trim().replace(/#.*$/, "").replace(/\/+$/, "").toLowerCase();

/**
 * Merges the runs round-robin by rank (every query's first hit, then every
 * second, …) so each query is represented; a URL found twice keeps its first
 * appearance. Capped at `REFINEMENT_LIMITS.total`.
 */
export function mergeRefinementResults(runs: readonly ProviderRun[]): { results: RefinementResult[]; dropped: number } {
  const results: RefinementResult[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  const depth = Math.max(0, ...runs.map((run) => run.results.length));
  for (let rank = 1; rank <= depth; rank++) {
    for (const run of runs) {
      const hit = run.results[rank - 1];
      if (!hit || !/^https?:\/\/|^cairn:\/\//i.test(hit.url)) continue;
      const key = urlKey(hit.url);
      if (seen.has(key)) continue;
      seen.add(key);
      if (results.length >= REFINEMENT_LIMITS.total) {
        dropped++;
        continue;
      }
      results.push({
        provider: run.provider,
        query: run.query,
        url: hit.url,
        title: clip(hit.title || hit.url, REFINEMENT_LIMITS.titleChars),
        snippet: clip(hit.snippet, REFINEMENT_LIMITS.snippetChars),
        rank,
      });
    }
  }
  return { results, dropped };
}
