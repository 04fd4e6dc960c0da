import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { OPERATOR_ACCOUNT_PASSWORD } from "../../src/domain/org-data/members";
import { Visitor } from "../support/dashboard";
import { openConsentPage, pkcePair, registerClient } from "../support/oauth-flow";
import { addMembership, fetchWorker, ORIGIN, seedApiKey, seedOrg, seedUser, tokensFor } from "../support/worker";

/**
 * Whom an org admin's import may place in their org, and which org a person's
 * next sign-in opens in. An import file is written by whoever uploads it: it
 * must not add anyone to the org, raise anyone's role, or tell the uploader
 * which e-mail addresses have accounts here.
 */
const ADMIN_SCOPES = ["research:read", "research:write", "org:admin"] as const;

const importFile = (members: { email: string; role: "member" | "admin"; userId?: string; displayName?: string }[]) =>
  [
    { type: "header", format: "cairn-org-export", formatVersion: 1, cairnVersion: "0.1.0", org: { id: "org_0000000000000000000000000", slug: "elsewhere", name: "Elsewhere" }, exportedAt: "2026-11-25T00:00:00Z", toolCalls: false },
    ...members.map((m, i) => ({ type: "member", userId: m.userId ?? `usr_${String(i).padStart(25, "0")}`, email: m.email, displayName: m.displayName ?? m.email, role: m.role, joinedAt: 1 })),
    { type: "end", counts: { member: members.length } },
  ]
    .map((line) => JSON.stringify(line))
    .join("\n");

const importAs = (key: string, body: string) =>
  fetchWorker(new Request(`${ORIGIN}/api/v1/org/import`, { method: "POST", body, headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" } }));

const roleIn = (orgId: string, userId: string) => env.DB.prepare("SELECT role FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, userId).first<string>("role");

describe("an org admin's import restores memberships only of people already in the org", () => {
  it("never adds a person of another org, never raises a role, and reports the rest as a count", async () => {
    const orgA = await seedOrg();
    const aAdmin = await seedUser(orgA, "admin", `a-admin-${crypto.randomUUID().slice(0, 6)}@example.com`);
    const orgB = await seedOrg();
    const bAdmin = await seedUser(orgB, "admin");
    const bMember = await seedUser(orgB, "member");
    const bKey = (await seedApiKey(orgB, bAdmin.userId, [...ADMIN_SCOPES])).key;
    const nobody = `nobody-${crypto.randomUUID().slice(0, 6)}@example.com`;

    const response = await importAs(
      bKey,
      importFile([
        { email: aAdmin.email, role: "admin" },
        { email: bMember.email, role: "admin" },
        { email: nobody, role: "member" },
      ]),
    );
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect((JSON.parse(text) as { imported: { members: unknown } }).imported.members).toEqual({ restored: 1, notRestored: 2 });
    // Org A's admin is not in B, nobody got an account, and B's member is still a member.
    expect(await roleIn(orgB, aAdmin.userId)).toBeNull();
    expect(await roleIn(orgB, bMember.userId)).toBe("member");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?").bind(nobody).first("n")).toBe(0);
    // The answer names no one the uploader did not already know.
    expect(text).not.toContain(aAdmin.userId);
    expect(text).not.toContain(aAdmin.email);
  });

  it("answers the same whether or not an e-mail has an account somewhere", async () => {
    const elsewhere = await seedOrg();
    const someone = await seedUser(elsewhere, "admin");
    const orgId = await seedOrg();
    const admin = await seedUser(orgId, "admin");
    const key = (await seedApiKey(orgId, admin.userId, [...ADMIN_SCOPES])).key;
    const withAccount = await importAs(key, importFile([{ email: someone.email, role: "member" }]));
    const withoutAccount = await importAs(key, importFile([{ email: `none-${crypto.randomUUID().slice(0, 6)}@example.com`, role: "member" }]));
    expect(withAccount.status).toBe(200);
    expect(withoutAccount.status).toBe(200);
    expect(await withAccount.json()).toEqual(await withoutAccount.json());
  });
});

/** A registered client's authorization URL on this Worker. */
async function authorizationUrl(): Promise<string> {
  const redirectUri = "http://localhost:9999/callback";
  const clientId = await registerClient(fetchWorker, ORIGIN, { redirectUri });
  const { challenge } = await pkcePair();
  const query = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s", resource: ORIGIN });
  return `${ORIGIN}/authorize?${query}`;
}

/** The org the consent page has chosen (its `selected` option, or its only org), or null when the person must choose. */
function preselectedOrg(html: string): string | null {
  const only = /<input type="hidden" name="orgId" value="([^"]+)"/.exec(html)?.[1];
  if (only) return only;
  return /<option value="([^"]+)" selected/.exec(html)?.[1] ?? null;
}

async function orgNamed(name: string): Promise<string> {
  const orgId = await seedOrg();
  await env.DB.prepare("UPDATE orgs SET name = ? WHERE id = ?").bind(name, orgId).run();
  return orgId;
}

describe("the org a person signs in to is the last one they used, else their choice", () => {
  it("the consent page opens in the org last used, not the first by name, and asks when there is none", async () => {
    const home = await orgNamed("Zeta works");
    const person = await seedUser(home, "admin");
    // The person connects an assistant to their org: that is the org they use.
    await tokensFor({ email: person.email, password: person.password });
    // Later they are added to another org, whose name sorts first.
    const added = await orgNamed("Aardvark ltd");
    await addMembership(added, person.userId, "admin");
    const consent = await openConsentPage(fetchWorker, await authorizationUrl(), person);
    expect(preselectedOrg(consent.html)).toBe(home);

    // Someone in two orgs who used neither is asked: nothing is chosen for them.
    const undecided = await seedUser(await orgNamed("Beta"), "member");
    await addMembership(await orgNamed("Alpha"), undecided.userId, "member");
    const choose = await openConsentPage(fetchWorker, await authorizationUrl(), undecided);
    expect(preselectedOrg(choose.html)).toBeNull();
    expect(choose.html).toMatch(/<select[^>]*name="orgId"[^>]*required/);
  });

  it("the dashboard opens in the org last used, and otherwise asks before showing any org", async () => {
    const home = await orgNamed("Zulu research");
    const person = await seedUser(home, "member");
    const added = await orgNamed("Able corp");
    await addMembership(added, person.userId, "member");

    // Two orgs, neither used yet: the person chooses.
    const first = new Visitor();
    const chooser = await first.signIn(person.email, person.password);
    expect(chooser.status).toBe(200);
    const page = await chooser.text();
    expect(page).toContain("Choose an organization");
    expect(page).toContain("Zulu research");
    expect(page).toContain("Able corp");
    expect((await first.get("/dashboard/plans")).status).toBe(303);
    const chosen = await first.post("/dashboard/choose-org", { csrf: Visitor.csrfOf(page), choice: /name="choice" value="([^"]+)"/.exec(page)?.[1] ?? "", orgId: home });
    expect(chosen.status).toBe(303);
    expect(await (await first.get("/dashboard/plans")).text()).toMatch(/<option value="[^"]+" selected="">Zulu research/);

    // The next sign-in opens where they were.
    const again = new Visitor();
    const signedIn = await again.signIn(person.email, person.password);
    expect(signedIn.status).toBe(303);
    expect(await (await again.get("/dashboard/plans")).text()).toMatch(/<option value="[^"]+" selected="">Zulu research/);

    // Switching orgs in the dashboard is a use too.
    await again.post("/dashboard/org", { csrf: await again.csrf(), orgId: added });
    const third = new Visitor();
    await third.signIn(person.email, person.password);
    expect(await (await third.get("/dashboard/plans")).text()).toMatch(/<option value="[^"]+" selected="">Able corp/);
  });

  it("refuses a choice of an org the person is not in, and a choice token of someone else's sign-in", async () => {
    const person = await seedUser(await orgNamed("One"), "member");
    await addMembership(await orgNamed("Two"), person.userId, "member");
    const stranger = await orgNamed("Not theirs");
    const visitor = new Visitor();
    const page = await (await visitor.signIn(person.email, person.password)).text();
    const choice = /name="choice" value="([^"]+)"/.exec(page)?.[1] ?? "";
    expect((await visitor.post("/dashboard/choose-org", { csrf: Visitor.csrfOf(page), choice, orgId: stranger })).status).toBe(404);
    const other = new Visitor();
    const otherPage = await (await other.signIn(person.email, person.password)).text();
    expect((await other.post("/dashboard/choose-org", { csrf: Visitor.csrfOf(otherPage), choice: "not-a-token", orgId: stranger })).status).toBe(400);
    expect((await other.get("/dashboard/plans")).status).toBe(303);
  });
});

describe("the operator CLI's own account", () => {
  it("is left out of an export, with its temporary key: they are the CLI's, not the org's", async () => {
    const orgId = await seedOrg();
    const admin = await seedUser(orgId, "admin");
    const key = await seedApiKey(orgId, admin.userId, [...ADMIN_SCOPES]);
    // What `npm run cairn -- export` adds for the length of one command (scripts/lib/org-data.mjs).
    const operator = await seedUser(orgId, "admin", `operator-${crypto.randomUUID().slice(0, 6)}@operator-cli.invalid`);
    await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(OPERATOR_ACCOUNT_PASSWORD, operator.userId).run();
    const temporary = await seedApiKey(orgId, operator.userId, [...ADMIN_SCOPES]);
    const response = await fetchWorker(new Request(`${ORIGIN}/api/v1/org/export`, { headers: { authorization: `Bearer ${temporary.key}` } }));
    expect(response.status).toBe(200);
    const lines = (await response.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((r) => r.type === "member").map((r) => r.email)).toEqual([admin.email]);
    expect(lines.filter((r) => r.type === "row" && r.table === "api_keys").map((r) => (r.row as { id: string }).id)).toEqual([key.id]);
    expect(lines.at(-1)).toMatchObject({ type: "end", counts: { member: 1, api_keys: 1 } });
  });
});
