import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { newId } from "../../src/domain/ids";
import { seedTenant } from "../support/worker";

const DAY = 86_400_000;

async function logCall(orgId: string, userId: string, createdAt: number) {
  await env.DB.prepare(
    `INSERT INTO tool_call_log (id, org_id, user_id, client_id, api_key_id, face, operation, duration_ms, outcome, error_code, correlation_id, created_at)
     VALUES (?, ?, ?, NULL, NULL, 'mcp', 'list_active_plans', 3, 'ok', NULL, ?, ?)`,
  )
    .bind(newId("call"), orgId, userId, crypto.randomUUID(), createdAt)
    .run();
}

async function delivery(orgId: string, status: string, createdAt: number) {
  await env.DB.prepare(
    `INSERT INTO webhook_deliveries (id, org_id, subscription_id, event_id, event_type, body, status, attempts, created_at, updated_at)
     VALUES (?, ?, 'whk_x', ?, 'plan.completed', '{}', ?, 1, ?, ?)`,
  )
    .bind(newId("dlv"), orgId, newId("msg"), status, createdAt, createdAt)
    .run();
}

describe("the daily retention cron", () => {
  it("removes the tool-call log past 90 days and ended deliveries past 30, and keeps the rest", async () => {
    const { orgId, admin } = await seedTenant();
    const now = Date.now();
    for (let i = 0; i < 30; i++) await logCall(orgId, admin.userId, now - (91 + i) * DAY);
    for (let i = 0; i < 5; i++) await logCall(orgId, admin.userId, now - (89 - i) * DAY);
    await delivery(orgId, "delivered", now - 31 * DAY);
    await delivery(orgId, "failed", now - 40 * DAY);
    await delivery(orgId, "pending", now - 40 * DAY);
    await delivery(orgId, "delivered", now - 2 * DAY);

    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "23 3 * * *" }), env as never);

    const calls = await env.DB.prepare("SELECT created_at FROM tool_call_log WHERE org_id = ?").bind(orgId).all<{ created_at: number }>();
    expect(calls.results).toHaveLength(5);
    expect(calls.results.every((row) => row.created_at > now - 90 * DAY)).toBe(true);
    const left = await env.DB.prepare("SELECT status FROM webhook_deliveries WHERE org_id = ? ORDER BY status").bind(orgId).all<{ status: string }>();
    expect(left.results.map((row) => row.status)).toEqual(["delivered", "pending"]);
  });
});
