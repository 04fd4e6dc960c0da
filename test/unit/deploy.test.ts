import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM scripts without type declarations
import { renderProductionConfig, validateSettings } from "../../scripts/lib/deploy-config.mjs";
// @ts-expect-error: plain ESM scripts without type declarations
import { deploy } from "../../scripts/lib/deploy.mjs";
// @ts-expect-error: plain ESM scripts without type declarations
import { wranglerRunner } from "../../scripts/lib/deploy-wrangler.mjs";

const run = promisify(execFile);
const projectRoot = path.resolve(import.meta.dirname, "../..");

interface Account {
  loggedIn: boolean;
  email: string | null;
  accounts: Array<{ id: string; name: string }>;
  databases: Array<{ uuid: string; name: string }>;
  namespaces: Array<{ id: string; title: string }>;
  queues?: string[];
  buckets?: string[];
  orgs: number;
  secrets?: string[];
  secretValues?: Record<string, string>;
  failSecretPut?: boolean;
  orgHomes?: Record<string, number>;
  appliedMigrations?: number;
  "appliedMigrations:RESEARCH_DB_2"?: number;
  failMigrations?: boolean | string;
  deploys?: number;
}
interface Call {
  args: string[];
  account: string | null;
  config?: string;
}

/**
 * A temporary project (wrangler.toml and migrations copied from this one) and a fake
 * `wrangler` first on PATH that plays a Cloudflare account and records every call.
 */
function sandbox() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cairn-deploy-test-"));
  const root = path.join(dir, "project");
  const bin = path.join(dir, "bin");
  mkdirSync(root);
  mkdirSync(bin);
  copyFileSync(path.join(projectRoot, "wrangler.toml"), path.join(root, "wrangler.toml"));
  cpSync(path.join(projectRoot, "migrations"), path.join(root, "migrations"), { recursive: true });
  copyFileSync(path.join(projectRoot, "test/support/fake-wrangler.mjs"), path.join(bin, "wrangler"));
  chmodSync(path.join(bin, "wrangler"), 0o755);
  const statePath = path.join(dir, "account.json");
  const logPath = path.join(dir, "calls.ndjson");
  writeFileSync(logPath, "");
  const account = (patch: Partial<Account> = {}) =>
    writeFileSync(
      statePath,
      JSON.stringify({ loggedIn: true, email: "Ada@Example.com", accounts: [{ id: "a".repeat(32), name: "Ada's account" }], databases: [], namespaces: [], orgs: 0, secrets: ["WEBHOOK_SECRET_KEYS"], ...patch }),
    );
  account();
  const env: Record<string, string | undefined> = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, FAKE_WRANGLER_STATE: statePath, FAKE_WRANGLER_LOG: logPath };
  delete env.CLOUDFLARE_ACCOUNT_ID;
  const lines: string[] = [];
  return {
    dir,
    root,
    env,
    lines,
    account,
    state: (): Account => JSON.parse(readFileSync(statePath, "utf8")),
    calls: (): Call[] =>
      readFileSync(logPath, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    clearCalls: () => writeFileSync(logPath, ""),
    deploy: (options: { dryRun?: boolean; overrides?: Record<string, string> } = {}) =>
      deploy({ root, env, wrangler: wranglerRunner({ env, cwd: root }), log: (line: string) => lines.push(line), ...options }),
    file: (name: string) => readFileSync(path.join(root, name), "utf8"),
    settle: (settings: Record<string, unknown>) => writeFileSync(path.join(root, "cairn.deploy.json"), JSON.stringify(settings)),
  };
}

const commandOf = (call: Call) => call.args.filter((arg) => !arg.startsWith("-") && !arg.includes("/")).slice(0, 3).join(" ");

describe("npm run deploy against a fake wrangler", { timeout: 30_000 }, () => {
  let box: ReturnType<typeof sandbox>;
  beforeEach(() => {
    box = sandbox();
  });
  afterEach(() => rmSync(box.dir, { recursive: true, force: true }));

  it("first deploy: creates D1 and KV, records them, migrates before uploading, creates the first org and admin once, prints the URLs", async () => {
    const result = await box.deploy();
    const calls = box.calls();
    expect(calls.map(commandOf)).toEqual([
      "whoami",
      "d1 list",
      "d1 create cairn",
      "d1 list",
      "kv namespace list",
      "kv namespace create",
      "kv namespace list",
      "queues info cairn-webhooks",
      "queues create cairn-webhooks",
      "queues info cairn-webhooks-dlq",
      "queues create cairn-webhooks-dlq",
      "queues info cairn-source-checks",
      "queues create cairn-source-checks",
      "queues info cairn-source-checks-dlq",
      "queues create cairn-source-checks-dlq",
      "r2 bucket info",
      "r2 bucket create",
      "secret list",
      "d1 migrations apply",
      "d1 execute DB",
      "deploy",
      "d1 execute DB",
    ]);
    // Every call after the login targets the one account the login reaches.
    expect(new Set(calls.slice(1).map((call) => call.account))).toEqual(new Set(["a".repeat(32)]));
    const migrate = calls.findIndex((call) => call.args.slice(0, 3).join(" ") === "d1 migrations apply");
    const upload = calls.findIndex((call) => call.args[0] === "deploy");
    expect(migrate).toBeLessThan(upload);
    expect(calls[migrate]?.args).toContain("--remote");
    // The webhook queues exist before the Worker that produces to and consumes them is uploaded.
    expect(box.state().queues).toEqual(["cairn-webhooks", "cairn-webhooks-dlq", "cairn-source-checks", "cairn-source-checks-dlq"]);
    // So do the source-check queue and the bucket of page snapshots its consumer writes.
    expect(box.state().buckets).toEqual(["cairn-source-snapshots"]);

    const state = box.state();
    const settings = JSON.parse(box.file("cairn.deploy.json"));
    expect(settings.d1).toEqual({ name: "cairn", id: state.databases[0]?.uuid });
    expect(settings.kv).toEqual({ title: "cairn-oauth", id: state.namespaces[0]?.id });
    expect(settings.url).toBe("https://cairn.example-team.workers.dev");
    expect(settings.firstOrg.adminEmail).toBe("ada@example.com");

    // What was uploaded is the production configuration, with the real ids.
    const uploaded = calls[upload]?.config ?? "";
    expect(uploaded).toBe(box.file("wrangler.production.toml"));
    expect(uploaded).toContain(`database_id = "${state.databases[0]?.uuid}"`);
    expect(uploaded).toContain(`id = "${state.namespaces[0]?.id}"`);
    expect(uploaded).toContain('CAIRN_ENV = "production"');
    expect(uploaded).not.toMatch(/^PUBLIC_URL/m);
    expect(uploaded).not.toContain("localhost");

    expect(state.orgs).toBe(1);
    expect(result.admin).toMatchObject({ email: "ada@example.com", org: "research" });
    const output = box.lines.join("\n");
    expect(output).toContain("https://cairn.example-team.workers.dev/mcp");
    expect(output).toContain("https://cairn.example-team.workers.dev/dashboard");
    expect(output).toContain(`Password         ${result.admin.password}`);
    expect(output).toContain("claude mcp add --transport http cairn https://cairn.example-team.workers.dev/mcp");
    expect(output).toContain("ChatGPT");
  });

  it("redeploy: finds what exists, creates nothing, leaves the first org alone and writes the same configuration", async () => {
    await box.deploy();
    const firstConfig = box.file("wrangler.production.toml");
    const firstSettings = box.file("cairn.deploy.json");
    box.clearCalls();
    box.lines.length = 0;

    const again = await box.deploy();
    const commands = box.calls().map(commandOf);
    expect(commands).toEqual([
      "whoami",
      "d1 list",
      "kv namespace list",
      "queues info cairn-webhooks",
      "queues info cairn-webhooks-dlq",
      "queues info cairn-source-checks",
      "queues info cairn-source-checks-dlq",
      "r2 bucket info",
      "secret list",
      "d1 migrations apply",
      "d1 execute DB",
      "deploy",
    ]);
    expect(commands.some((command) => command.includes("create"))).toBe(false);
    expect(again.admin).toBeNull();
    expect(box.state().databases).toHaveLength(1);
    expect(box.state().deploys).toBe(2);
    expect(box.file("wrangler.production.toml")).toBe(firstConfig);
    expect(box.file("cairn.deploy.json")).toBe(firstSettings);
    expect(box.lines.join("\n")).not.toContain("Password");
  });

  it("a redeploy from a fresh clone (no cairn.deploy.json) reuses the account's resources by name", async () => {
    box.account({ databases: [{ uuid: "11111111-2222-4333-8444-555555555555", name: "cairn" }], namespaces: [{ id: "f".repeat(32), title: "cairn-oauth" }], orgs: 3 });
    const result = await box.deploy();
    expect(box.calls().map(commandOf)).not.toContain("d1 create cairn");
    expect(result.settings.d1.id).toBe("11111111-2222-4333-8444-555555555555");
    expect(result.settings.kv.id).toBe("f".repeat(32));
    expect(result.admin).toBeNull();
  });

  it("a failed migration stops the deploy before any code is uploaded", async () => {
    box.account({ failMigrations: true });
    await expect(box.deploy()).rejects.toThrow(/D1 migrations of DB failed, so nothing was uploaded: the running version is unchanged[\s\S]*search_sessions already exists[\s\S]*forward-only/);
    const commands = box.calls().map(commandOf);
    expect(commands).toContain("d1 migrations apply");
    expect(commands).not.toContain("deploy");
    expect(box.state().orgs).toBe(0);
  });

  it("first deploy in two commands: a missing webhook key is generated and set through wrangler before any migration, shown once with how to rotate it; the next deploy keeps it", async () => {
    box.account({ secrets: [] });
    await box.deploy();
    const commands = box.calls().map(commandOf);
    expect(commands.indexOf("secret put WEBHOOK_SECRET_KEYS")).toBe(commands.indexOf("secret list") + 1);
    expect(commands.indexOf("secret put WEBHOOK_SECRET_KEYS")).toBeLessThan(commands.indexOf("d1 migrations apply"));
    expect(commands).toContain("deploy");
    const put = box.calls().find((call) => commandOf(call) === "secret put WEBHOOK_SECRET_KEYS");
    expect(put?.args.some((arg) => arg.endsWith("wrangler.production.toml"))).toBe(true);
    expect(put?.account).toBe("a".repeat(32));
    // The key the Worker accepts (an id, a colon, 32 bytes of base64), set as wrangler received it on stdin and printed once.
    const key = box.state().secretValues?.WEBHOOK_SECRET_KEYS ?? "";
    expect(key).toMatch(/^k1:[A-Za-z0-9+/]{43}=$/);
    const printed = box.lines.join("\n");
    expect(printed.split(key)).toHaveLength(2);
    expect(printed).toMatch(/generated and set[\s\S]*Cloudflare never shows a secret again[\s\S]*k2:<new key>,k1:<this key>/);

    // A second deploy changes nothing it does not need to: the key stays as it was, nothing is created.
    box.clearCalls();
    box.lines.length = 0;
    await box.deploy();
    const again = box.calls().map(commandOf);
    expect(again).not.toContain("secret put WEBHOOK_SECRET_KEYS");
    expect(again.filter((command) => / create/.test(command))).toEqual([]);
    expect(box.state().secretValues?.WEBHOOK_SECRET_KEYS).toBe(key);
    expect(box.lines.join("\n")).toContain("WEBHOOK_SECRET_KEYS: set");
    expect(box.lines.join("\n")).not.toContain(key);
  });

  it("stops before any migration or upload when setting the webhook key fails, and says so", async () => {
    box.account({ secrets: [], failSecretPut: true });
    await expect(box.deploy()).rejects.toThrow(/Setting the secret WEBHOOK_SECRET_KEYS[\s\S]*nothing was migrated or uploaded/);
    const commands = box.calls().map(commandOf);
    expect(commands.at(-1)).toBe("secret put WEBHOOK_SECRET_KEYS");
    expect(commands).not.toContain("d1 migrations apply");
    expect(commands).not.toContain("deploy");
  });

  it("refuses to go on without a login, and names the command that fixes it", async () => {
    box.account({ loggedIn: false });
    await expect(box.deploy()).rejects.toThrow(/npx wrangler login/);
    expect(box.calls().map(commandOf)).toEqual(["whoami"]);
  });

  it("with several accounts, asks which one; --account-id is recorded and used for every call", async () => {
    box.account({ accounts: [{ id: "a".repeat(32), name: "Ada's account" }, { id: "b".repeat(32), name: "Lab" }] });
    await expect(box.deploy()).rejects.toThrow(/2 accounts[\s\S]*b{32}\s+Lab/);
    box.clearCalls();
    await box.deploy({ overrides: { accountId: "b".repeat(32) } });
    expect(new Set(box.calls().slice(1).map((call) => call.account))).toEqual(new Set(["b".repeat(32)]));
    expect(JSON.parse(box.file("cairn.deploy.json")).accountId).toBe("b".repeat(32));
  });

  it("never creates a new empty database when the recorded one is missing from the account", async () => {
    await box.deploy();
    box.account({ databases: [], namespaces: box.state().namespaces, orgs: 1 });
    box.clearCalls();
    await expect(box.deploy()).rejects.toThrow(/D1 database "cairn" recorded in cairn.deploy.json .* is not in this Cloudflare account/);
    expect(box.calls().map(commandOf)).toEqual(["whoami", "d1 list"]);
  });

  it("a pinned public URL and custom domain reach the configuration and the printed URLs", async () => {
    await box.deploy({ overrides: { publicUrl: "https://research.example.org/" } });
    const config = box.file("wrangler.production.toml");
    expect(config).toContain('PUBLIC_URL = "https://research.example.org"');
    expect(box.lines.join("\n")).toContain("https://research.example.org/mcp");
  });

  it("--dry-run prints the plan and bundles the production configuration, creating nothing", async () => {
    const result = await box.deploy({ dryRun: true });
    expect(box.calls().map((call) => call.args[0])).toEqual(["deploy"]);
    expect(box.calls()[0]?.args).toContain("--dry-run");
    expect(existsSync(path.join(box.root, "cairn.deploy.json"))).toBe(false);
    expect(existsSync(path.join(box.root, "wrangler.production.toml"))).toBe(false);
    expect(existsSync(path.join(box.root, ".wrangler.production.dry-run.toml"))).toBe(false);
    expect(result.rendered).toContain('CAIRN_ENV = "production"');
    // PDF downloads: the Browser Rendering binding reaches the deployment's configuration, and the plan says so.
    expect(result.rendered).toMatch(/^\[browser\]\nbinding = "BROWSER"$/m);
    const output = box.lines.join("\n");
    expect(output).toContain("Browser          Browser Rendering as BROWSER, for PDF downloads");
    const files = readdirSync(path.join(projectRoot, "migrations")).filter((name) => name.endsWith(".sql")).length;
    expect(output).toMatch(new RegExp(`apply D1 migrations remotely, forward-only .* \\(${files} files\\)`));
    expect(output).toContain("Bundle check");
  });

  const RESEARCH_DB_2 = { binding: "RESEARCH_DB_2", name: "cairn-research-2" };

  it("several databases: each is found or created, bound with the same migrations, and migrated before the upload; new orgs may go to any", async () => {
    box.settle({ databases: [RESEARCH_DB_2] });
    await box.deploy();
    const calls = box.calls();
    const commands = calls.map((call) => call.args.filter((arg) => !arg.startsWith("-") && !arg.includes("/")).slice(0, 4).join(" "));
    expect(commands).toContain("d1 create cairn-research-2");
    const upload = commands.indexOf("deploy");
    expect(commands.indexOf("d1 migrations apply DB")).toBeGreaterThan(-1);
    expect(commands.indexOf("d1 migrations apply DB")).toBeLessThan(commands.indexOf("d1 migrations apply RESEARCH_DB_2"));
    expect(commands.indexOf("d1 migrations apply RESEARCH_DB_2")).toBeLessThan(upload);

    const state = box.state();
    const created = state.databases.find((db) => db.name === "cairn-research-2");
    expect(state["appliedMigrations:RESEARCH_DB_2"]).toBe(state.appliedMigrations);
    expect(JSON.parse(box.file("cairn.deploy.json")).databases).toEqual([{ ...RESEARCH_DB_2, id: created?.uuid }]);
    const uploaded = calls[upload]?.config ?? "";
    expect(uploaded).toContain(`[[d1_databases]]\nbinding = "RESEARCH_DB_2"\ndatabase_name = "cairn-research-2"\ndatabase_id = "${created?.uuid}"\nmigrations_dir = "migrations"`);
    expect(uploaded).toMatch(/^ORG_DATABASES = "DB,RESEARCH_DB_2"$/m);

    box.clearCalls();
    await box.deploy();
    expect(box.calls().map(commandOf).filter((command) => command.includes("create"))).toEqual([]);
    expect(box.file("wrangler.production.toml")).toBe(uploaded);
  });

  it("a failed migration of a research database stops the deploy before any code is uploaded, naming the database", async () => {
    box.settle({ databases: [RESEARCH_DB_2] });
    box.account({ failMigrations: "RESEARCH_DB_2" });
    await expect(box.deploy()).rejects.toThrow(/D1 migrations of RESEARCH_DB_2 failed, so nothing was uploaded/);
    expect(box.calls().map(commandOf)).not.toContain("deploy");
    expect(box.state().appliedMigrations).toBeGreaterThan(0);
  });

  it("refuses to upload a version that no longer binds a database orgs live in", async () => {
    box.settle({ databases: [RESEARCH_DB_2] });
    await box.deploy();
    box.account({ ...box.state(), orgs: 3, orgHomes: { DB: 1, RESEARCH_DB_2: 2 }, deploys: 0 });
    box.settle({ ...JSON.parse(box.file("cairn.deploy.json")), databases: [] });
    box.clearCalls();
    await expect(box.deploy()).rejects.toThrow(/2 org\(s\) live in RESEARCH_DB_2, which cairn.deploy.json no longer lists in "databases": nothing was uploaded/);
    expect(box.calls().map(commandOf)).not.toContain("deploy");
    expect(box.state().deploys).toBe(0);
  });

  it("says so when wrangler.toml declares a local database, and deploys without it", async () => {
    const toml = path.join(box.root, "wrangler.toml");
    writeFileSync(toml, readFileSync(toml, "utf8").replace('migrations_dir = "migrations"', 'migrations_dir = "migrations"\n\n[[d1_databases]]\nbinding = "RESEARCH_DB_2"\ndatabase_name = "local-2"\ndatabase_id = "00000000-0000-4000-8000-000000000002"'));
    await box.deploy();
    expect(box.lines.join("\n")).toContain("Note: wrangler.toml declares RESEARCH_DB_2 for local development");
    const upload = box.calls().find((call) => call.args[0] === "deploy");
    expect(upload?.config).not.toContain("RESEARCH_DB_2");
    expect(box.calls().map((call) => call.args.slice(0, 4).join(" "))).not.toContain("d1 migrations apply RESEARCH_DB_2");
  });

  it("the command line runs from a fresh checkout: --dry-run exits 0, a bad flag exits 2", async () => {
    const script = path.join(projectRoot, "scripts/deploy.mjs");
    const ok = await run(process.execPath, [script, "--dry-run"], { env: box.env, cwd: projectRoot });
    expect(ok.stdout).toContain("Deploy plan (dry run");
    const bad = await run(process.execPath, [script, "--bogus"], { env: box.env, cwd: projectRoot }).catch((error) => error);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown option '--bogus'");
  });
});

describe("the operator CLI against a deployment", { timeout: 30_000 }, () => {
  it("--remote uses the deployment's configuration, through the same wrangler seam as the deploy; migrate reaches every database", async () => {
    const box = sandbox();
    try {
      box.settle({ databases: [{ binding: "RESEARCH_DB_2", name: "cairn-research-2" }] });
      await box.deploy();
      box.clearCalls();
      const cli = path.join(projectRoot, "scripts/cairn.mjs");
      const config = path.join(box.root, "wrangler.production.toml");
      const migrated = await run(process.execPath, [cli, "migrate", "--remote", "--config", config], { env: box.env, cwd: box.root });
      expect(migrated.stderr).toContain("remote");
      expect(box.calls().map((call) => call.args.slice(0, 4).join(" "))).toEqual(["d1 migrations apply DB", "d1 migrations apply RESEARCH_DB_2"]);
      const [call] = box.calls();
      expect(call?.args).toContain("--remote");
      expect(call?.args[call.args.indexOf("--config") + 1]).toBe(config);

      const missing = await run(process.execPath, [cli, "org", "list", "--remote", "--config", path.join(box.root, "nope.toml")], { env: box.env }).catch((e) => e);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("does not exist");
      const local = await run(process.execPath, [cli, "org", "list", "--config", config], { env: box.env }).catch((e) => e);
      expect(local.code).toBe(2);
      expect(local.stderr).toContain("--config applies to --remote only");
    } finally {
      rmSync(box.dir, { recursive: true, force: true });
    }
  });
});

describe("production configuration", () => {
  const base = readFileSync(path.join(projectRoot, "wrangler.toml"), "utf8");
  const settings = (patch: Record<string, unknown> = {}) =>
    validateSettings({ d1: { id: "11111111-2222-4333-8444-555555555555" }, kv: { id: "f".repeat(32) }, ...patch }, "cairn");

  it("keeps every binding, migration and rule of wrangler.toml and changes only the deployment's values", () => {
    const rendered: string = renderProductionConfig(base, settings());
    for (const line of base.split("\n").filter((l) => /^\s*(\[|tag|new_sqlite_classes|class_name|name|binding|simple|globs)/.test(l))) {
      expect(rendered).toContain(line);
    }
    expect(rendered).toContain('database_id = "11111111-2222-4333-8444-555555555555"');
    expect(rendered).not.toContain('CAIRN_ENV = "development"');
  });

  it("renders routes, the account and variable overrides as TOML; refuses overrides of the production defaults", () => {
    const rendered: string = renderProductionConfig(
      base,
      settings({ accountId: "c".repeat(32), routes: [{ pattern: "research.example.org", custom_domain: true }], vars: { SEARCH_SESSION_MAX_ACTIVE: "40", NEW_VAR: 'a "quoted" value' } }),
    );
    expect(rendered).toMatch(/^workers_dev = true\naccount_id = "c{32}"\nroutes = \[\{ pattern = "research.example.org", custom_domain = true \}\]$/m);
    expect(rendered).toContain('SEARCH_SESSION_MAX_ACTIVE = "40"');
    expect(rendered).toContain('NEW_VAR = "a \\"quoted\\" value"');
    expect(rendered.match(/^SEARCH_SESSION_MAX_ACTIVE =/gm)).toHaveLength(1);
    expect(() => settings({ vars: { CAIRN_ENV: "development" } })).toThrow(/set by the deploy/);
    expect(() => settings({ publicUrl: "http://research.example.org" })).toThrow(/https/);
    expect(() => settings({ routes: [{ pattern: 'x"; evil = "' }] })).toThrow(/hostname pattern/);
  });

  it("checks the research databases of the settings, and keeps local databases of wrangler.toml out of a deployment", () => {
    const id = "21111111-2222-4333-8444-555555555555";
    expect(() => settings({ databases: [{ binding: "DB", name: "x" }] })).toThrow(/databases\[0\]\.binding "DB" is the directory database's/);
    expect(() => settings({ databases: [{ binding: "research", name: "x" }] })).toThrow(/databases\[0\]\.binding must be a binding name/);
    expect(() => settings({ databases: [{ binding: "R2", name: "a" }, { binding: "R2", name: "b" }] })).toThrow(/databases\[1\]\.binding "R2" is listed twice/);
    expect(() => settings({ databases: [{ binding: "R2", name: "cairn" }] })).toThrow(/already the directory database's/);
    expect(() => settings({ databases: [{ binding: "R2", name: "x", id: "nope" }] })).toThrow(/databases\[0\]\.id is not a D1 database id/);
    expect(() => settings({ databases: [{ binding: "R2", name: "x" }], vars: { ORG_DATABASES: "DB,R3" } })).toThrow(/vars.ORG_DATABASES names R3, which "databases" does not list/);
    expect(() => settings({ vars: { ORG_DATABASES: "DB,research-2" } })).toThrow(/cairn.deploy.json: vars.ORG_DATABASES lists "research-2": each entry must be a D1 binding name/);
    const chosen = renderProductionConfig(base, settings({ databases: [{ binding: "R2", name: "x", id }], vars: { ORG_DATABASES: "R2" } }));
    expect(chosen).toMatch(/^ORG_DATABASES = "R2"$/m);
    expect(() => renderProductionConfig(base, settings({ databases: [{ binding: "R2", name: "x" }] }))).toThrow(/ids of the databases R2 must be known/);
  });

  it("leaves the databases wrangler.toml declares for local development out of a deployment, and its local ORG_DATABASES too", () => {
    const local = base
      .replace('migrations_dir = "migrations"', 'migrations_dir = "migrations"\n\n[[d1_databases]]\nbinding = "RESEARCH_DB_2"\ndatabase_name = "local-2"\ndatabase_id = "00000000-0000-4000-8000-000000000002"\nmigrations_dir = "migrations"')
      .replace("[vars]\n", '[vars]\nORG_DATABASES = "DB,RESEARCH_DB_2"\n');
    const alone: string = renderProductionConfig(local, settings());
    expect(alone).not.toContain("RESEARCH_DB_2");
    expect(alone).not.toContain("local-2");
    expect(alone).toMatch(/^ORG_DATABASES = "DB"$/m);
    expect(alone.match(/^\[\[d1_databases\]\]$/gm)).toHaveLength(1);
    expect(alone).toMatch(/migrations_dir = "migrations"\n\n\[\[kv_namespaces\]\]/);
    const id = "21111111-2222-4333-8444-555555555555";
    const deployed: string = renderProductionConfig(local, settings({ databases: [{ binding: "RESEARCH_DB_2", name: "cairn-research-2", id }] }));
    expect(deployed).toContain(`binding = "RESEARCH_DB_2"\ndatabase_name = "cairn-research-2"\ndatabase_id = "${id}"`);
    expect(deployed).not.toContain("local-2");
    expect(deployed.match(/^ORG_DATABASES = .*$/gm)).toEqual(['ORG_DATABASES = "DB,RESEARCH_DB_2"']);
  });

  it("names the webhook queues after the Worker, so two deployments in one account do not share them", () => {
    const rendered: string = renderProductionConfig(base, validateSettings({ d1: { id: "11111111-2222-4333-8444-555555555555" }, kv: { id: "f".repeat(32) } }, "acme-research"));
    expect(rendered.match(/^queue = "acme-research-webhooks"$/gm)).toHaveLength(2);
    expect(rendered).toMatch(/^dead_letter_queue = "acme-research-webhooks-dlq"$/m);
    expect(rendered).toMatch(/^queue = "acme-research-webhooks-dlq"$/m);
    expect(rendered).not.toContain('"cairn-webhooks');
    expect(rendered.match(/^queue = "acme-research-source-checks"$/gm)).toHaveLength(2);
    expect(rendered).toMatch(/^dead_letter_queue = "acme-research-source-checks-dlq"$/m);
    expect(rendered).toMatch(/^queue = "acme-research-source-checks-dlq"$/m);
    expect(rendered).toMatch(/^binding = "SOURCE_CHECK_DLQ"\nqueue = "acme-research-source-checks-dlq"$/m);
    expect(rendered).toMatch(/^bucket_name = "acme-research-source-snapshots"$/m);
    expect(rendered).not.toContain('"cairn-source');
  });
});
