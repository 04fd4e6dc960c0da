import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import worker from "../../src/index";
import { CHECK_FAILURE_REASONS, SOURCE_CHECK_CONCURRENCY } from "../../src/domain/sources/check-scheduling";
import { SOURCE_CHECK_LIMITS } from "../../src/domain/sources/verification";
import type { Env } from "../../src/env";
import { sourceCheckerOf } from "../../src/platform/sources/consumer";
import { createPlan, ok, steps } from "../support/plans";
import { pause, waitFor } from "../support/webhooks";
import { seedTenant } from "../support/worker";

/**
 * Every recorded source ends in a verdict, on workerd with Miniflare's real source-check queue (and its dead-letter
 * queue), each org's real checker (a Durable Object), the real D1 and R2: a check that fails on every attempt (the
 * checker retries it) ends unchecked on its last one; one whose unchecked verdict cannot be written either is
 * dead-lettered and marked unchecked by the dead-letter queue's consumer; one left pending (its message lost) is sent again by
 * the five-minute sweep once, then marked unchecked. D1 fails for real here: a trigger refuses the writes a test names.
 */
const origin = inject("sourcePagesOrigin");
const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";
const SWEEP_CRON = "*/5 * * * *";

interface Row {
  verification_status: string;
  verification_reason: string | null;
  verification_requeued_at: number | null;
}

const row = (orgId: string, planId: string) =>
  env.DB.prepare("SELECT verification_status, verification_reason, verification_requeued_at FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = 1")
    .bind(orgId, planId)
    .first<Row>();

async function recorded(path = "/article.html") {
  const tenant = await seedTenant();
  const { planId } = await createPlan(tenant.apiKey, { name: "[Deep] Solid-state batteries", steps: steps("analyze", "search", "synthesize"), citationPolicy: "strict" });
  return { ...tenant, planId: String(planId), record: () => ok(tenant.apiKey, "record_evidence", { planId, evidence: [{ url: `${origin}${path}`, title: "Solid-state batteries reach 500 Wh/kg", facts: "Cells reached 500 Wh/kg", subtopic: "Density", quote: QUOTE }] }) };
}

/** D1 refuses every write of the plan's verdicts except those `allowed` lets through (a real failure of the database, not a stand-in). */
async function refuseVerdicts(planId: string, allowed: string): Promise<() => Promise<void>> {
  const name = `refuse_${planId.replace(/\W/g, "_")}`;
  await env.DB.prepare(
    `CREATE TRIGGER ${name} BEFORE UPDATE OF verification_status ON ledger_evidence
       WHEN NEW.plan_id = '${planId}' AND NOT (${allowed})
       BEGIN SELECT RAISE(ABORT, 'injected: the database refuses this verdict'); END`,
  ).run();
  return async () => {
    await env.DB.prepare(`DROP TRIGGER IF EXISTS ${name}`).run();
  };
}

const settledRow = (orgId: string, planId: string, timeoutMs = 25_000) =>
  waitFor("a verdict", async () => {
    const r = await row(orgId, planId);
    return r && r.verification_status !== "pending" ? r : null;
  }, timeoutMs);

describe("every source check ends in a verdict", () => {
  it("a check that fails on every attempt ends unchecked on its last one, saying why", async () => {
    const t = await recorded();
    // Only an unchecked verdict may be written: every check's own verdict fails, as a database fault would.
    const restore = await refuseVerdicts(t.planId, "NEW.verification_status = 'unchecked'");
    try {
      await t.record();
      const r = await settledRow(t.orgId, t.planId);
      expect(r).toMatchObject({ verification_status: "unchecked", verification_reason: CHECK_FAILURE_REASONS.attemptsSpent(SOURCE_CHECK_CONCURRENCY.maxAttempts) });
      // The org's checker, which retried it, keeps nothing of the check once it ended.
      await waitFor("the checker to let the check go", async () => (await sourceCheckerOf(env as unknown as Env, t.orgId).pending()) === 0, 5_000);
    } finally {
      await restore();
    }
  });

  it("a check whose last attempt cannot write its unchecked verdict either is dead-lettered, and the dead-letter queue's consumer marks it", async () => {
    const t = await recorded();
    // Even the last attempt's unchecked verdict fails: the org's checker sends the check to the dead-letter queue, whose consumer gets through.
    const restore = await refuseVerdicts(t.planId, `NEW.verification_reason IS '${CHECK_FAILURE_REASONS.deadLettered}'`);
    try {
      await t.record();
      const r = await settledRow(t.orgId, t.planId);
      expect(r).toMatchObject({ verification_status: "unchecked", verification_reason: CHECK_FAILURE_REASONS.deadLettered });
    } finally {
      await restore();
    }
  });

  it("a verdict reached meanwhile is never overwritten by a failure's", async () => {
    const t = await recorded();
    await t.record();
    expect((await settledRow(t.orgId, t.planId)).verification_status).toBe("verified");
    // The queue delivers the same check again and it fails on its last attempt: the verdict stands.
    const restore = await refuseVerdicts(t.planId, "NEW.verification_status = 'unchecked'");
    try {
      await env.SOURCE_CHECK_QUEUE.send({ orgId: t.orgId, planId: t.planId, n: 1 });
      await pause(3_000);
      expect((await row(t.orgId, t.planId))?.verification_status).toBe("verified");
    } finally {
      await restore();
    }
  });

  it("a source left pending (its message lost) is sent again once by the sweep, then marked unchecked", async () => {
    const t = await recorded();
    await t.record();
    expect((await settledRow(t.orgId, t.planId)).verification_status).toBe("verified");
    // Its check lost: pending since before the sweep's threshold, no message on its way.
    const lost = Date.now() - (SOURCE_CHECK_LIMITS.pendingMaxMs - 9 * 60_000);
    await env.DB.prepare("UPDATE ledger_evidence SET verification_status = 'pending', verification_requested_at = ? WHERE org_id = ? AND plan_id = ?").bind(lost, t.orgId, t.planId).run();
    const sweep = () => worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: SWEEP_CRON }), env as never);

    // The first sweep sends the check again; it comes back verified.
    await sweep();
    expect((await row(t.orgId, t.planId))?.verification_requeued_at).toBeGreaterThan(0);
    expect(await settledRow(t.orgId, t.planId)).toMatchObject({ verification_status: "verified" });

    // Lost again after being sent again: the next sweep gives up on it, with the bound in the reason.
    await env.DB.prepare("UPDATE ledger_evidence SET verification_status = 'pending' WHERE org_id = ? AND plan_id = ?").bind(t.orgId, t.planId).run();
    await sweep();
    expect(await row(t.orgId, t.planId)).toMatchObject({ verification_status: "unchecked", verification_reason: "not checked: no verdict within 15 minutes" });
  });

  it("the sweep leaves a source pending a shorter while alone (its check may still be on its way)", async () => {
    const t = await recorded();
    await t.record();
    await settledRow(t.orgId, t.planId);
    await env.DB.prepare("UPDATE ledger_evidence SET verification_status = 'pending', verification_requested_at = ? WHERE org_id = ? AND plan_id = ?").bind(Date.now() - 60_000, t.orgId, t.planId).run();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: SWEEP_CRON }), env as never);
    expect(await row(t.orgId, t.planId)).toMatchObject({ verification_status: "pending", verification_requeued_at: null });
  });

  it("the sweep reaches every org", async () => {
    const orgs = [await recorded(), await recorded()];
    for (const t of orgs) {
      await t.record();
      await settledRow(t.orgId, t.planId);
      await env.DB.prepare("UPDATE ledger_evidence SET verification_status = 'pending', verification_requested_at = ?, verification_requeued_at = 1 WHERE org_id = ? AND plan_id = ?")
        .bind(Date.now() - SOURCE_CHECK_LIMITS.pendingMaxMs, t.orgId, t.planId)
        .run();
    }
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: SWEEP_CRON }), env as never);
    for (const t of orgs) expect((await row(t.orgId, t.planId))?.verification_status).toBe("unchecked");
  });
});
