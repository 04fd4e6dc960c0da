import type { SearchProvider } from "../../domain/sessions/search";
import { arrayAt, fetchJson, isRecord, plainText, type ProviderOptions } from "./http";

/** A SearXNG instance's JSON API (`<base>/search?format=json`; the instance must allow the json format). */
export function searxngProvider(baseUrl: string, options: ProviderOptions = {}): SearchProvider {
  const endpoint = new URL("search", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  return {
    name: "searxng",
    async search(query, { limit }) {
      const url = new URL(endpoint);
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      const body = await fetchJson("searxng", new Request(url, { headers: { accept: "application/json" } }), options);
      return arrayAt(body, "results")
        .filter(isRecord)
        .map((hit) => ({ url: plainText(hit.url), title: plainText(hit.title), snippet: plainText(hit.content) }))
        .slice(0, limit);
    },
  };
}
