import { describe, expect, it } from "vitest";
import { SearchProviderError } from "../../src/domain/sessions/search";
import { getResearchSession } from "../../src/operations/get-research-session";
import { sequentialSearch } from "../../src/operations/sequential-search";
import { BRAVE_ENDPOINT, braveProvider } from "../../src/platform/search-providers/brave";
import type { FetchFn } from "../../src/platform/search-providers/http";
import { configuredSearchProviders } from "../../src/platform/search-providers/index";
import { searxngProvider } from "../../src/platform/search-providers/searxng";
import { TAVILY_ENDPOINT, tavilyProvider } from "../../src/platform/search-providers/tavily";
import { contextWith, GOAL, run } from "../support/search-sessions";
import { seedTenant } from "../support/worker";

/** A stand-in for a third-party search API: records each request and answers with `respond`. */
function mockApi(respond: (request: Request, signal: AbortSignal | undefined) => Promise<Response> | Response) {
  const requests: Request[] = [];
  const fetch: FetchFn = async (input, init) => {
    const request = new Request(input, init);
    requests.push(request);
    return respond(request, init?.signal ?? undefined);
  };
  return { fetch, requests };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Never answers; rejects when the caller's deadline aborts the request, as a real fetch does. */
const hang = (_request: Request, signal: AbortSignal | undefined) =>
  new Promise<Response>((_resolve, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));

describe("search providers over their HTTP APIs", () => {
  it("Brave: GET with the subscription token, web results as plain text", async () => {
    const api = mockApi(() => json({ web: { results: [{ url: "https://r.example/1", title: "<strong>Lance</strong>DB", description: "Embedded &amp; fast" }, { nope: 1 }] } }));
    const results = await braveProvider("brave-key", { fetch: api.fetch }).search("vector db", { orgId: "o", limit: 5 });
    expect(results).toEqual([{ url: "https://r.example/1", title: "LanceDB", snippet: "Embedded & fast" }, { url: "", title: "", snippet: "" }]);
    const sent = api.requests[0];
    expect(sent?.url).toBe(`${BRAVE_ENDPOINT}?q=vector+db&count=5`);
    expect(sent?.headers.get("x-subscription-token")).toBe("brave-key");
  });

  it("Tavily: POST with a bearer key, never asking for a synthesized answer", async () => {
    const api = mockApi(() => json({ answer: "ignored", results: [{ url: "https://t.example", title: "T", content: "c" }] }));
    const results = await tavilyProvider("tvly-key", { fetch: api.fetch }).search("q", { orgId: "o", limit: 3 });
    expect(results).toEqual([{ url: "https://t.example", title: "T", snippet: "c" }]);
    const sent = api.requests[0];
    expect(sent?.url).toBe(TAVILY_ENDPOINT);
    expect(sent?.method).toBe("POST");
    expect(sent?.headers.get("authorization")).toBe("Bearer tvly-key");
    expect(await sent?.json()).toEqual({ query: "q", max_results: 3, search_depth: "basic", include_answer: false });
  });

  it("SearXNG: <url>/search?format=json", async () => {
    const api = mockApi(() => json({ results: [{ url: "https://s.example", title: "S", content: "snippet" }] }));
    const results = await searxngProvider("https://searx.example/base", { fetch: api.fetch }).search("q", { orgId: "o", limit: 5 });
    expect(results).toEqual([{ url: "https://s.example", title: "S", snippet: "snippet" }]);
    expect(api.requests[0]?.url).toBe("https://searx.example/base/search?q=q&format=json");
  });

  it("reports a timeout, an HTTP error and a broken body in words of its own, never the provider's text", async () => {
    const slow = braveProvider("k", { fetch: mockApi(hang).fetch, timeoutMs: 50 });
    await expect(slow.search("q", { orgId: "o", limit: 5 })).rejects.toThrow(new SearchProviderError("brave did not answer within 50 ms"));
    const failing = tavilyProvider("k", { fetch: mockApi(() => new Response("secret upstream detail", { status: 502 })).fetch });
    await expect(failing.search("q", { orgId: "o", limit: 5 })).rejects.toThrow(new SearchProviderError("tavily answered HTTP 502"));
    const garbled = searxngProvider("https://s.example", { fetch: mockApi(() => new Response("<html>")).fetch });
    await expect(garbled.search("q", { orgId: "o", limit: 5 })).rejects.toThrow(new SearchProviderError("searxng sent a response that is not valid JSON"));
  });

  it("picks the providers configured as secrets, in order of preference", () => {
    expect(configuredSearchProviders({}).map((p) => p.name)).toEqual([]);
    expect(configuredSearchProviders({ SEARXNG_URL: "https://s.example", TAVILY_API_KEY: "t", BRAVE_API_KEY: "b" }).map((p) => p.name)).toEqual(["brave", "tavily", "searxng"]);
    // SEARXNG_URL passes the outbound-address guard: no private or metadata addresses, https outside development.
    for (const url of ["https://10.0.0.5/", "https://169.254.169.254/", "http://searx.example", "https://user:pw@searx.example", "not a url"]) {
      expect(configuredSearchProviders({ SEARXNG_URL: url, CAIRN_ENV: "production" }), url).toEqual([]);
    }
    expect(configuredSearchProviders({ SEARXNG_URL: "http://localhost:8888", CAIRN_ENV: "production" })).toEqual([]);
    expect(configuredSearchProviders({ SEARXNG_URL: "http://localhost:8888", CAIRN_ENV: "development" }).map((p) => p.name)).toEqual(["searxng"]);
    // Loopback only where CAIRN_ENV is exactly "development": unset, misspelled or any other environment fails closed.
    for (const CAIRN_ENV of [undefined, "", "Development", "dev", "staging"]) {
      expect(configuredSearchProviders({ SEARXNG_URL: "http://localhost:8888", ...(CAIRN_ENV === undefined ? {} : { CAIRN_ENV }) }), String(CAIRN_ENV)).toEqual([]);
    }
    expect(configuredSearchProviders({ SEARXNG_URL: "not a url" })).toEqual([]);
  });
});

describe("sequential_search depth=thorough with a web provider", () => {
  const firstStep = {
    stepNumber: 1,
    researchGoal: GOAL,
    searchStep: "Listed candidate vector databases",
    nextStepNeeded: true,
    sources: [{ url: "https://a.example/dbs", title: "Embedded vector databases compared", snippet: "SQLite extensions and on-device search engines" }],
    knowledgeGap: "What are the licensing costs?",
  };

  it("runs the first 3 refinement queries and returns merged, provenance-tagged raw results", async () => {
    const { orgId, admin } = await seedTenant();
    const api = mockApi((request) => {
      const q = new URL(request.url).searchParams.get("q") ?? "";
      return json({ web: { results: [1, 2].map((n) => ({ url: `https://r.example/${encodeURIComponent(q)}/${n}`, title: `${q} ${n}`, description: `about ${q}` })) } });
    });
    const ctx = await contextWith(orgId, admin.userId, { searchProviders: [braveProvider("k", { fetch: api.fetch })] });
    const { sessionId } = await run(sequentialSearch, firstStep, ctx);
    const body = await run(sequentialSearch, { sessionId, stepNumber: 2, searchStep: "Unrelated detour", nextStepNeeded: true, depth: "thorough" }, ctx);
    const queries = ["licensing costs vector database", "mobile vector database", "apps vector database"];
    expect(body.refinementQueries).toEqual(queries);
    expect(api.requests.map((r) => new URL(r.url).searchParams.get("q"))).toEqual(queries);
    const results = body.refinementResults as { provider: string; query: string; url: string; title: string; snippet: string; rank: number }[];
    expect(results.map((r) => [r.provider, r.query, r.rank])).toEqual([
      ["brave", queries[0], 1],
      ["brave", queries[1], 1],
      ["brave", queries[2], 1],
      ["brave", queries[0], 2],
      ["brave", queries[1], 2],
      ["brave", queries[2], 2],
    ]);
    expect(results[0]).toEqual({ provider: "brave", query: queries[0], url: `https://r.example/${encodeURIComponent(queries[0] ?? "")}/1`, title: `${queries[0]} 1`, snippet: `about ${queries[0]}`, rank: 1 });
    expect(body).toMatchObject({ depth: "thorough", trust: "untrusted-external-content" });
    expect(body.warning).toBeUndefined();
  });

  it("says when it bounded the run: more suggested queries than it ran", async () => {
    const { orgId, admin } = await seedTenant();
    const api = mockApi(() => json({ web: { results: [] } }));
    const ctx = await contextWith(orgId, admin.userId, { searchProviders: [braveProvider("k", { fetch: api.fetch })] });
    const { sessionId } = await run(sequentialSearch, { ...firstStep, sources: [], researchGoal: "Battery drain, storage footprint and latency of embedded vector indexes" }, ctx);
    const body = await run(sequentialSearch, { sessionId, stepNumber: 2, searchStep: "x", nextStepNeeded: true, depth: "thorough" }, ctx);
    expect((body.refinementQueries as string[]).length).toBe(5);
    expect(api.requests).toHaveLength(3);
    expect(body.refinementNote).toBe("Ran 3 of 5 suggested queries (at most 3 per step).");
  });

  it("reports a timed-out and a failing provider in warning, and the step is recorded all the same", async () => {
    const { orgId, admin } = await seedTenant();
    let calls = 0;
    const api = mockApi((request, signal) => {
      calls++;
      if (calls === 1) return hang(request, signal);
      if (calls === 2) return new Response("upstream stack trace", { status: 500 });
      return json({ web: { results: [{ url: "https://ok.example", title: "OK", description: "fine" }] } });
    });
    const ctx = await contextWith(orgId, admin.userId, { searchProviders: [braveProvider("k", { fetch: api.fetch, timeoutMs: 50 })] });
    const { sessionId } = await run(sequentialSearch, firstStep, ctx);
    const body = await run(sequentialSearch, { sessionId, stepNumber: 2, searchStep: "Recorded despite failures", nextStepNeeded: true, depth: "thorough" }, ctx);
    expect(body.error).toBeUndefined();
    expect(body.warning).toBe(
      'Refinement search "licensing costs vector database" failed: brave did not answer within 50 ms. ' +
        'Refinement search "mobile vector database" failed: brave answered HTTP 500.',
    );
    expect(JSON.stringify(body)).not.toContain("upstream stack trace");
    expect(body.refinementResults).toEqual([{ provider: "brave", query: "apps vector database", url: "https://ok.example", title: "OK", snippet: "fine", rank: 1 }]);
    expect(await run(getResearchSession, { sessionId }, ctx)).toMatchObject({ stepIndex: 2, currentStep: { searchStep: "Recorded despite failures" } });
  });
});
