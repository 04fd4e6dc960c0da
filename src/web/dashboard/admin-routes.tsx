/** The org admin pages (admins only: app.tsx guards /admin with requireAdmin): members, API keys, deleting the org. */
import type { Hono } from "hono";
import { generateApiKey } from "../../auth/api-keys";
import { forgetMembership } from "../../auth/admission";
import { forgetVerifiedApiKey } from "../../auth/verified-callers";
import { isCairnError } from "../../domain/errors";
import { ID_PATTERN, newId } from "../../domain/ids";
import { isScope, ROLES, type Role, scopesAllowedForRole } from "../../domain/scopes";
import { eraseOrg, revokeGrantsFor } from "../../platform/org-data/erase";
import { Admin } from "./admin";
import { insertApiKey, listApiKeys, listMembers, removeMember, revokeApiKey, setMemberRole } from "./queries";
import { endSession } from "./session";
import { type App, type DashContext, flashFor, message, notFoundPage, recordAudit, render } from "./page";

async function adminPage(c: DashContext, extra: { createdKey?: { name: string; key: string }; error?: string; status?: number } = {}) {
  const session = c.get("session");
  const [members, keys, org] = await Promise.all([
    listMembers(c.env.DB, session.orgId),
    listApiKeys(c.env.DB, session.orgId),
    c.env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(session.orgId).first<{ slug: string }>(),
  ]);
  return render(
    c,
    {
      title: "Org admin",
      section: "admin",
      children: (
        <Admin
          members={members}
          keys={keys}
          csrf={session.csrf}
          selfId={session.userId}
          orgSlug={org?.slug ?? ""}
          createdKey={extra.createdKey ?? null}
          flash={flashFor(c)}
          error={extra.error ?? null}
        />
      ),
    },
    extra.status ?? 200,
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export function registerAdminRoutes(dashboardApp: Hono<App>): void {
  dashboardApp.get("/admin", (c) => adminPage(c));

  dashboardApp.post("/admin/members/:userId/role", async (c) => {
    const session = c.get("session");
    const userId = c.req.param("userId");
    const role = String(c.get("form").get("role") ?? "");
    if (!(ROLES as readonly string[]).includes(role)) return adminPage(c, { error: "Choose member or admin.", status: 400 });
    const outcome = await setMemberRole(c.env.DB, session.orgId, userId, role as Role);
    if (outcome === "not_found") return notFoundPage(c);
    if (outcome === "last_admin") return adminPage(c, { error: "The organization needs at least one admin: make someone else admin first.", status: 409 });
    forgetMembership(session.orgId, userId);
    await recordAudit(c, "membership.role_changed", "user", userId, { role });
    // An admin who made themselves a member can no longer see this page.
    return c.redirect(userId === session.userId && role !== "admin" ? "/dashboard/plans" : "/dashboard/admin?done=role", 303);
  });

  dashboardApp.post("/admin/members/:userId/remove", async (c) => {
    const session = c.get("session");
    const userId = c.req.param("userId");
    if (userId === session.userId) return adminPage(c, { error: "You cannot remove yourself; ask another admin.", status: 409 });
    const outcome = await removeMember(c.env.DB, session.orgId, userId, Date.now());
    if (outcome === "not_found") return notFoundPage(c);
    if (outcome === "last_admin") return adminPage(c, { error: "The organization needs at least one admin: make someone else admin first.", status: 409 });
    // Their assistants lose access now, not when a token expires: grants for this org are revoked, and the
    // membership every OAuth request re-reads is gone (this isolate forgets it at once, others within seconds).
    forgetMembership(session.orgId, userId);
    await revokeGrantsFor(c.env, session.orgId, userId);
    await recordAudit(c, "membership.removed", "user", userId, {});
    return c.redirect("/dashboard/admin?done=removed", 303);
  });

  dashboardApp.post("/admin/org/delete", async (c) => {
    const session = c.get("session");
    const typed = String(c.get("form").get("confirm") ?? "").trim();
    const org = await c.env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(session.orgId).first<{ slug: string }>();
    if (!org || typed !== org.slug) {
      return adminPage(c, { error: `Nothing was deleted: type the organization's slug, ${org?.slug ?? ""}, to confirm.`, status: 400 });
    }
    let erased: Awaited<ReturnType<typeof eraseOrg>>;
    try {
      erased = await eraseOrg(c.env, session.orgId);
    } catch (error) {
      if (isCairnError(error) && error.code === "conflict") return adminPage(c, { error: `Nothing was deleted: ${error.message}`, status: 409 });
      throw error;
    }
    console.log(JSON.stringify({ level: "info", message: "org erased from the dashboard", orgId: session.orgId, by: session.userId, ...erased }));
    // The session named this org: it ends with it.
    c.header("set-cookie", await endSession(c.env, session), { append: true });
    return message(c, "Organization deleted", `${org.slug} and everything in it (${erased.plans} plans, ${erased.members} memberships) are erased.`, 200);
  });

  dashboardApp.post("/admin/keys", async (c) => {
    const session = c.get("session");
    const form = c.get("form");
    const name = String(form.get("name") ?? "").trim();
    if (!name || name.length > 100 || CONTROL.test(name)) return adminPage(c, { error: "Give the key a name of 1–100 characters.", status: 400 });
    const allowed = scopesAllowedForRole(session.role);
    const scopes = allowed.filter((scope) => form.getAll("scope").map(String).filter(isScope).includes(scope));
    if (scopes.length === 0) return adminPage(c, { error: "Tick at least one scope.", status: 400 });
    const { key, prefix, hash } = await generateApiKey();
    const id = newId("key");
    await insertApiKey(c.env.DB, { id, orgId: session.orgId, userId: session.userId, name, prefix, hash, scopes, now: Date.now() });
    await recordAudit(c, "api_key.created", "api_key", id, { name, scopes });
    // Shown in this response only: the database keeps the hash.
    return adminPage(c, { createdKey: { name, key } });
  });

  dashboardApp.post("/admin/keys/:keyId/revoke", async (c) => {
    const keyId = c.req.param("keyId");
    if (!ID_PATTERN.test(keyId)) return notFoundPage(c);
    const revoked = await revokeApiKey(c.env.DB, c.get("session").orgId, keyId, Date.now());
    if (!revoked) return notFoundPage(c);
    forgetVerifiedApiKey(keyId);
    await recordAudit(c, "api_key.revoked", "api_key", keyId, {});
    return c.redirect("/dashboard/admin?done=revoked", 303);
  });
}
