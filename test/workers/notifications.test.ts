import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/domain/ids";
import type { WebhookEvent } from "../../src/domain/webhooks/events";
import { newKeyringEntry } from "../../src/domain/webhooks/secret-box";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { createChannel } from "../../src/platform/notifications/admin";
import { Visitor } from "../support/dashboard";
import { createPlan, ok, steps } from "../support/plans";
import { adminOf, at, received, useStandInReceivers, waitFor } from "../support/webhooks";
import { callTool, fetchWorker, ORIGIN, rest, seedApiKey, seedOrg, seedUser } from "../support/worker";

/**
 * Notifications on the real runtime: events leave through the webhook queue, people get e-mail through the
 * local send_email binding (Miniflare's simulation; its message id is recorded with what was sent) and channels
 * get Slack-compatible messages at a stand-in receiver at its HTTP edge (hooks.example.com).
 */
useStandInReceivers();

interface NotificationRow {
  recipient: string;
  event_type: string;
  status: string;
  last_error: string | null;
  sent_to: string | null;
  subject: string | null;
  body_text: string | null;
  message_id: string | null;
  sent_with: string | null;
}

const rowsFor = (recipient: string) =>
  env.DB.prepare("SELECT * FROM notification_deliveries WHERE recipient = ? ORDER BY created_at, id").bind(recipient).all<NotificationRow>().then((r) => r.results);

/** An event as the outbox hands it to the webhook queue. */
async function emit(orgId: string, type: string, data: Record<string, unknown>): Promise<string> {
  const event = { eventId: newId("msg"), orgId, type, occurredAt: Date.now(), data } as WebhookEvent;
  await env.WEBHOOK_QUEUE.send({ kind: "event", event });
  return event.eventId;
}

const json = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) });

async function memberOf(orgId: string) {
  const member = await seedUser(orgId, "member");
  return { ...member, key: (await seedApiKey(orgId, member.userId)).key };
}

describe("notifications to people", () => {
  it("e-mails the owner of a plan waiting for approval by default, with the dashboard link, and respects a changed choice", async () => {
    const { orgId } = await adminOf();
    const member = await memberOf(orgId);
    const defaults = await (await rest(member.key, "/me/notifications")).json();
    expect(defaults).toMatchObject({ email: ["plan.review_requested", "plan.approval_requested", "plan.scheduled_run_due", "review.assigned", "comment.created"], defaults: true, address: member.email.toLowerCase(), digestWindowSeconds: 1 });

    const { planId } = await createPlan(member.key, { approval: "required" });
    const [sent] = await waitFor("the approval e-mail", async () => {
      const rows = await rowsFor(`user:${member.userId}`);
      return rows.some((r) => r.status === "delivered") && rows;
    });
    // One message for the approval: not a second one for the review it also is.
    expect(await rowsFor(`user:${member.userId}`)).toHaveLength(1);
    expect(sent).toMatchObject({ event_type: "plan.approval_requested", status: "delivered", sent_to: member.email.toLowerCase() });
    expect(sent?.message_id).toEqual(expect.stringContaining("@"));
    expect(sent?.subject).toContain("Approval waiting");
    const link = `${ORIGIN}/dashboard/plans/${planId}`;
    expect(sent?.body_text).toContain(link);
    const visitor = new Visitor();
    await visitor.signIn(member.email, member.password);
    expect((await visitor.get(new URL(link).pathname)).status).toBe(200);

    // The member chooses completions only: an approval no longer reaches them, a completion does.
    const chosen = await rest(member.key, "/me/notifications", { method: "PUT", body: JSON.stringify({ email: ["plan.completed"] }) });
    expect(chosen.status).toBe(200);
    expect(await chosen.json()).toMatchObject({ email: ["plan.completed"], defaults: false });
    const bad = await rest(member.key, "/me/notifications", { method: "PUT", body: JSON.stringify({ email: ["plan.exploded"] }) });
    expect(bad.status).toBe(400);
    await emit(orgId, "plan.approval_requested", { planId, name: "Again", ownerUserId: member.userId });
    await emit(orgId, "plan.completed", { planId, name: "Done", ownerUserId: member.userId });
    const rows = await waitFor("the completion e-mail", async () => {
      const all = await rowsFor(`user:${member.userId}`);
      return all.some((r) => r.event_type === "plan.completed" && r.status === "delivered") && all;
    });
    expect(rows.map((r) => r.event_type)).toEqual(["plan.approval_requested", "plan.completed"]);
  });

  it("lets an admin add channels without ever showing a Slack URL, and posts one readable message per event with a working link", async () => {
    const { orgId, adminKey, admin } = await adminOf();
    const url = "https://hooks.example.com/slack/T000/B000/very-secret-token";
    const types = ["plan.review_requested", "plan.approval_requested", "plan.stalled", "plan.completed", "research_output.sources_changed", "plan.scheduled_run_due"];
    const created = await rest(adminKey, "/org/notification-channels", json({ kind: "slack", url, events: types }));
    expect(created.status).toBe(201);
    const { channelId } = (await created.json()) as { channelId: string };
    // An address outside the org's members is a person's to add: an admin's key acting for people (plans:approve).
    const personKey = (await seedApiKey(orgId, admin.userId, ["org:admin", "plans:approve"])).key;
    const email = await rest(personKey, "/org/notification-channels", json({ kind: "email", address: "Team@Example.com", events: ["plan.completed"] }));
    expect(email.status).toBe(201);
    const listed = await rest(adminKey, "/org/notification-channels");
    const listing = await listed.text();
    expect(listing).not.toContain("very-secret-token");
    expect(JSON.parse(listing).channels).toEqual([
      { channelId, kind: "slack", events: types, createdAt: expect.any(String) },
      { channelId: expect.any(String), kind: "email", address: "team@example.com", confirmation: "awaiting_confirmation", events: ["plan.completed"], createdAt: expect.any(String) },
    ]);
    const stored = await env.DB.prepare("SELECT target FROM notification_channels WHERE id = ?").bind(channelId).first<{ target: string }>();
    expect(stored?.target).toMatch(/^sealed:v1:/);
    expect(stored?.target).not.toContain("very-secret-token");
    // Bad input changes nothing; members may not manage channels; a refused host is said plainly.
    expect((await rest(adminKey, "/org/notification-channels", json({ kind: "slack", url: "http://10.0.0.1/hook", events: ["plan.completed"] }))).status).toBe(400);
    expect((await rest(adminKey, "/org/notification-channels", json({ kind: "pager", events: ["plan.completed"] }))).status).toBe(400);
    const member = await memberOf(orgId);
    expect((await rest(member.key, "/org/notification-channels")).status).toBe(403);

    const { planId } = await createPlan(adminKey);
    for (const [i, type] of types.entries()) {
      const data = type === "research_output.sources_changed" ? { planId, outputId: "out_source", title: "Report", source: { url: "https://example.org/a", change: "changed" } } : { planId, name: `Plan <b>${i}</b>` };
      await emit(orgId, type, { ...data, ownerUserId: admin.userId });
      await waitFor(`the ${type} message`, async () => at("/slack/T000/B000/very-secret-token").length === i + 1);
    }
    const messages = at("/slack/T000/B000/very-secret-token").map((r) => JSON.parse(r.body) as { text: string; blocks: unknown[] });
    expect(messages).toHaveLength(types.length);
    for (const message of messages.filter((_, i) => types[i] !== "research_output.sources_changed")) {
      expect(message.text).toContain(`<${ORIGIN}/dashboard/plans/${planId}|Open it on the dashboard>`);
      expect(message.text).toContain("&lt;b&gt;");
      expect(message.blocks.length).toBeGreaterThan(0);
    }
    expect(messages[4]?.text).toContain(`${ORIGIN}/dashboard/outputs/out_source`);
    expect(messages[2]?.text).toContain("has stalled");
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    expect((await visitor.get(`/dashboard/plans/${planId}`)).status).toBe(200);

    // Send a test, then delete: nothing more reaches the channel.
    const before = received.length;
    const test = await rest(adminKey, `/org/notification-channels/${channelId}/test`, { method: "POST" });
    expect(await test.json()).toEqual({ delivered: true, error: null });
    expect(received.length).toBe(before + 1);
    expect((await rest(adminKey, `/org/notification-channels/${channelId}`, { method: "DELETE" })).status).toBe(204);
    expect((await rest(adminKey, `/org/notification-channels/${channelId}`, { method: "DELETE" })).status).toBe(404);
  });

  it("lets a member choose on the dashboard, and an admin add a channel, send a test and delete it there (session and CSRF)", async () => {
    const { orgId, admin } = await adminOf();
    const member = await memberOf(orgId);
    const visitor = new Visitor();
    await visitor.signIn(member.email, member.password);
    const page = await (await visitor.get("/dashboard/notifications")).text();
    expect(page).toContain(member.email.toLowerCase());
    expect((await visitor.post("/dashboard/notifications", { email: ["plan.stalled"] })).status).toBe(403);
    const saved = await visitor.post("/dashboard/notifications", { csrf: Visitor.csrfOf(page), email: ["plan.stalled", "plan.completed"] });
    expect(saved.headers.get("location")).toBe("/dashboard/notifications?done=notifications");
    expect(await (await rest(member.key, "/me/notifications")).json()).toMatchObject({ email: ["plan.stalled", "plan.completed"], defaults: false });
    expect((await visitor.get("/dashboard/admin/notifications")).status).toBe(403);

    const adminVisitor = new Visitor();
    await adminVisitor.signIn(admin.email, admin.password);
    const csrf = await adminVisitor.csrf("/dashboard/admin/notifications");
    const added = await adminVisitor.post("/dashboard/admin/notifications", { csrf, kind: "slack", target: "https://hooks.example.com/slack/dash-secret", events: ["plan.completed"] });
    expect(added.status).toBe(303);
    const listing = await (await adminVisitor.get("/dashboard/admin/notifications")).text();
    expect(listing).not.toContain("dash-secret");
    // A channel hears of every plan of the org: its events are not described as one person's.
    expect(listing).not.toContain("of yours");
    expect(listing).toContain("a plan waits for approval before its first step");
    const channelId = listing.match(/data-channel="([^"]+)"/)?.[1] ?? "";
    const tested = await adminVisitor.post(`/dashboard/admin/notifications/${channelId}/test`, { csrf });
    expect(await tested.text()).toContain("Test message sent.");
    expect(JSON.parse(at("/slack/dash-secret")[0]?.body ?? "{}").text).toContain("Test message");
    expect((await adminVisitor.post(`/dashboard/admin/notifications/${channelId}/delete`, { csrf })).status).toBe(303);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM notification_channels WHERE org_id = ?").bind(orgId).first("n")).toBe(0);
  });

  it("gathers what arrives within a recipient's window into one digest", async () => {
    const { orgId, adminKey } = await adminOf();
    const path = "/slack/digest";
    expect((await rest(adminKey, "/org/notification-channels", json({ kind: "slack", url: `https://hooks.example.com${path}`, events: ["plan.stalled"] }))).status).toBe(201);
    await emit(orgId, "plan.stalled", { planId: "plan_first", name: "First" });
    await waitFor("the first message", async () => at(path).length === 1);
    // Three at once, inside the window the first message opened: they wait for its end and go together.
    await env.WEBHOOK_QUEUE.sendBatch(
      ["A", "B", "C"].map((name) => ({ body: { kind: "event" as const, event: { eventId: newId("msg"), orgId, type: "plan.stalled" as const, occurredAt: Date.now(), data: { planId: `plan_${name}`, name } } } })),
    );
    await waitFor("the digest", async () => at(path).length === 2);
    const digest = JSON.parse(at(path)[1]?.body ?? "{}") as { text: string };
    expect(digest.text).toMatch(/^3 updates from Cairn/);
    for (const name of ["A", "B", "C"]) expect(digest.text).toContain(`${ORIGIN}/dashboard/plans/plan_${name}`);
    const channelRows = await env.DB.prepare("SELECT status, sent_with FROM notification_deliveries WHERE org_id = ? ORDER BY created_at").bind(orgId).all<{ status: string; sent_with: string }>();
    expect(channelRows.results.map((r) => r.status)).toEqual(["delivered", "delivered", "delivered", "delivered"]);
    expect(new Set(channelRows.results.slice(1).map((r) => r.sent_with)).size).toBe(1);
  });

  it("leaves out of a digest an approval answered while it waited, and says an event there twice once", async () => {
    const { orgId, adminKey, admin } = await adminOf();
    const path = "/slack/answered";
    expect((await rest(adminKey, "/org/notification-channels", json({ kind: "slack", url: `https://hooks.example.com${path}`, events: ["plan.approval_requested", "plan.stalled"] }))).status).toBe(201);
    const { planId } = await createPlan(adminKey, { approval: "required" });
    await waitFor("the approval's message", async () => at(path).length === 1);
    // A person approves; the plans index says it waits no more.
    const asked = Date.now();
    const status = (await ok(adminKey, "get_plan_status", { planId })) as { pendingReviews: { reviewId: string; planVersion: number }[] };
    const approver = (await seedApiKey(orgId, admin.userId, ["research:read", "research:write", "plans:approve"])).key;
    await ok(approver, "submit_review", { planId, stepId: status.pendingReviews[0]?.reviewId, decision: "approve", planVersion: status.pendingReviews[0]?.planVersion });
    await waitFor("the index", async () => (await env.DB.prepare("SELECT derived_status FROM plans WHERE plan_id = ?").bind(planId).first("derived_status")) !== "awaiting_review");
    // Inside the window the first message opened: the approval (asked twice before the answer) and a stall said twice.
    const stale = (name: string, type: "plan.approval_requested" | "plan.stalled", id: string) => ({
      body: { kind: "event" as const, event: { eventId: newId("msg"), orgId, type, occurredAt: asked, data: { planId: id, name } } },
    });
    await env.WEBHOOK_QUEUE.sendBatch([
      stale("Answered", "plan.approval_requested", planId),
      stale("Answered", "plan.approval_requested", planId),
      stale("Quiet", "plan.stalled", "plan_quiet"),
      stale("Quiet", "plan.stalled", "plan_quiet"),
    ]);
    await waitFor("the next message", async () => at(path).length === 2);
    const text = (JSON.parse(at(path)[1]?.body ?? "{}") as { text: string }).text;
    expect(text).not.toContain(planId);
    expect(text.split("/dashboard/plans/plan_quiet")).toHaveLength(2);
    const rows = await env.DB.prepare("SELECT event_type, status, last_error FROM notification_deliveries WHERE org_id = ? AND channel_id IS NOT NULL ORDER BY created_at, id")
      .bind(orgId)
      .all<{ event_type: string; status: string; last_error: string | null }>();
    expect(rows.results.filter((r) => r.status === "cancelled").map((r) => [r.event_type, r.last_error])).toEqual([
      ["plan.approval_requested", "answered before it was sent"],
      ["plan.approval_requested", "answered before it was sent"],
    ]);
    expect(at(path)).toHaveLength(2);
  });

  it("e-mails an assigned review to its assignee alone (not the owner, not the org's channels), a reassignment to the new assignee, an approval to the approver group; refuses a non-member by name", async () => {
    const { orgId, adminKey, admin } = await adminOf();
    const [owner, bea, cy] = [await memberOf(orgId), await memberOf(orgId), await memberOf(orgId)];
    const outsider = await seedUser(await seedOrg());
    const path = "/slack/assigned";
    expect((await rest(adminKey, "/org/notification-channels", json({ kind: "slack", url: `https://hooks.example.com${path}`, events: ["plan.review_requested", "plan.approval_requested"] }))).status).toBe(201);
    const { planId } = await createPlan(owner.key, { steps: steps("checkpoint", "synthesize") });
    const next = (await ok(owner.key, "get_next_step", { planId })) as { step: { stepId: string }; claimId: string };
    const reviewId = next.step.stepId;
    const ask = (assignee: string) => callTool(owner.key, "request_user_review", { planId, stepId: reviewId, claimId: next.claimId, presentation: "Scope?", questions: [], assignee });
    const pending = async () => ((await ok(owner.key, "get_plan_status", { planId })) as { pendingReviews: Record<string, unknown>[] }).pendingReviews;

    const refused = await ask(outsider.email);
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.body)).toContain(`Not a member of the organization: ${outsider.email.toLowerCase()}`);
    expect(await pending()).toEqual([]);
    expect((await ask(bea.email.toUpperCase())).isError).toBe(false);
    expect(await pending()).toEqual([expect.objectContaining({ reviewId, kind: "step", assignee: { email: bea.email.toLowerCase(), name: bea.email } })]);
    const [sent] = await waitFor("the assignee's e-mail", async () => {
      const rows = await rowsFor(`user:${bea.userId}`);
      return rows.some((r) => r.status === "delivered") && rows;
    });
    expect(sent).toMatchObject({ event_type: "plan.review_requested", sent_to: bea.email.toLowerCase() });
    // One fan-out writes every delivery of an event at once: none for the owner or the channel now means none at all.
    expect(await rowsFor(`user:${owner.userId}`)).toEqual([]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM notification_deliveries WHERE org_id = ? AND channel_id IS NOT NULL").bind(orgId).first("n")).toBe(0);

    // Reassigned over REST: someone outside is refused by name and nothing changes; a member is named, and alone hears of it.
    // Handing a review on is a person's: an admin's key for an integration acting for people.
    const person = (await seedApiKey(orgId, admin.userId, ["research:read", "research:write", "plans:approve"])).key;
    const put = (email: string | null) => rest(person, `/plans/${planId}/reviews/${reviewId}/assignee`, { method: "PUT", body: JSON.stringify({ email }) });
    const outside = await put(outsider.email);
    expect(outside.status).toBe(400);
    expect(((await outside.json()) as { detail: string }).detail).toContain(outsider.email.toLowerCase());
    expect((await pending())[0]?.assignee).toEqual({ email: bea.email.toLowerCase(), name: bea.email });
    const moved = await put(cy.email);
    expect(moved.status).toBe(200);
    expect(await moved.json()).toEqual({ reviewId, assignee: { email: cy.email.toLowerCase(), name: cy.email } });
    const [reassigned] = await waitFor("the new assignee's e-mail", async () => {
      const rows = await rowsFor(`user:${cy.userId}`);
      return rows.some((r) => r.status === "delivered") && rows;
    });
    expect(reassigned).toMatchObject({ event_type: "review.assigned", subject: expect.stringContaining("Review assigned to you") });
    expect(await rowsFor(`user:${bea.userId}`)).toHaveLength(1);
    expect(await rowsFor(`user:${owner.userId}`)).toEqual([]);
    // The plan's audit says who assigned it to whom, and the decision names who was meant to decide.
    await ok(owner.key, "submit_review", { planId, stepId: reviewId, decision: "approve" });
    const history = (await ok(owner.key, "get_plan_history", { planId })) as { audit: { action: string; detail: Record<string, unknown> }[] };
    expect(history.audit.find((entry) => entry.action === "review.assigned")?.detail).toEqual({ reviewId, from: bea.userId, to: cy.userId });
    expect(history.audit.find((entry) => entry.action === "review.approve")?.detail).toMatchObject({ assignee: cy.userId });

    // An approval in an org with an approver group: the group hears of it (the channel too), the owner does not.
    expect((await rest(adminKey, "/org/settings", { method: "PUT", body: JSON.stringify({ approvers: [bea.email] }) })).status).toBe(200);
    const approval = await createPlan(owner.key, { approval: "required" });
    await waitFor("the approver's e-mail", async () => (await rowsFor(`user:${bea.userId}`)).some((r) => r.event_type === "plan.approval_requested"));
    await waitFor("the channel's message", async () => at(path).length === 1);
    expect(await rowsFor(`user:${owner.userId}`)).toEqual([]);
    expect((await pending()).length).toBe(0);
    const waiting = ((await ok(owner.key, "get_plan_status", { planId: approval.planId })) as { pendingReviews: Record<string, unknown>[] }).pendingReviews;
    expect(waiting).toEqual([expect.objectContaining({ kind: "approval", assignee: null, approvers: [{ email: bea.email.toLowerCase(), name: bea.email }] })]);
  });

  it("sends nothing to a member removed from the org", async () => {
    const { orgId, admin } = await adminOf();
    const member = await memberOf(orgId);
    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const removed = await visitor.post(`/dashboard/admin/members/${member.userId}/remove`, { csrf: await visitor.csrf("/dashboard/admin") });
    expect(removed.status).toBe(303);
    // A plan of theirs still waits for approval: the event is decided, and reaches nobody.
    await emit(orgId, "plan.approval_requested", { planId: "plan_left", name: "Left behind", ownerUserId: member.userId });
    const stayed = await memberOf(orgId);
    await emit(orgId, "plan.approval_requested", { planId: "plan_stayed", name: "Still here", ownerUserId: stayed.userId });
    await waitFor("the colleague's e-mail", async () => (await rowsFor(`user:${stayed.userId}`)).some((r) => r.status === "delivered"));
    expect(await rowsFor(`user:${member.userId}`)).toEqual([]);
  });

  it("refuses past the org's daily cap with a clear error and Retry-After, and records why events were not sent", async () => {
    const { orgId, adminKey } = await adminOf();
    const path = "/slack/capped";
    const { channelId } = (await (await rest(adminKey, "/org/notification-channels", json({ kind: "slack", url: `https://hooks.example.com${path}`, events: ["plan.completed"] }))).json()) as { channelId: string };
    const day = new Date().toISOString().slice(0, 10);
    await env.DB.prepare("INSERT INTO notification_daily_usage (org_id, day, sent) VALUES (?, ?, 500)").bind(orgId, day).run();
    const test = await rest(adminKey, `/org/notification-channels/${channelId}/test`, { method: "POST" });
    expect(test.status).toBe(429);
    expect(Number(test.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await test.json()) as { detail: string }).detail).toContain("sent its 500 notifications for today (UTC)");
    await emit(orgId, "plan.completed", { planId: "plan_capped", name: "Capped" });
    const [row] = await waitFor("the capped delivery", async () => {
      const rows = await rowsFor(`channel:${channelId}`);
      return rows.some((r) => r.status === "failed") && rows;
    });
    expect(row?.last_error).toContain("until 00:00 UTC");
    expect(at(path)).toHaveLength(0);
  });

  it("the sweep cron re-sends a delivery left pending with no queue message, and seals channel URLs with a new key", async () => {
    const { orgId, adminKey } = await adminOf();
    const path = "/slack/swept";
    const { channelId } = (await (await rest(adminKey, "/org/notification-channels", json({ kind: "slack", url: `https://hooks.example.com${path}`, events: ["plan.completed"] }))).json()) as { channelId: string };
    // A delivery whose queue message was lost three hours ago.
    const lost = Date.now() - 3 * 3_600_000;
    const event = JSON.stringify({ eventId: "msg_lost", type: "plan.completed", occurredAt: lost, data: { planId: "plan_lost", name: "Lost" } });
    await env.DB.prepare(
      "INSERT INTO notification_deliveries (id, org_id, recipient, channel_id, event_id, event_type, event, cairn_origin, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'msg_lost', 'plan.completed', ?, ?, 'pending', ?, ?)",
    )
      .bind(newId("ntf"), orgId, `channel:${channelId}`, channelId, event, ORIGIN, lost, lost)
      .run();
    const sweep = (keys?: string) =>
      worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), { ...(env as unknown as Env), ...(keys ? { WEBHOOK_SECRET_KEYS: keys } : {}) } as never);
    await sweep();
    await waitFor("the lost message", async () => at(path).length === 1);
    expect(JSON.parse(at(path)[0]?.body ?? "{}").text).toContain(`${ORIGIN}/dashboard/plans/plan_lost`);
    // An operator puts a new key first: the next sweep seals the channel's URL with it.
    await sweep(`${newKeyringEntry("k-next")},${(env as unknown as Env).WEBHOOK_SECRET_KEYS}`);
    const stored = await env.DB.prepare("SELECT target FROM notification_channels WHERE id = ?").bind(channelId).first<{ target: string }>();
    expect(stored?.target).toMatch(/^sealed:v1:k-next:/);
  });

  it("sends an address outside the org's members only a confirmation link until it is followed (single use, expiring, hashed); refuses group syntax, encoded words and address literals", async () => {
    const { orgId, adminKey, admin } = await adminOf();
    // Strict syntax, refused by name, nothing stored.
    for (const [address, reason] of [
      ["a:b@c.test", "group syntax"],
      ["=?utf-8?q?x?=@b.test", "encoded word"],
      ["a@[127.0.0.1]", "address literal"],
    ] as const) {
      const refused = await rest(adminKey, "/org/notification-channels", json({ kind: "email", address, events: ["plan.completed"] }));
      expect(refused.status, address).toBe(400);
      expect(((await refused.json()) as { detail: string }).detail).toContain(reason);
    }
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM notification_channels WHERE org_id = ?").bind(orgId).first("n")).toBe(0);

    // A member's own address needs no confirmation.
    const own = await rest(adminKey, "/org/notification-channels", json({ kind: "email", address: admin.email.toUpperCase(), events: ["plan.completed"] }));
    expect(await own.json()).toMatchObject({ confirmation: "confirmed" });

    // An outside address: added through the real send_email binding, the message it gets observed on its way.
    const sent: { to: string; subject: string; text: string }[] = [];
    const real = (env as unknown as Env).SEND_EMAIL as NonNullable<Env["SEND_EMAIL"]>;
    const send = (message: never) => {
      sent.push(message);
      return real.send(message);
    };
    const observed = { ...(env as unknown as Env), SEND_EMAIL: { send } } as unknown as Env;
    // The admin signed in to the dashboard: adding an outside address is a person's to do.
    const person = { userId: admin.userId, scopes: [], signedIn: true as const };
    const created = await createChannel(observed, orgId, person, ORIGIN, { kind: "email", address: "victim@outside.example", events: ["plan.completed"] }, Date.now());
    expect(created).toMatchObject({ confirmation: "awaiting_confirmation", confirmationSent: true, error: null });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: "victim@outside.example", subject: expect.stringContaining("Confirm notifications") });
    const link = /Confirm: (\S+)/.exec(sent[0]?.text ?? "")?.[1] ?? "";
    expect(link).toMatch(new RegExp(`^${ORIGIN}/notifications/confirm/[A-Za-z0-9_-]{43}$`));
    const token = link.slice(link.lastIndexOf("/") + 1);
    const stored = await env.DB.prepare("SELECT * FROM notification_channels WHERE id = ?").bind(created.channelId).first<Record<string, unknown>>();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored).toMatchObject({ confirmed_at: null, confirm_token_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });

    // Until it confirms: no event reaches it (a Slack channel for the same event shows the event went out), and a test sends a new link, not a test.
    const path = "/slack/beside-unconfirmed";
    expect((await rest(adminKey, "/org/notification-channels", json({ kind: "slack", url: `https://hooks.example.com${path}`, events: ["plan.completed"] }))).status).toBe(201);
    await emit(orgId, "plan.completed", { planId: "plan_before", name: "Before confirming" });
    await waitFor("the Slack message", async () => at(path).length === 1);
    expect(await rowsFor(`channel:${created.channelId}`)).toEqual([]);
    const testIt = async () => (await (await rest(adminKey, `/org/notification-channels/${created.channelId}/test`, { method: "POST" })).json()) as { delivered: boolean; error: string; confirmationSent: boolean };
    // Not again within minutes of the first link…
    const early = await testIt();
    expect(early).toMatchObject({ delivered: false, confirmationSent: false });
    expect(early.error).toContain("less than 10 minutes ago");
    // …but later, a new link.
    await env.DB.prepare("UPDATE notification_channels SET confirm_expires_at = confirm_expires_at - 11 * 60000 WHERE id = ?").bind(created.channelId).run();
    const test = await testIt();
    expect(test).toMatchObject({ delivered: false, confirmationSent: true });
    expect(test.error).toContain("has not confirmed yet");
    const adminVisitor = new Visitor();
    await adminVisitor.signIn(admin.email, admin.password);
    expect(await (await adminVisitor.get("/dashboard/admin/notifications")).text()).toContain("e-mail to victim@outside.example (waiting for the address to confirm)");
    // That new link replaced the first: make the first live again to follow it (the test's link went to the mailbox only).
    await env.DB.prepare("UPDATE notification_channels SET confirm_token_sha256 = ? WHERE id = ?").bind(stored?.confirm_token_sha256, created.channelId).run();

    // Opening the link changes nothing (mail scanners open links); its button confirms, once.
    const confirmPath = new URL(link).pathname;
    const opened = await fetchWorker(new Request(`${ORIGIN}${confirmPath}`));
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("victim@outside.example");
    expect(await env.DB.prepare("SELECT confirmed_at FROM notification_channels WHERE id = ?").bind(created.channelId).first("confirmed_at")).toBeNull();
    const confirmed = await fetchWorker(new Request(`${ORIGIN}${confirmPath}`, { method: "POST" }));
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('id="confirmed"');
    const again = await fetchWorker(new Request(`${ORIGIN}${confirmPath}`, { method: "POST" }));
    expect(again.status).toBe(404);
    // The confirmation is the org's record too: the address acted, no member (the failed second try adds nothing).
    const audited = await env.DB.prepare("SELECT actor_user_id, actor_client_id, target_type, target_id, detail FROM audit_log WHERE org_id = ? AND action = 'notification_channel.confirmed'").bind(orgId).all();
    expect(audited.results).toEqual([
      { actor_user_id: "victim@outside.example", actor_client_id: "email-confirmation", target_type: "notification_channel", target_id: created.channelId, detail: JSON.stringify({ address: "victim@outside.example" }) },
    ]);
    expect((await fetchWorker(new Request(`${ORIGIN}${confirmPath}`))).status).toBe(404);
    expect(await env.DB.prepare("SELECT confirm_token_sha256 FROM notification_channels WHERE id = ?").bind(created.channelId).first("confirm_token_sha256")).toBeNull();
    const listing = (await (await rest(adminKey, "/org/notification-channels")).json()) as { channels: { channelId: string; confirmation?: string }[] };
    expect(listing.channels.find((ch) => ch.channelId === created.channelId)?.confirmation).toBe("confirmed");

    // Confirmed, it receives the org's events.
    await emit(orgId, "plan.completed", { planId: "plan_after", name: "After confirming" });
    await waitFor("the confirmed address's e-mail", async () => (await rowsFor(`channel:${created.channelId}`)).some((r) => r.status === "delivered"));

    // An expired link confirms nothing.
    sent.length = 0;
    const late = await createChannel(observed, orgId, person, ORIGIN, { kind: "email", address: "late@outside.example", events: ["plan.completed"] }, Date.now());
    const lateLink = /Confirm: (\S+)/.exec(sent[0]?.text ?? "")?.[1] ?? "";
    await env.DB.prepare("UPDATE notification_channels SET confirm_expires_at = ? WHERE id = ?").bind(Date.now() - 1, late.channelId).run();
    expect((await fetchWorker(new Request(lateLink, { method: "POST" }))).status).toBe(404);
    expect(await env.DB.prepare("SELECT confirmed_at FROM notification_channels WHERE id = ?").bind(late.channelId).first("confirmed_at")).toBeNull();
  });
});
