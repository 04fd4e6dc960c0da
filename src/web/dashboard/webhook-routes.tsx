/** Org admin → Webhooks (admins only: app.tsx guards /admin/*). The same checks as the REST API, through platform/webhooks/admin. */
import type { Hono } from "hono";
import { isCairnError } from "../../domain/errors";
import { ID_PATTERN } from "../../domain/ids";
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, redeliverWebhook, rotateWebhookSecret, updateWebhook, webhookDeliveries } from "../../platform/webhooks/admin";
import { publicOrigin } from "../../platform/runtime";
import { type App, type DashContext, flashFor, notFoundPage, recordAudit, render } from "./page";
import { WebhookDeliveriesPage, WebhooksPage } from "./webhooks";

async function listPage(c: DashContext, extra: { secret?: { subscriptionId: string; secret: string; note: string }; error?: string; status?: number } = {}) {
  const session = c.get("session");
  const subscriptions = await listWebhooks(c.env, session.orgId);
  return render(
    c,
    {
      title: "Webhooks",
      section: "admin",
      children: <WebhooksPage subscriptions={subscriptions} csrf={session.csrf} secret={extra.secret ?? null} flash={flashFor(c)} error={extra.error ?? null} />,
    },
    extra.status ?? 200,
  );
}

const audit = (c: DashContext, action: string, targetId: string, detail: Record<string, unknown> = {}) => recordAudit(c, action, "webhook_subscription", targetId, detail);

/** Runs a change; a refusal (bad URL, limit, unknown id) is shown on the list page, with nothing changed. */
async function attempt(c: DashContext, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (!isCairnError(error)) throw error;
    if (error.code === "not_found") return notFoundPage(c);
    return listPage(c, { error: error.message, status: error.code === "conflict" ? 409 : 400 });
  }
}

export function registerWebhookRoutes(dashboardApp: Hono<App>): void {
  dashboardApp.get("/admin/webhooks", (c) => listPage(c));

  dashboardApp.post("/admin/webhooks", (c) =>
    attempt(c, async () => {
      const session = c.get("session");
      const form = c.get("form");
      const origin = publicOrigin(c.env);
      const description = String(form.get("description") ?? "").trim();
      const created = await createWebhook(
        c.env,
        session.orgId,
        session.userId,
        origin,
        { url: String(form.get("url") ?? ""), events: form.getAll("events").map(String), ...(description ? { description } : {}) },
        Date.now(),
      );
      await audit(c, "webhook.created", created.subscription.id, { url: created.subscription.url, events: created.subscription.events });
      return listPage(c, { secret: { subscriptionId: created.subscription.id, secret: created.secret, note: "Give it to the receiver to verify signatures." } });
    }),
  );

  dashboardApp.get("/admin/webhooks/:id", (c) =>
    attempt(c, async () => {
      const session = c.get("session");
      const id = c.req.param("id");
      if (!ID_PATTERN.test(id)) return notFoundPage(c);
      const cursor = c.req.query("cursor") ?? null;
      const [subscription, page] = await Promise.all([getWebhook(c.env, session.orgId, id), webhookDeliveries(c.env, session.orgId, id, cursor, 50)]);
      return render(c, {
        title: "Webhook deliveries",
        section: "admin",
        children: <WebhookDeliveriesPage subscription={subscription} deliveries={page.deliveries} nextCursor={page.nextCursor} csrf={session.csrf} flash={flashFor(c)} />,
      });
    }),
  );

  const change = (path: string, action: string, run: (c: DashContext, orgId: string, id: string) => Promise<Response | string>) =>
    dashboardApp.post(`/admin/webhooks/:id/${path}`, (c) =>
      attempt(c, async () => {
        const id = c.req.param("id");
        if (!ID_PATTERN.test(id)) return notFoundPage(c);
        const outcome = await run(c, c.get("session").orgId, id);
        await audit(c, action, id);
        return typeof outcome === "string" ? c.redirect(outcome, 303) : outcome;
      }),
    );

  change("enable", "webhook.enabled", async (c, orgId, id) => {
    await updateWebhook(c.env, orgId, id, { enabled: true }, Date.now());
    return "/dashboard/admin/webhooks?done=enabled";
  });
  change("disable", "webhook.disabled", async (c, orgId, id) => {
    await updateWebhook(c.env, orgId, id, { enabled: false }, Date.now());
    return "/dashboard/admin/webhooks?done=disabled";
  });
  change("delete", "webhook.deleted", async (c, orgId, id) => {
    await deleteWebhook(c.env, orgId, id);
    return "/dashboard/admin/webhooks?done=deleted";
  });
  change("rotate", "webhook.secret_rotated", async (c, orgId, id) => {
    const rotated = await rotateWebhookSecret(c.env, orgId, id, Date.now());
    return listPage(c, { secret: { subscriptionId: id, secret: rotated.secret, note: rotated.previousSecretValidUntil ? `The previous secret also signs until ${rotated.previousSecretValidUntil}.` : "The previous secret could not be opened with this deployment's keys: only the new one signs." } });
  });

  dashboardApp.post("/admin/webhooks/:id/deliveries/:deliveryId/redeliver", (c) =>
    attempt(c, async () => {
      const id = c.req.param("id");
      const deliveryId = c.req.param("deliveryId");
      if (!ID_PATTERN.test(id) || !ID_PATTERN.test(deliveryId)) return notFoundPage(c);
      await redeliverWebhook(c.env, c.get("session").orgId, id, deliveryId, Date.now());
      await audit(c, "webhook.redelivered", id, { deliveryId });
      return c.redirect(`/dashboard/admin/webhooks/${id}?done=redelivered`, 303);
    }),
  );
}
