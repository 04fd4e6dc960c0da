import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { cookieSecurity } from "../../src/web/dashboard/session";
import { diffSteps } from "../../src/web/dashboard/plans";
import { completeNextStep, createPlan, ok, sourceChecksSettled, steps } from "../support/plans";
import { Visitor } from "../support/dashboard";
import { rest, seedApiKey, seedOrg, seedTenant, seedUser } from "../support/worker";

async function signedIn(email: string, password: string) {
  const visitor = new Visitor();
  const response = await visitor.signIn(email, password);
  expect(response.status).toBe(303);
  return visitor;
}

/** A plan paused at a checkpoint: search done, checkpoint awaiting review, synthesize pending. */
async function planAwaitingReview(apiKey: string, name = "[Scan] Checkpointed") {
  const { planId } = await createPlan(apiKey, { name, steps: steps("search", "checkpoint", "synthesize") });
  await completeNextStep(apiKey, planId);
  const next = (await ok(apiKey, "get_next_step", { planId })) as { step: { stepId: string }; claimId: string };
  await ok(apiKey, "request_user_review", {
    planId,
    stepId: next.step.stepId,
    claimId: next.claimId,
    presentation: "Three candidate databases found; continue with synthesis?",
    questions: ["Is on-device search a must?"],
  });
  return { planId, checkpointStepId: next.step.stepId };
}

describe("dashboard sign-in and session", () => {
  it("signs in with a local account, sets a strict session cookie, and signs out", async () => {
    const { orgId } = await seedTenant();
    const user = await seedUser(orgId, "member");
    const visitor = new Visitor();

    const root = await visitor.get("/dashboard");
    expect(root.status).toBe(303);
    expect(root.headers.get("location")).toMatch(/^\/dashboard\/sign-in/);
    const anonymous = await visitor.get("/dashboard/plans?status=open");
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe(`/dashboard/sign-in?next=${encodeURIComponent("/dashboard/plans?status=open")}`);

    const signInPage = await visitor.get("/dashboard/sign-in");
    const signInNonce = (signInPage.headers.get("content-security-policy") ?? "").match(/style-src 'nonce-([^']+)'/)?.[1];
    expect(signInNonce).toBeTruthy();
    expect(await signInPage.text()).toContain(`<style nonce="${signInNonce}">`);
    const forged = await visitor.post("/dashboard/sign-in", { csrf: "forged", email: user.email, password: user.password });
    expect(forged.status).toBe(403);
    const forgedNonce = (forged.headers.get("content-security-policy") ?? "").match(/style-src 'nonce-([^']+)'/)?.[1];
    expect(await forged.text()).toContain(`<style nonce="${forgedNonce}">`);

    const wrong = await visitor.signIn(user.email, "not the password");
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Wrong e-mail or password.");
    expect(visitor.cookies.has("cairn-dash")).toBe(false);

    const page = await visitor.get("/dashboard/sign-in");
    const response = await visitor.post("/dashboard/sign-in", { csrf: Visitor.csrfOf(await page.text()), email: user.email, password: user.password, next: "/dashboard/reviews" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/dashboard/reviews");
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith("cairn-dash="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    // http://localhost: no Secure (a browser would drop it); any https deployment gets __Host- and Secure.
    expect(cookie).not.toMatch(/Secure/);
    expect(cookieSecurity("https://cairn.example.com")).toMatchObject({ secure: true, session: "__Host-cairn-dash" });

    const plans = await visitor.get("/dashboard/plans");
    expect(plans.status).toBe(200);
    const csp = plans.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    const nonce = csp.match(/script-src 'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    const html = await plans.text();
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(plans.headers.get("x-frame-options")).toBe("DENY");
    expect(plans.headers.get("cache-control")).toBe("no-store");
    expect(plans.headers.get("x-content-type-options")).toBe("nosniff");

    // The session record lives in KV under the dashboard prefix, keyed by the token's hash, never the token.
    const keys = await env.OAUTH_KV.list({ prefix: "cairn:dash:session:" });
    expect(keys.keys.length).toBeGreaterThan(0);
    expect(keys.keys.some((k) => k.name.includes(visitor.cookies.get("cairn-dash") ?? "?"))).toBe(false);

    const csrf = Visitor.csrfOf(html);
    const out = await visitor.post("/dashboard/sign-out", { csrf });
    expect(out.status).toBe(303);
    expect((await visitor.get("/dashboard/plans")).status).toBe(303);
  });

  it("ends the session of a person removed from the org at once", async () => {
    const { orgId } = await seedTenant();
    const user = await seedUser(orgId, "member");
    const visitor = await signedIn(user.email, user.password);
    expect((await visitor.get("/dashboard/plans")).status).toBe(200);
    await env.DB.prepare("DELETE FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, user.userId).run();
    expect((await visitor.get("/dashboard/plans")).status).toBe(303);
  });
});

describe("dashboard CSRF", () => {
  it("refuses the sign-in form and signed-in forms without a valid token", async () => {
    const { orgId, admin, apiKey } = await seedTenant();
    const noToken = await new Visitor().post("/dashboard/sign-in", { email: admin.email, password: admin.password });
    expect(noToken.status).toBe(403);

    const visitor = await signedIn(admin.email, admin.password);
    const keysBefore = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE org_id = ?").bind(orgId).first<{ n: number }>();
    expect((await visitor.post("/dashboard/admin/keys", { name: "sneaky", scope: "research:read" })).status).toBe(403);
    expect((await visitor.post("/dashboard/admin/keys", { name: "sneaky", scope: "research:read", csrf: "forged-token" })).status).toBe(403);
    // A right token from a foreign page (Origin says so) is refused too.
    const csrf = await visitor.csrf();
    const crossSite = await visitor.post("/dashboard/admin/keys", { name: "sneaky", scope: "research:read", csrf }, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    const keysAfter = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE org_id = ?").bind(orgId).first<{ n: number }>();
    expect(keysAfter?.n).toBe(keysBefore?.n);

    // A review without the token changes nothing.
    const { planId, checkpointStepId } = await planAwaitingReview(apiKey);
    const refused = await visitor.post(`/dashboard/plans/${planId}/steps/${checkpointStepId}/review`, { decision: "approve" });
    expect(refused.status).toBe(403);
    const status = await ok(apiKey, "get_plan_status", { planId });
    expect(status.derivedStatus).toBe("awaiting_review");

    // Sign-out without the token does not sign out.
    expect((await visitor.post("/dashboard/sign-out", {})).status).toBe(403);
    expect((await visitor.get("/dashboard/plans")).status).toBe(200);
  });
});

describe("dashboard org isolation and roles", () => {
  it("never shows another org's plans or reviews, and their URLs are not found", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const { planId, checkpointStepId } = await planAwaitingReview(a.apiKey, "[Scan] Org A secret plan");
    const execution = await ok(a.apiKey, "log_skill_execution", { skillName: "research", metadata: { topic: "Org A topic" } });

    const visitorB = await signedIn(b.admin.email, b.admin.password);
    const list = await (await visitorB.get("/dashboard/plans")).text();
    expect(list).not.toContain("Org A secret plan");
    const inbox = await (await visitorB.get("/dashboard/reviews")).text();
    expect(inbox).not.toContain("Three candidate databases");
    expect(inbox).toContain("Nothing awaits review.");
    expect((await visitorB.get(`/dashboard/plans/${planId}`)).status).toBe(404);
    expect((await visitorB.get(`/dashboard/executions/${execution.executionId}`)).status).toBe(404);
    expect(await (await visitorB.get("/dashboard/executions")).text()).not.toContain("Org A topic");

    // Answering org A's review from org B is a 404 and leaves the plan waiting.
    const csrf = await visitorB.csrf();
    const answered = await visitorB.post(`/dashboard/plans/${planId}/steps/${checkpointStepId}/review`, { csrf, decision: "approve" });
    expect(answered.status).toBe(404);
    expect((await ok(a.apiKey, "get_plan_status", { planId })).derivedStatus).toBe("awaiting_review");

    // Org A's own admin sees both.
    const visitorA = await signedIn(a.admin.email, a.admin.password);
    expect(await (await visitorA.get("/dashboard/plans")).text()).toContain("Org A secret plan");
    expect(await (await visitorA.get("/dashboard/reviews")).text()).toContain("Three candidate databases");
  });

  it("keeps members out of the org admin pages", async () => {
    const { orgId } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const visitor = await signedIn(member.email, member.password);
    const plans = await (await visitor.get("/dashboard/plans")).text();
    expect(plans).not.toContain('href="/dashboard/admin"');
    expect((await visitor.get("/dashboard/admin")).status).toBe(403);
    const csrf = Visitor.csrfOf(plans);
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE org_id = ?").bind(orgId).first<{ n: number }>();
    expect((await visitor.post("/dashboard/admin/keys", { csrf, name: "mine", scope: "research:read" })).status).toBe(403);
    expect((await visitor.post(`/dashboard/admin/members/${member.userId}/role`, { csrf, role: "admin" })).status).toBe(403);
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE org_id = ?").bind(orgId).first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
    const role = await env.DB.prepare("SELECT role FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, member.userId).first<{ role: string }>();
    expect(role?.role).toBe("member");
  });

  it("lets an admin change roles but never leave the org without an admin", async () => {
    const { orgId, admin } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const visitor = await signedIn(admin.email, admin.password);
    const csrf = await visitor.csrf("/dashboard/admin");
    const lastAdmin = await visitor.post(`/dashboard/admin/members/${admin.userId}/role`, { csrf, role: "member" });
    expect(lastAdmin.status).toBe(409);
    const promoted = await visitor.post(`/dashboard/admin/members/${member.userId}/role`, { csrf, role: "admin" });
    expect(promoted.status).toBe(303);
    const role = await env.DB.prepare("SELECT role FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, member.userId).first<{ role: string }>();
    expect(role?.role).toBe("admin");
    const audit = await env.DB.prepare("SELECT actor_user_id, actor_client_id FROM audit_log WHERE org_id = ? AND action = 'membership.role_changed'").bind(orgId).first();
    expect(audit).toMatchObject({ actor_user_id: admin.userId, actor_client_id: "dashboard" });
    // Another org's member is not found here.
    const other = await seedUser(await seedOrg(), "member");
    expect((await visitor.post(`/dashboard/admin/members/${other.userId}/role`, { csrf, role: "admin" })).status).toBe(404);
  });
});

describe("dashboard review inbox", () => {
  it("approves from the inbox and the plan continues exactly as after submit_review", async () => {
    const { orgId, apiKey } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const { planId, checkpointStepId } = await planAwaitingReview(apiKey);
    const visitor = await signedIn(member.email, member.password);

    const inbox = await (await visitor.get("/dashboard/reviews")).text();
    expect(inbox).toContain("Three candidate databases found; continue with synthesis?");
    expect(inbox).toContain("Is on-device search a must?");
    expect(inbox).toContain(`action="/dashboard/plans/${planId}/steps/${checkpointStepId}/review"`);

    // Revise without feedback is refused with the operation's own message, and nothing changes.
    const csrf = Visitor.csrfOf(inbox);
    const invalid = await visitor.post(`/dashboard/plans/${planId}/steps/${checkpointStepId}/review`, { csrf, decision: "revise", back: "/dashboard/reviews" });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("feedback is required to revise");

    const approved = await visitor.post(`/dashboard/plans/${planId}/steps/${checkpointStepId}/review`, { csrf, decision: "approve", back: "/dashboard/reviews" });
    expect(approved.status).toBe(303);
    expect(approved.headers.get("location")).toBe("/dashboard/reviews?done=approve");
    const after = await (await visitor.get("/dashboard/reviews?done=approve")).text();
    expect(after).toContain("Review submitted: approved.");
    expect(after).toContain("Nothing awaits review.");

    const next = await ok(apiKey, "get_next_step", { planId });
    expect(next).toMatchObject({ status: "step", step: { stepOrder: 3, stepType: "synthesize" } });

    const history = (await ok(apiKey, "get_plan_history", { planId })) as { audit: { action: string; actorUserId: string; actorClientId: string | null }[] };
    const review = history.audit.find((entry) => entry.action.includes("review") && entry.actorUserId === member.userId);
    expect(review).toMatchObject({ actorUserId: member.userId, actorClientId: "dashboard" });
  });

  it("lists the reviews assigned to you first, and reassigns one from the inbox (a non-member refused by name); reassigning is a person's", async () => {
    const { orgId, apiKey, admin } = await seedTenant();
    const person = (await seedApiKey(orgId, admin.userId, ["research:read", "research:write", "plans:approve"])).key;
    const [member, other] = [await seedUser(orgId, "member"), await seedUser(orgId, "member")];
    const outsider = await seedUser(await seedOrg(), "member");
    const mine = await planAwaitingReview(apiKey, "[Scan] Mine");
    const theirs = await planAwaitingReview(apiKey, "[Scan] Theirs");
    const unassigned = await planAwaitingReview(apiKey, "[Scan] Anyone's");
    const assign = (plan: { planId: string; checkpointStepId: string }, email: string, key = person) =>
      rest(key, `/plans/${plan.planId}/reviews/${plan.checkpointStepId}/assignee`, { method: "PUT", body: JSON.stringify({ email }) });
    // The assistant's credential names an assignee when it asks; handing the review on afterwards is a person's.
    const byAssistant = await assign(mine, member.email, apiKey);
    expect(byAssistant.status).toBe(403);
    expect(((await byAssistant.json()) as { detail: string }).detail).toContain("is a person's decision");
    const untouched = (await ok(apiKey, "get_plan_status", { planId: mine.planId })) as { pendingReviews: { assignee: unknown }[] };
    expect(untouched.pendingReviews[0]?.assignee).toBeNull();
    // Mine is assigned first, so the others are more recently updated: the index alone would list it last.
    expect((await assign(mine, member.email)).status).toBe(200);
    expect((await assign(theirs, other.email)).status).toBe(200);
    const visitor = await signedIn(member.email, member.password);
    const order = (html: string) => [...html.matchAll(/data-inbox-plan="([^"]+)" data-assigned="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    const inbox = await (await visitor.get("/dashboard/reviews")).text();
    expect(order(inbox)).toEqual([
      [mine.planId, "you"],
      [unassigned.planId, "none"],
      [theirs.planId, "other"],
    ]);
    expect(inbox).toContain("Assigned to you");
    expect(inbox).toContain(`Assigned to ${other.email} (${other.email.toLowerCase()})`);

    const csrf = Visitor.csrfOf(inbox);
    const path = `/dashboard/plans/${mine.planId}/reviews/${mine.checkpointStepId}/assignee`;
    const refused = await visitor.post(path, { csrf, email: outsider.email });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(outsider.email.toLowerCase());
    const moved = await visitor.post(path, { csrf, email: other.email });
    expect(moved.status).toBe(303);
    expect(moved.headers.get("location")).toBe("/dashboard/reviews?done=reassigned");
    const after = await (await visitor.get("/dashboard/reviews?done=reassigned")).text();
    expect(after).toContain("Review reassigned");
    expect(order(after).find(([planId]) => planId === mine.planId)?.[1]).toBe("other");
    const history = (await ok(apiKey, "get_plan_history", { planId: mine.planId })) as { audit: { action: string; actorUserId: string; detail: unknown }[] };
    expect(history.audit[0]).toMatchObject({ action: "review.assigned", actorUserId: member.userId, detail: { from: member.userId, to: other.userId } });
  });

  it("revises with follow-up steps from the plan page", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId, checkpointStepId } = await planAwaitingReview(apiKey);
    const visitor = await signedIn(admin.email, admin.password);
    const page = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    expect(page).toMatch(/Review step 2: [^<]+ \(checkpoint\)/);
    const revised = await visitor.post(`/dashboard/plans/${planId}/steps/${checkpointStepId}/review`, {
      csrf: Visitor.csrfOf(page),
      decision: "revise",
      feedback: "Add pricing",
      followUpSteps: "Compare prices\nCheck licences",
      back: `/dashboard/plans/${planId}`,
    });
    expect(revised.status).toBe(303);
    const status = (await ok(apiKey, "get_plan_status", { planId })) as { totalSteps: number };
    expect(status.totalSteps).toBe(5);
    const detail = await (await visitor.get(`/dashboard/plans/${planId}?done=revise`)).text();
    expect(detail).toContain("Review submitted: follow-up steps were added.");
    expect(detail).toContain("review follow up");
    expect(detail).toContain("+ step 3 (custom): Compare prices");
    expect(detail).toContain("<em>Rationale:</em> Add pricing");
  });
});

describe("dashboard pages", () => {
  it("lists plans with progress, stall and filters, escaping what assistants wrote", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Scan] <script>alert(1)</script> Escaped" });
    await completeNextStep(apiKey, planId, 0.7);
    await ok(apiKey, "get_next_step", { planId });
    const done = await createPlan(apiKey, { name: "[Scan] Finished one", steps: steps("search") });
    await completeNextStep(apiKey, done.planId);
    const visitor = await signedIn(admin.email, admin.password);

    const all = await (await visitor.get("/dashboard/plans")).text();
    expect(all).not.toContain("<script>alert(1)</script>");
    expect(all).toContain("[Scan] &lt;script&gt;alert(1)&lt;/script&gt; Escaped");
    expect(all).toMatch(new RegExp(`data-plan-id="${planId}"[\\s\\S]*?<progress[^>]*value="33"`));
    expect(all).toContain("Step 2 of 3");
    expect(all).toContain("[Scan] Finished one");

    const open = await (await visitor.get("/dashboard/plans?status=open")).text();
    expect(open).not.toContain("[Scan] Finished one");
    const searched = await (await visitor.get("/dashboard/plans?q=finished")).text();
    expect(searched).toContain("[Scan] Finished one");
    expect(searched).not.toContain("Escaped");
    expect(await (await visitor.get("/dashboard/plans?stalled=1")).text()).toContain("No plans match.");

    const detail = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    expect(detail).toContain("Which vector database fits on-device search?");
    expect(detail).toContain("finding of step 1");
    expect(detail).toContain("0.70");
    expect(detail).toContain("Execution report (0 searches");
    expect(detail).toContain("Looked at the sources");
    expect(detail).toContain("plan.created");
    expect(detail).toContain('id="evidence-ledger"');
    expect(detail).toContain("No evidence recorded for this plan.");
  });

  it("shows a deep plan's evidence ledger: subtopics grounded or UNVERIFIED, claims with final status and verdicts", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Ledger shown", citationPolicy: "strict" });
    await ok(apiKey, "record_evidence", {
      planId,
      subtopics: ["Density", "Cost"],
      evidence: [{ url: "https://example.org/a", title: "Lab <b>results</b>", facts: "400 Wh/kg in lab cells", subtopic: "Density" }],
    });
    // Grounded once its source is checked (not fetched here: unreachable, refused, which does not count against it).
    await sourceChecksSettled(apiKey, planId);
    await ok(apiKey, "record_claims", { planId, claims: [{ subtopic: "Density", text: "Lab cells reach 400 Wh/kg", evidenceRefs: ["E1"], confidence: 0.7 }] });
    await ok(apiKey, "record_verdicts", {
      planId,
      verdicts: [
        { claim: "C1", kind: "reviewer", judge: "reviewer-1", shard: 1, verdict: "SUPPORTED" },
        { claim: "C1", kind: "critic", judge: "critic", verdict: "DOWNGRADE", reasoning: "Lab only", confidence: 0.5 },
      ],
    });
    const visitor = await signedIn(admin.email, admin.password);
    const detail = await (await visitor.get(`/dashboard/plans/${planId}`)).text();
    const ledger = detail.slice(detail.indexOf('id="evidence-ledger"'));
    expect(ledger).toContain("Citation policy: strict");
    expect(ledger).toMatch(/GROUNDED<\/span> Density/);
    expect(ledger).toMatch(/UNVERIFIED<\/span> Cost/);
    expect(ledger).toContain("Lab cells reach 400 Wh/kg");
    expect(ledger).toMatch(/DOWNGRADE<\/span><span class="muted"> 0.50/);
    expect(ledger).toContain("Lab &lt;b&gt;results&lt;/b&gt;");
    expect(ledger).toContain("Lab only");
  });

  it("marks a stalled plan", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Scan] Goes quiet", stallThresholdMinutes: 1 });
    await ok(apiKey, "get_next_step", { planId });
    // Make the step look silent for an hour: the dashboard computes stall from the plan's own clock rule.
    await env.DB.prepare("UPDATE plans SET stalled = 1 WHERE plan_id = ?").bind(planId).run();
    const visitor = await signedIn(admin.email, admin.password);
    const list = await (await visitor.get("/dashboard/plans?stalled=1")).text();
    expect(list).toContain("[Scan] Goes quiet");
    expect(list).toContain("⚠ stalled");
    // A plan whose status is "stalled" says so once, not "stalled ⚠ stalled".
    await env.DB.prepare("UPDATE plans SET status = 'stalled' WHERE plan_id = ?").bind(planId).run();
    const again = await (await visitor.get("/dashboard/plans?stalled=1")).text();
    const row = again.slice(again.indexOf(`data-plan-id="${planId}"`), again.indexOf("</tr>", again.indexOf(`data-plan-id="${planId}"`)));
    const status = row.slice(row.indexOf('data-label="Status"'), row.indexOf('data-label="Derived"'));
    expect(status).toContain(">stalled<");
    expect(status).not.toContain("⚠");
  });

  it("shows skill executions with their interview, routing and feedback, and analytics", async () => {
    const { admin, apiKey } = await seedTenant();
    const execution = await ok(apiKey, "log_skill_execution", {
      skillName: "research",
      sessionId: "sess-dash-1",
      metadata: { topic: "Edge vector search", researchType: "decision_support", routingRationale: "Two options, quick answer", delegatedTo: "scan", depthSignals: ["quick"] },
    });
    const { planId } = await createPlan(apiKey, { sessionId: "sess-dash-1" });
    await ok(apiKey, "submit_research_feedback", { planId, phase: "closing", satisfaction: 5, summary: "Spot on", improvementSuggestions: ["More sources"] });
    await callFailing(apiKey);
    const visitor = await signedIn(admin.email, admin.password);

    const list = await (await visitor.get("/dashboard/executions")).text();
    expect(list).toContain("Edge vector search");
    const detail = await (await visitor.get(`/dashboard/executions/${execution.executionId}`)).text();
    expect(detail).toContain("Two options, quick answer");
    expect(detail).toContain("decision_support");
    expect(detail).toContain(`/dashboard/plans/${planId}">[Scan] Vector databases</a>`);
    expect(detail).toContain("Spot on");
    expect(detail).toContain("satisfaction 5/5");
    expect(detail).toContain("<li>More sources</li>");

    const analytics = await (await visitor.get("/dashboard/analytics")).text();
    expect(analytics).toMatch(/<tr data-route="scan"><td[^>]*>scan<\/td><td[^>]*>1<\/td><td[^>]*>1<\/td><td[^>]*>5\.00<\/td><td[^>]*>100%<\/td>/);
    // The same figure drawn: a full bar (5 of 5) for scan.
    expect(analytics).toMatch(/<g class="route" data-route="scan" data-satisfaction="5\.00">[\s\S]*?<rect class="bar" x="70" y="16" width="450\.0"/);
    expect(analytics).toMatch(/<tr data-operation="create_research_plan">[\s\S]*?<td data-label="Calls">1<\/td>/);
    expect(analytics).toMatch(/<tr data-operation="get_plan_status">[\s\S]*?<td data-label="Errors">1 \(100%\)<\/td>/);
  });

  it("answers the live probe with a fingerprint that moves with the plan", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey);
    const visitor = await signedIn(admin.email, admin.password);
    const probe = async () => ((await (await visitor.get(`/dashboard/live?plan=${planId}`)).json()) as { fingerprint: string }).fingerprint;
    const before = await probe();
    await completeNextStep(apiKey, planId);
    const afterStep = await probe();
    expect(afterStep).not.toBe(before);
    // The ledger moves it too: a source recorded, then its check's verdict (the plan's index follows neither).
    await ok(apiKey, "record_evidence", { planId, evidence: [{ url: "https://example.org/live", title: "Live", facts: "A fact", subtopic: "Live", quote: "a quote to check here" }] });
    expect(await probe()).not.toBe(afterStep);
    await sourceChecksSettled(apiKey, planId);
    const checked = await probe();
    // A later verdict on the same source (as a re-check writes it).
    await env.DB.prepare("UPDATE ledger_evidence SET verification_status = 'verified', verification_checked_at = verification_checked_at + 1 WHERE plan_id = ?").bind(planId).run();
    expect(await probe()).not.toBe(checked);
    expect((await new Visitor().get(`/dashboard/live?plan=${planId}`)).status).toBe(401);
  });
});

/** One failing tool call, so analytics has an error to count. */
async function callFailing(apiKey: string) {
  const response = await rest(apiKey, "/plans/plan_0000000000000000000000000");
  expect(response.status).toBe(404);
}

describe("dashboard API keys", () => {
  it("creates a key shown once, which works until it is revoked", async () => {
    const { orgId, admin } = await seedTenant();
    const visitor = await signedIn(admin.email, admin.password);
    const csrf = await visitor.csrf("/dashboard/admin");
    const created = await visitor.post("/dashboard/admin/keys", { csrf, name: "ci pipeline", scope: ["research:read"] });
    expect(created.status).toBe(200);
    const html = await created.text();
    const keys = html.match(/cairn_[0-9A-Za-z]{40}/g) ?? [];
    expect(keys).toHaveLength(1);
    const key = keys[0] ?? "";

    const row = await env.DB.prepare("SELECT id, user_id, scopes, key_hash FROM api_keys WHERE org_id = ? AND name = 'ci pipeline'").bind(orgId).first<{ id: string; user_id: string; scopes: string; key_hash: string }>();
    expect(row).toMatchObject({ user_id: admin.userId, scopes: '["research:read"]' });
    expect(row?.key_hash).not.toContain(key);
    expect((await rest(key, "/plans")).status).toBe(200);

    // Never shown again.
    const later = await (await visitor.get("/dashboard/admin")).text();
    expect(later).not.toContain(key);
    expect(later).toContain(key.slice(0, 12));

    const revoked = await visitor.post(`/dashboard/admin/keys/${row?.id}/revoke`, { csrf });
    expect(revoked.status).toBe(303);
    expect((await rest(key, "/plans")).status).toBe(401);
    expect(await (await visitor.get("/dashboard/admin?done=revoked")).text()).toContain("API key revoked.");

    // Another org's key cannot be revoked from here.
    const otherOrg = await seedOrg();
    const otherUser = await seedUser(otherOrg, "admin");
    const other = await seedApiKey(otherOrg, otherUser.userId);
    expect((await visitor.post(`/dashboard/admin/keys/${other.id}/revoke`, { csrf })).status).toBe(404);
    expect((await rest(other.key, "/plans")).status).toBe(200);
  });
});

describe("step diffs", () => {
  it("names added, removed, moved and rewritten steps", () => {
    const s = (stepId: string, stepOrder: number, instructions: string) => ({ stepId, stepOrder, stepType: "search", instructions, status: "pending" });
    const lines = diffSteps([s("a", 1, "one"), s("b", 2, "two")], [s("b", 1, "two!"), s("c", 2, "three")]).map((l) => `${l.kind} ${l.text}`);
    expect(lines).toEqual([
      "del − step 1 (search): one",
      "chg ↕ step 2 → 1 (search)",
      "del − step 2: two",
      "add + step 1: two!",
      "add + step 2 (search): three",
    ]);
  });
});
