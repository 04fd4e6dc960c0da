import { Hono, type MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { checkPassword, waitInWords } from "../../auth/sign-in";
import { canonicalOrigin } from "../../auth/resource";
import { httpStatusOf, isCairnError } from "../../domain/errors";
import { ID_PATTERN } from "../../domain/ids";
import { refusedByDatabaseGate, writeRefusal } from "../../domain/org-data/write-gate";
import type { StepEdit } from "../../domain/plans/approval";
import type { PlanState } from "../../domain/plans/model";
import type { Env } from "../../env";
import { validInput } from "../../operations/invoke";
import type { OperationContext } from "../../operations/operation";
import { answerReview, submitReview } from "../../operations/submit-review";
import { homeDatabase } from "../../platform/org-homes";
import { newCorrelationId, webServices } from "../../platform/runtime";
import { defaultOrg } from "../../domain/auth/org-choice";
import { markOrgUsed, membershipsOf } from "../../storage/accounts";
import { chooseOrgPage, openDashboard, registerOrgChoiceRoutes } from "./org-choice";
import { registerSsoRoutes, ssoOfferFor } from "./sso-routes";
import { orgsOpenedBy } from "../../domain/auth/sso/sign-in-orgs";
import { SignIn } from "./pages";
import { registerInboxRoutes } from "./inbox-routes";
import { ledgerView } from "./plan-ledger";
import { splitWorkerId } from "./plan-steps";
import { PlanDetail, PlansList } from "./plans";
import {
  listApiKeys,
  listMembers,
  listPlans,
  liveFingerprint,
  PLANS_PAGE,
  STATUS_FILTERS,
  type StatusFilter,
} from "./queries";
import {
  endSession,
  formCsrfValid,
  loginCsrfCookie,
  loginCsrfValid,
  loadSession,
  randomToken,
  switchOrg,
} from "./session";
import { registerAdminRoutes } from "./admin-routes";
import { registerNotificationRoutes } from "./notification-routes";
import { registerRecordRoutes } from "./record-routes";
import { registerArtifactRoutes } from "./artifact-page";
import { registerSettingsRoutes } from "./settings-routes";
import { registerSsoAdminRoutes } from "./sso-admin";
import { registerSourceRoutes } from "./source-routes";
import { registerWebhookRoutes } from "./webhook-routes";
import { registerScheduleRoutes, scheduleForPage } from "./schedule-routes";
import { budgetRaiseOf } from "./budget";
import { type App, DASHBOARD_CLIENT, dashboardPrincipal, type DashContext, flashFor, message, notFoundPage, render } from "./page";
import { stepComments } from "../../platform/comments";
import { registerCommentRoutes } from "./comment-routes";

/**
 * The dashboard (issue 7): server-rendered pages for the people of an org, at
 * /dashboard. Signed in with the same local accounts as OAuth; every read and
 * write is scoped to the session's org, and a review answered here runs the
 * same operation as the `submit_review` tool.
 */

export const dashboardApp = new Hono<App>();

export { DASHBOARD_CLIENT } from "./page";
const LIVE_INTERVAL_MS = 2000;

dashboardApp.use(
  "*",
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: [NONCE],
      styleSrc: [NONCE],
      connectSrc: ["'self'"],
      imgSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
    xFrameOptions: "DENY",
    // Not no-referrer: under it Chrome sends `Origin: null` on form posts, and the origin check below needs the origin.
    referrerPolicy: "same-origin",
  }),
);

dashboardApp.use("*", async (c, next) => {
  await next();
  c.header("cache-control", "no-store");
});

/** Only paths inside the dashboard may be returned to after sign-in or a form. */
function safeReturn(value: unknown, fallback: string): string {
  return typeof value === "string" && /^\/dashboard(\/[A-Za-z0-9_\-/]*)?(\?[A-Za-z0-9_\-=&%.]*)?$/.test(value) ? value : fallback;
}

/** A POST must come from this origin when the browser says where it came from (defence in depth beside the token). */
function sameOrigin(c: DashContext): boolean {
  const origin = c.req.header("origin");
  if (!origin) return true;
  return origin === canonicalOrigin(c.env.PUBLIC_URL) || origin === new URL(c.req.url).origin;
}

// ---------------------------------------------------------------------------
// Sign-in

dashboardApp.get("/sign-in", async (c) => {
  const now = Date.now();
  const session = await loadSession(c.env, c.req.raw, now);
  if (session) return c.redirect("/dashboard/plans", 303);
  const csrf = randomToken(24);
  c.header("set-cookie", loginCsrfCookie(c.env, csrf), { append: true });
  const next = safeReturn(c.req.query("next"), "");
  // ?email=: an address whose domain an org signs in through its provider is offered "Continue with <provider>".
  const email = c.req.query("email")?.trim().slice(0, 320) || undefined;
  const sso = await ssoOfferFor(c.env, email, next ? { next } : {});
  return render(c, { title: "Sign in", children: <SignIn csrf={csrf} next={next || undefined} email={email} sso={sso} /> });
});

dashboardApp.post("/sign-in", async (c) => {
  const form = await c.req.raw.formData();
  const field = String(form.get("csrf") ?? "");
  if (!sameOrigin(c) || !loginCsrfValid(c.env, c.req.raw, field)) {
    return message(c, "Sign-in form expired", "Open the sign-in page again and retry.", 403);
  }
  const email = String(form.get("email") ?? "").slice(0, 320);
  const password = String(form.get("password") ?? "").slice(0, 1024);
  const check = await checkPassword(c.env, c.req.raw, email, password);
  const next = safeReturn(form.get("next"), "");
  const sso = await ssoOfferFor(c.env, email, next ? { next } : {});
  if (check.outcome !== "signed_in") {
    const csrf = randomToken(24);
    c.header("set-cookie", loginCsrfCookie(c.env, csrf), { append: true });
    const throttled = check.outcome === "throttled";
    if (throttled) c.header("retry-after", String(check.retryAfterSeconds));
    const error = throttled ? `Too many sign-in attempts. Try again in ${waitInWords(check.retryAfterSeconds)}.` : "Wrong e-mail or password.";
    return render(c, { title: "Sign in", children: <SignIn csrf={csrf} email={email} error={error} next={next || undefined} sso={sso} /> }, throttled ? 429 : 401);
  }
  const { user } = check;
  const everyMembership = await membershipsOf(c.env.DB, user.id);
  if (everyMembership.length === 0) return message(c, "No organization", "Your account is not a member of any organization yet. Ask an admin to add you.", 403);
  // An org that requires single sign-on is not opened by a password (its break-glass admin's excepted).
  const memberships = orgsOpenedBy(everyMembership, { kind: "password" });
  if (memberships.length === 0) {
    const csrf = randomToken(24);
    c.header("set-cookie", loginCsrfCookie(c.env, csrf), { append: true });
    const error = "Your organization signs in through its own provider, not with a password.";
    return render(c, { title: "Sign in", children: <SignIn csrf={csrf} email={email} error={error} next={next || undefined} sso={sso} /> }, 403);
  }
  // The org last used, never the first by name; none yet among several: the person chooses.
  const orgId = defaultOrg(memberships);
  const person = { userId: user.id, email: user.email, displayName: user.displayName };
  const destination = next || "/dashboard/plans";
  if (!orgId) return chooseOrgPage(c, { ...person, next: destination }, memberships, field);
  return openDashboard(c, c.env, person, orgId, destination);
});

registerOrgChoiceRoutes(dashboardApp, sameOrigin, safeReturn);
registerSsoRoutes(dashboardApp, safeReturn);

// ---------------------------------------------------------------------------
// Everything else needs a session; every POST needs its CSRF token.

const requireSession: MiddlewareHandler<App> = async (c, next) => {
  const session = await loadSession(c.env, c.req.raw, Date.now());
  if (!session) {
    if (c.req.path === "/dashboard/live") return c.json({ error: "signed_out" }, 401);
    if (c.req.method === "GET") {
      const url = new URL(c.req.url);
      return c.redirect(`/dashboard/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
    }
    return message(c, "Signed out", "Your session ended. Sign in again.", 401);
  }
  c.set("session", session);
  if (c.req.method === "POST") {
    const form = await c.req.raw.formData();
    if (!sameOrigin(c) || !formCsrfValid(session, form.get("csrf"))) {
      return message(c, "Form expired", "This form is no longer valid (its security token is missing or wrong). Reload the page and try again.", 403);
    }
    c.set("form", form);
    // The org's write gate: every form that writes waits while an import runs, and none is taken once the erasure began.
    const refusal = GATE_FREE_FORMS.some((form) => form.test(c.req.path)) ? null : writeRefusal(session.orgMarks, Date.now());
    if (refusal) throw refusal;
  }
  return next();
};

/**
 * Forms the write gate lets through: those that write nothing of the org's (signing out, switching org), the
 * erasure itself (it refuses beside an import on its own), and managing who has access (a member's role or
 * membership, revoking an API key), which must never wait for an import to finish.
 */
const GATE_FREE_FORMS = [
  /^\/dashboard\/(sign-out|org)$/,
  /^\/dashboard\/admin\/org\/delete$/,
  /^\/dashboard\/admin\/members\/[^/]+\/(role|remove)$/,
  /^\/dashboard\/admin\/keys\/[^/]+\/revoke$/,
];

const requireAdmin: MiddlewareHandler<App> = async (c, next) => {
  if (c.get("session").role !== "admin") return message(c, "Admins only", "Org admin pages need the admin role in this organization.", 403);
  return next();
};

dashboardApp.use("*", requireSession);
dashboardApp.use("/admin", requireAdmin);
dashboardApp.use("/admin/*", requireAdmin);

dashboardApp.onError((error, c) => {
  const refused = isCairnError(error) ? error : refusedByDatabaseGate(error);
  if (refused) {
    if (refused.code === "not_found") return notFoundPage(c);
    if (refused.details.retryAfterSeconds !== undefined) c.header("retry-after", String(refused.details.retryAfterSeconds));
    return message(c, "That did not work", refused.message, httpStatusOf(refused.code));
  }
  const correlationId = newCorrelationId();
  console.error(JSON.stringify({ level: "error", correlationId, message: "dashboard failure", path: c.req.path, error: String(error) }));
  return message(c, "Something went wrong", `An unexpected error occurred. Try again in a moment. (Reference: ${correlationId})`, 500);
});

dashboardApp.get("/", (c) => c.redirect("/dashboard/plans", 303));

dashboardApp.post("/sign-out", async (c) => {
  c.header("set-cookie", await endSession(c.env, c.get("session")), { append: true });
  return c.redirect("/dashboard/sign-in", 303);
});

dashboardApp.post("/org", async (c) => {
  const orgId = String(c.get("form").get("orgId") ?? "");
  const switched = await switchOrg(c.env, c.get("session"), orgId);
  if (!switched) return notFoundPage(c);
  await markOrgUsed(c.env.DB, c.get("session").userId, orgId, Date.now());
  return c.redirect("/dashboard/plans", 303);
});

/** The live-update probe: a fingerprint of the plan (or of the org's plans) that changes with every transition. */
dashboardApp.get("/live", async (c) => {
  const plan = c.req.query("plan");
  if (plan !== undefined && !ID_PATTERN.test(plan)) return c.json({ error: "not_found" }, 404);
  const { orgId } = c.get("session");
  return c.json({ fingerprint: await liveFingerprint(await homeDatabase(c.env, orgId), orgId, plan ?? null) });
});

// ---------------------------------------------------------------------------
// Plans

dashboardApp.get("/plans", async (c) => {
  const { orgId } = c.get("session");
  const status = c.req.query("status");
  const filters = {
    status: (STATUS_FILTERS as readonly string[]).includes(status ?? "") ? (status as StatusFilter) : "all",
    stalledOnly: c.req.query("stalled") === "1",
    query: (c.req.query("q") ?? "").trim().slice(0, 200),
  };
  const home = await homeDatabase(c.env, orgId);
  const fingerprint = await liveFingerprint(home, orgId, null);
  const rows = await listPlans(home, orgId, filters, PLANS_PAGE + 1);
  return render(c, {
    title: "Plans",
    section: "plans",
    live: { url: "/dashboard/live", fingerprint, intervalMs: LIVE_INTERVAL_MS },
    children: <PlansList plans={rows.slice(0, PLANS_PAGE)} filters={filters} more={rows.length > PLANS_PAGE} />,
  });
});

dashboardApp.get("/plans/:planId", async (c) => {
  const planId = c.req.param("planId");
  if (!ID_PATTERN.test(planId)) return notFoundPage(c);
  const { orgId } = c.get("session");
  const { services, home, now } = await webServices(c.env, orgId);
  const fingerprint = await liveFingerprint(home, orgId, planId);
  const [state, history, members, ledger, schedule, comments] = await Promise.all([
    services.plans.read(orgId, planId, true),
    services.plans.history(orgId, planId, null, 100),
    listMembers(c.env.DB, orgId),
    ledgerView(services, orgId, planId, now()),
    scheduleForPage(c.env, orgId, planId),
    stepComments(c.env, orgId, planId),
  ]);
  const people = new Map(members.map((m) => [m.userId, m.displayName && m.displayName !== m.email ? `${m.displayName} (${m.email})` : m.email]));
  const workerClients = state.steps.map((step) => (step.claimedBy ? splitWorkerId(step.claimedBy)[1] : null));
  const actingClients = [...new Set([...history.versions.map((v) => v.actorClientId), ...history.audit.map((a) => a.actorClientId), ...workerClients])];
  const [clients, execution] = await Promise.all([
    clientNames(c.env, orgId, actingClients),
    state.plan.executionId ? services.skillExecutions.get(orgId, state.plan.executionId) : null,
  ]);
  const topic = execution?.metadata.topic;
  return render(c, {
    title: state.plan.name,
    section: "plans",
    live: { url: `/dashboard/live?plan=${planId}`, fingerprint, intervalMs: LIVE_INTERVAL_MS },
    children: (
      <PlanDetail
        state={state}
        history={history}
        now={now()}
        csrf={c.get("session").csrf}
        people={people}
        clients={clients}
        ledger={ledger}
        executionTopic={typeof topic === "string" ? topic : null}
        flash={flashFor(c)}
        schedule={schedule}
        stepComments={comments}
      />
    ),
  });
});

/** How many distinct OAuth clients one page looks up by name (each is a KV read). */
const CLIENT_LOOKUPS_PER_PAGE = 20;

/**
 * What people read for the clients that acted on a plan: an API key by its name, an OAuth client
 * (an assistant) by the name it registered, this dashboard as such; an id only when nothing else is known.
 */
async function clientNames(env: Env, orgId: string, clientIds: readonly (string | null)[]): Promise<Map<string, string>> {
  const names = new Map<string, string>([[DASHBOARD_CLIENT, "the dashboard"]]);
  const ids = clientIds.filter((id): id is string => typeof id === "string" && id !== DASHBOARD_CLIENT);
  if (ids.some((id) => id.startsWith("key_"))) {
    for (const key of await listApiKeys(env.DB, orgId)) names.set(key.id, `API key “${key.name}”`);
  }
  const oauthClients = ids.filter((id) => !names.has(id)).slice(0, CLIENT_LOOKUPS_PER_PAGE);
  const found = await Promise.all(oauthClients.map((id) => env.OAUTH_PROVIDER.lookupClient(id).catch(() => null)));
  oauthClients.forEach((id, i) => {
    const name = found[i]?.clientName;
    if (name) names.set(id, name);
  });
  return names;
}

dashboardApp.post("/plans/:planId/steps/:stepId/review", async (c) => {
  const form = c.get("form");
  const session = c.get("session");
  const feedback = String(form.get("feedback") ?? "").trim();
  const followUps = String(form.get("followUpSteps") ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const decision = String(form.get("decision") ?? "");
  const approval = form.get("approvalReview") === "1";
  const { services, origin, now } = await webServices(c.env, session.orgId);
  const planId = c.req.param("planId");
  // Revising an approval: what the person changed, against the plan as it stands (another org's plan is not found).
  const revision = approval && decision === "revise" ? approvalRevisionOf(form, await services.plans.read(session.orgId, planId, false), now()) : {};
  const input = {
    ...(approval ? {} : budgetRaiseOf(form, decision, Date.now())),
    ...(revision.budget ? { budget: revision.budget } : {}),
    planId,
    stepId: c.req.param("stepId"),
    decision,
    ...(feedback ? { feedback } : {}),
    ...(followUps.length && decision === "revise" ? { followUpSteps: followUps } : {}),
    ...(approval && form.get("planVersion") ? { planVersion: Number(form.get("planVersion")) } : {}),
  };
  const review = validInput(submitReview, input, "The review is not valid.");
  const ctx: OperationContext = { principal: dashboardPrincipal(session), services, correlationId: crypto.randomUUID(), origin, now };
  // The very operation the submit_review tool runs: same command, same audit, with this person as the actor.
  await answerReview(review, ctx, revision.stepEdits ?? []);
  const back = safeReturn(form.get("back"), `/dashboard/plans/${review.planId}`);
  const done = form.get("budgetReview") === "1" ? (review.decision === "approve" ? "budget_raised" : "budget_ended") : approval ? `plan_${review.decision}` : review.decision;
  return c.redirect(`${back}${back.includes("?") ? "&" : "?"}done=${done}`, 303);
});

/** The step edits and budget of an approval form: only what differs from the plan as it stands. */
function approvalRevisionOf(form: FormData, state: PlanState, now: number): { stepEdits?: StepEdit[]; budget?: Record<string, number | string> } {
  const stepEdits = state.steps
    .filter((step) => step.status === "pending")
    .flatMap((step): StepEdit[] => {
      if (form.get(`remove:${step.stepId}`) === "1") return [{ stepId: step.stepId, remove: true }];
      const instructions = form.get(`instructions:${step.stepId}`);
      if (typeof instructions !== "string") return [];
      const text = instructions.replace(/\r\n/g, "\n").trim();
      return text !== step.instructions.trim() ? [{ stepId: step.stepId, instructions: text }] : [];
    });
  const { budget } = budgetRaiseOf(form, "revise", now, "revise");
  const current = state.plan.budget ?? {};
  const changed = budget ? Object.fromEntries(Object.entries(budget).filter(([key, value]) => current[key as keyof typeof current] !== value)) : {};
  return { ...(stepEdits.length ? { stepEdits } : {}), ...(Object.keys(changed).length ? { budget: changed } : {}) };
}

registerInboxRoutes(dashboardApp);
registerRecordRoutes(dashboardApp);
registerCommentRoutes(dashboardApp);
registerArtifactRoutes(dashboardApp);
registerSourceRoutes(dashboardApp);
registerAdminRoutes(dashboardApp);
registerWebhookRoutes(dashboardApp);
registerScheduleRoutes(dashboardApp);
registerSettingsRoutes(dashboardApp);
registerSsoAdminRoutes(dashboardApp);
registerNotificationRoutes(dashboardApp);

// Mounted with route(), the parent's notFound would answer: this keeps unknown dashboard paths on an HTML page.
dashboardApp.all("*", (c) => notFoundPage(c));
