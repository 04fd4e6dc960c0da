import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { fetchWorker, mcpRequest, ORIGIN, rest, seedApiKey, seedTenant, seedUser, tokensFor } from "../support/worker";

async function adminVisitor(email: string, password: string) {
  const visitor = new Visitor();
  expect((await visitor.signIn(email, password)).status).toBe(303);
  return visitor;
}

const refresh = (clientId: string, refreshToken: string) =>
  fetchWorker(
    new Request(`${ORIGIN}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId }),
    }),
  );

describe("removing a member", () => {
  it("cuts their OAuth tokens, refresh tokens and API keys at once, and leaves everyone else working", async () => {
    const { orgId, admin, apiKey: adminKey } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const colleague = await seedUser(orgId, "member");
    const memberFlow = await tokensFor({ email: member.email, password: member.password });
    const colleagueFlow = await tokensFor({ email: colleague.email, password: colleague.password });
    const memberKey = await seedApiKey(orgId, member.userId);
    const token = memberFlow.tokens.access_token;
    expect((await fetchWorker(mcpRequest(token, "tools/list"))).status).toBe(200);
    expect((await rest(token, "/skill-executions")).status).toBe(200);

    const visitor = await adminVisitor(admin.email, admin.password);
    const removed = await visitor.post(`/dashboard/admin/members/${member.userId}/remove`, { csrf: await visitor.csrf("/dashboard/admin") });
    expect(removed.status).toBe(303);
    expect(removed.headers.get("location")).toBe("/dashboard/admin?done=removed");

    expect((await fetchWorker(mcpRequest(token, "tools/list"))).status).toBe(401);
    expect((await rest(token, "/skill-executions")).status).toBe(401);
    expect((await rest(memberKey.key, "/skill-executions")).status).toBe(401);
    const refreshed = await refresh(memberFlow.clientId, memberFlow.tokens.refresh_token ?? "");
    expect(refreshed.status).toBe(400);

    // The grant itself is gone, and the key stays revoked if the person is added back later.
    const grants = await env.OAUTH_KV.list({ prefix: `grant:${member.userId}:` });
    expect(grants.keys).toHaveLength(0);
    const key = await env.DB.prepare("SELECT revoked_at FROM api_keys WHERE id = ?").bind(memberKey.id).first<{ revoked_at: number | null }>();
    expect(key?.revoked_at).toEqual(expect.any(Number));

    expect((await fetchWorker(mcpRequest(colleagueFlow.tokens.access_token, "tools/list"))).status).toBe(200);
    expect((await rest(adminKey, "/skill-executions")).status).toBe(200);
    const audit = await env.DB.prepare("SELECT action, actor_user_id FROM audit_log WHERE target_id = ? AND action = 'membership.removed'").bind(member.userId).first();
    expect(audit).toMatchObject({ action: "membership.removed", actor_user_id: admin.userId });
  });

  it("never removes the last admin or oneself, and only admins may remove", async () => {
    const { orgId, admin } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const visitor = await adminVisitor(admin.email, admin.password);
    const self = await visitor.post(`/dashboard/admin/members/${admin.userId}/remove`, { csrf: await visitor.csrf("/dashboard/admin") });
    expect(self.status).toBe(409);
    const memberVisitor = await adminVisitor(member.email, member.password);
    const attempt = await memberVisitor.post(`/dashboard/admin/members/${admin.userId}/remove`, { csrf: await memberVisitor.csrf("/dashboard/plans") });
    expect(attempt.status).toBe(403);
    const other = await seedTenant();
    const foreign = await visitor.post(`/dashboard/admin/members/${other.admin.userId}/remove`, { csrf: await visitor.csrf("/dashboard/admin") });
    expect(foreign.status).toBe(404);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM memberships WHERE user_id IN (?, ?, ?)").bind(admin.userId, member.userId, other.admin.userId).first<{ n: number }>();
    expect(rows?.n).toBe(3);
  });

  it("checks the membership when an OAuth token is used, not only at the next refresh", async () => {
    const { orgId } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const flow = await tokensFor({ email: member.email, password: member.password });
    // Removed behind Cairn's back (another tool, the database console): the next request is refused all the same.
    await env.DB.prepare("DELETE FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, member.userId).run();
    expect((await fetchWorker(mcpRequest(flow.tokens.access_token, "tools/list"))).status).toBe(401);
    expect((await rest(flow.tokens.access_token, "/skill-executions")).status).toBe(401);
  });
});
