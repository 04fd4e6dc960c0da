import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { Visitor } from "../support/dashboard";
import { completeNextStep, createPlan, ok } from "../support/plans";
import { adminOf, at, subscribe, useStandInReceivers, waitFor } from "../support/webhooks";
import { rest, seedTenant } from "../support/worker";

/**
 * Scheduled re-runs on workerd: the five-minute cron (the Worker's own scheduled handler, fired here at chosen times)
 * makes each due series one run, marks runs nobody started missed and pauses a series after 3; a run's deliverable
 * says what changed since the previous run's (get_research_output and the dashboard).
 */

useStandInReceivers();

const DAY = 86_400_000;
const tick = (at: number) => worker.scheduled(createScheduledController({ scheduledTime: at, cron: "*/5 * * * *" }), env as never);

interface ScheduleBody {
  schedule: { seriesId: string; status: string; nextDueAt: string | null; missedInARow: number; runs: { runNumber: number; planId: string; status: string }[] };
}

async function schedule(key: string, planId: string, body: unknown) {
  return rest(key, `/plans/${planId}/schedule`, { method: "PUT", body: JSON.stringify(body) });
}

async function scheduleOf(key: string, planId: string): Promise<ScheduleBody["schedule"]> {
  const response = await rest(key, `/plans/${planId}/schedule`);
  expect(response.status).toBe(200);
  return ((await response.json()) as ScheduleBody).schedule;
}

/** A plan scheduled daily, its first run due a minute ago. */
async function dailyPlan(key: string, name = "[Deep] Solid-state batteries") {
  const { planId } = await createPlan(key, { name, researchQuestion: "Where do solid-state batteries stand?" });
  const startAt = new Date(Date.now() - 60_000).toISOString();
  const response = await schedule(key, planId, { every: "day", startAt });
  expect(response.status).toBe(201);
  return { planId, startAt: Date.parse(startAt) };
}

describe("scheduled re-runs", () => {
  it("makes exactly one run per due time however often the cron fires, lists it first as due, and announces it", async () => {
    const { orgId, apiKey, adminKey, admin } = await adminOf();
    await subscribe(adminKey, "/runs", ["plan.scheduled_run_due"]);
    // Bad schedules are refused, field named, and change nothing.
    const { planId: other } = await createPlan(apiKey);
    for (const [body, path] of [
      [{ every: "hour" }, "every"],
      [{ every: "week", startAt: "2026-12-02T00:00:00Z", until: "2026-12-01T00:00:00Z" }, "until"],
      [{ every: "week", startAt: "next tuesday" }, "startAt"],
    ] as const) {
      const refused = await schedule(apiKey, other, body);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain(path);
    }
    expect((await rest(apiKey, `/plans/${other}/schedule`)).status).toBe(404);
    // At most 50 schedules an org (paused ones count): the 51st is refused, saying so.
    const fill = Array.from({ length: 50 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO plan_schedules (series_id, org_id, plan_id, every, start_at, until, due_index, next_due_at, next_run_number, missed_in_a_row, status, created_by, created_at, updated_at) VALUES (?, ?, ?, 'day', 0, NULL, 0, 0, 1, 3, 'paused', 'u', 0, 0)",
      ).bind(`ser_fill${i}`, orgId, `plan_fill${i}`),
    );
    await env.DB.batch(fill);
    const full = await schedule(apiKey, other, { every: "day" });
    expect(full.status).toBe(409);
    expect(((await full.json()) as { detail: string }).detail).toContain("50 schedules");
    await env.DB.prepare("DELETE FROM plan_schedules WHERE series_id LIKE 'ser_fill%'").run();
    expect((await schedule(apiKey, "plan_nothere", { every: "day" })).status).toBe(404);

    const { planId, startAt } = await dailyPlan(apiKey);
    // Twice at once (two isolates' ticks racing), then once more.
    const firedAt = Date.now();
    await Promise.all([tick(firedAt), tick(firedAt)]);
    await tick(firedAt + 60_000);
    const runs = await env.DB.prepare("SELECT r.plan_id, r.run_number, r.due_at FROM plan_series_runs r JOIN plan_schedules s USING (series_id) WHERE s.plan_id = ?").bind(planId).all<{ plan_id: string; run_number: number; due_at: number }>();
    expect(runs.results.map((r) => [r.run_number, r.due_at])).toEqual([[1, startAt]]);
    const runPlanId = runs.results[0]?.plan_id as string;

    // A newer plan is updated later, yet the due run leads the list.
    await createPlan(apiKey, { name: "[Scan] Something newer" });
    const { plans } = (await ok(apiKey, "list_active_plans", {})) as { plans: { planId: string; name: string; due?: boolean }[] };
    expect(plans[0]).toMatchObject({ planId: runPlanId, name: "[Deep] Solid-state batteries · run 1", due: true });
    expect(plans.filter((p) => p.due)).toHaveLength(1);
    const status = (await ok(apiKey, "get_plan_status", { planId: runPlanId })) as { totalSteps: number; series: Record<string, unknown> };
    expect(status.totalSteps).toBe(3);
    expect(status.series).toMatchObject({ runNumber: 1, every: "day", status: "active", run: "due" });
    // The series' own plan reads as any plan (one read of the plan); its schedule is at the REST route.
    expect(await ok(apiKey, "get_plan_status", { planId })).not.toHaveProperty("series");
    expect(await scheduleOf(apiKey, planId)).toMatchObject({ status: "active" });

    const [delivery] = await waitFor("the run's event", async () => (at("/runs").length ? at("/runs") : null));
    const body = JSON.parse(delivery?.body ?? "{}") as { type: string; data: Record<string, unknown> };
    expect(body).toMatchObject({ type: "plan.scheduled_run_due", data: { planId: runPlanId, seriesPlanId: planId, runNumber: 1, every: "day" } });
    expect(at("/runs")).toHaveLength(1);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM plan_series_runs WHERE org_id = ?").bind(orgId).first("n")).toBe(1);
    // The schedule's owner hears of it by e-mail (a default nobody had to choose), once, with the run's page.
    const recipient = `user:${admin.userId}`;
    const mails = await waitFor("the run's e-mail", async () => {
      const rows = await env.DB.prepare("SELECT event_type, status, body_text FROM notification_deliveries WHERE recipient = ? AND event_type = 'plan.scheduled_run_due'")
        .bind(recipient)
        .all<{ event_type: string; status: string; body_text: string | null }>();
      return rows.results.some((r) => r.status === "delivered") ? rows.results : null;
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]?.body_text).toContain(`/dashboard/plans/${runPlanId}`);

    // Started, then finished before the next due time: it reads so at once (get_plan_status, the schedule, the
    // dashboard), not "due: waiting for an assistant" until the next tick settles it a day later.
    await completeNextStep(apiKey, runPlanId);
    expect(((await ok(apiKey, "get_plan_status", { planId: runPlanId })) as { series: { run: string } }).series.run).toBe("started");
    expect((await scheduleOf(apiKey, planId)).runs[0]?.status).toBe("started");
    for (let i = 0; i < 2; i++) await completeNextStep(apiKey, runPlanId);
    expect(((await ok(apiKey, "get_plan_status", { planId: runPlanId })) as { status: string; series: { run: string } }).series.run).toBe("completed");
    expect((await scheduleOf(apiKey, planId)).runs[0]?.status).toBe("completed");
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const seriesPage = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    expect(seriesPage).toContain("Run 1</a> due");
    expect(seriesPage).not.toContain("waiting for an assistant");
    expect(seriesPage).toMatch(/Run 1<\/a> due [^<]+: finished/);
  });

  it("marks a run nobody started missed when the next is due (out of the open plans), and pauses the series after 3", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await dailyPlan(apiKey);
    const now = Date.now();
    await tick(now);
    await tick(now + DAY);
    let current = await scheduleOf(apiKey, planId);
    expect(current.runs.map((r) => [r.runNumber, r.status])).toEqual([
      [2, "due"],
      [1, "missed"],
    ]);
    const missed = current.runs[1]?.planId as string;
    expect(((await ok(apiKey, "get_plan_status", { planId: missed })) as { status: string; series: { run: string } }).series.run).toBe("missed");
    const { plans } = (await ok(apiKey, "list_active_plans", {})) as { plans: { planId: string; due?: boolean }[] };
    expect(plans.map((p) => p.planId)).not.toContain(missed);
    expect(plans.filter((p) => p.due)).toHaveLength(1);

    await tick(now + 2 * DAY);
    await tick(now + 3 * DAY);
    await tick(now + 4 * DAY);
    current = await scheduleOf(apiKey, planId);
    expect(current).toMatchObject({ status: "paused", missedInARow: 3, nextDueAt: null });
    expect(current.runs.map((r) => r.status)).toEqual(["missed", "missed", "missed"]);
    // Set again, it resumes; stopped, it makes no runs.
    expect((await schedule(apiKey, planId, { every: "day" })).status).toBe(200);
    expect((await scheduleOf(apiKey, planId)).status).toBe("active");
    expect((await rest(apiKey, `/plans/${planId}/schedule`, { method: "DELETE" })).status).toBe(204);
    await tick(now + 30 * DAY);
    expect((await scheduleOf(apiKey, planId)).runs).toHaveLength(3);
  });

  it("stops a series whose plan is gone instead of failing every tick", async () => {
    const { orgId, apiKey } = await seedTenant();
    const { planId } = await dailyPlan(apiKey);
    await (env as unknown as { PLAN: { getByName(name: string): { erase(): Promise<void> } } }).PLAN.getByName(`${orgId}:${planId}`).erase();
    await tick(Date.now());
    const row = await env.DB.prepare("SELECT status FROM plan_schedules WHERE plan_id = ?").bind(planId).first<{ status: string }>();
    expect(row?.status).toBe("stopped");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM plan_series_runs WHERE org_id = ?").bind(orgId).first("n")).toBe(0);
  });

  it("shows what changed since the previous run on the second run's deliverable (get_research_output and the dashboard)", async () => {
    const { apiKey, admin } = await seedTenant();
    const { planId } = await dailyPlan(apiKey);
    const now = Date.now();
    const deliver = async (runPlanId: string, density: number, third: { subtopic: string; text: string; url: string; heading: string }) => {
      await ok(apiKey, "get_next_step", { planId: runPlanId });
      await ok(apiKey, "record_evidence", {
        planId: runPlanId,
        evidence: [
          { url: "https://a.example/one", title: "Density", facts: `${density} Wh/kg`, subtopic: "Density", quote: `cells reached ${density} Wh/kg` },
          { url: third.url, title: third.subtopic, facts: third.text, subtopic: third.subtopic, quote: third.text },
          { url: `https://uncited.example/${density}`, title: "Never cited", facts: "never cited", subtopic: "Secrets", quote: "never cited" },
        ],
      });
      await ok(apiKey, "record_claims", {
        planId: runPlanId,
        claims: [
          { subtopic: "Density", text: `Solid-state cells reached ${density} Wh/kg in the lab`, evidenceRefs: ["E1"], workerId: "w1", confidence: 0.8 },
          { subtopic: third.subtopic, text: third.text, evidenceRefs: ["E2"], workerId: "w1", confidence: 0.7 },
          // Refused by the reviewers though cited, and never cited: neither is something the deliverable said.
          { subtopic: "Density", text: `Cells will reach ${density * 3} Wh/kg next year`, evidenceRefs: ["E1"], workerId: "w1", confidence: 0.5 },
          { subtopic: "Secrets", text: `CONFIDENTIAL: budget note ${density}`, evidenceRefs: ["E3"], workerId: "w1", confidence: 0.9 },
        ],
      });
      const judged = (claim: string, verdict: string) => ({ claim, kind: "reviewer", judge: "reviewer-1", shard: 1, verdict });
      await ok(apiKey, "record_verdicts", { planId: runPlanId, verdicts: [judged("C1", "SUPPORTED"), judged("C2", "SUPPORTED"), judged("C3", "UNSUPPORTED"), judged("C4", "SUPPORTED")] });
      const content = `# Solid-state batteries\n\n## Density\n\nCells reached ${density} Wh/kg in the lab [C1]. More may come [C3].\n\n## ${third.heading}\n\n${third.text} [C2].\n`;
      return ((await ok(apiKey, "store_research_output", { planId: runPlanId, title: "Solid-state batteries", mediaType: "markdown", content })) as { outputId: string }).outputId;
    };

    await tick(now);
    const first = (await scheduleOf(apiKey, planId)).runs[0]?.planId as string;
    const firstOutput = await deliver(first, 400, { subtopic: "Costs", text: "Costs remain higher than lithium-ion cells", url: "https://b.example/two", heading: "Costs" });
    expect((await ok(apiKey, "get_research_output", { outputId: firstOutput })).previousOutputId).toBeUndefined();

    await tick(now + DAY);
    const runs = (await scheduleOf(apiKey, planId)).runs;
    // The first was started, so it is not missed.
    expect(runs.map((r) => [r.runNumber, r.status])).toEqual([
      [2, "due"],
      [1, "started"],
    ]);
    const secondOutput = await deliver(runs[0]?.planId as string, 500, { subtopic: "Production", text: "A pilot production line opened", url: "https://c.example/three", heading: "Production" });

    const read = (await ok(apiKey, "get_research_output", { outputId: secondOutput })) as { previousOutputId: string; changes: Record<string, unknown> & { summary: string } };
    expect(read.previousOutputId).toBe(firstOutput);
    expect(read.changes).toMatchObject({
      sections: { added: ["Production"], removed: ["Costs"] },
      claims: { new: ["A pilot production line opened"], dropped: ["Costs remain higher than lithium-ion cells"], changed: [{ before: "Solid-state cells reached 400 Wh/kg in the lab", after: "Solid-state cells reached 500 Wh/kg in the lab" }] },
      sources: { new: ["https://c.example/three"], gone: ["https://b.example/two"] },
    });
    expect(read.changes.numbers).toContainEqual({ before: "400", after: "500", context: "Solid-state cells reached 500 Wh/kg in the lab" });
    expect(read.changes.summary).toBe("Since the previous run: sections: 1 added, 1 removed; claims: 1 new, 1 dropped, 1 changed; sources: 1 new, 1 gone; 1 number changed.");
    // REST reads the same.
    const viaRest = (await (await rest(apiKey, `/outputs/${secondOutput}`)).json()) as { previousOutputId: string };
    expect(viaRest.previousOutputId).toBe(firstOutput);

    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const html = await (await visitor.get(`/dashboard/outputs/${secondOutput}`)).text();
    expect(html).toContain("What changed since the previous run");
    expect(html).toContain(read.changes.summary);
    // Above the report.
    expect(html.indexOf('id="what-changed"')).toBeLessThan(html.indexOf('id="deliverable-content"'));
    expect(html).toContain(`href="/dashboard/outputs/${firstOutput}"`);

    // What changed is what the two deliverables said: not a refused claim they cited, nor a claim or source neither cited.
    for (const unsaid of ["1200 Wh/kg", "1500 Wh/kg", "CONFIDENTIAL", "uncited.example"]) expect(JSON.stringify(read.changes)).not.toContain(unsaid);
    // A share link's page shows no "what changed": the previous run's deliverable was never shared (share-links.test.ts).

    // The plan page sets and stops the schedule through its forms.
    const page = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    expect(page).toContain('id="plan-schedule"');
    const csrf = Visitor.csrfOf(page);
    const set = await visitor.post(`/dashboard/plans/${planId}/schedule`, { csrf, every: "week", startAt: "", until: "" });
    expect(set.status).toBe(303);
    expect((await scheduleOf(apiKey, planId)).status).toBe("active");
    const refused = await visitor.post(`/dashboard/plans/${planId}/schedule`, { csrf, every: "fortnight" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("every");
    expect((await visitor.post(`/dashboard/plans/${planId}/schedule/stop`, { csrf })).status).toBe(303);
    expect((await scheduleOf(apiKey, planId)).status).toBe("stopped");
  });
});
