import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/domain/ids";
import type { WebhookEvent } from "../../src/domain/webhooks/events";
import type { WebhookMessage } from "../../src/domain/webhooks/model";
import { WEBHOOK_LIMITS } from "../../src/domain/webhooks/policy";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { homeName } from "../../src/platform/org-homes";
import { createPlan } from "../support/plans";
import { adminOf, at, deliveriesOf, envWithRefusingQueue, pause, subscribe, useStandInReceivers, waitFor, wrapBinding } from "../support/webhooks";
import { fetchWorkerOver, ORIGIN, rest } from "../support/worker";

/**
 * Webhooks that must not be lost, on workerd with the real queue and D1: an event the queue
 * refused waits in the outbox for the sweeper; a delivery left pending with no queue message is
 * sent again by the sweeper; an event out of retries goes back to the outbox. The sweeper is the
 * Worker's scheduled handler, run here as the cron runs it.
 */

useStandInReceivers();

const SWEEP_CRON = "*/5 * * * *";
const sweep = (scheduledTime: number, bindings: Env = env as unknown as Env) =>
  worker.scheduled(createScheduledController({ scheduledTime, cron: SWEEP_CRON }), bindings as never);

const outboxOf = (orgId: string) => env.DB.prepare("SELECT event_id, attempts, next_attempt_at FROM webhook_event_outbox WHERE org_id = ?").bind(orgId).all<{ event_id: string; attempts: number; next_attempt_at: number }>();

async function storeOutput(bindings: Env, apiKey: string, planId: string) {
  const response = await fetchWorkerOver(bindings)(
    new Request(`${ORIGIN}/api/v1/outputs`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ planId, title: "Vector databases on device", mediaType: "markdown", content: "# Answer\n\nUse SQLite." }),
    }),
  );
  expect(response.status).toBe(201);
  return (await response.json()) as { outputId: string };
}

describe("webhook events and deliveries are never lost", () => {
  it("research_output.created survives a queue that refuses the send: kept in the outbox with the output, sent by the sweeper, once", async () => {
    const { apiKey, adminKey, orgId } = await adminOf();
    const { secret } = await subscribe(adminKey, "/refused", ["research_output.created"]);
    const { planId } = await createPlan(apiKey);

    // The queue is down while the deliverable is stored: the caller's answer stands, nothing is sent yet.
    const { outputId } = await storeOutput(envWithRefusingQueue(), apiKey, planId);
    await pause(1500);
    expect(at("/refused")).toHaveLength(0);
    const [waiting] = (await outboxOf(orgId)).results;
    expect(waiting).toMatchObject({ attempts: 1 });

    // The queue is back; the next sweep (once the event's turn has come) sends it.
    await sweep((waiting?.next_attempt_at ?? 0) + 1);
    const delivery = await waitFor("the swept event", async () => at("/refused")[0]);
    const payload = new Webhook(secret).verify(delivery.body, delivery.headers) as { type: string; data: Record<string, unknown> };
    expect(payload).toMatchObject({ type: "research_output.created", data: { outputId, planId, title: "Vector databases on device" } });
    expect(delivery.headers["webhook-id"]).toBe(waiting?.event_id);
    expect((await outboxOf(orgId)).results).toHaveLength(0);

    // Sent again (as when clearing the outbox failed after the queue took it): same webhook-id, no second delivery.
    const event: WebhookEvent = { eventId: waiting?.event_id ?? "", orgId, type: "research_output.created", occurredAt: Date.now(), data: { outputId, planId } };
    await env.WEBHOOK_QUEUE.send({ kind: "event", event } satisfies WebhookMessage);
    await pause(2000);
    expect(at("/refused")).toHaveLength(1);
  });

  it("an org whose research lives in another database keeps its events in that database's outbox, and the sweeper finds them there", async () => {
    const { apiKey, adminKey, orgId } = await adminOf();
    expect(await homeName({ ...(env as unknown as Env), ORG_DATABASES: "RESEARCH_DB_2" }, orgId)).toBe("RESEARCH_DB_2");
    const second = (env as unknown as { RESEARCH_DB_2: D1Database }).RESEARCH_DB_2;
    await subscribe(adminKey, "/elsewhere", ["research_output.created"]);
    const { planId } = await createPlan(apiKey);
    const { outputId } = await storeOutput(envWithRefusingQueue(), apiKey, planId);
    expect((await outboxOf(orgId)).results).toHaveLength(0);
    const waiting = await second.prepare("SELECT next_attempt_at FROM webhook_event_outbox WHERE org_id = ?").bind(orgId).first<number>("next_attempt_at");
    expect(waiting).toEqual(expect.any(Number));

    await sweep((waiting ?? 0) + 1);
    const delivery = await waitFor("the swept event", async () => at("/elsewhere")[0]);
    expect(JSON.parse(delivery.body).data.outputId).toBe(outputId);
    expect(await second.prepare("SELECT COUNT(*) AS n FROM webhook_event_outbox WHERE org_id = ?").bind(orgId).first("n")).toBe(0);
  });

  it("with the queue up, the event leaves the outbox in the request that stored the output", async () => {
    const { apiKey, adminKey, orgId } = await adminOf();
    await subscribe(adminKey, "/direct", ["research_output.created"]);
    const { planId } = await createPlan(apiKey);
    const { outputId } = await storeOutput(env as unknown as Env, apiKey, planId);
    expect((await outboxOf(orgId)).results).toHaveLength(0);
    const delivery = await waitFor("the event", async () => at("/direct")[0]);
    expect(JSON.parse(delivery.body).data.outputId).toBe(outputId);
  });

  it("the sweeper re-sends deliveries left pending with no queue message, same webhook-id, and leaves recent ones to the queue", async () => {
    const { adminKey, orgId } = await adminOf();
    const { subscription, secret } = await subscribe(adminKey, "/stuck", ["plan.completed"]);
    const now = Date.now();
    const pending = async (ageMs: number) => {
      const id = newId("dlv");
      const eventId = newId("msg");
      const body = JSON.stringify({ type: "plan.completed", timestamp: new Date(now - ageMs).toISOString(), data: { planId: "plan_x" } });
      // As a delivery whose hand-off to the queue was lost: recorded, pending, nothing in the queue.
      await env.DB.prepare(
        "INSERT INTO webhook_deliveries (id, org_id, subscription_id, event_id, event_type, body, status, attempts, created_at, updated_at) VALUES (?, ?, ?, ?, 'plan.completed', ?, 'pending', 0, ?, ?)",
      )
        .bind(id, orgId, subscription.id, eventId, body, now - ageMs, now - ageMs)
        .run();
      return { id, eventId };
    };
    const stuck = await pending(WEBHOOK_LIMITS.stuckAfterMs + 60_000);
    const recent = await pending(10 * 60_000);

    await sweep(now);
    const delivery = await waitFor("the re-sent delivery", async () => at("/stuck")[0]);
    expect(delivery.headers["webhook-id"]).toBe(stuck.eventId);
    new Webhook(secret).verify(delivery.body, delivery.headers);
    const rows = await waitFor("delivered", async () => {
      const all = (await deliveriesOf(subscription.id)).results;
      return all.find((r) => r.id === stuck.id)?.status === "delivered" ? all : null;
    });
    expect(rows.find((r) => r.id === recent.id)).toMatchObject({ status: "pending", attempts: 0 });
    await pause(1000);
    expect(at("/stuck")).toHaveLength(1);
  });

  it("re-sends stuck deliveries in bounded batches: one run takes at most its share, the next run the rest", async () => {
    const { adminKey, orgId } = await adminOf();
    const { subscription } = await subscribe(adminKey, "/many", ["plan.completed"]);
    const now = Date.now();
    const perRun = WEBHOOK_LIMITS.sweepBatch * WEBHOOK_LIMITS.sweepRounds;
    const old = now - WEBHOOK_LIMITS.stuckAfterMs - 60_000;
    const statements = Array.from({ length: perRun + 7 }, () =>
      env.DB.prepare(
        "INSERT INTO webhook_deliveries (id, org_id, subscription_id, event_id, event_type, body, status, attempts, created_at, updated_at) VALUES (?, ?, ?, ?, 'plan.completed', '{}', 'pending', 1, ?, ?)",
      ).bind(newId("dlv"), orgId, subscription.id, newId("msg"), old, old),
    );
    await env.DB.batch(statements);
    // A queue that records what it is handed (and sends nothing on), so the count is exact.
    const sent: WebhookMessage[] = [];
    const base = env as unknown as Env;
    const recording: Env = {
      ...base,
      WEBHOOK_QUEUE: wrapBinding(base.WEBHOOK_QUEUE, {
        sendBatch: async (messages: Iterable<MessageSendRequest<WebhookMessage>>) => {
          for (const message of messages) sent.push(message.body);
        },
      }),
    };
    await sweep(now, recording);
    const mine = () => sent.filter((m) => m.kind === "delivery" && m.orgId === orgId);
    expect(mine()).toHaveLength(perRun);
    await sweep(now + 1, recording);
    expect(mine()).toHaveLength(perRun + 7);
    expect(new Set(mine().map((m) => (m.kind === "delivery" ? m.deliveryId : ""))).size).toBe(perRun + 7);
    // Taken once: a run right after finds nothing left to re-send until the bound has passed again.
    await sweep(now + 2, recording);
    expect(mine()).toHaveLength(perRun + 7);
  });

  it("a redelivery the queue refuses leaves the delivery as it was, so the admin can simply try again", async () => {
    const { adminKey, orgId } = await adminOf();
    const { subscription } = await subscribe(adminKey, "/again", ["plan.completed"]);
    const [id, eventId, then] = [newId("dlv"), newId("msg"), Date.now() - 60_000];
    await env.DB.prepare(
      "INSERT INTO webhook_deliveries (id, org_id, subscription_id, event_id, event_type, body, status, attempts, last_error, created_at, updated_at, dead_lettered_at) VALUES (?, ?, ?, ?, 'plan.completed', '{}', 'failed', 9, 'HTTP 503 — gave up: out of retries', ?, ?, ?)",
    )
      .bind(id, orgId, subscription.id, eventId, then, then, then)
      .run();
    const redeliver = (bindings: Env) =>
      fetchWorkerOver(bindings)(new Request(`${ORIGIN}/api/v1/webhooks/${subscription.id}/deliveries/${id}/redeliver`, { method: "POST", headers: { authorization: `Bearer ${adminKey}` } }));

    const refused = await redeliver(envWithRefusingQueue());
    expect(refused.status).toBe(500);
    expect(((await refused.json()) as { detail: string }).detail).toContain("try again");
    expect(await env.DB.prepare("SELECT status, dead_lettered_at, updated_at FROM webhook_deliveries WHERE id = ?").bind(id).first()).toEqual({ status: "failed", dead_lettered_at: then, updated_at: then });

    expect((await redeliver(env as unknown as Env)).status).toBe(202);
    const delivery = await waitFor("the redelivery", async () => at("/again")[0]);
    expect(delivery.headers["webhook-id"]).toBe(eventId);
  });

  it("an event out of retries goes back to the outbox rather than being dropped", async () => {
    const { orgId } = await adminOf();
    const event: WebhookEvent = { eventId: newId("msg"), orgId, type: "plan.completed", occurredAt: Date.now(), data: { planId: "plan_y" } };
    const batch = createMessageBatch<WebhookMessage>("cairn-webhooks-dlq", [{ id: "m1", timestamp: new Date(), attempts: 1, body: { kind: "event", event } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch as MessageBatch<unknown>, env as never);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m1"]);
    const [row] = (await outboxOf(orgId)).results;
    expect(row?.event_id).toBe(event.eventId);
  });

  it("the org's erasure takes its unsent events with it", async () => {
    const { apiKey, adminKey, orgId } = await adminOf();
    const { planId } = await createPlan(apiKey);
    await storeOutput(envWithRefusingQueue(), apiKey, planId);
    expect((await outboxOf(orgId)).results).toHaveLength(1);
    const slug = await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(orgId).first<string>("slug");
    const erased = await rest(adminKey, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) });
    expect(erased.status).toBe(200);
    expect((await outboxOf(orgId)).results).toHaveLength(0);
  });
});
