import { describe, expect, it } from "vitest";
import { dashboardLink, type NotifiedEvent, renderDigest, renderEvent } from "./message";
import { currentEvents } from "./digest";
import { dailyCapOf, digestWindowOf, NOTIFICATION_LIMITS, parseChannelInput, parsePreferences, reviewRecipients, secondsUntilNextUtcDay, sendableAt, utcDay } from "./policy";

const T0 = Date.UTC(2026, 10, 28, 23, 59, 30);
const ORIGIN = "https://cairn.example.com";
const event = (type: NotifiedEvent["type"], data: Record<string, unknown>): NotifiedEvent => ({ eventId: "msg_1", type, occurredAt: T0, data });

describe("notification policy", () => {
  it("takes a member's choice as a list of known events, and nothing else", () => {
    expect(parsePreferences({ email: ["plan.completed", "plan.completed"] })).toEqual({ email: ["plan.completed"] });
    expect(parsePreferences({ email: [] })).toEqual({ email: [] });
    expect(() => parsePreferences({ email: ["plan.exploded"] })).toThrow(/Unknown events: plan.exploded/);
    expect(() => parsePreferences({ email: "plan.completed" })).toThrow(/list of event names/);
    expect(() => parsePreferences({ slack: [] })).toThrow(/Unknown fields: slack/);
    expect(() => parsePreferences({})).toThrow(/email is required/);
  });

  it("sends an assigned review to its assignee alone, an approval to the approver group, and review.assigned to no channel", () => {
    const approvers = ["usr_a", "usr_b"];
    expect(reviewRecipients("plan.review_requested", { assigneeUserId: "usr_x" }, approvers, true)).toEqual({ people: ["usr_x"], channels: false });
    expect(reviewRecipients("plan.approval_requested", { assigneeUserId: "usr_x" }, approvers, true)).toEqual({ people: ["usr_x"], channels: false });
    // An assignee who left: as unassigned (the approver group for an approval, else the usual owner and channels).
    expect(reviewRecipients("plan.approval_requested", { assigneeUserId: "usr_x" }, approvers, false)).toEqual({ people: approvers, channels: true });
    expect(reviewRecipients("plan.review_requested", { assigneeUserId: "usr_x" }, approvers, false)).toBeNull();
    expect(reviewRecipients("plan.approval_requested", {}, [], false)).toBeNull();
    expect(reviewRecipients("plan.completed", { assigneeUserId: "usr_x" }, approvers, true)).toBeNull();
    expect(reviewRecipients("review.assigned", { assigneeUserId: null }, approvers, false)).toEqual({ people: [], channels: false });
    expect(() => parseChannelInput({ kind: "slack", url: "https://hooks.example.com/x", events: ["review.assigned"] })).toThrow(/assignee only/);
  });

  it("checks a channel's kind, target and events", () => {
    expect(parseChannelInput({ kind: "slack", url: "https://hooks.example.com/x", events: ["plan.stalled"] })).toEqual({ kind: "slack", url: "https://hooks.example.com/x", events: ["plan.stalled"] });
    expect(parseChannelInput({ kind: "email", address: "Team@Example.com", events: ["plan.completed"] })).toEqual({ kind: "email", address: "team@example.com", events: ["plan.completed"] });
    expect(() => parseChannelInput({ kind: "email", address: "a@b.com, c@d.com", events: ["plan.completed"] })).toThrow(/not an address Cairn sends to/);
    expect(() => parseChannelInput({ kind: "email", address: "x@y.com\r\nBcc: z@w.com", events: ["plan.completed"] })).toThrow(/not an address Cairn sends to/);
    expect(() => parseChannelInput({ kind: "slack", events: ["plan.completed"] })).toThrow(/needs url/);
    expect(() => parseChannelInput({ kind: "slack", url: "https://h.example.com", address: "a@b.com", events: ["plan.completed"] })).toThrow(/not an address/);
    expect(() => parseChannelInput({ kind: "slack", url: "https://h.example.com", events: [] })).toThrow(/at least one/);
    expect(() => parseChannelInput({ kind: "pager", events: ["plan.completed"] })).toThrow(/slack" or "email/);
  });

  it("lets a recipient have one message per window; what comes during it waits for its end", () => {
    expect(sendableAt(null, T0, 300)).toBe(T0);
    expect(sendableAt(T0 - 301_000, T0, 300)).toBe(T0);
    expect(sendableAt(T0 - 60_000, T0, 300)).toBe(T0 + 240_000);
    expect(digestWindowOf(undefined)).toBe(NOTIFICATION_LIMITS.digestWindowSeconds);
    expect(digestWindowOf("0")).toBe(0);
    expect(digestWindowOf("soon")).toBe(300);
  });

  it("counts the cap per UTC day and says when it resumes", () => {
    expect(utcDay(T0)).toBe("2026-11-28");
    expect(secondsUntilNextUtcDay(T0)).toBe(30);
    expect(dailyCapOf(undefined)).toBe(500);
    expect(dailyCapOf("20")).toBe(20);
    expect(dailyCapOf("0")).toBe(500);
  });
});

describe("notification messages", () => {
  it("link to where the person acts: the deliverable for a changed source, else the plan; never to a link taken from the data", () => {
    expect(dashboardLink(ORIGIN, event("plan.review_requested", { planId: "plan_1" }))).toBe(`${ORIGIN}/dashboard/plans/plan_1`);
    expect(dashboardLink(ORIGIN, event("research_output.sources_changed", { planId: "plan_1", outputId: "out_1" }))).toBe(`${ORIGIN}/dashboard/outputs/out_1`);
    expect(dashboardLink(ORIGIN, event("plan.completed", { planId: "../../evil" }))).toBe(`${ORIGIN}/dashboard/plans`);
  });

  it("carry plain text, escaped HTML and escaped Slack text with the same link", () => {
    const rendered = renderEvent(event("plan.approval_requested", { planId: "plan_1", name: "<script>x</script>\nBcc: a@b.c" }), ORIGIN, `${ORIGIN}/dashboard/notifications`);
    expect(rendered.subject).toBe("[Cairn] Approval waiting: <script>x</script> Bcc: a@b.c");
    expect(rendered.text).toContain(`Open it: ${ORIGIN}/dashboard/plans/plan_1`);
    expect(rendered.html).toContain("&lt;script&gt;");
    expect(rendered.html).not.toContain("<script>");
    expect(rendered.html).toContain(`href="${ORIGIN}/dashboard/plans/plan_1"`);
    expect(rendered.slack.text).toContain("&lt;script&gt;");
    expect(rendered.slack.text).toContain(`<${ORIGIN}/dashboard/plans/plan_1|Open it on the dashboard>`);
  });

  it("gather several events into one digest that lists each with its link", () => {
    const events = Array.from({ length: 25 }, (_, i) => ({ ...event("plan.stalled", { planId: `plan_${i}`, name: `P${i}` }), eventId: `msg_${i}` }));
    const digest = renderDigest(events, ORIGIN, `${ORIGIN}/dashboard/notifications`);
    expect(digest.subject).toBe("[Cairn] 25 updates");
    expect(digest.text).toContain(`${ORIGIN}/dashboard/plans/plan_19`);
    expect(digest.text).not.toContain(`${ORIGIN}/dashboard/plans/plan_20`);
    expect(digest.text).toContain("…and 5 more.");
    expect(renderDigest(events.slice(0, 1), ORIGIN, "x").subject).toContain("Plan stalled");
  });
});

describe("what a digest still says", () => {
  const event = (eventId: string, type: string, planId: string, occurredAt: number): NotifiedEvent => ({ eventId, type: type as NotifiedEvent["type"], occurredAt, data: { planId, name: planId } });

  it("drops a request already answered, says each event once (the latest), and keeps what Cairn cannot check", () => {
    const items = [
      event("e1", "plan.approval_requested", "plan_answered", 1),
      event("e2", "plan.approval_requested", "plan_waiting", 2),
      event("e3", "plan.approval_requested", "plan_waiting", 3),
      event("e4", "plan.stalled", "plan_answered", 4),
      event("e5", "plan.review_requested", "plan_unknown", 5),
    ];
    const { keep, repeated, stale } = currentEvents(items, (item) => item, new Map([["plan_answered", 10]]));
    expect(keep.map((e) => e.eventId)).toEqual(["e3", "e4", "e5"]);
    expect(repeated.map((e) => e.eventId)).toEqual(["e2"]);
    expect(stale.map((e) => e.eventId)).toEqual(["e1"]);
    // A request made after the plan last changed is a new one, not answered yet.
    expect(currentEvents([event("e6", "plan.review_requested", "plan_answered", 11)], (item) => item, new Map([["plan_answered", 10]])).keep).toHaveLength(1);
  });
});
