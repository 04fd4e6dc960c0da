import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { addUser, applyMigrations, createApiKey, createOrg, type DevServer, findFreePort, startDevServer } from "../../scripts/lib/local.mjs";
import { groupMembers, portIsFree } from "../support/process-group";

/**
 * Plan durability across a crash of the local server: a plan mid-flight (step 1
 * done, step 2 claimed with a one-minute stall threshold) survives a SIGKILL of
 * the whole `wrangler dev` process group (wrangler and workerd, no graceful
 * shutdown), and the stall alarm armed BEFORE the kill still fires after the
 * restart, exactly once.
 *
 * After the restart nothing writes to the plan until the stall is observed:
 * get_next_step would count as activity (it moves the stall deadline and
 * re-arms the alarm), so the resumed claim is checked only after the stall.
 *
 * This file runs its own server on its own persist dir, because it kills it.
 */

/** The REPORT fixture of test/support/plans.ts (which imports the workers-pool-only cloudflare:test, so it cannot load here). */
const REPORT = { thinking: "Looked at the sources", webSearches: [], webFetches: [], otherToolCalls: [], subagents: [] };

const STALL_MINUTES = 1;
/** How often the test asks whether the plan has stalled yet (it goes on within a second of the alarm). */
const POLL_MS = 1_000;
/** How long after the stall the test looks again for a second one (none must come). */
const AFTER_STALL_MS = 5_000;
const STALL_WAIT_MS = 150_000;

const persistTo = mkdtempSync(join(tmpdir(), "cairn-e2e-durability-"));
const logDir = mkdtempSync(join(tmpdir(), "cairn-e2e-durability-log-"));
const orgSlug = "durability";
const email = "durability-admin@cairn.test";

let apiKey = "";
let server: DevServer | null = null;
let baseUrl = "";
const timings: Record<string, number> = {};
const t0 = Date.now();
const mark = (name: string) => {
  timings[name] = Math.round((Date.now() - t0) / 100) / 10;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
}

async function api(method: "GET" | "POST", path: string, body?: unknown): Promise<ApiResponse> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { raw: text };
  }
  return { status: response.status, body: parsed };
}

/** The call must succeed with the given status; returns its JSON body. */
async function ok<T = Record<string, unknown>>(method: "GET" | "POST", path: string, body?: unknown, status = 200): Promise<T> {
  const response = await api(method, path, body);
  if (response.status !== status) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as T;
}

interface StepRef {
  stepId: string;
  stepOrder: number;
  stepType: string;
}
interface PlanStatus {
  planId: string;
  status: string;
  derivedStatus: string;
  stalled: boolean;
  progress: number;
  totalSteps: number;
  currentStep: (StepRef & { status: string }) | null;
  completedSteps: (StepRef & { status: string; resultSummary: unknown; confidence: number | null; finishedAt: string | null })[];
  pendingSteps: StepRef[];
  inProgressSteps: (StepRef & { status: string; claimedAt: string | null; lastActivityAt: string | null })[];
  failedSteps: StepRef[];
}
interface NextStep {
  status: string;
  step?: StepRef & { instructions: string; status: string };
  claimId?: string;
  resumed?: boolean;
  progress: number;
  totalSteps: number;
}
interface AuditEntry {
  action: string;
  stepId: string | null;
  detail: unknown;
  actorUserId: string;
  actorClientId: string | null;
  createdAt: string;
}
interface History {
  audit: AuditEntry[];
  nextCursor: string | null;
}
interface ActivePlans {
  plans: { planId: string; status: string; progress: number; stalled: boolean; currentStepOrder: number | null }[];
}

const status = (planId: string) => ok<PlanStatus>("GET", `/plans/${planId}`);
const nextStep = (planId: string) => ok<NextStep>("POST", `/plans/${planId}/next-step`, {});
const submit = (planId: string, stepId: string, claimId: string, result: unknown, confidence = 0.8) =>
  ok<{ stepId: string; status: string; replayed: boolean; planStatus: string; progress: number }>("POST", `/plans/${planId}/steps/${stepId}/result`, {
    claimId,
    result,
    confidence,
    stepExecutionReport: REPORT,
  });

/** The whole audit trail (newest first), following cursors. */
async function audit(planId: string): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const history: History = await ok<History>("GET", `/plans/${planId}/history?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    entries.push(...history.audit);
    cursor = history.nextCursor;
    if (!cursor) break;
  }
  return entries;
}
const stalledEntries = async (planId: string) => (await audit(planId)).filter((entry) => entry.action === "plan.stalled");

async function start(port: number, label: string): Promise<DevServer> {
  const started = await startDevServer({ port, persistTo, inspectorPort: await findFreePort(), logFile: join(logDir, `wrangler-${label}.log`), timeoutMs: 90_000 });
  baseUrl = started.url;
  return started;
}

describe("a plan survives a SIGKILL of the local server", () => {
  beforeAll(async () => {
    await applyMigrations({ persistTo });
    await createOrg({ slug: orgSlug, name: "Durability" }, { persistTo });
    await addUser({ org: orgSlug, email, name: "Durability Admin", role: "admin", password: "durability-password-correct-horse" }, { persistTo });
    ({ key: apiKey } = await createApiKey({ org: orgSlug, userEmail: email, name: "durability", scopes: ["research:read", "research:write"] }, { persistTo }));
    mark("seeded");
    server = await start(await findFreePort(), "first");
    mark("firstServerUp");
  }, 240_000);

  afterAll(async () => {
    try {
      await server?.stop();
    } finally {
      server = null;
      rmSync(persistTo, { recursive: true, force: true });
      rmSync(logDir, { recursive: true, force: true });
    }
    console.info(`plan-durability timings (s since file start): ${JSON.stringify(timings)}`);
  }, 60_000);

  it(
    "keeps completed and claimed steps, fires the pending stall alarm once after restart, and finishes",
    async () => {
      onTestFailed(() => {
        console.error(`wrangler output of the current server:\n${server?.log().slice(-20_000) ?? "(none)"}`);
      });
      if (!server) throw new Error("no server");

      // --- Before the crash: step 1 done, step 2 claimed (1-minute stall threshold), step 3 pending.
      const created = await ok<{ planId: string; status: string; totalSteps: number; steps: StepRef[] }>(
        "POST",
        "/plans",
        {
          name: "[Deep] Crash durability",
          researchQuestion: "Does a plan survive a hard kill of its server?",
          steps: [
            { stepType: "search", instructions: "Do step 1 (search)" },
            { stepType: "analyze", instructions: "Do step 2 (analyze)", stallThresholdMinutes: STALL_MINUTES },
            { stepType: "synthesize", instructions: "Do step 3 (synthesize)" },
          ],
          planDesignRationale: "Search, then analyze, then synthesize",
        },
        201,
      );
      const { planId } = created;
      expect(created).toMatchObject({ totalSteps: 3 }); // an acknowledgement: the plan's id and steps, not its status
      const [step1, step2, step3] = created.steps;
      if (!step1 || !step2 || !step3) throw new Error(`expected three steps: ${JSON.stringify(created.steps)}`);

      const first = await nextStep(planId);
      expect(first).toMatchObject({ status: "step", step: { stepId: step1.stepId, stepOrder: 1 } });
      const step1Result = { findings: ["step 1 finding survives the crash"] };
      const submitted1 = await submit(planId, step1.stepId, first.claimId ?? "", step1Result, 0.9);
      expect(submitted1).toMatchObject({ status: "completed", replayed: false, planStatus: "active", progress: 33 });

      const second = await nextStep(planId);
      expect(second).toMatchObject({ status: "step", step: { stepId: step2.stepId, stepOrder: 2 } });
      const claim2 = second.claimId ?? "";
      expect(claim2).not.toBe("");
      const beforeKill = await status(planId);
      const claimedAt = Date.parse(beforeKill.inProgressSteps[0]?.claimedAt ?? "");
      expect(beforeKill.completedSteps[0]?.finishedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(Number.isFinite(claimedAt)).toBe(true);
      const stallDeadline = claimedAt + STALL_MINUTES * 60_000;
      mark("step2Claimed");

      // --- The crash: SIGKILL the whole group (wrangler and workerd), no graceful shutdown.
      const pgid = server.child.pid;
      if (!pgid) throw new Error("the dev server has no pid");
      const oldPort = server.port;
      expect(groupMembers(pgid).length).toBeGreaterThanOrEqual(2); // wrangler (node) and workerd at least
      process.kill(-pgid, "SIGKILL");
      const exit = await server.exited;
      expect(exit.signal).toBe("SIGKILL");
      for (let i = 0; i < 50 && groupMembers(pgid).length > 0; i++) await sleep(100);
      expect(groupMembers(pgid), "processes left in the killed group").toEqual([]);
      await expect(fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
      server = null;
      mark("killed");

      // --- Restart on the same persist dir (same port if it is still free, else a new one).
      const port = (await portIsFree(oldPort)) ? oldPort : await findFreePort();
      server = await start(port, "second");
      mark("restarted");
      const restartedAt = Date.now();
      // The stall must still be in the future, or the test would not tell a surviving alarm from one re-armed now.
      expect(restartedAt, "restart took longer than the stall threshold").toBeLessThan(stallDeadline);

      // --- Nothing lost (read-only checks: no activity on the plan, so the pre-crash alarm stays the only one).
      const after = await status(planId);
      expect(after).toMatchObject({ planId, status: "active", derivedStatus: "active", stalled: false, progress: 33, totalSteps: 3 });
      expect(after.completedSteps).toEqual([
        {
          stepId: step1.stepId,
          stepOrder: 1,
          stepType: "search",
          status: "completed",
          resultSummary: step1Result, // small results are summarized whole, as a value
          confidence: 0.9,
          // The time it finished survives the crash exactly.
          finishedAt: beforeKill.completedSteps[0]?.finishedAt,
        },
      ]);
      expect(after.currentStep).toEqual({ stepId: step2.stepId, stepOrder: 2, stepType: "analyze", status: "in_progress" });
      expect(after.inProgressSteps).toEqual(beforeKill.inProgressSteps);
      expect(after.pendingSteps).toEqual([{ stepId: step3.stepId, stepOrder: 3, stepType: "synthesize" }]);
      expect(after.failedSteps).toEqual([]);

      const active = await ok<ActivePlans>("GET", "/plans");
      expect(active.plans.find((plan) => plan.planId === planId)).toMatchObject({ status: "active", progress: 33, stalled: false, currentStepOrder: 2 });
      expect(await stalledEntries(planId)).toEqual([]);

      // --- The stall alarm armed before the crash fires after the restart.
      let stalled: PlanStatus | null = null;
      const waitDeadline = Date.now() + STALL_WAIT_MS;
      while (Date.now() < waitDeadline) {
        const current = await status(planId);
        if (current.status === "stalled") {
          stalled = current;
          break;
        }
        expect(current.status).toBe("active");
        await sleep(POLL_MS);
      }
      mark("stallObserved");
      if (!stalled) throw new Error(`the plan did not stall within ${STALL_WAIT_MS / 1000} s of the restart (deadline was ${new Date(stallDeadline).toISOString()})`);
      expect(stalled).toMatchObject({ status: "stalled", stalled: true, progress: 33, currentStep: { stepId: step2.stepId, status: "in_progress" } });

      const stallEntries = await stalledEntries(planId);
      expect(stallEntries).toHaveLength(1);
      const [stallEntry] = stallEntries;
      expect(stallEntry).toMatchObject({ action: "plan.stalled", stepId: step2.stepId, actorUserId: "system", actorClientId: "plan-alarm" });
      const firedAt = Date.parse(stallEntry?.createdAt ?? "");
      expect(firedAt).toBeGreaterThanOrEqual(stallDeadline);
      expect(firedAt).toBeGreaterThan(restartedAt);
      timings.alarmLateBySeconds = Math.round((firedAt - stallDeadline) / 100) / 10;

      // The D1 index heard about it too (the alarm flushes the outbox).
      const activeStalled = await ok<ActivePlans>("GET", "/plans");
      expect(activeStalled.plans.find((plan) => plan.planId === planId)).toMatchObject({ status: "stalled", stalled: true, progress: 33 });

      // A little later, still one stall: the alarm does not mark it again.
      await sleep(AFTER_STALL_MS);
      expect(await stalledEntries(planId)).toHaveLength(1);

      // --- Coming back: the same claim, resumed (which counts as activity and clears the stall).
      const resumed = await nextStep(planId);
      expect(resumed).toMatchObject({ status: "step", resumed: true, claimId: claim2, step: { stepId: step2.stepId, stepOrder: 2, status: "in_progress" }, progress: 33 });
      const cleared = await status(planId);
      expect(cleared).toMatchObject({ status: "active", stalled: false, progress: 33 });
      const trail = await audit(planId);
      expect(trail.filter((entry) => entry.action === "plan.stall_cleared")).toHaveLength(1);

      // --- Step 2 with the original claim, then step 3: completed.
      const submitted2 = await submit(planId, step2.stepId, claim2, { findings: ["step 2 after the crash"] }, 0.7);
      expect(submitted2).toMatchObject({ status: "completed", replayed: false, planStatus: "active", progress: 67 });

      const third = await nextStep(planId);
      expect(third).toMatchObject({ status: "step", step: { stepId: step3.stepId, stepOrder: 3 } });
      const submitted3 = await submit(planId, step3.stepId, third.claimId ?? "", { findings: ["synthesis"] });
      expect(submitted3).toMatchObject({ status: "completed", planStatus: "completed", progress: 100 });

      const done = await status(planId);
      expect(done).toMatchObject({ status: "completed", derivedStatus: "completed", stalled: false, progress: 100, currentStep: null, pendingSteps: [], inProgressSteps: [] });
      expect(done.completedSteps.map((step) => step.stepId)).toEqual([step1.stepId, step2.stepId, step3.stepId]);
      expect(await nextStep(planId)).toMatchObject({ status: "plan_complete", progress: 100 });

      const finalTrail = await audit(planId);
      expect(finalTrail.filter((entry) => entry.action === "plan.stalled")).toHaveLength(1);
      expect(finalTrail.filter((entry) => entry.action === "plan.completed")).toHaveLength(1);
      const listed = await ok<ActivePlans>("GET", "/plans");
      expect(listed.plans.some((plan) => plan.planId === planId)).toBe(false);
      mark("completed");
    },
    300_000,
  );
});
