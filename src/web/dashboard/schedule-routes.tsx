/** A plan's schedule from its page: the same rules as PUT and DELETE /api/v1/plans/{planId}/schedule. */
import type { Hono } from "hono";
import { isCairnError } from "../../domain/errors";
import { deleteSchedule, getSchedule, putSchedule, type ScheduleView } from "../../platform/schedules/schedules";
import type { Env } from "../../env";
import { type App, dashboardPrincipal, message, notFoundPage } from "./page";

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A datetime-local value (no zone) is read as UTC, as the form says; empty is absent. */
const utc = (value: File | string | null): string | undefined => {
  const text = String(value ?? "").trim();
  if (!text) return undefined;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text) ? `${text}Z` : text;
};

/** The plan's schedule for its page, or null when it has none. */
export async function scheduleForPage(env: Env, orgId: string, planId: string): Promise<ScheduleView | null> {
  try {
    return await getSchedule(env, orgId, planId);
  } catch (error) {
    if (isCairnError(error) && error.code === "not_found") return null;
    throw error;
  }
}

export function registerScheduleRoutes(app: Hono<App>): void {
  app.post("/plans/:planId/schedule", async (c) => {
    const planId = c.req.param("planId");
    if (!ID_PATTERN.test(planId)) return notFoundPage(c);
    const form = c.get("form");
    const body = { every: String(form.get("every") ?? ""), startAt: utc(form.get("startAt")), until: utc(form.get("until")) };
    try {
      await putSchedule(c.env, dashboardPrincipal(c.get("session")), planId, body);
    } catch (error) {
      if (!isCairnError(error) || error.code === "not_found") throw error;
      return message(c, "Schedule not set", error.message, error.code === "validation" ? 400 : 409);
    }
    return c.redirect(`/dashboard/plans/${planId}?done=schedule_set`, 303);
  });

  app.post("/plans/:planId/schedule/stop", async (c) => {
    const planId = c.req.param("planId");
    if (!ID_PATTERN.test(planId)) return notFoundPage(c);
    await deleteSchedule(c.env, dashboardPrincipal(c.get("session")), planId);
    return c.redirect(`/dashboard/plans/${planId}?done=schedule_stopped`, 303);
  });
}
