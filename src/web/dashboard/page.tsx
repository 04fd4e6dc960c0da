/** What every dashboard page is rendered with: the app's types, the layout around a page, messages and the flash after a form. */
import type { Context } from "hono";
import type { DashboardSession } from "./session";
import type { Env } from "../../env";
import type { Principal } from "../../domain/principal";
import { scopesAllowedForRole } from "../../domain/scopes";
import { webServices } from "../../platform/runtime";
import { Layout, type LayoutProps } from "./layout";
import { Message } from "./pages";

/** What the dashboard writes to audit logs as the "client" a person acted through. */
export const DASHBOARD_CLIENT = "dashboard";

/**
 * The principal a signed-in person acts as: their role's scopes, through the dashboard, as a person (the middleware
 * in app.tsx checked the session, and for a form its CSRF token, before any route runs).
 */
export const dashboardPrincipal = (session: DashboardSession): Principal => ({
  orgId: session.orgId,
  userId: session.userId,
  role: session.role,
  scopes: scopesAllowedForRole(session.role),
  clientId: DASHBOARD_CLIENT,
  signedIn: true,
});

/** An org audit entry for what the signed-in person did through the dashboard. */
export async function recordAudit(c: DashContext, action: string, targetType: string, targetId: string, detail: Record<string, unknown> = {}): Promise<void> {
  const session = c.get("session");
  await (await webServices(c.env, session.orgId)).services.audit.record({
    orgId: session.orgId,
    actorUserId: session.userId,
    actorClientId: DASHBOARD_CLIENT,
    action,
    targetType,
    targetId,
    detail,
  });
}

/** What every dashboard route has: the session and the parsed form (set by the middleware in app.tsx). */
type Vars = { session: DashboardSession; form: FormData; secureHeadersNonce?: string };
export type App = { Bindings: Env; Variables: Vars };
export type DashContext = Context<App>;

const nonceOf = (c: DashContext) => c.get("secureHeadersNonce") ?? "";

export function render(c: DashContext, props: Omit<LayoutProps, "nonce" | "session">, status = 200) {
  const session = c.get("session") ?? null;
  const html = `<!doctype html>${String(<Layout {...props} nonce={nonceOf(c)} session={session} />)}`;
  return c.html(html, status as 200);
}

export const message = (c: DashContext, title: string, text: string, status: number) =>
  render(c, { title, children: <Message title={title} message={text} /> }, status);

export const notFoundPage = (c: DashContext) => message(c, "Not found", "There is nothing here, or it belongs to another organization.", 404);

const flashes: Record<string, string> = {
  approve: "Review submitted: approved. The plan continues.",
  revise: "Review submitted: follow-up steps were added.",
  reject: "Review submitted: the plan was rejected and has failed.",
  role: "Role updated.",
  removed: "Member removed: their sessions, assistants and API keys in this organization no longer work.",
  revoked: "API key revoked. It stops working at once.",
  budget_raised: "Budget raised. The plan continues.",
  plan_approve: "Plan approved. It starts with its first step.",
  plan_revise: "Plan revised and approved. Your note reaches the assistant with its next step.",
  plan_reject: "Plan rejected: it ends before anything is spent.",
  budget_ended: "The plan ends with what it has: steps not started are skipped.",
  enabled: "Webhook subscription enabled.",
  disabled: "Webhook subscription disabled: no deliveries until it is enabled again.",
  deleted: "Webhook subscription deleted, with its delivery log.",
  redelivered: "Delivery queued again, with the same webhook-id.",
  settings: "Settings saved.",
  sso: "Single sign-on saved: the provider's discovery document was read.",
  sso_removed: "Single sign-on removed: members sign in with passwords again.",
  notifications: "Notification settings saved.",
  channel_added: "Channel added. Send a test to check it.",
  channel_deleted: "Channel deleted: nothing more is sent to it.",
  schedule_set: "Schedule set: each run is a new plan, made when it is due.",
  schedule_stopped: "Schedule stopped: no further runs (the runs made stay).",
  share_revoked: "Share link revoked: it answers “not found” from now on.",
  reassigned: "Review reassigned: only its assignee is notified.",
  commented: "Comment saved: the assistant sees it the next time it reads this.",
  comment_resolved: "Thread resolved.",
  comment_reopened: "Thread open again.",
};

/** The message for `?done=…`: own keys only, so `?done=toString` shows nothing rather than a function. */
export function flashFor(c: DashContext): string | undefined {
  const done = c.req.query("done") ?? "";
  return Object.hasOwn(flashes, done) ? flashes[done] : undefined;
}
