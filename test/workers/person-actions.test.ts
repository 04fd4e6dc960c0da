import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { Visitor } from "../support/dashboard";
import { emptyOrg, exportText, importInto } from "../support/org-files";
import { completeNextStep, createPlan, ok, steps } from "../support/plans";
import { rest, seedApiKey, seedOrg, seedTenant, seedUser, tokensFor } from "../support/worker";

/**
 * One list of person-level actions, one check, every surface: each action is refused (403, naming how a person does
 * it) to the assistant's credentials, whatever else they hold (a research key, an org:admin key without the person
 * scope, an admin's OAuth token with org:admin, a key with the demo key's scopes), and changes nothing; it is taken by
 * an API key carrying plans:approve and by a person signed in to the dashboard. And the spend gate over schedules:
 * a plan waiting for approval, rejected or cancelled is not scheduled; a run waits for a person and carries the budget.
 */

type Json = Record<string, unknown>;
const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });
const requireApproval = (orgId: string) => env.DB.prepare("UPDATE orgs SET plan_approval = 'required' WHERE id = ?").bind(orgId).run();
const tick = (at: number) => worker.scheduled(createScheduledController({ scheduledTime: at, cron: "*/5 * * * *" }), env as never);

async function setup() {
  const tenant = await seedTenant();
  const key = async (scopes: Parameters<typeof seedApiKey>[2]) => (await seedApiKey(tenant.orgId, tenant.admin.userId, scopes)).key;
  const flow = await tokensFor({
    email: tenant.admin.email,
    password: tenant.admin.password,
    requestScope: "research:read research:write org:admin plans:approve",
    scopes: ["research:read", "research:write", "org:admin", "plans:approve"],
  });
  const refused: [string, string][] = [
    ["a research key", tenant.apiKey],
    ["an org:admin key without plans:approve", await key(["research:write", "org:admin"])],
    ["an admin's OAuth token with org:admin", flow.tokens.access_token],
    // The scopes npm start prints for the assistant's demo key.
    ["a key with the demo key's scopes", await key(["research:read", "research:write", "org:admin"])],
  ];
  const personKey = await key(["research:read", "research:write", "org:admin", "plans:approve"]);
  const visitor = new Visitor();
  await visitor.signIn(tenant.admin.email, tenant.admin.password);
  return { ...tenant, refused, personKey, visitor };
}
type Setup = Awaited<ReturnType<typeof setup>>;

const pendingOf = async (key: string, planId: string, kind: string) => {
  const status = (await ok(key, "get_plan_status", { planId })) as { pendingReviews: { reviewId: string; kind: string }[] };
  return status.pendingReviews.find((review) => review.kind === kind)?.reviewId as string;
};

/** A plan a person approved (the org's or its own approval), as a schedule would copy it. */
async function approvedPlan(s: Setup, extra: Json = {}) {
  const { planId } = await createPlan(s.apiKey, { approval: "required", ...extra });
  const approved = await rest(s.personKey, `/plans/${planId}/steps/${await pendingOf(s.apiKey, planId, "approval")}/review`, json("POST", { decision: "approve", planVersion: 1 }));
  expect(approved.status).toBe(200);
  return planId;
}

interface Action {
  name: string;
  /** Makes what the action acts on; `untouched` says nothing changed, `viaKey` and `viaDashboard` take the action. */
  prepare(s: Setup): Promise<{ viaKey(key: string): Promise<Response>; viaDashboard(): Promise<Response>; untouched(): Promise<boolean> }>;
  allowed: { key: number; dashboard: number };
}

const ACTIONS: Action[] = [
  {
    name: "approving a plan",
    allowed: { key: 200, dashboard: 303 },
    async prepare(s) {
      const { planId } = await createPlan(s.apiKey, { approval: "required" });
      const reviewId = await pendingOf(s.apiKey, planId, "approval");
      const path = `/plans/${planId}/steps/${reviewId}/review`;
      return {
        viaKey: (key) => rest(key, path, json("POST", { decision: "approve", planVersion: 1 })),
        viaDashboard: async () =>
          s.visitor.post(`/dashboard${path}`, { csrf: await s.visitor.csrf(`/dashboard/plans/${planId}`), approvalReview: "1", decision: "approve", planVersion: "1", back: `/dashboard/plans/${planId}` }),
        untouched: async () => (await pendingOf(s.apiKey, planId, "approval")) === reviewId,
      };
    },
  },
  {
    name: "raising a budget at its review",
    allowed: { key: 200, dashboard: 303 },
    async prepare(s) {
      const { planId } = await createPlan(s.apiKey, { steps: steps("search", "synthesize"), budget: { maxSteps: 1 } });
      await completeNextStep(s.apiKey, planId);
      const reviewId = await pendingOf(s.apiKey, planId, "budget");
      const path = `/plans/${planId}/steps/${reviewId}/review`;
      return {
        viaKey: (key) => rest(key, path, json("POST", { decision: "approve", budget: { maxSteps: 3 } })),
        viaDashboard: async () => s.visitor.post(`/dashboard${path}`, { csrf: await s.visitor.csrf(`/dashboard/plans/${planId}`), decision: "approve", maxSteps: "3" }),
        untouched: async () => ((await ok(s.apiKey, "get_plan_status", { planId })) as { budget: { limits: Json } }).budget.limits.maxSteps === 1,
      };
    },
  },
  {
    name: "lifting the org's plan approval",
    allowed: { key: 200, dashboard: 303 },
    async prepare(s) {
      await requireApproval(s.orgId);
      return {
        viaKey: (key) => rest(key, "/org/settings", json("PATCH", { planApproval: "optional" })),
        viaDashboard: async () =>
          s.visitor.post("/dashboard/admin/settings", { csrf: await s.visitor.csrf("/dashboard/admin/settings"), planApproval: "optional", blockedDomains: "", preferredDomains: "", sharing: "members" }),
        untouched: async () => (await env.DB.prepare("SELECT plan_approval FROM orgs WHERE id = ?").bind(s.orgId).first<{ plan_approval: string }>())?.plan_approval === "required",
      };
    },
  },
  {
    name: "publishing a deliverable by a share link",
    allowed: { key: 201, dashboard: 201 },
    async prepare(s) {
      const { planId } = await createPlan(s.apiKey);
      const { outputId } = (await ok(s.apiKey, "store_research_output", { planId, title: "Report", mediaType: "markdown", content: "# Report\n\nText." })) as { outputId: string };
      return {
        viaKey: (key) => rest(key, `/outputs/${outputId}/shares`, json("POST", {})),
        viaDashboard: async () => s.visitor.post(`/dashboard/outputs/${outputId}/shares`, { csrf: await s.visitor.csrf(`/dashboard/outputs/${outputId}`), days: "" }),
        untouched: async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM output_shares WHERE output_id = ?").bind(outputId).first<{ n: number }>())?.n === 0,
      };
    },
  },
  {
    name: "adding an e-mail recipient outside the org",
    // The dashboard answers with the channels page itself, saying a confirmation link went to the address.
    allowed: { key: 201, dashboard: 200 },
    async prepare(s) {
      const address = `${crypto.randomUUID().slice(0, 8)}@outside.example`;
      const count = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM notification_channels WHERE org_id = ? AND target = ?").bind(s.orgId, address).first<{ n: number }>())?.n;
      return {
        viaKey: (key) => rest(key, "/org/notification-channels", json("POST", { kind: "email", address, events: ["plan.completed"] })),
        viaDashboard: async () =>
          s.visitor.post("/dashboard/admin/notifications", { csrf: await s.visitor.csrf("/dashboard/admin/notifications"), kind: "email", target: address, events: "plan.completed" }),
        untouched: async () => (await count()) === 0,
      };
    },
  },
  {
    name: "scheduling a plan whose runs need approval",
    allowed: { key: 201, dashboard: 303 },
    async prepare(s) {
      const planId = await approvedPlan(s);
      return {
        viaKey: (key) => rest(key, `/plans/${planId}/schedule`, json("PUT", { every: "week" })),
        viaDashboard: async () => s.visitor.post(`/dashboard/plans/${planId}/schedule`, { csrf: await s.visitor.csrf(`/dashboard/plans/${planId}`), every: "week" }),
        untouched: async () => (await rest(s.apiKey, `/plans/${planId}/schedule`)).status === 404,
      };
    },
  },
];

describe("person-level actions: one check on every surface", () => {
  it.each(ACTIONS)("$name: refused to the assistant's credentials, taken by a plans:approve key and a signed-in person", async (action) => {
    const s = await setup();
    const target = await action.prepare(s);
    for (const [who, key] of s.refused) {
      const response = await target.viaKey(key);
      const body = (await response.json()) as { code: string; detail: string };
      expect(response.status, who).toBe(403);
      // A credential without the route's own scope is refused by its scope; every other by the person check, saying how a person does it.
      if (body.code !== "insufficient_scope") {
        expect(body.code, who).toBe("forbidden");
        expect(body.detail, who).toContain("is a person's decision");
        expect(body.detail, who).toContain("/dashboard");
        expect(body.detail, who).toContain("plans:approve");
      }
    }
    expect(await target.untouched()).toBe(true);
    expect((await target.viaKey(s.personKey)).status).toBe(action.allowed.key);
    expect(await target.untouched()).toBe(false);
    const again = await action.prepare(s);
    expect((await again.viaDashboard()).status).toBe(action.allowed.dashboard);
    expect(await again.untouched()).toBe(false);
  });

  it("an import restoring settings looser than the org's is a person's; into an org as loose, an admin's", async () => {
    const s = await setup();
    const file = await exportText(s.personKey);
    const target = await emptyOrg();
    await requireApproval(target.orgId);
    const refused = await importInto(target.key, file);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toContain("is a person's decision");
    expect((await env.DB.prepare("SELECT plan_approval FROM orgs WHERE id = ?").bind(target.orgId).first<{ plan_approval: string }>())?.plan_approval).toBe("required");
    await env.DB.prepare("UPDATE orgs SET plan_approval = 'optional' WHERE id = ?").bind(target.orgId).run();
    expect((await importInto(target.key, file)).status).toBe(200);
  });

  it("tightening a protection or adding a member's address stays an admin's", async () => {
    const s = await setup();
    const [, orgAdminKey] = s.refused[1] as [string, string];
    expect((await rest(orgAdminKey, "/org/settings", json("PATCH", { planApproval: "required", sharing: "admins" }))).status).toBe(200);
    expect((await rest(orgAdminKey, "/org/notification-channels", json("POST", { kind: "email", address: s.admin.email.toUpperCase(), events: ["plan.completed"] }))).status).toBe(201);
  });
});

describe("the org's approver group", () => {
  it("naming members is an admin's (a non-member refused by name, nothing stored); widening or lifting it a person's; only its members approve", async () => {
    const s = await setup();
    const [, orgAdminKey] = s.refused[1] as [string, string];
    const ana = await seedUser(s.orgId, "member");
    const outsider = await seedUser(await seedOrg(), "member");
    const approvers = async () => ((await (await rest(orgAdminKey, "/org/settings")).json()) as { approvers: string[] }).approvers;
    const put = (key: string, list: string[]) => rest(key, "/org/settings", json("PUT", { approvers: list }));

    const outside = await put(orgAdminKey, [ana.email, outsider.email]);
    expect(outside.status).toBe(400);
    expect(((await outside.json()) as { detail: string }).detail).toContain(`Not a member of the organization: ${outsider.email.toLowerCase()}`);
    expect(await approvers()).toEqual([]);
    expect((await put(orgAdminKey, [ana.email])).status).toBe(200);
    expect(await approvers()).toEqual([ana.email.toLowerCase()]);
    for (const widened of [[ana.email, s.admin.email], []]) {
      const refused = await put(orgAdminKey, widened);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { detail: string }).detail).toContain("is a person's decision");
    }
    expect(await approvers()).toEqual([ana.email.toLowerCase()]);

    // The admin is a person (their plans:approve key) but not an approver: refused, naming who approves.
    const { planId } = await createPlan(s.apiKey, { approval: "required" });
    const reviewId = await pendingOf(s.apiKey, planId, "approval");
    const approve = () => rest(s.personKey, `/plans/${planId}/steps/${reviewId}/review`, json("POST", { decision: "approve", planVersion: 1 }));
    const notApprover = await approve();
    expect(notApprover.status).toBe(403);
    expect(((await notApprover.json()) as { detail: string }).detail).toContain(ana.email.toLowerCase());
    expect(await pendingOf(s.apiKey, planId, "approval")).toBe(reviewId);
    // A person lifts the group; then any person approves.
    expect((await put(s.personKey, [])).status).toBe(200);
    expect((await approve()).status).toBe(200);

    // A member removed from the org leaves the group with their membership.
    expect((await put(orgAdminKey, [ana.email])).status).toBe(200);
    const removed = await s.visitor.post(`/dashboard/admin/members/${ana.userId}/remove`, { csrf: await s.visitor.csrf("/dashboard/admin") });
    expect(removed.status).toBe(303);
    expect(await env.DB.prepare("SELECT approvers FROM orgs WHERE id = ?").bind(s.orgId).first("approvers")).toBe("[]");
  });
});

describe("the spend gate over schedules", () => {
  it("refuses a schedule on a plan waiting for approval, rejected or cancelled, saying why; nothing is set", async () => {
    const s = await setup();
    const { planId: waiting } = await createPlan(s.apiKey, { approval: "required", budget: { maxSteps: 2 } });
    const { planId: rejected } = await createPlan(s.apiKey, { approval: "required" });
    await ok(s.apiKey, "submit_review", { planId: rejected, stepId: await pendingOf(s.apiKey, rejected, "approval"), decision: "reject", feedback: "No." });
    const { planId: cancelled } = await createPlan(s.apiKey);
    await ok(s.apiKey, "cancel_plan", { planId: cancelled, reason: "Not needed" });
    for (const [planId, says] of [
      [waiting, "waits for a person's approval"],
      [rejected, "rejected"],
      [cancelled, "cancelled"],
    ] as const) {
      for (const key of [s.apiKey, s.personKey]) {
        const response = await rest(key, `/plans/${planId}/schedule`, json("PUT", { every: "day" }));
        expect(response.status, planId).toBe(409);
        expect(((await response.json()) as { detail: string }).detail).toContain(says);
      }
      expect((await rest(s.apiKey, `/plans/${planId}/schedule`)).status).toBe(404);
    }
  });

  it("a run of an approved plan waits for a person and carries the plan's budget; a series whose plan is cancelled makes no run", async () => {
    const s = await setup();
    const planId = await approvedPlan(s, { budget: { maxSteps: 2 } });
    const startAt = new Date(Date.now() - 60_000).toISOString();
    expect((await rest(s.personKey, `/plans/${planId}/schedule`, json("PUT", { every: "day", startAt }))).status).toBe(201);
    await tick(Date.now());
    const run = await env.DB.prepare("SELECT r.plan_id FROM plan_series_runs r JOIN plan_schedules p USING (series_id) WHERE p.plan_id = ?").bind(planId).first<{ plan_id: string }>();
    const runPlanId = run?.plan_id as string;
    expect(runPlanId).toBeTruthy();
    const status = (await ok(s.apiKey, "get_plan_status", { planId: runPlanId })) as { status: string; budget: { limits: Json } | null };
    expect(status.status).toBe("awaiting_review");
    expect(status.budget?.limits).toEqual({ maxSteps: 2 });
    expect(await ok(s.apiKey, "get_next_step", { planId: runPlanId })).toMatchObject({ status: "awaiting_review" });

    // The series' plan cancelled after it was scheduled: the next due run is not made, and the schedule stops.
    const other = await approvedPlan(s);
    expect((await rest(s.personKey, `/plans/${other}/schedule`, json("PUT", { every: "day", startAt }))).status).toBe(201);
    await ok(s.apiKey, "cancel_plan", { planId: other, reason: "Done with it" });
    await tick(Date.now());
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM plan_series_runs r JOIN plan_schedules p USING (series_id) WHERE p.plan_id = ?").bind(other).first<{ n: number }>())?.n).toBe(0);
    expect(((await (await rest(s.apiKey, `/plans/${other}/schedule`)).json()) as { schedule: { status: string } }).schedule.status).toBe("stopped");
  });
});
