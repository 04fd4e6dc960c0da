import type { SearchProvider } from "../../domain/sessions/search";
import { arrayAt, fetchJson, isRecord, plainText, type ProviderOptions } from "./http";

export const TAVILY_ENDPOINT = "https://api.tavily.com/search";

/** Tavily search (bearer key). Its optional synthesized answer is never asked for: results only. */
export function tavilyProvider(apiKey: string, options: ProviderOptions = {}): SearchProvider {
  return {
    name: "tavily",
    async search(query, { limit }) {
      const request = new Request(TAVILY_ENDPOINT, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ query, max_results: limit, search_depth: "basic", include_answer: false }),
      });
      const body = await fetchJson("tavily", request, options);
      return arrayAt(body, "results")
        .filter(isRecord)
        .map((hit) => ({ url: plainText(hit.url), title: plainText(hit.title), snippet: plainText(hit.content) }))
        .slice(0, limit);
    },
  };
}
