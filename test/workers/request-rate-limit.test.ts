import { describe, expect, it } from "vitest";
import { REQUEST_LIMIT_RETRY_AFTER_SECONDS } from "../../src/domain/auth/request-limits";
import { fetchWorker, mcpRequest, rest, seedApiKey, seedTenant } from "../support/worker";

/** wrangler.toml's API_RATE_LIMITER: 600 requests a minute per credential. Windows may roll over once in a loop. */
const LIMIT = 600;
const ATTEMPTS = 2 * LIMIT + 1;
/** Up to 1,201 requests: a budget for that work, not a quiet machine's 30 s (it took 34 s on a loaded two-core machine). */
const WORK_MS = 120_000;

describe("per-credential request limits", () => {
  it("answers REST callers past their budget with 429 problem+json and Retry-After, per credential", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    let refused: Response | undefined;
    let served = 0;
    for (let i = 0; i < ATTEMPTS && !refused; i++) {
      const response = await rest(apiKey, "/prompts");
      if (response.status === 429) refused = response;
      else {
        expect(response.status).toBe(200);
        served++;
      }
    }
    expect(served).toBeGreaterThanOrEqual(LIMIT);
    expect(refused?.headers.get("retry-after")).toBe(String(REQUEST_LIMIT_RETRY_AFTER_SECONDS));
    expect(refused?.headers.get("content-type")).toContain("application/problem+json");
    expect(((await refused?.json()) as { code?: string } | undefined)?.code).toBe("rate_limited");
    // Another key of the same person has its own budget.
    const other = await seedApiKey(orgId, admin.userId);
    expect((await rest(other.key, "/prompts")).status).toBe(200);
  }, WORK_MS);

  it("answers MCP callers past their budget with HTTP 429 before the MCP layer", async () => {
    const { apiKey } = await seedTenant();
    let refused: Response | undefined;
    for (let i = 0; i < ATTEMPTS && !refused; i++) {
      const response = await fetchWorker(mcpRequest(apiKey, "ping"));
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(200);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await refused?.json()) as { jsonrpc: string; error: { code: number; message: string } } | undefined;
    expect(body?.jsonrpc).toBe("2.0");
    expect(body?.error.message).toContain("Too many requests");
  }, WORK_MS);
});
