/** REST calls to the real local server of the e2e suite, with its demo API key, and waiting for Cairn's source checks. */

export type RestCall = (method: "GET" | "POST", path: string, body?: unknown) => Promise<{ status: number; body: Record<string, unknown> }>;

/** A REST caller for `server` (the e2e global setup's): JSON in and out, 30 s at most a call. */
export function restCaller(server: { url: string; apiKey: string }): RestCall {
  return async (method, path, body) => {
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

/**
 * The verdicts of a plan's `count` sources once none is pending (Cairn checks them off the call path, as the deep
 * skill waits for them), read from the ledger every half second for at most `seconds`; what stands then otherwise.
 */
export async function settledVerdicts(call: RestCall, planId: string, count: number, seconds = 90): Promise<string[]> {
  let verdicts: string[] = [];
  for (let i = 0; i < seconds * 2 && (verdicts.length < count || verdicts.includes("pending")); i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 500));
    const ledger = await call("GET", `/plans/${planId}/ledger`);
    verdicts = ((ledger.body.evidence ?? []) as { verification: string }[]).map((source) => source.verification);
  }
  return verdicts;
}
