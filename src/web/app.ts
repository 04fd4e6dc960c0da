import { Hono } from "hono";
import type { Env } from "../env";
import { canonicalOrigin } from "../auth/resource";
import { showAuthorize, submitAuthorize } from "./authorize";
import { dashboardApp } from "./dashboard/app";
import { notificationConfirmApp } from "./notification-confirm";
import { shareApp } from "./shares/share-app";

/**
 * Everything that is not a protected resource or served by the OAuth provider:
 * health, the landing document, and the sign-in and consent pages.
 */
export const webApp = new Hono<{ Bindings: Env }>();

webApp.get("/health", (c) => c.json({ status: "ok" }));

webApp.get("/", (c) => {
  const origin = canonicalOrigin(c.env.PUBLIC_URL);
  return c.json({
    name: "Cairn",
    description: "Durable, org-scoped research plans for AI assistants.",
    mcp: `${origin}/mcp`,
    rest: `${origin}/api/v1`,
    dashboard: `${origin}/dashboard`,
    openapi: `${origin}/api/v1/openapi.json`,
  });
});

webApp.get("/authorize", showAuthorize);
webApp.post("/authorize", submitAuthorize);

webApp.route("/dashboard", dashboardApp);
// Share links' public pages: no sign-in (src/web/shares).
webApp.route("/s", shareApp);
// An address outside the org's members confirms its notifications here: no sign-in (src/web/notification-confirm.tsx).
webApp.route("/notifications/confirm", notificationConfirmApp);

webApp.notFound((c) => c.json({ error: "not_found", message: `No route ${new URL(c.req.url).pathname}` }, 404));
