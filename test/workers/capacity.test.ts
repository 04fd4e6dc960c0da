import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PlanObject } from "../../src/durable-objects/plan-object";
import { createPlan, ok, REPORT } from "../support/plans";
import { seedTenant } from "../support/worker";

/**
 * What one record costs in storage, measured on the real storage engines (D1's
 * database size after each write, a plan object's SQLite size): the figures
 * docs/capacity.md is written from. The bounds are generous guards, so a change
 * that multiplies the cost of a record fails here rather than in production.
 */

const d1Size = async () => (await env.DB.prepare("SELECT 1").run()).meta.size_after as number;
const text = (chars: number, seed: number) => Array.from({ length: Math.ceil(chars / 60) }, (_, i) => `Finding ${seed}.${i}: heat pumps keep a COP above three in cold weather. `).join("").slice(0, chars);

describe("storage per record (capacity model)", () => {
  it("measures artifacts, deliverables, skill executions and plans", async () => {
    const { apiKey, orgId } = await seedTenant();
    const figures: Record<string, number> = {};

    let before = await d1Size();
    for (let i = 0; i < 40; i++) {
      await ok(apiKey, "store_research", { artifactType: "finding", title: `Finding ${i} on cold-climate heat pumps`, content: { cop: 3 + i / 100 }, contentText: text(2_000, i), tags: ["heat-pumps"] });
    }
    figures.artifactBytes = Math.round(((await d1Size()) - before) / 40);

    before = await d1Size();
    for (let i = 0; i < 10; i++) {
      await ok(apiKey, "store_research_output", { title: `Report ${i}`, mediaType: "markdown", content: `# Report ${i}\n\n${text(8_000, i)}` });
    }
    figures.deliverableBytes = Math.round(((await d1Size()) - before) / 10);

    before = await d1Size();
    for (let i = 0; i < 20; i++) {
      await ok(apiKey, "log_skill_execution", { skillName: "research", sessionId: `capacity-${i}`, status: "started", metadata: { topic: `topic ${i}`, originalQuery: `What about ${i}?` } });
    }
    figures.executionBytes = Math.round(((await d1Size()) - before) / 20);

    // A 12-step plan run to completion, results of ~1.5 KB each: its object, and what it adds to D1 (index row, tool-call log).
    const planObjectSizes: number[] = [];
    before = await d1Size();
    const plans = 5;
    for (let p = 0; p < plans; p++) {
      const { planId } = await createPlan(apiKey, { steps: Array.from({ length: 12 }, (_, i) => ({ stepType: i === 11 ? "synthesize" : "search", instructions: `Step ${i + 1}: ${text(300, i)}` })) });
      for (let s = 0; s < 12; s++) {
        const next = (await ok(apiKey, "get_next_step", { planId })) as { step: { stepId: string }; claimId: string };
        await ok(apiKey, "submit_step_result", { planId, stepId: next.step.stepId, claimId: next.claimId, result: { findings: text(1_500, s) }, confidence: 0.8, stepExecutionReport: { ...REPORT, thinking: text(400, s) } });
      }
      planObjectSizes.push(await runInDurableObject(env.PLAN.getByName(`${orgId}:${planId}`), (_i: PlanObject, state) => state.storage.sql.databaseSize));
    }
    figures.planD1Bytes = Math.round(((await d1Size()) - before) / plans);
    figures.planObjectBytes = Math.round(planObjectSizes.reduce((a, b) => a + b, 0) / plans);

    console.log(`capacity figures: ${JSON.stringify(figures)}`);
    expect(figures.artifactBytes).toBeGreaterThan(2_000);
    expect(figures.artifactBytes).toBeLessThan(16_000);
    expect(figures.deliverableBytes).toBeLessThan(40_000);
    expect(figures.executionBytes).toBeLessThan(4_000);
    expect(figures.planObjectBytes).toBeLessThan(256 * 1024);
    expect(figures.planD1Bytes).toBeLessThan(64 * 1024);
  }, 120_000);
});
