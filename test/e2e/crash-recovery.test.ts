import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { addUser, applyMigrations, createApiKey, createOrg, type DevServer, findFreePort, runSql, startDevServer } from "../../scripts/lib/local.mjs";
import { groupMembers, portIsFree } from "../support/process-group";

/**
 * Crashes of the whole local server (`kill -9` of wrangler and workerd, no graceful shutdown) in the
 * middle of an org import, an org erasure and a webhook delivery. After a restart on the same state,
 * each either completes when retried or is fully undone, and every other org's export is unchanged.
 * This file runs its own server on its own persist dir, because it kills it.
 */

const REPORT = { thinking: "Looked at the sources", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] };
const ALL_SCOPES = ["research:read", "research:write", "org:admin"];
const OLD_PLANS = 400;

const persistTo = mkdtempSync(join(tmpdir(), "cairn-e2e-crash-"));
const logDir = mkdtempSync(join(tmpdir(), "cairn-e2e-crash-log-"));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: DevServer | null = null;
let baseUrl = "";
const keys: Record<string, string> = {};
const ORGS = ["source", "bystander", "target", "doomed", "hooked"] as const;
type Org = (typeof ORGS)[number];

async function api(org: Org, method: string, path: string, body?: unknown): Promise<{ status: number; text: string; json: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${keys[org]}`, ...(body === undefined ? {} : { "content-type": typeof body === "string" ? "application/x-ndjson" : "application/json" }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    signal: AbortSignal.timeout(180_000),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // NDJSON or an error page
  }
  return { status: response.status, text, json };
}

async function ok(org: Org, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await api(org, method, path, body);
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${response.text.slice(0, 300)}`);
  return response.json;
}

/** A plan with its first step done and a finding stored: something of every kind to lose. */
async function fill(org: Org, plans: number): Promise<void> {
  for (let i = 0; i < plans; i++) {
    const plan = await ok(org, "POST", "/plans", {
      name: `[Scan] Crash ${org} ${i}`,
      researchQuestion: "Does it survive?",
      steps: [
        { stepType: "search", instructions: "Search" },
        { stepType: "analyze", instructions: "Analyze" },
      ],
      planDesignRationale: "Search, then analyze",
    });
    const planId = String(plan.planId);
    const next = await ok(org, "POST", `/plans/${planId}/next-step`, {});
    const step = next.step as { stepId: string };
    await ok(org, "POST", `/plans/${planId}/steps/${step.stepId}/result`, { claimId: next.claimId, result: { n: i }, confidence: 0.8, stepExecutionReport: REPORT });
    await ok(org, "POST", "/artifacts", { artifactType: "finding", title: `Finding ${i} of ${org}`, content: { i }, contentText: `Crash finding ${i}`, planId });
  }
}

/** An export without its header (which carries the time of export). */
async function exportBody(org: Org): Promise<string> {
  const response = await api(org, "GET", "/org/export");
  expect(response.status).toBe(200);
  return response.text
    .split("\n")
    .filter((line) => line && !line.startsWith('{"type":"header"'))
    .join("\n");
}

/** Research of an org as its export counts it (0 when the export is only members and keys). */
function researchCount(text: string): number {
  const end = text.split("\n").map((line) => JSON.parse(line) as { type: string; counts?: Record<string, number> }).find((record) => record.type === "end");
  const counts = end?.counts ?? {};
  return Object.entries(counts)
    .filter(([kind]) => kind !== "member" && kind !== "api_keys" && kind !== "audit_log")
    .reduce((sum, [, n]) => sum + n, 0);
}

let starts = 0;
async function start(port: number): Promise<void> {
  // The dev server runs with --test-scheduled: the test can run the crons (/__scheduled), as the platform would.
  server = await startDevServer({
    port,
    persistTo,
    inspectorPort: await findFreePort(),
    logFile: join(logDir, `wrangler-${++starts}.log`),
    timeoutMs: 120_000,
    // A delivery pending a second counts as stuck, so the sweep re-sends the one the kill left behind.
    vars: { WEBHOOK_STUCK_AFTER_SECONDS: "1" },
    extraArgs: [],
  });
  baseUrl = server.url;
}

/** SIGKILL of wrangler and workerd together, then a restart on the same state. */
async function crashAndRestart(): Promise<void> {
  if (!server) throw new Error("no server");
  const pgid = server.child.pid;
  if (!pgid) throw new Error("the dev server has no pid");
  const oldPort = server.port;
  process.kill(-pgid, "SIGKILL");
  await server.exited;
  for (let i = 0; i < 50 && groupMembers(pgid).length > 0; i++) await sleep(100);
  expect(groupMembers(pgid), "processes left in the killed group").toEqual([]);
  server = null;
  await start((await portIsFree(oldPort)) ? oldPort : await findFreePort());
}

/** A webhook receiver on loopback that holds its first request open (the server is killed meanwhile) and answers the rest. */
function holdingReceiver() {
  const received: { id: string; type: string }[] = [];
  let held = false;
  const http: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      received.push({ id: String(request.headers["webhook-id"] ?? ""), type: (JSON.parse(body) as { type: string }).type });
      if (!held) {
        held = true;
        return; // never answered: the delivery is in flight when the server dies
      }
      response.writeHead(204).end();
    });
  });
  return { http, received };
}

describe("crashes of the local server in the middle of org-wide work", () => {
  const others: Partial<Record<Org, string>> = {};

  beforeAll(async () => {
    await applyMigrations({ persistTo });
    for (const org of ORGS) {
      await createOrg({ slug: `crash-${org}`, name: `Crash ${org}` }, { persistTo });
      const email = `crash-${org}@cairn.test`;
      await addUser({ org: `crash-${org}`, email, name: `Admin of ${org}`, role: "admin", password: "crash-password-correct-horse" }, { persistTo });
      keys[org] = (await createApiKey({ org: `crash-${org}`, userEmail: email, name: "crash", scopes: ALL_SCOPES }, { persistTo })).key;
    }
    // Hundreds of finished plans in the doomed org's index (their objects empty): erasing it takes a while.
    await runSql(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${OLD_PLANS})
       INSERT INTO plans (plan_id, org_id, name, status, derived_status, progress, stalled, total_steps, completed_steps, failed_steps, created_by, created_at, updated_at, index_seq)
       SELECT printf('plan_%025d', i), (SELECT id FROM orgs WHERE slug = 'crash-doomed'), 'Old plan', 'cancelled', 'active', 0, 0, 1, 0, 0, 'usr_0000000000000000000000000', 1, 1, 1 FROM n`,
      { persistTo },
    );
    await start(await findFreePort());
    await fill("source", 4);
    await fill("bystander", 2);
    // Enough plans that erasing their objects one by one takes a while.
    await fill("doomed", 25);
  }, 600_000);

  afterAll(async () => {
    try {
      await server?.stop();
    } finally {
      rmSync(persistTo, { recursive: true, force: true });
      rmSync(logDir, { recursive: true, force: true });
    }
  }, 60_000);

  const unchanged = async (except: Org[]) => {
    for (const org of ["bystander", "source"] as const) {
      if (except.includes(org)) continue;
      expect(await exportBody(org), `${org}'s export`).toBe(others[org]);
    }
  };

  // The killed import's lock lapses once its heartbeat is a minute old; the retry then takes back what it wrote (its journal) and imports the file.
  it("an import killed half-way is completed by its retry, or was undone", async () => {
    onTestFailed(() => console.error(`wrangler output:\n${server?.log().slice(-20_000) ?? "(none)"}`));
    others.bystander = await exportBody("bystander");
    others.source = await exportBody("source");
    const file = (await api("source", "GET", "/org/export")).text;
    const lines = file.split("\n").filter(Boolean);
    // The file trickles in: the kill lands after part of it has been imported.
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= lines.length) return controller.close();
        if (sent === Math.floor(lines.length * 0.6)) await sleep(60_000);
        controller.enqueue(new TextEncoder().encode(`${lines[sent++]}\n`));
        await sleep(150);
      },
    });
    const inFlight = fetch(`${baseUrl}/api/v1/org/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys.target}`, "content-type": "application/x-ndjson" },
      body,
      duplex: "half",
    } as RequestInit).catch((error: unknown) => error);
    while (sent < Math.floor(lines.length * 0.6)) await sleep(100);
    await sleep(1_500);
    await crashAndRestart();
    await inFlight;

    let retried = await api("target", "POST", "/org/import", file);
    // Refused (409, Retry-After) until the dead import's heartbeat is a minute old: a client waits and tries again.
    // Asked again every 2 s (not every 30 s), so the test goes on within moments of the lock lapsing.
    for (const deadline = Date.now() + 150_000; retried.status === 409 && Date.now() < deadline; ) {
      await sleep(2_000);
      retried = await api("target", "POST", "/org/import", file);
    }
    expect(retried.status, retried.text.slice(0, 200)).toBe(200);
    const after = await exportBody("target");
    const outcome = `retry answered ${retried.status} ${retried.text.slice(0, 200)}; the org holds ${researchCount(after)} research records`;
    expect(researchCount(after), outcome).toBe(researchCount(others.source));
    await unchanged([]);
  }, 600_000);

  it("an erasure killed half-way is completed by its retry", async () => {
    onTestFailed(() => console.error(`wrangler output:\n${server?.log().slice(-20_000) ?? "(none)"}`));
    others.bystander = await exportBody("bystander");
    const planIds = ((await ok("doomed", "GET", "/plans?limit=100")).plans as { planId: string }[]).map((plan) => plan.planId);
    expect(planIds).toHaveLength(25);
    const erasing = api("doomed", "DELETE", "/org", { confirm: "crash-doomed" }).catch((error: unknown) => error);
    // Its hundreds of older plans keep the erasure busy for seconds: the kill lands in the middle.
    await sleep(1_000);
    await crashAndRestart();
    await erasing;
    const statuses = await Promise.all(planIds.map(async (planId) => (await api("doomed", "GET", `/plans/${planId}`)).status));
    expect(statuses.filter((status) => status === 401), "the erasure had finished before the kill").toEqual([]);
    const retried = await api("doomed", "DELETE", "/org", { confirm: "crash-doomed" });
    expect(retried.status, retried.text.slice(0, 200)).toBe(200);
    expect((await api("doomed", "GET", "/plans")).status).toBe(401);
    await unchanged(["source"]);
  }, 600_000);

  // The queue message in flight is lost with the process; the delivery stays pending in D1, and the sweep cron sends
  // it again (the server runs with WEBHOOK_STUCK_AFTER_SECONDS=1, so "stuck" needs no two-hour wait).
  it("a webhook delivery killed in flight is delivered after the restart", async () => {
    onTestFailed(() => console.error(`wrangler output:\n${server?.log().slice(-20_000) ?? "(none)"}`));
    const receiver = holdingReceiver();
    await new Promise<void>((resolve) => receiver.http.listen(0, "127.0.0.1", resolve));
    const address = receiver.http.address();
    if (!address || typeof address === "string") throw new Error("no receiver port");
    try {
      const subscribed = await api("hooked", "POST", "/webhooks", { url: `http://127.0.0.1:${address.port}/hook`, events: ["plan.completed"] });
      expect(subscribed.status).toBe(201);
      const plan = await ok("hooked", "POST", "/plans", { name: "[Scan] Hooked", researchQuestion: "Q?", steps: [{ stepType: "search", instructions: "Search" }], planDesignRationale: "One step" });
      const planId = String(plan.planId);
      const next = await ok("hooked", "POST", `/plans/${planId}/next-step`, {});
      await ok("hooked", "POST", `/plans/${planId}/steps/${(next.step as { stepId: string }).stepId}/result`, { claimId: next.claimId, result: { done: true }, confidence: 0.9, stepExecutionReport: REPORT });
      for (let i = 0; i < 200 && receiver.received.length === 0; i++) await sleep(100);
      expect(receiver.received, "the first attempt reached the receiver").toHaveLength(1);
      others.bystander = await exportBody("bystander");
      await crashAndRestart();
      // The webhook sweep runs after the restart, as it would on its five-minute schedule.
      await sleep(1_500);
      await fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`).then((response) => response.arrayBuffer());
      // The same event again (same webhook-id), within a couple of minutes.
      const eventId = receiver.received[0]?.id;
      for (let i = 0; i < 1200 && receiver.received.length < 2; i++) await sleep(100);
      expect(receiver.received.map((r) => r.id), "deliveries after the restart").toContain(eventId);
      expect(receiver.received.length).toBeGreaterThanOrEqual(2);
      await unchanged(["source"]);
    } finally {
      receiver.http.closeAllConnections();
      await new Promise<void>((resolve) => receiver.http.close(() => resolve()));
    }
  }, 600_000);
});
