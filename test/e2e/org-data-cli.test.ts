import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { addUser, applyMigrations, createApiKey, createOrg, runSql } from "../../scripts/lib/local.mjs";
import { runCli } from "../support/cli";

/**
 * `npm run cairn -- export | import | org delete` end to end: the real CLI
 * through the real Worker (the suite's wrangler dev, given with --url, on the
 * same local state), checked through the API and with SQL.
 */
const server = inject("server");
const state = { persistTo: server.persistTo };
const work = mkdtempSync(path.join(os.tmpdir(), "cairn-e2e-orgdata-"));

/** The CLI on the suite's local state. */
const cli = (persistTo: string, ...args: string[]) => runCli(...args, "--persist-to", persistTo);

async function api(key: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${server.url}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> | null };
}

describe("org export, import and delete from the operator CLI", { timeout: 240_000 }, () => {
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("exports an org to a file, imports it into a new org where the plan continues, then deletes the first", async () => {
    await createOrg({ slug: "cli-src", name: "CLI source" }, state);
    await addUser({ org: "cli-src", email: "src-admin@cairn.test", name: "Source Admin", role: "admin", password: "source-admin-password-1" }, state);
    const { key } = await createApiKey({ org: "cli-src", userEmail: "src-admin@cairn.test", name: "src", scopes: ["research:read", "research:write"] }, state);
    const created = await api(key, "POST", "/plans", {
      name: "[Scan] Exported plan",
      researchQuestion: "Does it travel?",
      steps: [
        { stepType: "search", instructions: "Look" },
        { stepType: "synthesize", instructions: "Say" },
      ],
      planDesignRationale: "Two steps",
    });
    expect(created.status).toBe(201);
    await api(key, "POST", "/artifacts", { artifactType: "note", title: "Travelling note", content: { a: 1 }, contentText: "a travelling note" });

    const file = path.join(work, "cli-src.ndjson");
    const exported = await cli(server.persistTo, "export", "--org", "cli-src", "--out", file, "--url", server.url);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/Exported "cli-src" to .*cli-src\.ndjson .*1 plans/);
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ type: "header", org: { slug: "cli-src" } });
    expect(JSON.parse(lines.at(-1) ?? "{}")).toMatchObject({ type: "end" });

    await createOrg({ slug: "cli-dst", name: "CLI destination" }, state);
    await addUser({ org: "cli-dst", email: "dst-admin@cairn.test", name: "Destination Admin", role: "admin", password: "dest-admin-password-1" }, state);
    const imported = await cli(server.persistTo, "import", "--org", "cli-dst", "--in", file, "--url", server.url);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('Imported into "cli-dst": 1 plans');
    const { key: dstKey } = await createApiKey({ org: "cli-dst", userEmail: "dst-admin@cairn.test", name: "dst", scopes: ["research:read", "research:write"] }, state);
    const plans = await api(dstKey, "GET", "/plans");
    const planId = ((plans.body?.plans ?? []) as { planId: string }[])[0]?.planId ?? "";
    expect((await api(dstKey, "POST", `/plans/${planId}/next-step`, {})).body).toMatchObject({ status: "step", step: { stepType: "search" } });

    expect((await cli(server.persistTo, "org", "delete", "cli-src")).code).toBe(2);
    const deleted = await cli(server.persistTo, "org", "delete", "cli-src", "--yes", "--url", server.url);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain('Erased "cli-src": 1 plans');
    expect(await runSql("SELECT COUNT(*) AS n FROM orgs WHERE slug = 'cli-src'", state)).toEqual([{ n: 0 }]);
    expect((await api(key, "GET", "/plans")).status).toBe(401);
    // The temporary keys the CLI made are gone.
    expect(await runSql("SELECT COUNT(*) AS n FROM api_keys WHERE name = 'cairn CLI (temporary)'", state)).toEqual([{ n: 0 }]);
  });

  it("imports into a freshly created org in one step; --restore-members adds the file's members by e-mail and lists them", async () => {
    await createOrg({ slug: "cli-team", name: "CLI team" }, state);
    await addUser({ org: "cli-team", email: "team-admin@cairn.test", name: "Team Admin", role: "admin", password: "team-admin-password-1" }, state);
    await addUser({ org: "cli-team", email: "team-member@cairn.test", name: "Team Member", role: "member", password: "team-member-password-1" }, state);
    await createApiKey({ org: "cli-team", userEmail: "team-admin@cairn.test", name: "team", scopes: ["research:read"] }, state);
    const file = path.join(work, "cli-team.ndjson");
    const exported = await cli(server.persistTo, "export", "--org", "cli-team", "--out", file, "--url", server.url);
    expect(exported.code, exported.stderr).toBe(0);
    // The CLI's own account and temporary key are not the org's: the export leaves them out.
    const records = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.filter((r) => r.type === "member").map((r) => r.email).sort()).toEqual(["team-admin@cairn.test", "team-member@cairn.test"]);
    expect(records.filter((r) => r.type === "row" && r.table === "api_keys").map((r) => (r.row as { name: string }).name)).toEqual(["team"]);
    // One more person, whose e-mail has no account here yet.
    const withNewcomer = [records[0], { type: "member", userId: "usr_newcomer00000000000000000", email: "newcomer@cairn.test", displayName: "Newcomer", role: "member", joinedAt: 1 }, ...records.slice(1)];
    writeFileSync(file, `${withNewcomer.map((r) => JSON.stringify(r)).join("\n")}\n`);

    // Without --restore-members: the org has no admin and no one of the file is added.
    await createOrg({ slug: "cli-bare", name: "CLI bare" }, state);
    const bare = await cli(server.persistTo, "import", "--org", "cli-bare", "--in", file, "--url", server.url);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout).toContain("0 already in the org restored, 3 not restored (add them by e-mail with --restore-members");
    expect(bare.stdout).toContain("Not recreated: 1 api_keys.");
    expect(bare.stdout).toContain('"cli-bare" has no admin yet');
    expect(await runSql("SELECT COUNT(*) AS n FROM memberships m JOIN orgs o ON o.id = m.org_id WHERE o.slug = 'cli-bare'", state)).toEqual([{ n: 0 }]);

    // With --restore-members, into an org just created: everyone is placed with the file's role and listed.
    await createOrg({ slug: "cli-restored", name: "CLI restored" }, state);
    const restored = await cli(server.persistTo, "import", "--org", "cli-restored", "--in", file, "--restore-members", "--url", server.url, "--json");
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({
      members: { restored: 3, notRestored: 0 },
      restoredByEmail: {
        matched: [
          { email: "team-admin@cairn.test", role: "admin" },
          { email: "team-member@cairn.test", role: "member" },
        ],
        created: [{ email: "newcomer@cairn.test", role: "member" }],
        alreadyMembers: [],
      },
      skipped: { api_keys: 1 },
      orgHasAdmin: true,
    });
    expect(
      await runSql("SELECT u.email, m.role FROM memberships m JOIN orgs o ON o.id = m.org_id JOIN users u ON u.id = m.user_id WHERE o.slug = 'cli-restored' ORDER BY u.email", state),
    ).toEqual([
      { email: "newcomer@cairn.test", role: "member" },
      { email: "team-admin@cairn.test", role: "admin" },
      { email: "team-member@cairn.test", role: "member" },
    ]);
    // An import that fails (the org holds research now) takes back whom it placed.
    const { key: restoredKey } = await createApiKey({ org: "cli-restored", userEmail: "team-admin@cairn.test", name: "r", scopes: ["research:read", "research:write"] }, state);
    expect((await api(restoredKey, "POST", "/artifacts", { artifactType: "note", title: "Held", content: { a: 1 }, contentText: "held" })).status).toBe(201);
    const late = path.join(work, "late.ndjson");
    writeFileSync(late, `${[records[0], { type: "member", userId: "usr_latecomer0000000000000000", email: "latecomer@cairn.test", displayName: "Late", role: "admin", joinedAt: 1 }, records.at(-1)].map((r) => JSON.stringify(r)).join("\n")}\n`);
    const refused = await cli(server.persistTo, "import", "--org", "cli-restored", "--in", late, "--restore-members", "--url", server.url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("already holds research");
    expect(await runSql("SELECT COUNT(*) AS n FROM users WHERE email = 'latecomer@cairn.test'", state)).toEqual([{ n: 0 }]);
    // Nothing of the CLI's own account is left behind.
    expect(await runSql("SELECT COUNT(*) AS n FROM users WHERE email LIKE '%@operator-cli.invalid'", state)).toEqual([{ n: 0 }]);
    expect(await runSql("SELECT COUNT(*) AS n FROM api_keys WHERE name = 'cairn CLI (temporary)'", state)).toEqual([{ n: 0 }]);
  });

  it("carries a cited source's verification and its page snapshot through the file: it arrives verified and is not fetched again", async () => {
    // A cited page on loopback (development lets source checks fetch it), counting its requests.
    let fetched = 0;
    const page = createServer((_request, response) => {
      fetched++;
      response.writeHead(200, { "content-type": "text/html" }).end("<html><head><title>Travel notes</title></head><body><p>Exports carry every snapshot of a cited page.</p></body></html>");
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    try {
      const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/travel.html`;
      await createOrg({ slug: "cli-pages", name: "CLI pages" }, state);
      await addUser({ org: "cli-pages", email: "pages-admin@cairn.test", name: "Pages Admin", role: "admin", password: "pages-admin-password-1" }, state);
      const { key } = await createApiKey({ org: "cli-pages", userEmail: "pages-admin@cairn.test", name: "pages", scopes: ["research:read", "research:write"] }, state);
      const created = await api(key, "POST", "/plans", {
        name: "[Deep] Travelling sources",
        researchQuestion: "Do sources travel?",
        steps: [
          { stepType: "search", instructions: "Look" },
          { stepType: "synthesize", instructions: "Say" },
        ],
        planDesignRationale: "Two steps",
      });
      expect(created.status).toBe(201);
      const planId = String(created.body?.planId);
      const recorded = await api(key, "POST", `/plans/${planId}/evidence`, {
        evidence: [{ url: pageUrl, title: "Travel notes", facts: "Exports carry snapshots", quote: "Exports carry every snapshot of a cited page" }],
      });
      expect(recorded.status, JSON.stringify(recorded.body)).toBeLessThan(300);
      const verdictIn = async (slug: string) =>
        runSql(`SELECT e.verification_status AS status, e.verification_requested_at AS requested FROM ledger_evidence e JOIN orgs o ON o.id = e.org_id WHERE o.slug = '${slug}'`, state);
      for (let tries = 0; (await verdictIn("cli-pages"))[0]?.status !== "verified"; tries++) {
        if (tries > 60) throw new Error(`the source was not checked: ${JSON.stringify(await verdictIn("cli-pages"))}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(fetched).toBe(1);

      const file = path.join(work, "cli-pages.ndjson");
      const exported = await cli(server.persistTo, "export", "--org", "cli-pages", "--out", file, "--url", server.url);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toContain("1 snapshot");
      const records = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(records[0]).toMatchObject({ type: "header", formatVersion: 3 });
      const snapshots = records.filter((r) => r.type === "snapshot");
      expect(snapshots).toHaveLength(1);
      expect(String(snapshots[0]?.text)).toContain("Exports carry every snapshot of a cited page.");

      await createOrg({ slug: "cli-pages-copy", name: "CLI pages copy" }, state);
      const imported = await cli(server.persistTo, "import", "--org", "cli-pages-copy", "--in", file, "--url", server.url);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain("1 page snapshots");
      expect(await verdictIn("cli-pages-copy")).toEqual([{ status: "verified", requested: null }]);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(fetched).toBe(1);
    } finally {
      page.closeAllConnections();
      await new Promise<void>((resolve) => page.close(() => resolve()));
    }
  });

  it("without --url starts its own local Worker on the state, and names what is missing", async () => {
    const persistTo = mkdtempSync(path.join(work, "state-"));
    await applyMigrations({ persistTo });
    const missing = await cli(persistTo, "export", "--org", "nowhere", "--out", path.join(work, "nowhere.ndjson"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No org with slug "nowhere"');
    // An org with no admin yet is the operator's to export all the same.
    await createOrg({ slug: "lonely", name: "Lonely" }, { persistTo });
    const ok = await cli(persistTo, "export", "--org", "lonely", "--out", path.join(work, "lonely.ndjson"));
    expect(ok.code, ok.stderr).toBe(0);
    const text = readFileSync(path.join(work, "lonely.ndjson"), "utf8");
    expect(text).toContain('"type":"end"');
    expect(text).not.toContain('"type":"member"');
  });
});
