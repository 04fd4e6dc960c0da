import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPlan, ok, steps } from "../support/plans";
import { Visitor } from "../support/dashboard";
import { callTool, fetchWorker, ORIGIN, readJsonRpc, rest, seedApiKey, seedTenant, tokensFor } from "../support/worker";

/**
 * Where approval is required, a person gives it: in the dashboard, or through a credential an admin granted
 * plans:approve. The assistant's API key and OAuth token are refused (MCP and REST) with the approval page's
 * link; a plan waiting for approval changes only through the approval; an approval names the version it
 * approves; and a plan already approved asks again when steps are added or its budget is raised.
 */

interface Pending {
  reviewId: string;
  kind: string;
  planVersion?: number;
}

const pendingOf = async (key: string, planId: string) => ((await ok(key, "get_plan_status", { planId })) as { pendingReviews: Pending[] }).pendingReviews;
const approvalOf = async (key: string, planId: string) => {
  const review = (await pendingOf(key, planId)).find((candidate) => candidate.kind === "approval");
  if (!review) throw new Error("no approval waiting");
  return review;
};
const errorOf = (body: Record<string, unknown>) => body.error as { code: string; message: string; url?: string };
const approvalPage = (planId: string) => `${ORIGIN}/dashboard/plans/${planId}`;

async function requireApproval(orgId: string) {
  await env.DB.prepare("UPDATE orgs SET plan_approval = 'required' WHERE id = ?").bind(orgId).run();
}

/** The dashboard's approval form as a signed-in person sends it. */
async function approveInDashboard(visitor: Visitor, planId: string, reviewId: string, planVersion: number) {
  const page = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
  return visitor.post(`/dashboard/plans/${planId}/steps/${reviewId}/review`, {
    csrf: Visitor.csrfOf(page),
    approvalReview: "1",
    decision: "approve",
    planVersion: String(planVersion),
    back: `/dashboard/plans/${planId}`,
  });
}

describe("a required approval is a person's", () => {
  it("refuses the assistant's API key and OAuth token over MCP and REST, naming the approval page; the org's requirement holds over the plan's optional", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    await requireApproval(orgId);
    // The plan asks for no approval; the org requires one: the org wins.
    const { planId } = await createPlan(apiKey, { approval: "optional" });
    const { reviewId, planVersion } = await approvalOf(apiKey, planId);
    expect(planVersion).toBe(1);
    // Even an admin's OAuth token, even with plans:approve ticked on the consent form, holds no approval of a person.
    const flow = await tokensFor({
      email: admin.email,
      password: admin.password,
      requestScope: "research:read research:write plans:approve",
      scopes: ["research:read", "research:write", "plans:approve"],
    });
    expect(flow.tokens.scope?.split(" ")).not.toContain("plans:approve");

    for (const token of [apiKey, flow.tokens.access_token]) {
      for (const decision of ["approve", "revise"]) {
        const refused = await callTool(token, "submit_review", { planId, stepId: reviewId, decision, feedback: "Go.", planVersion: 1 });
        expect(refused.isError).toBe(true);
        expect(errorOf(refused.body)).toMatchObject({ code: "forbidden", url: approvalPage(planId) });
        expect(errorOf(refused.body).message).toContain(approvalPage(planId));
      }
      const viaRest = await rest(token, `/plans/${planId}/steps/${reviewId}/review`, { method: "POST", body: JSON.stringify({ decision: "approve", planVersion: 1 }) });
      expect(viaRest.status).toBe(403);
      expect(await viaRest.json()).toMatchObject({ code: "forbidden", url: approvalPage(planId) });
    }
    const waiting = await ok(apiKey, "get_next_step", { planId });
    expect(waiting).toMatchObject({ status: "awaiting_review", approvalUrl: approvalPage(planId) });
  });

  it("a person's approval in the dashboard starts the plan; an integration's plans:approve key approves; both name the version", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    const byDashboard = await createPlan(apiKey, { approval: "required" });
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const { reviewId } = await approvalOf(apiKey, byDashboard.planId);
    const page = await (await visitor.get(`/dashboard/plans/${byDashboard.planId}`)).text();
    expect(page).toContain('name="planVersion" value="1"');
    const approved = await approveInDashboard(visitor, byDashboard.planId, reviewId, 1);
    expect(approved.status).toBe(303);
    expect(await ok(apiKey, "get_next_step", { planId: byDashboard.planId })).toMatchObject({ status: "step", step: { stepOrder: 1 } });

    const integration = (await seedApiKey(orgId, admin.userId, ["research:read", "research:write", "plans:approve"])).key;
    const byIntegration = await createPlan(apiKey, { approval: "required" });
    const pending = await approvalOf(apiKey, byIntegration.planId);
    const unnamed = await callTool(integration, "submit_review", { planId: byIntegration.planId, stepId: pending.reviewId, decision: "approve" });
    expect(errorOf(unnamed.body)).toMatchObject({ code: "validation", message: expect.stringContaining("planVersion") });
    const viaRest = await rest(integration, `/plans/${byIntegration.planId}/steps/${pending.reviewId}/review`, { method: "POST", body: JSON.stringify({ decision: "approve", planVersion: 1 }) });
    expect(viaRest.status).toBe(200);
    expect(await ok(apiKey, "get_next_step", { planId: byIntegration.planId })).toMatchObject({ status: "step", step: { stepOrder: 1 } });
    // The assistant may still reject (it can cancel a plan anyway): a rejection starts nothing.
    const rejected = await createPlan(apiKey, { approval: "required" });
    const reject = await ok(apiKey, "submit_review", { planId: rejected.planId, stepId: (await approvalOf(apiKey, rejected.planId)).reviewId, decision: "reject", feedback: "Not now." });
    expect(reject.planStatus).toBe("failed");
  });
});

describe("the approved plan is the plan that runs", () => {
  it("refuses every change while the approval waits (MCP and REST), naming the approval", async () => {
    const { apiKey } = await seedTenant();
    const { planId, steps: created } = await createPlan(apiKey, { approval: "required" });
    const { reviewId } = await approvalOf(apiKey, planId);
    const [first, second] = created;
    const rationale = { modificationRationale: "Changing it before anyone approves" };
    const changes = [
      { action: "skip", stepId: first?.stepId, reason: "No" },
      { action: "remove", stepId: second?.stepId },
      { action: "add", steps: steps("search") },
      { action: "update", stepId: first?.stepId, instructions: "Something else" },
      { action: "budget", budget: { maxSteps: 1000 } },
    ];
    for (const change of changes) {
      const refused = await callTool(apiKey, "modify_plan", { planId, ...change, ...rationale });
      expect(errorOf(refused.body), change.action).toMatchObject({ code: "conflict", message: expect.stringContaining(reviewId) });
    }
    const viaRest = await rest(apiKey, `/plans/${planId}/modifications`, { method: "POST", body: JSON.stringify({ action: "add", steps: steps("search"), ...rationale }) });
    expect(viaRest.status).toBe(409);
    const status = (await ok(apiKey, "get_plan_status", { planId })) as { totalSteps: number; budget: unknown; pendingSteps: { instructions?: string }[] };
    expect(status).toMatchObject({ totalSteps: 3, budget: null });
  });

  it("refuses an approval of an older version; after approval, added steps or a raised budget ask a person again (audited)", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { approval: "required", budget: { maxSteps: 6 } });
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    expect((await approveInDashboard(visitor, planId, (await approvalOf(apiKey, planId)).reviewId, 1)).status).toBe(303);

    // Lowering the budget or updating a step needs no new approval.
    await ok(apiKey, "modify_plan", { planId, action: "budget", budget: { maxSteps: 5 }, modificationRationale: "Less" });
    expect(await pendingOf(apiKey, planId)).toEqual([]);
    // Adding a step does: the plan waits again, at version 3.
    await ok(apiKey, "modify_plan", { planId, action: "add", steps: steps("search"), modificationRationale: "One more search" });
    const again = await approvalOf(apiKey, planId);
    expect(again.planVersion).toBe(3);
    expect(await ok(apiKey, "get_next_step", { planId })).toMatchObject({ status: "awaiting_review" });
    const stale = await approveInDashboard(visitor, planId, again.reviewId, 2);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("changed since version 2");
    const integration = (await seedApiKey(orgId, admin.userId, ["research:write", "plans:approve"])).key;
    const staleKey = await callTool(integration, "submit_review", { planId, stepId: again.reviewId, decision: "approve", planVersion: 1 });
    expect(errorOf(staleKey.body).code).toBe("conflict");
    expect((await approveInDashboard(visitor, planId, again.reviewId, 3)).status).toBe(303);
    expect(await ok(apiKey, "get_next_step", { planId })).toMatchObject({ status: "step", step: { stepOrder: 1 } });

    // Raising the budget above what a person set asks again too.
    await ok(apiKey, "modify_plan", { planId, action: "budget", budget: { maxSteps: 50 }, modificationRationale: "More" });
    expect((await approvalOf(apiKey, planId)).planVersion).toBe(4);
    const history = (await ok(apiKey, "get_plan_history", { planId })) as { audit: { action: string; detail: { reason?: string } }[] };
    const asked = history.audit.filter((entry) => entry.action === "review.requested").map((entry) => entry.detail.reason ?? "at creation");
    expect(asked).toEqual(["budget raised after approval", "steps added after approval", "at creation"]);
  });
});

describe("asking the person over MCP", () => {
  /** A 2026-07-28 tools/call (stateless: capabilities in every request's _meta). */
  function modernCall(token: string, name: string, args: unknown, capabilities: Record<string, unknown>, inputResponses?: Record<string, unknown>) {
    return new Request(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": name,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name,
          arguments: args,
          ...(inputResponses ? { inputResponses } : {}),
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/clientInfo": { name: "approval-test", version: "1.0.0" },
          },
        },
      }),
    });
  }

  it("sends a URL-mode elicitation of the approval page to a client that declares it, once; others get the link in the result", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { approval: "required" });
    const asked = await readJsonRpc(await fetchWorker(modernCall(apiKey, "get_next_step", { planId }, { elicitation: { url: {} } })));
    expect(asked.result).toMatchObject({
      resultType: "input_required",
      inputRequests: { approve_plan: { method: "elicitation/create", params: { mode: "url", url: approvalPage(planId) } } },
    });
    const refused = await readJsonRpc(
      await fetchWorker(modernCall(apiKey, "submit_review", { planId, stepId: (await approvalOf(apiKey, planId)).reviewId, decision: "approve", planVersion: 1 }, { elicitation: { url: {} } })),
    );
    expect(refused.result).toMatchObject({ resultType: "input_required", inputRequests: { approve_plan: { params: { mode: "url", url: approvalPage(planId) } } } });

    // Answered (the client opened the page): the retry gets the plain result, the person is not asked twice.
    const retried = await readJsonRpc(await fetchWorker(modernCall(apiKey, "get_next_step", { planId }, { elicitation: { url: {} } }, { approve_plan: { action: "accept" } })));
    expect(retried.result?.structuredContent).toMatchObject({ status: "awaiting_review", approvalUrl: approvalPage(planId) });
    // An answer that is not an ElicitResult (action accept, decline or cancel) is refused as invalid params, not taken as answered.
    for (const invalid of [{ action: "bogus" }, {}, { action: "accept", content: "yes" }]) {
      const refusedAnswer = await fetchWorker(modernCall(apiKey, "get_next_step", { planId }, { elicitation: { url: {} } }, { approve_plan: invalid }));
      const message = await readJsonRpc(refusedAnswer);
      expect(message.error?.code, JSON.stringify(message)).toBe(-32602);
      expect(message.error?.message).toContain("approve_plan");
      expect(message.result).toBeUndefined();
    }
    // Not an object at all: the SDK drops it as no answer, so the person is asked again.
    const notAnObject = await readJsonRpc(await fetchWorker(modernCall(apiKey, "get_next_step", { planId }, { elicitation: { url: {} } }, { approve_plan: "accept" })));
    expect(notAnObject.result?.resultType).toBe("input_required");
    const declined = await readJsonRpc(await fetchWorker(modernCall(apiKey, "get_next_step", { planId }, { elicitation: { url: {} } }, { approve_plan: { action: "decline" } })));
    expect(declined.result?.structuredContent).toMatchObject({ status: "awaiting_review" });
    const formOnly = await readJsonRpc(await fetchWorker(modernCall(apiKey, "get_next_step", { planId }, { elicitation: { form: {} } })));
    expect(formOnly.result?.resultType).not.toBe("input_required");
    expect(formOnly.result?.structuredContent).toMatchObject({ status: "awaiting_review", approvalUrl: approvalPage(planId) });
  });
});
