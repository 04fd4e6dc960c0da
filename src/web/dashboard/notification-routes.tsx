/** Your notifications (every member) and Org admin → Notification channels (admins: app.tsx guards /admin/*). The same rules as the REST API. */
import type { Hono } from "hono";
import { isCairnError } from "../../domain/errors";
import { ID_PATTERN } from "../../domain/ids";
import { channelsOf, createChannel, getPreferences, putPreferences, removeChannel, testChannel } from "../../platform/notifications/admin";
import { publicOrigin } from "../../platform/runtime";
import { ChannelsPage, PreferencesPage } from "./notifications";
import { type App, type DashContext, dashboardPrincipal, flashFor, notFoundPage, recordAudit, render } from "./page";

async function preferencesPage(c: DashContext) {
  const session = c.get("session");
  return render(c, { title: "Your notifications", section: "notifications", children: <PreferencesPage preferences={await getPreferences(c.env, session.orgId, session.userId)} csrf={session.csrf} flash={flashFor(c)} /> });
}

async function channelsPage(c: DashContext, extra: { flash?: string; error?: string; status?: number } = {}) {
  const session = c.get("session");
  return render(
    c,
    { title: "Notification channels", section: "admin", children: <ChannelsPage channels={await channelsOf(c.env, session.orgId)} csrf={session.csrf} flash={extra.flash ?? flashFor(c)} error={extra.error ?? null} /> },
    extra.status ?? 200,
  );
}

/** Runs a change; a refusal (bad address, refused URL, limit, daily cap) is shown on the page, with nothing changed. */
async function attempt(c: DashContext, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (!isCairnError(error)) throw error;
    if (error.code === "not_found") return notFoundPage(c);
    const status = error.code === "conflict" ? 409 : error.code === "rate_limited" ? 429 : 400;
    return channelsPage(c, { error: error.message, status });
  }
}

export function registerNotificationRoutes(dashboardApp: Hono<App>): void {
  dashboardApp.get("/notifications", (c) => preferencesPage(c));

  dashboardApp.post("/notifications", async (c) => {
    const session = c.get("session");
    await putPreferences(c.env, session.orgId, session.userId, { email: c.get("form").getAll("email").map(String) }, Date.now());
    return c.redirect("/dashboard/notifications?done=notifications", 303);
  });

  dashboardApp.get("/admin/notifications", (c) => channelsPage(c));

  dashboardApp.post("/admin/notifications", (c) =>
    attempt(c, async () => {
      const session = c.get("session");
      const form = c.get("form");
      const kind = String(form.get("kind") ?? "");
      const target = String(form.get("target") ?? "").trim();
      const body = { kind, ...(kind === "email" ? { address: target } : { url: target }), events: form.getAll("events").map(String) };
      const created = await createChannel(c.env, session.orgId, dashboardPrincipal(session), publicOrigin(c.env), body, Date.now());
      await recordAudit(c, "notification_channel.created", "notification_channel", created.channelId, { kind, events: body.events, ...(created.confirmation ? { confirmation: created.confirmation } : {}) });
      if (created.confirmation === "awaiting_confirmation") {
        const sent = created.confirmationSent ? `a link to confirm was sent to ${target}` : `the link to confirm could not be sent (${created.error}); "Send a test" tries again`;
        return channelsPage(c, { flash: `Channel added: nothing is sent to it until the address confirms; ${sent}.` });
      }
      return c.redirect("/dashboard/admin/notifications?done=channel_added", 303);
    }),
  );

  dashboardApp.post("/admin/notifications/:id/test", (c) =>
    attempt(c, async () => {
      const id = c.req.param("id");
      if (!ID_PATTERN.test(id)) return notFoundPage(c);
      const outcome = await testChannel(c.env, c.get("session").orgId, id, Date.now());
      if (outcome.delivered) return channelsPage(c, { flash: "Test message sent." });
      // An address waiting to confirm gets a new link instead of a test: that is the answer, not a failure.
      if (outcome.confirmationSent) return channelsPage(c, { flash: `No test message: ${outcome.error}` });
      return channelsPage(c, { error: `The test message was not sent: ${outcome.error}`, status: 502 });
    }),
  );

  dashboardApp.post("/admin/notifications/:id/delete", (c) =>
    attempt(c, async () => {
      const id = c.req.param("id");
      if (!ID_PATTERN.test(id)) return notFoundPage(c);
      await removeChannel(c.env, c.get("session").orgId, id);
      await recordAudit(c, "notification_channel.deleted", "notification_channel", id);
      return c.redirect("/dashboard/admin/notifications?done=channel_deleted", 303);
    }),
  );
}
