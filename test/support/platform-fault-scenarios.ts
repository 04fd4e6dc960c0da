import { createExecutionContext, createScheduledController, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { PlanObject } from "../../src/durable-objects/plan-object";
import { newId } from "../../src/domain/ids";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { call, claimed, type Harness, must, newTenant, type Outcome, plan, planArgs, type Scenario, source } from "./fault-scenarios";
import { drainQueue, runPlanAlarms } from "./faults";
import { REPORT, steps } from "./plans";
import { ORIGIN } from "./worker";

/**
 * The fault battery's scenarios for the writers the platform runs itself: the webhook consumer, a
 * plan's alarm, org import and erasure, webhook redelivery and the retention cron, each driven as the
 * platform drives it.
 */

/** Ages the plan's in-progress steps past their stall threshold. */
async function ageSteps(orgId: string, planId: string): Promise<void> {
  await runInDurableObject((env as unknown as Env).PLAN.getByName(`${orgId}:${planId}`), (_instance: PlanObject, state) => {
    state.storage.sql.exec(
      "UPDATE steps SET data = json_set(data, '$.lastActivityAt', json_extract(data, '$.lastActivityAt') - ?) WHERE json_extract(data, '$.status') = 'in_progress'",
      24 * 60 * 60_000,
    );
  });
}

export async function restCall(h: Harness, key: string, path: string, init: RequestInit): Promise<Outcome & { body: string }> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${key}`);
  let response: Response;
  try {
    response = await h.fetch(new Request(`${ORIGIN}/api/v1${path}`, { ...init, headers }));
  } catch (error) {
    return { failed: true, detail: `threw: ${String(error).slice(0, 200)}`, body: "" };
  }
  const body = await response.text();
  return { failed: !response.ok, detail: `HTTP ${response.status} ${body.slice(0, 200)}`, body };
}

/** A source org with every kind of record, exported once: what the import scenario brings in. */
let sourceExport: Promise<string> | null = null;
function exportOfRichOrg(h: Harness): Promise<string> {
  sourceExport ??= (async () => {
    const t = await newTenant();
    const planId = await plan(h, t, [...steps("search"), { stepType: "checkpoint", instructions: "Confirm scope" }, ...steps("synthesize")]);
    const first = await claimed(h, t, planId);
    await must(h, t.key, "submit_step_result", { planId, stepId: first.stepId, claimId: first.claimId, result: { lagoons: 3 }, confidence: 0.7, stepExecutionReport: REPORT });
    const checkpoint = await claimed(h, t, planId);
    await must(h, t.key, "request_user_review", { planId, stepId: checkpoint.stepId, claimId: checkpoint.claimId, presentation: "Scope?", questions: ["Estuaries?"] });
    await must(h, t.key, "store_research", { artifactType: "finding", title: "Lagoon yield", content: { mw: 3 }, contentText: "Tidal lagoons yield 3 MW each", planId });
    await must(h, t.key, "record_evidence", { planId, subtopics: ["Yield"], evidence: [source(1)] });
    await must(h, t.key, "record_claims", { planId, claims: [{ subtopic: "Yield", text: "Lagoons yield 3 MW", evidenceRefs: ["E1"], workerId: "w1", confidence: 0.8 }] });
    await must(h, t.key, "store_research_output", { planId, title: "Tidal report", mediaType: "markdown", content: "# Tidal power [E1]" });
    await must(h, t.key, "submit_research_feedback", { planId, phase: "initial", satisfaction: 4, summary: "Useful" });
    await must(h, t.key, "sequential_search", { stepNumber: 1, researchGoal: "Tidal power for islands", searchStep: "Step 1 findings", nextStepNeeded: true });
    const exported = await restCall(h, t.key, "/org/export", { method: "GET" });
    if (exported.failed) throw new Error(`export failed: ${exported.detail}`);
    return exported.body;
  })();
  return sourceExport;
}

async function logCall(orgId: string, userId: string, createdAt: number): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO tool_call_log (id, org_id, user_id, client_id, api_key_id, face, operation, duration_ms, outcome, error_code, correlation_id, created_at)
     VALUES (?, ?, ?, NULL, NULL, 'mcp', 'list_active_plans', 3, 'ok', NULL, ?, ?)`,
  )
    .bind(newId("call"), orgId, userId, crypto.randomUUID(), createdAt)
    .run();
}

const DAY = 86_400_000;

/** The platform's own writers, driven as the platform drives them. */
export const PLATFORM_SCENARIOS: Scenario[] = [
  {
    // A completed plan's event waits in the queue; the consumer fans it out and delivers it.
    name: "webhook consumer",
    repeatable: true,
    prepare: async (h, t) => {
      const planId = await plan(h, t, steps("search"));
      return { planId, ...(await claimed(h, t, planId)) };
    },
    stage: async (h, t, p) => {
      await must(h, t.key, "submit_step_result", { planId: p.planId, stepId: p.stepId, claimId: p.claimId, result: { lagoons: 3 }, confidence: 0.8, stepExecutionReport: REPORT });
      await runPlanAlarms(h.env, [`${t.orgId}:${String(p.planId)}`]);
    },
    act: async (h) => {
      try {
        await drainQueue(h.plan, h.env);
        return { failed: false, detail: "drained" };
      } catch (error) {
        return { failed: true, detail: String(error) };
      }
    },
  },
  {
    // A step left in progress for a day: the alarm marks the plan stalled, indexes it and sends plan.stalled.
    name: "plan alarm",
    repeatable: true,
    prepare: async (h, t) => {
      const planId = await plan(h, t);
      await claimed(h, t, planId);
      return { planId };
    },
    stage: (_h, t, p) => ageSteps(t.orgId, String(p.planId)),
    act: async (h, t, p) => {
      h.plan.objects.PLAN.add(`${t.orgId}:${String(p.planId)}`);
      await runPlanAlarms(h.env, [`${t.orgId}:${String(p.planId)}`]);
      return { failed: false, detail: "alarm ran" };
    },
  },
  {
    name: "org import",
    repeatable: true,
    prepare: async (h) => ({ file: await exportOfRichOrg(h) }),
    act: (h, t, p) => restCall(h, t.key, "/org/import", { method: "POST", body: String(p.file), headers: { "content-type": "application/x-ndjson" } }),
    race: {
      thenThrow: true,
      write: (h, t) => call(h, t.key, "store_research", { artifactType: "note", title: "Written during the import", content: { by: "member" }, contentText: "A note a member wrote while the import ran" }),
      kept: async (t) => (await env.DB.prepare("SELECT 1 FROM artifacts WHERE org_id = ? AND title = 'Written during the import'").bind(t.orgId).first()) !== null,
      // A write that lands before the import has checked the org is empty: the import is refused, as for any org with research.
      refusal: /HTTP 409 .*already holds research/,
    },
    // The sources the imported deliverable cites are recorded again (not in the file, so not in the export): E1, once.
    // (An import refused because a member's write raced in imports no deliverable.)
    check: async (_h, t) => {
      const outputs = await env.DB.prepare("SELECT COUNT(*) AS n FROM research_outputs WHERE org_id = ?").bind(t.orgId).first<number>("n");
      if (!outputs) return [];
      const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM research_output_sources WHERE org_id = ?").bind(t.orgId).first<number>("n");
      return n === 1 ? [] : [`the imported deliverable records ${n} cited sources, the file's cites 1`];
    },
  },
  {
    name: "org erasure",
    repeatable: true,
    erases: true,
    prepare: async (h, t) => {
      const planId = await plan(h, t);
      await must(h, t.key, "store_research", { artifactType: "finding", title: "Lagoon yield", content: { mw: 3 }, contentText: "Tidal lagoons yield 3 MW each", planId });
      await must(h, t.key, "sequential_search", { stepNumber: 1, researchGoal: "Tidal power for islands", searchStep: "Step 1 findings", nextStepNeeded: true });
      return { planId };
    },
    act: (h, t) => restCall(h, t.key, "/org", { method: "DELETE", body: JSON.stringify({ confirm: t.slug }), headers: { "content-type": "application/json" } }),
    race: {
      thenThrow: false,
      write: (h, t) => call(h, t.key, "create_research_plan", planArgs(steps("search"))),
      kept: async () => true,
    },
  },
  {
    // An admin sends a failed delivery again: it is reopened and queued.
    name: "webhook redelivery",
    repeatable: true,
    prepare: async (_h, t) => {
      const subscriptionId = String(await env.DB.prepare("SELECT id FROM webhook_subscriptions WHERE org_id = ?").bind(t.orgId).first("id"));
      const deliveryId = newId("dlv");
      const eventId = newId("msg");
      const body = JSON.stringify({ type: "plan.completed", timestamp: new Date().toISOString(), data: { planId: "plan_x" } });
      await env.DB.prepare(
        `INSERT INTO webhook_deliveries (id, org_id, subscription_id, event_id, event_type, body, status, attempts, last_error, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'plan.completed', ?, 'failed', 9, 'gave up: out of retries', ?, ?)`,
      )
        .bind(deliveryId, t.orgId, subscriptionId, eventId, body, Date.now(), Date.now())
        .run();
      return { subscriptionId, deliveryId };
    },
    act: (h, t, p) => restCall(h, t.key, `/webhooks/${String(p.subscriptionId)}/deliveries/${String(p.deliveryId)}/redeliver`, { method: "POST" }),
  },
  {
    name: "retention cron",
    repeatable: true,
    prepare: async (_h, t) => {
      const now = Date.now();
      for (let i = 0; i < 3; i++) await logCall(t.orgId, t.userId, now - (91 + i) * DAY);
      await logCall(t.orgId, t.userId, now - 2 * DAY);
      return { now };
    },
    act: async (h, _t, p) => {
      const ctx = createExecutionContext();
      try {
        await worker.scheduled(createScheduledController({ scheduledTime: Number(p.now), cron: "23 3 * * *" }), h.env as never);
        await waitOnExecutionContext(ctx);
        return { failed: false, detail: "ran" };
      } catch (error) {
        return { failed: true, detail: String(error) };
      }
    },
    check: async (_h, t, p) => {
      const { results } = await env.DB.prepare("SELECT created_at FROM tool_call_log WHERE org_id = ?").bind(t.orgId).all<{ created_at: number }>();
      const old = results.filter((row) => row.created_at < Number(p.now) - 90 * DAY).length;
      return [...(old > 0 ? [`${old} tool-call log rows past retention were left`] : []), ...(results.length - old !== 1 ? [`${results.length - old} recent tool-call log rows, expected 1`] : [])];
    },
  },
];
