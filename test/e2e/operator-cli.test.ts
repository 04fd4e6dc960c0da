import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, runSql, SCOPES as CLI_SCOPES, sqlString } from "../../scripts/lib/local.mjs";
import { hashApiKey } from "../../src/auth/api-keys";
import { verifyPassword } from "../../src/auth/password";
import { SCOPES } from "../../src/domain/scopes";
import { type CliResult, runCli } from "../support/cli";

/**
 * The operator CLI end to end: the real `scripts/cairn.mjs` against a fresh
 * local D1 (its own --persist-to directory), state checked with SQL.
 * Every CLI call starts wrangler (about 1.5 s each), hence the long timeouts.
 */

const persistTo = mkdtempSync(path.join(os.tmpdir(), "cairn-e2e-cli-"));
const db = { persistTo };

/** The CLI on this suite's own local state. */
const cli = (...args: string[]): Promise<CliResult> => runCli(...args, "--persist-to", persistTo);

const KEY_PATTERN = /cairn_[0-9A-Za-z]{40}/g;

describe("operator CLI (scripts/cairn.mjs)", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await applyMigrations(db);
  }, 120_000);

  afterAll(() => {
    rmSync(persistTo, { recursive: true, force: true });
  });

  it("uses the same scope list as the Worker", () => {
    expect([...CLI_SCOPES]).toEqual([...SCOPES]);
  });

  it("creates an org, and a repeat changes nothing", async () => {
    const created = await cli("org", "create", "--slug", "acme", "--name", "Acme's Lab");
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('Created org "acme"');

    const again = await cli("org", "create", "--slug", "acme", "--name", "Another Name", "--json");
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ slug: "acme", name: "Acme's Lab", created: false });

    // Placed by the Worker at first use unless --database names its home, among the databases the configuration binds.
    expect(JSON.parse(again.stdout).database).toBeNull();
    const pinned = await cli("org", "create", "--slug", "annex", "--name", "Annex", "--database", "DB", "--json");
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(JSON.parse(pinned.stdout)).toMatchObject({ slug: "annex", database: "DB", created: true });
    const badBinding = await cli("org", "create", "--slug", "annex-2", "--name", "Annex", "--database", "research-2");
    expect(badBinding.code).toBe(2);
    expect(badBinding.stderr).toContain("--database must be a D1 binding name such as RESEARCH_DB_2");
    const unbound = await cli("org", "create", "--slug", "annex-3", "--name", "Annex", "--database", "RESEARCH_DB_2");
    expect(unbound.code).toBe(2);
    expect(unbound.stderr).toContain("--database RESEARCH_DB_2: the configuration binds DB; declare the database there first");
    expect(await runSql("SELECT COUNT(*) AS n FROM orgs WHERE slug IN ('annex-2', 'annex-3')", db)).toEqual([{ n: 0 }]);
    await runSql("DELETE FROM orgs WHERE slug = 'annex'", db);

    const rows = await runSql(`SELECT id, slug, name, created_at FROM orgs WHERE slug = 'acme'`, db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ slug: "acme", name: "Acme's Lab" });
    expect(String(rows[0]?.id)).toMatch(/^org_[0-9a-z]{25}$/);
    expect(Number(rows[0]?.created_at)).toBeGreaterThan(Date.now() - 5 * 60_000);
  });

  it("shows and sets an org's plan approval, sharing, locale and source policy, refusing a value it does not know", async () => {
    expect((await cli("org", "create", "--slug", "steered", "--name", "Steered")).code).toBe(0);
    const shown = await cli("org", "settings", "--org", "steered", "--json");
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({ org: "steered", planApproval: "optional", sourcePolicy: { blockedDomains: [], preferredDomains: [] }, sharing: "members", changed: false });
    const badSharing = await cli("org", "settings", "--org", "steered", "--sharing", "everyone");
    expect(badSharing.code).toBe(2);
    expect(badSharing.stderr).toContain("--sharing is members, admins, off");
    const sharingOff = await cli("org", "settings", "--org", "steered", "--sharing", "off");
    expect(sharingOff.code, sharingOff.stderr).toBe(0);
    expect(sharingOff.stdout).toContain("sharing off");
    expect(await runSql("SELECT sharing FROM orgs WHERE slug = 'steered'", db)).toEqual([{ sharing: "off" }]);
    const bad = await cli("org", "settings", "--org", "steered", "--plan-approval", "always");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--plan-approval is required or optional");
    const set = await cli("org", "settings", "--org", "steered", "--plan-approval", "required");
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('"steered": plan approval required');
    expect(await runSql("SELECT plan_approval FROM orgs WHERE slug = 'steered'", db)).toEqual([{ plan_approval: "required" }]);
    const missing = await cli("org", "settings", "--org", "nowhere", "--plan-approval", "required");
    expect(missing.code).toBe(1);

    // The locale (the paper of PDF downloads): stored canonical as REST stores it, shown with its paper, and unset.
    const locale = await cli("org", "settings", "--org", "steered", "--locale", "en-us");
    expect(locale.code, locale.stderr).toBe(0);
    expect(locale.stdout).toContain("Locale: en-US (PDF downloads on US Letter).");
    expect(await runSql("SELECT locale FROM orgs WHERE slug = 'steered'", db)).toEqual([{ locale: "en-US" }]);
    const unset = await cli("org", "settings", "--org", "steered", "--unset-locale", "--json");
    expect(unset.code, unset.stderr).toBe(0);
    expect(JSON.parse(unset.stdout)).toMatchObject({ changed: true });
    expect(JSON.parse(unset.stdout)).not.toHaveProperty("locale");
    expect(await runSql("SELECT locale FROM orgs WHERE slug = 'steered'", db)).toEqual([{ locale: null }]);

    // The source policy: domains added and removed one at a time, normalized, refused when both ways or garbage.
    const blocked = await cli("org", "settings", "--org", "steered", "--block-domain", "https://Example.com/x", "--block-domain", "spam.net", "--prefer-domain", "nature.com", "--json");
    expect(blocked.code, blocked.stderr).toBe(0);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ sourcePolicy: { blockedDomains: ["example.com", "spam.net"], preferredDomains: ["nature.com"] }, changed: true });
    const both = await cli("org", "settings", "--org", "steered", "--prefer-domain", "www.example.com");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("www.example.com is preferred, but the blocked rule example.com covers it");
    const absent = await cli("org", "settings", "--org", "steered", "--unblock-domain", "nope.com");
    expect(absent.code).toBe(2);
    expect(absent.stderr).toContain("nope.com is not in the blocked domains");
    const moved = await cli("org", "settings", "--org", "steered", "--unblock-domain", "example.com", "--prefer-domain", "example.com");
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain("Blocked domains: spam.net.");
    expect(moved.stdout).toContain("Preferred domains: nature.com, example.com.");
    expect(await runSql("SELECT source_blocked_domains AS b FROM orgs WHERE slug = 'steered'", db)).toEqual([{ b: '["spam.net"]' }]);
    await runSql("DELETE FROM orgs WHERE slug = 'steered'", db);
  });

  it("adds a member with a given password and an admin with a generated one", async () => {
    const member = await cli("user", "add", "--org", "acme", "--email", "Bob@Example.COM", "--name", "Bob", "--role", "member", "--password", "bob-password-123");
    expect(member.code, member.stderr).toBe(0);
    expect(member.stdout).toContain('Added bob@example.com to "acme" as member');
    expect(member.stdout).not.toContain("Password:");

    const admin = await cli("user", "add", "--org", "acme", "--email", "ada@example.com", "--name", "Ada O'Brien", "--role", "admin");
    expect(admin.code, admin.stderr).toBe(0);
    const generated = /Password: (\S+)/.exec(admin.stdout)?.[1];
    expect(generated).toBeDefined();
    expect(generated?.length).toBeGreaterThanOrEqual(20);

    const users = await runSql(
      `SELECT u.email, u.display_name, u.password_hash, m.role FROM users u
         JOIN memberships m ON m.user_id = u.id JOIN orgs o ON o.id = m.org_id
        WHERE o.slug = 'acme' ORDER BY u.email`,
      db,
    );
    expect(users.map((u) => [u.email, u.display_name, u.role])).toEqual([
      ["ada@example.com", "Ada O'Brien", "admin"],
      ["bob@example.com", "Bob", "member"],
    ]);
    const [adaHash, bobHash] = users.map((u) => String(u.password_hash));
    expect(await verifyPassword(generated ?? "", adaHash ?? "")).toBe(true);
    expect(await verifyPassword("bob-password-123", bobHash ?? "")).toBe(true);
    // No password is ever printed in clear for a user whose password was given.
    expect(member.stdout + member.stderr).not.toContain("bob-password-123");
  });

  it("re-adding a user keeps their password unless --reset-password, and updates the role", async () => {
    const before = await runSql(`SELECT password_hash FROM users WHERE email = 'bob@example.com'`, db);
    const again = await cli("user", "add", "--org", "acme", "--email", "bob@example.com", "--role", "member", "--password", "a-different-password");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("NOT changed");
    const after = await runSql(`SELECT password_hash FROM users WHERE email = 'bob@example.com'`, db);
    expect(after[0]?.password_hash).toBe(before[0]?.password_hash);

    const promoted = await cli("user", "add", "--org", "acme", "--email", "bob@example.com", "--role", "admin");
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain("from member to admin");
    const demoted = await cli("user", "add", "--org", "acme", "--email", "bob@example.com", "--role", "member", "--password", "bob-new-password", "--reset-password");
    expect(demoted.code, demoted.stderr).toBe(0);

    const rows = await runSql(
      `SELECT u.password_hash, m.role FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.email = 'bob@example.com'`,
      db,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.role).toBe("member");
    expect(await verifyPassword("bob-new-password", String(rows[0]?.password_hash))).toBe(true);
  });

  it("creates a key that is printed once, stored hashed, listed without secrets, and revocable", async () => {
    const created = await cli("key", "create", "--org", "acme", "--user", "ada@example.com", "--name", "ci", "--scopes", "research:read,org:admin");
    expect(created.code, created.stderr).toBe(0);
    const keys = (created.stdout + created.stderr).match(KEY_PATTERN) ?? [];
    expect(keys).toHaveLength(1);
    const key = keys[0] ?? "";
    expect(created.stdout).toMatch(/not shown again/i);

    const rows = await runSql(
      `SELECT k.id, k.prefix, k.key_hash, k.scopes, k.revoked_at, u.email FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.name = 'ci'`,
      db,
    );
    expect(rows).toHaveLength(1);
    const row = rows[0] ?? {};
    const id = String(row.id);
    expect(id).toMatch(/^key_[0-9a-z]{25}$/);
    expect(row.key_hash).toBe(await hashApiKey(key));
    expect(key.startsWith(String(row.prefix))).toBe(true);
    expect(JSON.parse(String(row.scopes))).toEqual(["research:read", "org:admin"]);
    expect(row.revoked_at).toBeNull();
    expect(row.email).toBe("ada@example.com");
    // The key itself is not stored anywhere in the row.
    expect(Object.values(row).map(String)).not.toContain(key);

    const listed = await cli("key", "list", "--org", "acme");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain(String(row.prefix));
    expect(listed.stdout).toContain("active");
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toContain(String(row.key_hash));

    const listedJson = await cli("key", "list", "--org", "acme", "--json");
    expect(listedJson.code, listedJson.stderr).toBe(0);
    const entries = JSON.parse(listedJson.stdout) as Array<Record<string, unknown>>;
    expect(entries).toEqual([
      expect.objectContaining({ id, name: "ci", scopes: ["research:read", "org:admin"], userEmail: "ada@example.com", revokedAt: null }),
    ]);
    expect(listedJson.stdout).not.toContain(key);
    expect(listedJson.stdout).not.toContain(String(row.key_hash));

    // A second active key with the same name is refused (a retried command leaves one live key).
    const duplicate = await cli("key", "create", "--org", "acme", "--user", "ada@example.com", "--name", "ci");
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("already has an active key");

    const revoked = await cli("key", "revoke", "--org", "acme", "--id", id);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked key ${id}`);
    const after = await runSql(`SELECT revoked_at FROM api_keys WHERE id = ${sqlString(id)}`, db);
    const revokedAt = Number(after[0]?.revoked_at);
    expect(revokedAt).toBeGreaterThan(Date.now() - 5 * 60_000);

    const again = await cli("key", "revoke", "--org", "acme", "--id", id);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("already revoked");
    const unchanged = await runSql(`SELECT revoked_at FROM api_keys WHERE id = ${sqlString(id)}`, db);
    expect(Number(unchanged[0]?.revoked_at)).toBe(revokedAt);

    const listedAfter = await cli("key", "list", "--org", "acme");
    expect(listedAfter.stdout).toMatch(/revoked \d{4}-\d{2}-\d{2}/);
  });

  it("fails clearly: unknown org, bad role, org:admin for a member, unknown key, usage errors", async () => {
    const keysBefore = await runSql("SELECT COUNT(*) AS n FROM api_keys", db);
    const [unknownOrg, badRole, memberAdmin, unknownScope, unknownKey, otherOrgKey, unknownFlag, missingFlag, unknownCommand] = await Promise.all([
      cli("user", "add", "--org", "nope", "--email", "x@example.com", "--name", "X", "--role", "member"),
      cli("user", "add", "--org", "acme", "--email", "x@example.com", "--name", "X", "--role", "owner"),
      cli("key", "create", "--org", "acme", "--user", "bob@example.com", "--name", "sneaky", "--scopes", "research:read,org:admin"),
      cli("key", "create", "--org", "acme", "--user", "ada@example.com", "--name", "bad", "--scopes", "research:delete"),
      cli("key", "revoke", "--org", "acme", "--id", "key_doesnotexist000000000000"),
      cli("key", "list", "--org", "nope"),
      cli("org", "list", "--frobnicate"),
      cli("key", "create", "--org", "acme", "--name", "no-user"),
      cli("orgs", "list"),
    ]);

    expect(unknownOrg.code).not.toBe(0);
    expect(unknownOrg.stderr).toContain('No org with slug "nope"');
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toMatch(/Invalid role "owner"/);
    expect(memberAdmin.code).toBe(1);
    expect(memberAdmin.stderr).toMatch(/Refused: the org:admin scope needs an admin/);
    expect(unknownScope.code).toBe(2);
    expect(unknownScope.stderr).toContain("research:delete");
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toContain("No key with id");
    expect(otherOrgKey.code).toBe(1);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain("--frobnicate");
    expect(missingFlag.code).toBe(2);
    expect(missingFlag.stderr).toContain("--user");
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('unknown command "orgs"');

    // Nothing was written by the refused commands.
    expect(await runSql("SELECT COUNT(*) AS n FROM api_keys", db)).toEqual(keysBefore);
    expect(await runSql(`SELECT COUNT(*) AS n FROM users WHERE email = 'x@example.com'`, db)).toEqual([{ n: 0 }]);
  });

  it("lists orgs and members as tables and as JSON", async () => {
    const orgs = await cli("org", "list", "--json");
    expect(orgs.code, orgs.stderr).toBe(0);
    expect(JSON.parse(orgs.stdout)).toEqual([expect.objectContaining({ slug: "acme", database: null, members: 2, admins: 1, activeKeys: 0 })]);
    const listed = await cli("org", "list");
    expect(listed.stdout).toMatch(/DATABASE/);
    expect(listed.stdout).toMatch(/acme\s+Acme's Lab\s+org_\w+\s+\(first use\)/);

    const users = await cli("user", "list", "--org", "acme");
    expect(users.code, users.stderr).toBe(0);
    expect(users.stdout).toMatch(/ada@example\.com\s+Ada O'Brien\s+admin/);
    expect(users.stdout).toMatch(/bob@example\.com\s+Bob\s+member/);
    expect(users.stdout).not.toContain("pbkdf2");
  });

  it("adds a Slack channel whose messages link to the deployment's PUBLIC_URL, not the CLI's temporary server", async () => {
    const added = await cli("org", "channels", "add", "https://hooks.slack.com/services/T000/B000/cli-test", "--org", "acme", "--kind", "slack", "--events", "plan.completed", "--json");
    expect(added.code, added.stderr).toBe(0);
    const { channelId } = JSON.parse(added.stdout) as { channelId: string };
    // wrangler.toml's PUBLIC_URL, what `npm start` serves: the temporary server listened on another port.
    expect(await runSql(`SELECT cairn_origin FROM notification_channels WHERE id = ${sqlString(channelId)}`, db)).toEqual([{ cairn_origin: "http://localhost:8787" }]);
  });
});
