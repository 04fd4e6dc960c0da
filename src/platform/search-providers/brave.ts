import type { SearchProvider } from "../../domain/sessions/search";
import { arrayAt, fetchJson, isRecord, plainText, type ProviderOptions } from "./http";

export const BRAVE_ENDPOINT = "https://api.search.brave.com/res/v1/web/search";

/** Brave Search web results (`X-Subscription-Token`). */
export function braveProvider(apiKey: string, options: ProviderOptions = {}): SearchProvider {
  return {
    name: "brave",
    async search(query, { limit }) {
      const url = new URL(BRAVE_ENDPOINT);
      url.searchParams.set("q", query);
      url.searchParams.set("count", String(limit));
      const body = await fetchJson("brave", new Request(url, { headers: { accept: "application/json", "x-subscription-token": apiKey } }), options);
      return arrayAt(body, "web", "results")
        .filter(isRecord)
        .map((hit) => ({ url: plainText(hit.url), title: plainText(hit.title), snippet: plainText(hit.description) }))
        .slice(0, limit);
    },
  };
}
