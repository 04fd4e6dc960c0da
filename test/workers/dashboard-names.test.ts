import { describe, expect, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { createPlan, ok } from "../support/plans";
import { seedTenant, tokensFor } from "../support/worker";

describe("dashboard names people and clients", () => {
  it("shows who acted by name and e-mail, and through which API key or assistant, not by ids", async () => {
    const { admin, apiKey, apiKeyId } = await seedTenant();
    const byKey = await createPlan(apiKey, { name: "[Scan] Named by key" });
    // One step claimed as the key's default worker ("<user>/<key>"), one under a label the assistant chose.
    await ok(apiKey, "get_next_step", { planId: byKey.planId });
    const flow = await tokensFor({ email: admin.email, password: admin.password });
    const byAssistant = await createPlan(flow.tokens.access_token, { name: "[Scan] Named by assistant" });
    const visitor = new Visitor();
    expect((await visitor.signIn(admin.email, admin.password)).status).toBe(303);

    const keyPage = await (await visitor.get(`/dashboard/plans/${byKey.planId}`)).text();
    expect(keyPage).toContain("API key “test”");
    expect(keyPage).not.toContain(apiKeyId);
    expect(keyPage).toContain(admin.email);
    expect(keyPage).not.toContain(admin.userId);
    expect(keyPage).toContain(`by ${admin.email} via API key “test”`);

    const assistantPage = await (await visitor.get(`/dashboard/plans/${byAssistant.planId}`)).text();
    expect(assistantPage).toContain("via Test client");
    expect(assistantPage).not.toContain(`via ${flow.clientId}`);
  });
});
