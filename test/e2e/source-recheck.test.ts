/**
 * Keep checking after delivery, end to end: a deliverable whose source Cairn verified at delivery, the cited page
 * changes (a real loopback page the test rewrites), the operator runs `npm run cairn -- sources recheck --org …`
 * against the running local server, the deliverable then reports the source changed, and the org's signed
 * webhook research_output.sources_changed arrives at a local receiver.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runCli as cli } from "../support/cli";
import { startSourcePages } from "../support/source-pages.global";
import { startReceiver } from "../support/webhook-receiver";

const server = inject("server");
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";

async function call<T>(method: "GET" | "POST", path: string, body?: unknown, expected = 200): Promise<T> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

let pages: Awaited<ReturnType<typeof startSourcePages>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  pages = await startSourcePages();
  receiver = await startReceiver();
});

afterAll(async () => {
  await pages?.close();
  await receiver?.close();
});

describe("re-checking cited sources after delivery", () => {
  it("a page that changed after delivery: the re-check command flags the deliverable and the webhook fires", async () => {
    const added = await cli(
      "--persist-to", server.persistTo, "webhook", "add", "--org", server.orgSlug, "--endpoint", `${receiver.url}/sources`,
      "--events", "research_output.sources_changed", "--url", server.url, "--json",
    );
    expect(added.code, added.stderr).toBe(0);
    // --endpoint, the older spelling of the first argument, still works and points to the one name.
    expect(added.stderr).toMatch(/--endpoint is read as the URL; give it as the first argument/);
    const { secret } = JSON.parse(added.stdout) as { secret: string };

    const name = `e2e-${crypto.randomUUID().slice(0, 8)}`;
    const url = `${pages.origin}/changing/${name}`;
    const { planId } = await call<{ planId: string }>(
      "POST",
      "/plans",
      {
        name: "[Deep] Solid-state battery density",
        researchQuestion: "How dense are solid-state cells?",
        steps: [{ stepType: "search", instructions: "Find the figures" }, { stepType: "synthesize", instructions: "Write the answer" }],
        planDesignRationale: "Find, then write",
        citationPolicy: "report",
      },
      201,
    );
    await call("POST", `/plans/${planId}/evidence`, { evidence: [{ url, title: "Solid-state batteries reach 500 Wh/kg", facts: "500 Wh/kg in the lab", subtopic: "Density", quote: QUOTE }] }, 201);
    const verdict = await until("the source's first check", async () => {
      const ledger = await call<{ evidence: { verification: string }[] }>("GET", `/plans/${planId}/ledger`);
      const status = ledger.evidence[0]?.verification;
      return status && status !== "pending" ? status : null;
    });
    expect(verdict).toBe("verified");
    const { outputId } = await call<{ outputId: string }>("POST", "/outputs", { planId, title: "Density", mediaType: "markdown", content: "Solid-state cells reached 500 Wh/kg [E1]." }, 201);
    expect((await call<{ sources: unknown }>("GET", `/outputs/${outputId}`)).sources).toEqual({ total: 1, verified: 1, changed: 0, gone: 0, unverified: 0 });

    // The article is rewritten: the quoted words are gone from it.
    const edited = await fetch(`${pages.origin}/control/changing/${name}`, {
      method: "PUT",
      body: JSON.stringify({ type: "text/html", body: "<title>Solid-state batteries reach 500 Wh/kg</title><p>This article was rewritten.</p>" }),
    });
    expect(edited.status).toBe(204);

    const rechecked = await cli("--persist-to", server.persistTo, "sources", "recheck", "--org", server.orgSlug, "--url", server.url, "--json");
    expect(rechecked.code, rechecked.stderr).toBe(0);
    const queued = JSON.parse(rechecked.stdout) as { queued: number; batchLimit: number };
    expect(queued.queued).toBeGreaterThanOrEqual(1);
    expect(queued.batchLimit).toBe(100);

    const sources = await until("the deliverable's source changed", async () => {
      const output = await call<{ sources: { changed: number } }>("GET", `/outputs/${outputId}`);
      return output.sources.changed === 1 ? output.sources : null;
    });
    expect(sources).toEqual({ total: 1, verified: 0, changed: 1, gone: 0, unverified: 0 });

    const [delivery] = (await receiver.waitFor((all) => all.some((r) => r.body.includes(outputId)), 60_000)).filter((r) => r.body.includes(outputId));
    const payload = new Webhook(secret).verify(delivery?.body ?? "", delivery?.headers ?? {}) as { type: string; data: { outputId: string; source: { ref: string; change: string; url: string } } };
    expect(payload.type).toBe("research_output.sources_changed");
    expect(payload.data).toMatchObject({ outputId, source: { ref: "E1", change: "changed", url } });
  });

  it("the command names what is wrong: no such org (exit 1), no --org (usage, exit 2)", async () => {
    const unknown = await cli("--persist-to", server.persistTo, "sources", "recheck", "--org", "no-such-org", "--url", server.url);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No org with slug "no-such-org"');
    const usage = await cli("sources", "recheck");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('"sources recheck" needs --org');
  });
});
