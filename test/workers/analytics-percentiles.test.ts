import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { nearestRankPercentile } from "../../src/domain/percentile";
import { toolCallStats } from "../../src/web/dashboard/queries";
import { seedTenant } from "../support/worker";

async function logCalls(orgId: string, userId: string, operation: string, durations: number[]) {
  const now = Date.now();
  await env.DB.batch(
    durations.map((duration, i) =>
      env.DB.prepare(
        "INSERT INTO tool_call_log (id, org_id, user_id, face, operation, duration_ms, outcome, correlation_id, created_at) VALUES (?, ?, ?, 'mcp', ?, ?, 'ok', ?, ?)",
      ).bind(`call_${operation}_${i}_${crypto.randomUUID()}`, orgId, userId, operation, duration, crypto.randomUUID(), now),
    ),
  );
}

describe("analytics percentiles", () => {
  it("computes p95 by nearest rank in SQL exactly as the domain does, small samples included", async () => {
    const { orgId, admin } = await seedTenant();
    const samples: Record<string, number[]> = {
      one: [7],
      outlier: [1, 1, 1, 1, 1, 1, 1, 1, 1, 500],
      twenty: Array.from({ length: 20 }, (_, i) => (i + 1) * 10),
      shuffled: Array.from({ length: 57 }, (_, i) => (i * 37) % 101),
    };
    for (const [operation, durations] of Object.entries(samples)) await logCalls(orgId, admin.userId, operation, durations);
    const stats = await toolCallStats(env.DB, orgId, 0);
    for (const [operation, durations] of Object.entries(samples)) {
      const row = stats.find((s) => s.operation === operation);
      expect(row?.p95Ms, operation).toBe(nearestRankPercentile(durations, 95));
    }
    // Ten calls with one slow outlier: the 95th percentile is that outlier, not the second-slowest call.
    expect(stats.find((s) => s.operation === "outlier")?.p95Ms).toBe(500);
  });
});
