import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { rest, seedApiKey, seedTenant, seedUser } from "../support/worker";

async function signedIn(email: string, password: string) {
  const visitor = new Visitor();
  expect((await visitor.signIn(email, password)).status).toBe(303);
  return visitor;
}

describe("the dashboard's org settings", () => {
  it("lets an admin set plan approval and the source policy, keeps what was typed when a line is refused, and audits the change", async () => {
    const { orgId, admin } = await seedTenant();
    const adminKey = (await seedApiKey(orgId, admin.userId, ["research:read", "research:write", "org:admin"])).key;
    const visitor = await signedIn(admin.email, admin.password);

    const adminPage = await (await visitor.get("/dashboard/admin")).text();
    expect(adminPage).toContain('href="/dashboard/admin/settings"');
    const page = await visitor.get("/dashboard/admin/settings");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<option value="optional" selected');
    const csrf = Visitor.csrfOf(html);

    const saved = await visitor.post("/dashboard/admin/settings", {
      csrf,
      planApproval: "required",
      blockedDomains: "https://Example.com/path\r\nspam.net\r\n\r\n",
      preferredDomains: "nature.com, who.int",
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/dashboard/admin/settings?done=settings");
    expect(await (await rest(adminKey, "/org/settings")).json()).toEqual({
      planApproval: "required",
      sourcePolicy: { blockedDomains: ["example.com", "spam.net"], preferredDomains: ["nature.com", "who.int"] },
      sharing: "members",
    });
    const shown = await (await visitor.get("/dashboard/admin/settings?done=settings")).text();
    expect(shown).toContain("Settings saved.");
    expect(shown).toContain('<option value="required" selected');
    expect(shown).toMatch(/<textarea[^>]*name="blockedDomains"[^>]*>example\.com\nspam\.net<\/textarea>/);

    // A bad line: 400, nothing saved, the typed lists shown again (escaped), each bad line named.
    const refused = await visitor.post("/dashboard/admin/settings", {
      csrf,
      planApproval: "optional",
      blockedDomains: "example.com\n<script>x</script>\n192.168.0.1",
      preferredDomains: "example.com",
    });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain("Nothing was saved");
    expect(refusedHtml).toContain("is an IP address");
    expect(refusedHtml).toContain("example.com is both blocked and preferred");
    expect(refusedHtml).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(refusedHtml).not.toContain("<script>x</script>");
    expect(((await (await rest(adminKey, "/org/settings")).json()) as { planApproval: string }).planApproval).toBe("required");

    // Without the form's token: refused, nothing changed.
    const forged = await visitor.post("/dashboard/admin/settings", { csrf: "forged", planApproval: "optional", blockedDomains: "", preferredDomains: "" });
    expect(forged.status).toBe(403);
    expect(((await (await rest(adminKey, "/org/settings")).json()) as { planApproval: string }).planApproval).toBe("required");

    const audit = await env.DB.prepare("SELECT actor_client_id AS client, detail FROM audit_log WHERE org_id = ? AND action = 'org.settings_changed'").bind(orgId).all<{ client: string; detail: string }>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0]?.client).toBe("dashboard");
    expect(JSON.parse(audit.results[0]?.detail ?? "{}")).toMatchObject({ planApproval: { from: "optional", to: "required" }, blockedDomains: { added: ["example.com", "spam.net"] } });
  });

  it("is for admins only: a member neither sees nor changes it", async () => {
    const { orgId } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const visitor = await signedIn(member.email, member.password);
    expect((await visitor.get("/dashboard/admin/settings")).status).toBe(403);
    const csrf = await visitor.csrf();
    const post = await visitor.post("/dashboard/admin/settings", { csrf, planApproval: "required", blockedDomains: "example.com", preferredDomains: "" });
    expect(post.status).toBe(403);
    const row = await env.DB.prepare("SELECT plan_approval, source_blocked_domains FROM orgs WHERE id = ?").bind(orgId).first();
    expect(row).toEqual({ plan_approval: "optional", source_blocked_domains: "[]" });
  });
});
