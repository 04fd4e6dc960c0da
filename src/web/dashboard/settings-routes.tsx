/**
 * Org admin → Settings (admins only: app.tsx guards /admin/*). The same rules as PATCH /api/v1/org/settings
 * (src/domain/org-settings.ts), the locale (the paper of PDF downloads) included.
 */
import type { Hono } from "hono";
import { isCairnError, type ValidationIssue } from "../../domain/errors";
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
  locale: settings.locale ?? "",
});

/** A textarea's domains or e-mails: one a line (commas and spaces separate too, as neither holds any). */
const domainsOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** The dashboard's words for a refused locale: its field is a text box, left empty for none (the API's is null). */
const formIssue = (issue: ValidationIssue, typed: SettingsFormValues): ValidationIssue =>
  issue.path === "locale"
    ? { path: "locale", message: `"${typed.locale.trim().slice(0, 40)}" is not a language tag: write one such as en-US, en-GB or ja-JP, or leave the field empty for none` }
    : issue;

function settingsPage(
  c: DashContext,
  values: SettingsFormValues,
  saved: OrgSettingsValues,
  extra: { error?: string; issues?: ValidationIssue[]; status?: number } = {},
) {
  return render(
    c,
    {
      title: "Settings",
      section: "admin",
      children: <SettingsPage values={values} savedLocale={saved.locale ?? null} csrf={c.get("session").csrf} flash={flashFor(c)} error={extra.error ?? null} issues={extra.issues ?? []} />,
    },
    extra.status ?? 200,
  );
}

export function registerSettingsRoutes(dashboardApp: Hono<App>): void {
  dashboardApp.get("/admin/settings", async (c) => {
    const { orgId } = c.get("session");
    const { services } = await webServices(c.env, orgId);
    const settings = await readSettings(services.orgSettings, orgId);
    return settingsPage(c, asForm(settings), settings);
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
      locale: String(form.get("locale") ?? before.locale ?? ""),
    };
    let after: OrgSettingsValues;
    try {
      after = applySettingsChange(
        {
          planApproval: typed.planApproval,
          sharing: typed.sharing,
          sourcePolicy: { blockedDomains: domainsOf(typed.blockedDomains), preferredDomains: domainsOf(typed.preferredDomains) },
          approvers: domainsOf(typed.approvers),
          // An empty field unsets the locale (the API's null).
          locale: typed.locale.trim() === "" ? null : typed.locale.trim(),
        },
        before,
      );
      await assertApproversAreMembers(services.members, orgId, after.approvers);
    } catch (error) {
      if (!isCairnError(error)) throw error;
      // Shown with what was typed, so a long list is not lost to one bad line.
      const issues = (error.details.issues ?? []).map((issue) => formIssue(issue, typed));
      return settingsPage(c, typed, before, { error: "Nothing was saved: correct what is named below.", issues, status: 400 });
    }
    // The same check as the API's: a signed-in person passes it.
    if (loosensProtection(before, after)) assertPerson(dashboardPrincipal(c.get("session")), "lower_protection");
    await writeSettings(services.orgSettings, orgId, before, after);
    const detail = settingsChangeDetail(before, after);
    if (Object.keys(detail).length > 0) await recordAudit(c, "org.settings_changed", "org", orgId, detail);
    return c.redirect("/dashboard/admin/settings?done=settings", 303);
  });
}
