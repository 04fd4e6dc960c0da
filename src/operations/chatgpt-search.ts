import { z } from "zod";
import { artifactLink, deliverableLink, planLink } from "./people-links";
import { defineOperation } from "./operation";
import { searchResearch } from "./search-sources";

const MAX_URL_CHARS = 300;

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
    const hits = await searchResearch(ctx, query, {}, 10);
    // A source URL longer than a citation needs gives way to the record's own link (issue 4: bounded results);
    // fetch still returns it whole.
    const linkOf = (hit: (typeof hits)[number]) =>
      (hit.sourceUrl !== null && hit.sourceUrl.length <= MAX_URL_CHARS ? hit.sourceUrl : null) ??
      (hit.kind === "claim" && hit.planId
        ? planLink(ctx.origin, hit.planId)
        : hit.kind === "output"
          ? deliverableLink(ctx.origin, hit.id)
          : artifactLink(ctx.origin, hit.id));
    return { results: hits.map((hit) => ({ id: hit.id, title: hit.title, url: linkOf(hit) })) };
  },
});
