import { z } from "zod";
import { defineOperation } from "./operation";
import { searchArtifacts } from "./search-sources";

/** OpenAI's `search` contract for ChatGPT connectors and deep research: `{results: [{id, title, url}]}`. */
export const chatgptSearch = defineOperation({
  name: "search",
  title: "Search research",
  description: "Search your organization's stored research. Returns ids for fetch.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ query: z.string().min(1).max(1000) }),
  output: z.object({ results: z.array(z.object({ id: z.string(), title: z.string(), url: z.string() })) }),
  rest: { method: "get", path: "/chatgpt/search" },
  async handler({ query }, ctx) {
    const hits = await searchArtifacts(ctx, query, {}, 10);
    return { results: hits.map((hit) => ({ id: hit.artifactId, title: hit.title, url: hit.sourceUrl ?? `${ctx.origin}/api/v1/artifacts/${hit.artifactId}` })) };
  },
});
