import type { Hono } from "hono";
import { orgsOpenedBy } from "../../domain/auth/sso/sign-in-orgs";
import type { Env } from "../../env";
import { markOrgUsed, type MembershipRecord, membershipsOf } from "../../storage/accounts";
import { type App, type DashContext, message, notFoundPage, render } from "./page";
import { createSession, loginCsrfCookie, loginCsrfValid, randomToken, sha256Hex } from "./session";

/**
 * After sign-in, a person in several orgs who has used none of them yet
 * chooses where the dashboard opens (src/domain/auth/org-choice.ts): a
 * one-time choice token, kept in KV for the sign-in's ten minutes, stands for
 * the signed-in person until they pick one of their orgs. The sign-in form's
 * double-submit cookie still guards the form.
 */
const CHOICE_TTL_SECONDS = 600;
const choiceKey = (hash: string) => `cairn:dash:choice:${hash}`;

interface PendingChoice {
  userId: string;
  email: string;
  displayName: string;
  next: string;
}

/** The chooser page for a person who just signed in; `csrf` is the sign-in form's token, which stays valid. */
export async function chooseOrgPage(c: DashContext, person: PendingChoice, memberships: MembershipRecord[], csrf: string) {
  const token = randomToken();
  await c.env.OAUTH_KV.put(choiceKey(await sha256Hex(token)), JSON.stringify(person), { expirationTtl: CHOICE_TTL_SECONDS });
  return render(c, { title: "Choose an organization", children: <ChooseOrg choice={token} csrf={csrf} memberships={memberships} /> });
}

function ChooseOrg(props: { choice: string; csrf: string; memberships: MembershipRecord[] }) {
  return (
    <div class="signin card">
      <h1>Choose an organization</h1>
      <p>You belong to several organizations. Choose the one to open; you can switch at any time, and your next sign-in opens where you were.</p>
      <form method="post" action="/dashboard/choose-org">
        <input type="hidden" name="csrf" value={props.csrf} />
        <input type="hidden" name="choice" value={props.choice} />
        {props.memberships.map((m) => (
          <p>
            <button type="submit" name="orgId" value={m.orgId}>
              {m.orgName} ({m.role})
            </button>
          </p>
        ))}
      </form>
    </div>
  );
}

/** Starts the dashboard session in the org the person chose on the chooser page. */
export function registerOrgChoiceRoutes(dashboardApp: Hono<App>, sameOrigin: (c: DashContext) => boolean, safeReturn: (value: unknown, fallback: string) => string): void {
  dashboardApp.post("/choose-org", async (c) => {
    const form = await c.req.raw.formData();
    if (!sameOrigin(c) || !loginCsrfValid(c.env, c.req.raw, String(form.get("csrf") ?? ""))) {
      return message(c, "Sign-in form expired", "Open the sign-in page again and retry.", 403);
    }
    const key = choiceKey(await sha256Hex(String(form.get("choice") ?? "").slice(0, 100)));
    const raw = await c.env.OAUTH_KV.get(key);
    if (!raw) return message(c, "This page expired", "Sign in again to choose an organization.", 400);
    const person = JSON.parse(raw) as PendingChoice;
    const orgId = String(form.get("orgId") ?? "");
    // Memberships are read again: one removed since the sign-in is not offered.
    if (!orgsOpenedBy(await membershipsOf(c.env.DB, person.userId), { kind: "password" }).some((m) => m.orgId === orgId)) return notFoundPage(c);
    await c.env.OAUTH_KV.delete(key);
    return openDashboard(c, c.env, person, orgId, safeReturn(person.next, "/dashboard/plans"));
  });
}

/** Signs the person in to the dashboard in `orgId`, remembered as the org they use. */
export async function openDashboard(c: DashContext, env: Env, person: Omit<PendingChoice, "next"> & { ssoOrgId?: string }, orgId: string, next: string) {
  const now = Date.now();
  await markOrgUsed(env.DB, person.userId, orgId, now);
  const user = { userId: person.userId, email: person.email, displayName: person.displayName, ...(person.ssoOrgId ? { ssoOrgId: person.ssoOrgId } : {}) };
  c.header("set-cookie", await createSession(env, user, orgId, now), { append: true });
  c.header("set-cookie", loginCsrfCookie(env, "", 0), { append: true });
  return c.redirect(next, 303);
}
