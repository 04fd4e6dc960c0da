import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPlan, ok } from "../../test/support/plans";
import { fetchWorker, mcpRequest, readJsonRpc, seedApiKey, seedTenant } from "../../test/support/worker";

async function complete(key: string, ref: Record<string, string>, argument: { name: string; value: string }) {
  return readJsonRpc(await fetchWorker(mcpRequest(key, "completion/complete", { ref, argument })));
}
const values = async (key: string, ref: Record<string, string>, argument: { name: string; value: string }) => {
  const message = await complete(key, ref, argument);
  if (message.error) throw new Error(message.error.message);
  return (message.result?.completion as { values: string[]; hasMore?: boolean }) ?? { values: [] };
};
const PLANS_TEMPLATE = { type: "ref/resource", uri: "cairn://plans/{planId}" };

describe("completion/complete", () => {
  it("is declared in the capabilities", async () => {
    const { apiKey } = await seedTenant();
    const init = await readJsonRpc(
      await fetchWorker(mcpRequest(apiKey, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } })),
    );
    expect(init.result?.capabilities).toMatchObject({ completions: {} });
  });

  it("completes plan, artifact and output ids of the caller's org by prefix, newest first, never another org's", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const first = await createPlan(a.apiKey, { name: "[Deep] Embedded vector databases" });
    const second = await createPlan(a.apiKey, { name: "[Scan] Rust web frameworks" });
    const foreign = await createPlan(b.apiKey);
    const all = await values(a.apiKey, PLANS_TEMPLATE, { name: "planId", value: "" });
    expect(all.values).toEqual([second.planId, first.planId]);
    expect((await values(a.apiKey, PLANS_TEMPLATE, { name: "planId", value: first.planId.slice(0, -2) })).values).toEqual([first.planId]);
    expect((await values(a.apiKey, PLANS_TEMPLATE, { name: "planId", value: foreign.planId.slice(0, -1) })).values).toEqual([]);
    expect((await values(a.apiKey, PLANS_TEMPLATE, { name: "planId", value: "%" })).values).toEqual([]);

    const artifact = (await ok(a.apiKey, "store_research", { artifactType: "note", title: "Benchmarks", content: { text: "numbers" }, contentText: "numbers" })) as { artifactId: string };
    const artifacts = await values(a.apiKey, { type: "ref/resource", uri: "cairn://artifacts/{artifactId}" }, { name: "artifactId", value: artifact.artifactId.slice(0, 5) });
    expect(artifacts.values).toContain(artifact.artifactId);

    // The prompts take the same plan ids, and a topic from the org's earlier plans (without the mode tag).
    expect((await values(a.apiKey, { type: "ref/prompt", name: "research-deep" }, { name: "planId", value: "" })).values).toEqual(all.values);
    expect((await values(a.apiKey, { type: "ref/prompt", name: "research" }, { name: "topic", value: "VECTOR" })).values).toEqual(["Embedded vector databases"]);
    expect((await values(b.apiKey, { type: "ref/prompt", name: "research" }, { name: "topic", value: "vector" })).values).toEqual(["Vector databases"]);
  });

  it("suggests at most 20 and says there are more", async () => {
    const { orgId, apiKey } = await seedTenant();
    const statement = env.DB.prepare(
      `INSERT INTO plans (plan_id, org_id, name, status, derived_status, progress, stalled, total_steps, completed_steps, failed_steps,
        created_by, created_at, updated_at, index_seq) VALUES (?, ?, ?, 'active', 'active', 0, 0, 1, 0, 0, 'user_x', ?, ?, 1)`,
    );
    await env.DB.batch(Array.from({ length: 25 }, (_, i) => statement.bind(`pln_many${String(i).padStart(2, "0")}`, orgId, `[Scan] Topic ${i}`, 1_000 + i, 1_000 + i)));
    const page = await values(apiKey, PLANS_TEMPLATE, { name: "planId", value: "pln_many" });
    expect(page.values).toHaveLength(20);
    expect(page.values[0]).toBe("pln_many24");
    expect(page.hasMore).toBe(true);
  });

  it("refuses unknown prompts, arguments and templates; a key without research:read gets nothing", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    await createPlan(apiKey);
    expect((await complete(apiKey, { type: "ref/prompt", name: "nope" }, { name: "topic", value: "" })).error?.code).toBe(-32602);
    expect((await complete(apiKey, { type: "ref/prompt", name: "research" }, { name: "planId", value: "" })).error?.code).toBe(-32602);
    expect((await complete(apiKey, { type: "ref/resource", uri: "cairn://plans/{other}" }, { name: "other", value: "" })).error?.code).toBe(-32602);
    const adminOnly = await seedApiKey(orgId, admin.userId, ["org:admin"]);
    expect((await values(adminOnly.key, PLANS_TEMPLATE, { name: "planId", value: "" })).values).toEqual([]);
  });
});
