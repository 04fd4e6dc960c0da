import type { Hono } from "hono";
import { CairnError, validationError } from "../../domain/errors";
import { assignReview } from "../../operations/assign-review";
import { AssigneeEmail, type ReviewPersonView } from "../../operations/review-people";
import { webServices } from "../../platform/runtime";
import { type App, dashboardPrincipal, flashFor, render } from "./page";
import { type InboxItem, ReviewInbox } from "./pages";
import { liveFingerprint, plansAwaitingReview } from "./queries";

// ---------------------------------------------------------------------------
// Review inbox: every review of the org waiting for a person, those assigned to the reader first; reassigning one.

const LIVE_INTERVAL_MS = 2000;

/** Assigned to the reader first, then unassigned, then assigned to others; otherwise as the plans come (most recent first). */
export function inboxOrder(items: readonly InboxItem[], userId: string): InboxItem[] {
  const rank = (item: InboxItem) => (item.assigneeUserId === userId ? 0 : item.assigneeUserId ? 2 : 1);
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.i - b.i)
    .map(({ item }) => item);
}

export function registerInboxRoutes(dashboardApp: Hono<App>): void {
  dashboardApp.get("/reviews", async (c) => {
    const { orgId, userId, csrf } = c.get("session");
    const { services, home } = await webServices(c.env, orgId);
    const fingerprint = await liveFingerprint(home, orgId, null);
    const plans = await plansAwaitingReview(home, orgId);
    const states = await Promise.all(
      plans.map((plan) =>
        services.plans.read(orgId, plan.planId, false).catch((error: unknown) => {
          // The index can name a plan a moment before its object answers; skip it this time.
          if (error instanceof CairnError && error.code === "not_found") return null;
          throw error;
        }),
      ),
    );
    const items: Omit<InboxItem, "assignee">[] = [];
    plans.forEach((plan, i) => {
      const state = states[i];
      if (!state) return;
      const budget = state.plan.budget ?? null;
      for (const review of state.plan.reviews ?? []) {
        if (review.decision === null) items.push({ plan, subject: { planReview: review, steps: state.steps, planVersion: state.plan.version }, budget, assigneeUserId: review.assignee ?? null });
      }
      for (const step of state.steps) if (step.status === "awaiting_input" && step.review) items.push({ plan, subject: { step }, budget, assigneeUserId: step.review.assignee ?? null });
    });
    // Who each is assigned to, members only: one who left the org is no one's any more.
    const people = await services.members.byIds(orgId, [...new Set(items.flatMap((item) => (item.assigneeUserId ? [item.assigneeUserId] : [])))]);
    const byId = new Map<string, ReviewPersonView>(people.map((person) => [person.userId, { email: person.email, name: person.name }]));
    const named = items.map((item): InboxItem => {
      const assignee = item.assigneeUserId ? (byId.get(item.assigneeUserId) ?? null) : null;
      return { ...item, assignee, assigneeUserId: assignee ? item.assigneeUserId : null };
    });
    return render(c, {
      title: "Review inbox",
      section: "reviews",
      live: { url: "/dashboard/live", fingerprint, intervalMs: LIVE_INTERVAL_MS },
      children: <ReviewInbox items={inboxOrder(named, userId)} userId={userId} csrf={csrf} flash={flashFor(c)} />,
    });
  });

  // The same work as PUT /plans/{planId}/reviews/{reviewId}/assignee, as this person.
  dashboardApp.post("/plans/:planId/reviews/:reviewId/assignee", async (c) => {
    const session = c.get("session");
    const form = c.get("form");
    const raw = String(form.get("email") ?? "").trim();
    const parsed = raw === "" ? null : AssigneeEmail.safeParse(raw);
    if (parsed && !parsed.success) throw validationError("Give a member's e-mail address (or leave it empty for no one).", [{ path: "email", message: "A member's e-mail" }]);
    const { services, now } = await webServices(c.env, session.orgId);
    await assignReview({ services, principal: dashboardPrincipal(session), now }, c.req.param("planId"), c.req.param("reviewId"), parsed ? parsed.data : null);
    return c.redirect("/dashboard/reviews?done=reassigned", 303);
  });
}
