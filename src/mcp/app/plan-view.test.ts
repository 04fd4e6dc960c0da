import { describe, expect, it } from "vitest";
import { createPlan, ok } from "../../../test/support/plans";
import { fetchWorker, mcpRequest, readJsonRpc, seedTenant } from "../../../test/support/worker";
import { PLAN_VIEW_HTML } from "./plan-view";

type ListedTool = { name: string; _meta?: { ui?: { resourceUri?: string; visibility?: string[] }; "ui/resourceUri"?: string } };

const rpc = async (key: string, method: string, params: Record<string, unknown> = {}) => readJsonRpc(await fetchWorker(mcpRequest(key, method, params)));

describe("the plan view (MCP App)", () => {
  it("is linked from the tools that show a plan and declared as an extension", async () => {
    const { apiKey } = await seedTenant();
    const tools = (await rpc(apiKey, "tools/list")).result?.tools as ListedTool[];
    const linked = tools.filter((tool) => tool._meta?.ui?.resourceUri === "ui://cairn/plan-view.html").map((tool) => tool.name);
    expect(linked).toEqual(["create_research_plan", "get_plan_status"]);
    // The older flat key too, as ext-apps' registerAppTool sets it, for hosts from before the nested form.
    expect(tools.filter((tool) => tool._meta?.["ui/resourceUri"] === "ui://cairn/plan-view.html").map((tool) => tool.name)).toEqual(linked);
    // The view calls submit_review, get_plan_status, get_evidence_ledger and get_research_context, which the model calls too: no tool of the full catalog is app-only.
    expect(tools.filter((tool) => tool._meta?.ui?.visibility !== undefined)).toEqual([]);
    const init = await rpc(apiKey, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    expect(init.result?.capabilities).toMatchObject({ extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } });
  });

  it("is served as one self-contained page with the MCP App MIME type and an empty allow-list", async () => {
    const { apiKey } = await seedTenant();
    const read = await rpc(apiKey, "resources/read", { uri: "ui://cairn/plan-view.html" });
    const [content] = (read.result?.contents ?? []) as { uri: string; mimeType: string; text: string; _meta: unknown }[];
    expect(content).toMatchObject({ uri: "ui://cairn/plan-view.html", mimeType: "text/html;profile=mcp-app" });
    expect(content?._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });
    expect(content?.text).toBe(PLAN_VIEW_HTML);
    // Nothing loaded from anywhere: no src or href attributes, no imports, no fetch.
    expect(PLAN_VIEW_HTML).not.toMatch(/\s(src|href)=|@import|fetch\(|XMLHttpRequest|WebSocket/);
    // Bounded as served: the page built from plan-view.html with its script and stylesheet minified (about 16.8 KB with
    // approval editing and the sources section; the readable source is larger and never leaves the repository).
    expect(new TextEncoder().encode(PLAN_VIEW_HTML).length).toBeLessThan(20 * 1024);
  });

  it("get_plan_status carries what the view shows: pending reviews with their questions, and step timing", async () => {
    const { apiKey } = await seedTenant();
    const plan = await createPlan(apiKey, { steps: [{ stepType: "checkpoint", instructions: "Confirm the scope" }, { stepType: "search", instructions: "Search" }] });
    const next = (await ok(apiKey, "get_next_step", { planId: plan.planId })) as { step: { stepId: string }; claimId: string };
    await ok(apiKey, "request_user_review", { planId: plan.planId, stepId: next.step.stepId, claimId: next.claimId, presentation: "Scope: three engines", questions: ["Offline only?"] });
    const status = await ok(apiKey, "get_plan_status", { planId: plan.planId });
    expect(status.pendingReviews).toEqual([
      {
        reviewId: next.step.stepId,
        stepId: next.step.stepId,
        stepOrder: 1,
        stepType: "checkpoint",
        kind: "step",
        presentation: "Scope: three engines",
        questions: ["Offline only?"],
        requestedAt: expect.any(String),
        assignee: null,
      },
    ]);
    await ok(apiKey, "submit_review", { planId: plan.planId, stepId: next.step.stepId, decision: "approve" });
    const after = (await ok(apiKey, "get_plan_status", { planId: plan.planId })) as { pendingReviews: unknown[]; completedSteps: { finishedAt: string | null }[] };
    expect(after.pendingReviews).toEqual([]);
    expect(after.completedSteps[0]?.finishedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("on the core profile, lists submit_review for the view only and lets the view answer a review with it", async () => {
    const { apiKey } = await seedTenant();
    const core = async (method: string, params: Record<string, unknown> = {}) => {
      const request = mcpRequest(apiKey, method, params);
      return readJsonRpc(await fetchWorker(new Request(request.url.replace(/\/mcp$/, "/mcp/core"), request)));
    };
    const tools = (await core("tools/list")).result?.tools as ListedTool[];
    expect(tools.find((tool) => tool.name === "submit_review")?._meta).toEqual({ ui: { visibility: ["app"] } });
    expect(tools.filter((tool) => tool._meta?.ui?.visibility?.includes("model") === false).map((tool) => tool.name)).toEqual(["submit_review"]);
    const plan = await createPlan(apiKey, { steps: [{ stepType: "checkpoint", instructions: "Confirm the scope" }] });
    const next = (await ok(apiKey, "get_next_step", { planId: plan.planId })) as { step: { stepId: string }; claimId: string };
    await ok(apiKey, "request_user_review", { planId: plan.planId, stepId: next.step.stepId, claimId: next.claimId, presentation: "Scope", questions: [] });
    const answered = await core("tools/call", { name: "submit_review", arguments: { planId: plan.planId, stepId: next.step.stepId, decision: "approve" } });
    expect(answered.result?.isError).not.toBe(true);
    expect(((await ok(apiKey, "get_plan_status", { planId: plan.planId })) as { pendingReviews: unknown[] }).pendingReviews).toEqual([]);
  });
});
