/** Org admin → Settings (admins only: app.tsx guards /admin/*). The same rules as PATCH /api/v1/org/settings (src/domain/org-settings.ts). */
import type { Hono } from "hono";
import { isCairnError } from "../../domain/errors";
import { applySettingsChange, assertApproversAreMembers, type OrgSettingsValues, readSettings, settingsChangeDetail, writeSettings } from "../../domain/org-settings";
import { assertPerson, loosensProtection } from "../../domain/person-actions";
import { webServices } from "../../platform/runtime";
import { type App, dashboardPrincipal, type DashContext, flashFor, recordAudit, render } from "./page";
import { type SettingsFormValues, SettingsPage } from "./settings";

const asForm = (settings: OrgSettingsValues): SettingsFormValues => ({
  planApproval: settings.planApproval,
  blockedDomains: settings.sourcePolicy.blockedDomains.join("\n"),
  preferredDomains: settings.sourcePolicy.preferredDomains.join("\n"),
  sharing: settings.sharing,
  approvers: settings.approvers.join("\n"),
});

/** A textarea's domains or e-mails: one a line (commas and spaces separate too, as neither holds any). */
const domainsOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

function settingsPage(c: DashContext, values: SettingsFormValues, extra: { error?: string; issues?: { path: string; message: string }[]; status?: number } = {}) {
  return render(
    c,
    {
      title: "Settings",
      section: "admin",
      children: <SettingsPage values={values} csrf={c.get("session").csrf} flash={flashFor(c)} error={extra.error ?? null} issues={extra.issues ?? []} />,
    },
    extra.status ?? 200,
  );
}

export function registerSettingsRoutes(dashboardApp: Hono<App>): void {
  dashboardApp.get("/admin/settings", async (c) => {
    const { orgId } = c.get("session");
    const { services } = await webServices(c.env, orgId);
    return settingsPage(c, asForm(await readSettings(services.orgSettings, orgId)));
  });

  dashboardApp.post("/admin/settings", async (c) => {
    const { orgId } = c.get("session");
    const form = c.get("form");
    const { services } = await webServices(c.env, orgId);
    const before = await readSettings(services.orgSettings, orgId);
    const typed: SettingsFormValues = {
      planApproval: String(form.get("planApproval") ?? "") as SettingsFormValues["planApproval"],
      blockedDomains: String(form.get("blockedDomains") ?? ""),
      preferredDomains: String(form.get("preferredDomains") ?? ""),
      // A form without the field (one saved before sharing was a setting) leaves it as it is.
      sharing: String(form.get("sharing") ?? before.sharing) as SettingsFormValues["sharing"],
      approvers: String(form.get("approvers") ?? before.approvers.join("\n")),
    };
    let after: OrgSettingsValues;
    try {
      after = applySettingsChange(
        {
          planApproval: typed.planApproval,
          sharing: typed.sharing,
          sourcePolicy: { blockedDomains: domainsOf(typed.blockedDomains), preferredDomains: domainsOf(typed.preferredDomains) },
          approvers: domainsOf(typed.approvers),
        },
        before,
      );
      await assertApproversAreMembers(services.members, orgId, after.approvers);
    } catch (error) {
      if (!isCairnError(error)) throw error;
      // Shown with what was typed, so a long list is not lost to one bad line.
      return settingsPage(c, typed, { error: "Nothing was saved: correct the lines named below.", issues: error.details.issues ?? [], status: 400 });
    }
    // The same check as the API's: a signed-in person passes it.
    if (loosensProtection(before, after)) assertPerson(dashboardPrincipal(c.get("session")), "lower_protection");
    await writeSettings(services.orgSettings, orgId, before, after);
    const detail = settingsChangeDetail(before, after);
    if (Object.keys(detail).length > 0) await recordAudit(c, "org.settings_changed", "org", orgId, detail);
    return c.redirect("/dashboard/admin/settings?done=settings", 303);
  });
}
