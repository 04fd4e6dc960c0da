/** Org admin → Single sign-on (admins only: app.tsx guards /admin/*). The same rules as PUT /api/v1/org/sso (src/auth/sso/org-sso.ts). */
import type { Hono } from "hono";
import { removeOrgSso, saveOrgSso, viewOf } from "../../auth/sso/org-sso";
import { assertPerson } from "../../domain/person-actions";
import type { SsoConfigView } from "../../domain/auth/sso/config";
import { isCairnError, type ValidationIssue } from "../../domain/errors";
import { readOrgSso } from "../../storage/org-sso";
import { canonicalOrigin } from "../../auth/resource";
import { SSO_CALLBACK_PATH } from "../../auth/sso/org-sso";
import { Flash, IssueList } from "./layout";
import { type App, DASHBOARD_CLIENT, type DashContext, dashboardPrincipal, flashFor, render } from "./page";

interface SsoFormValues {
  issuer: string;
  clientId: string;
  emailDomains: string;
  defaultRole: "member" | "admin";
  required: boolean;
}

const asForm = (view: SsoConfigView | null): SsoFormValues => ({
  issuer: view?.issuer ?? "",
  clientId: view?.clientId ?? "",
  emailDomains: view?.emailDomains.join("\n") ?? "",
  defaultRole: view?.defaultRole ?? "member",
  required: view?.required ?? false,
});

function SsoPage(props: { values: SsoFormValues; configured: SsoConfigView | null; redirectUri: string; csrf: string; flash?: string; error?: string; issues?: ValidationIssue[] }) {
  const { values } = props;
  return (
    <>
      <p class="muted">
        <a href="/dashboard/admin">← Org admin</a>
      </p>
      <h1>Single sign-on</h1>
      <Flash message={props.flash} />
      <Flash message={props.error} kind="error" />
      <IssueList id="sso-issues" issues={props.issues} />
      <p>
        Your people sign in through your organization's OpenID Connect provider. Register Cairn there as a web application with the redirect URI{" "}
        <code>{props.redirectUri}</code> and the scopes <code>openid email profile</code>.
      </p>
      <p class="muted" id="sso-status">
        {props.configured ? `Signing in through ${props.configured.providerName}.` : "Not set up: members sign in with passwords."}
      </p>
      <form class="card" method="post" action="/dashboard/admin/sso" id="sso-form">
        <input type="hidden" name="csrf" value={props.csrf} />
        <label for="issuer">Issuer URL</label>
        <input id="issuer" name="issuer" type="url" required value={values.issuer} placeholder="https://acme.okta.com" />
        <label for="clientId">Client ID</label>
        <input id="clientId" name="clientId" required value={values.clientId} />
        <label for="clientSecret">Client secret {props.configured ? "(type it again to save: it is never shown)" : ""}</label>
        <input id="clientSecret" name="clientSecret" type="password" required autocomplete="off" />
        <label for="emailDomains">E-mail domains (one a line)</label>
        <textarea id="emailDomains" name="emailDomains" rows={3} required>
          {values.emailDomains}
        </textarea>
        <label for="defaultRole">Role of a person signing in for the first time</label>
        <select id="defaultRole" name="defaultRole">
          <option value="member" selected={values.defaultRole === "member"}>
            member
          </option>
          <option value="admin" selected={values.defaultRole === "admin"}>
            admin
          </option>
        </select>
        <label>
          <input type="checkbox" name="required" value="true" checked={values.required} /> Required: refuse password sign-in for members
        </label>
        <p>
          <button class="primary" type="submit">
            Save
          </button>
        </p>
      </form>
      {props.configured ? (
        <form method="post" action="/dashboard/admin/sso/remove">
          <input type="hidden" name="csrf" value={props.csrf} />
          <button type="submit" id="sso-remove">
            Remove single sign-on
          </button>
        </form>
      ) : null}
    </>
  );
}

async function ssoPage(c: DashContext, values?: SsoFormValues, extra: { error?: string; issues?: ValidationIssue[]; status?: number } = {}) {
  const stored = await readOrgSso(c.env.DB, c.get("session").orgId);
  const configured = stored ? viewOf(stored) : null;
  return render(
    c,
    {
      title: "Single sign-on",
      section: "admin",
      children: (
        <SsoPage
          values={values ?? asForm(configured)}
          configured={configured}
          redirectUri={`${canonicalOrigin(c.env.PUBLIC_URL)}${SSO_CALLBACK_PATH}`}
          csrf={c.get("session").csrf}
          flash={flashFor(c)}
          error={extra.error}
          issues={extra.issues}
        />
      ),
    },
    extra.status ?? 200,
  );
}

export function registerSsoAdminRoutes(dashboardApp: Hono<App>): void {
  dashboardApp.get("/admin/sso", (c) => ssoPage(c));

  dashboardApp.post("/admin/sso", async (c) => {
    const session = c.get("session");
    // The middleware checked the form's CSRF token: a person signed in to the dashboard.
    assertPerson(dashboardPrincipal(session), "change_sign_in");
    const form = c.get("form");
    const typed: SsoFormValues = {
      issuer: String(form.get("issuer") ?? ""),
      clientId: String(form.get("clientId") ?? ""),
      emailDomains: String(form.get("emailDomains") ?? ""),
      defaultRole: form.get("defaultRole") === "admin" ? "admin" : "member",
      required: form.get("required") === "true",
    };
    try {
      await saveOrgSso(
        c.env,
        session.orgId,
        { ...typed, clientSecret: String(form.get("clientSecret") ?? ""), emailDomains: typed.emailDomains.split(/[\s,]+/).filter(Boolean) },
        { userId: session.userId, clientId: DASHBOARD_CLIENT },
      );
    } catch (error) {
      if (!isCairnError(error) || (error.code !== "validation" && error.code !== "conflict")) throw error;
      return ssoPage(c, typed, { error: `Nothing was saved. ${error.message}`, issues: error.details.issues ?? [], status: error.code === "conflict" ? 409 : 400 });
    }
    return c.redirect("/dashboard/admin/sso?done=sso", 303);
  });

  dashboardApp.post("/admin/sso/remove", async (c) => {
    const session = c.get("session");
    assertPerson(dashboardPrincipal(session), "change_sign_in");
    await removeOrgSso(c.env, session.orgId, { userId: session.userId, clientId: DASHBOARD_CLIENT });
    return c.redirect("/dashboard/admin/sso?done=sso_removed", 303);
  });
}
