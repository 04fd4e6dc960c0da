/**
 * `npm run deploy`: from a Cloudflare login to a working connector URL, and
 * the same command again to upgrade in place.
 *
 *   1. check the wrangler login (and which account),
 *   2. find the D1 databases (DB and any research databases the settings list)
 *      and the KV namespace by name, or create them,
 *   3. record their ids in cairn.deploy.json and render wrangler.production.toml,
 *   4. apply D1 migrations remotely to every database BEFORE the new code goes
 *      up (forward-only: a failed migration stops the deploy and the running
 *      version stays), and refuse to drop a database that orgs still live in,
 *   5. upload the Worker,
 *   6. on the first deploy only, create the first org and its admin,
 *   7. print the MCP and dashboard URLs and how to connect Claude and ChatGPT.
 *
 * Every call to Cloudflare goes through one function, `wrangler(args)`, which
 * runs the first `wrangler` on PATH (`npm run` puts the project's own first),
 * so tests drive the whole flow with a fake `wrangler` that records its calls.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { hashPassword } from "../../src/auth/password.ts";
import { newId } from "../../src/domain/ids.ts";
import {
  connectorOrigin,
  defaultSettings,
  deploymentBindings,
  localDatabasesLeftOut,
  PRODUCTION_CONFIG_FILE,
  renderProductionConfig,
  SETTINGS_FILE,
  sourceCheckResourceNames,
  validateSettings,
  webhookQueueNames,
  workerNameOf,
} from "./deploy-config.mjs";
import { DeployError, outputOf, parseJsonOutput } from "./deploy-wrangler.mjs";
import { generatePassword, sqlInt, sqlString } from "./local.mjs";

/** The dry run renders its configuration here (beside wrangler.toml, so relative paths resolve alike). */
const DRY_RUN_CONFIG_FILE = ".wrangler.production.dry-run.toml";
/** Ids the dry run renders when the deployment's are not known yet. */
const PLACEHOLDER_IDS = { d1: "00000000-0000-4000-8000-000000000000", kv: "00000000000000000000000000000000" };

/** Settings: cairn.deploy.json if present, else the defaults, with the command line's overrides on top. */
export function loadSettings(root, overrides = {}) {
  const baseToml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const workerName = workerNameOf(baseToml);
  const file = path.join(root, SETTINGS_FILE);
  let stored = null;
  if (existsSync(file)) {
    try {
      stored = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new DeployError(`${SETTINGS_FILE} is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix or remove it.`);
    }
  }
  const merged = { ...(stored ?? defaultSettings(workerName)) };
  if (overrides.publicUrl !== undefined) merged.publicUrl = overrides.publicUrl;
  if (overrides.accountId !== undefined) merged.accountId = overrides.accountId;
  const firstOrg = { ...(merged.firstOrg ?? {}) };
  if (overrides.orgSlug !== undefined) firstOrg.slug = overrides.orgSlug;
  if (overrides.orgName !== undefined) firstOrg.name = overrides.orgName;
  if (overrides.adminEmail !== undefined) firstOrg.adminEmail = overrides.adminEmail.trim().toLowerCase();
  merged.firstOrg = firstOrg;
  try {
    return { baseToml, stored: stored !== null, settings: validateSettings(merged, workerName) };
  } catch (error) {
    throw new DeployError(error instanceof Error ? error.message : String(error));
  }
}

const migrationFiles = (root) => readdirSync(path.join(root, "migrations")).filter((name) => name.endsWith(".sql"));

/**
 * The SQL of the first org and its admin, guarded so that it changes nothing
 * once any org exists (a re-run, or an operator who created orgs by hand).
 * Returns the statements and the new user's id: the last statement selects
 * that user, so a row back means this run created them.
 */
export async function firstOrgStatements({ slug, name, adminEmail, password, now }) {
  const orgId = newId("org");
  const userId = newId("user");
  const noOrgYet = "NOT EXISTS (SELECT 1 FROM orgs)";
  const sql = [
    `INSERT INTO users (id, email, display_name, password_hash, created_at)
       SELECT ${sqlString(userId)}, ${sqlString(adminEmail)}, ${sqlString(adminEmail.split("@")[0])}, ${sqlString(await hashPassword(password))}, ${sqlInt(now)}
       WHERE ${noOrgYet} AND NOT EXISTS (SELECT 1 FROM users WHERE email = ${sqlString(adminEmail)})`,
    `INSERT INTO memberships (org_id, user_id, role, created_at)
       SELECT ${sqlString(orgId)}, u.id, 'admin', ${sqlInt(now)} FROM users u WHERE u.email = ${sqlString(adminEmail)} AND ${noOrgYet}`,
    `INSERT INTO orgs (id, slug, name, created_at) SELECT ${sqlString(orgId)}, ${sqlString(slug)}, ${sqlString(name)}, ${sqlInt(now)} WHERE ${noOrgYet}`,
    `SELECT u.id AS user_id, u.email, o.slug FROM users u JOIN memberships m ON m.user_id = u.id JOIN orgs o ON o.id = m.org_id
      WHERE u.id = ${sqlString(userId)} AND o.id = ${sqlString(orgId)}`,
  ].join(";\n");
  return { sql, userId, orgId };
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** What a dry run prints: the plan, and whether wrangler can bundle the rendered production configuration. */
export async function dryRun({ root, baseToml, stored, settings, wrangler, log }) {
  const rendered = renderProductionConfig(baseToml, {
    ...settings,
    d1: { ...settings.d1, id: settings.d1.id ?? PLACEHOLDER_IDS.d1 },
    databases: settings.databases.map((db) => ({ ...db, id: db.id ?? PLACEHOLDER_IDS.d1 })),
    kv: { ...settings.kv, id: settings.kv.id ?? PLACEHOLDER_IDS.kv },
  });
  const bindings = deploymentBindings(settings);
  const known = (id) => (id ? `id ${id}` : "found by name, or created");
  const admin = settings.firstOrg.adminEmail ?? "the e-mail of the wrangler login";
  log(`Deploy plan (dry run: nothing is created, migrated or uploaded)

  Settings         ${stored ? SETTINGS_FILE : `${SETTINGS_FILE} not found: first deploy, defaults below`}
  Worker           ${settings.workerName}${settings.accountId ? ` (account ${settings.accountId})` : ""}
  D1 database      "${settings.d1.name}" (${known(settings.d1.id)})
${settings.databases.map((db) => `  D1 database      "${db.name}" as ${db.binding}, for org research (${known(db.id)})\n`).join("")}  KV namespace     "${settings.kv.title}" (${known(settings.kv.id)})
  Public URL       ${settings.publicUrl ?? "the hostname each request arrives on (workers.dev or your custom domain)"}
  Browser          ${/^\[browser\]\s*\nbinding\s*=\s*"BROWSER"/m.test(baseToml) ? "Browser Rendering as BROWSER, for PDF downloads (a binding: nothing to create)" : "none: PDF downloads answer 501 (add [browser] binding = \"BROWSER\" to wrangler.toml)"}

  1. check the wrangler login                           wrangler whoami
  2. find or create the D1 database and KV namespace    wrangler d1 list / create, kv namespace list / create
     and the webhook queues "${webhookQueueNames(settings.workerName).main}" (+ -dlq)     wrangler queues info / create
     the source-check queue "${sourceCheckResourceNames(settings.workerName).queue}" (+ -dlq)     wrangler queues info / create
     and the snapshot bucket "${sourceCheckResourceNames(settings.workerName).bucket}"     wrangler r2 bucket info / create
  3. write ${SETTINGS_FILE} and ${PRODUCTION_CONFIG_FILE}, and set the Worker secret ${REQUIRED_SECRETS.map((secret) => secret.name).join(", ")} if missing (generated, shown once)   wrangler secret list / put
  4. apply D1 migrations remotely, forward-only         wrangler d1 migrations apply ${bindings.join(", ")} --remote (${migrationFiles(root).length} files); a failure stops here
     and check that every org's database is still bound
  5. upload the Worker                                   wrangler deploy --config ${PRODUCTION_CONFIG_FILE}
  6. if the database has no org yet: create org "${settings.firstOrg.slug}" with admin ${admin} (password shown once)
  7. print the MCP URL, the dashboard URL and how to connect Claude and ChatGPT`);

  const configFile = path.join(root, DRY_RUN_CONFIG_FILE);
  const outdir = mkdtempSync(path.join(os.tmpdir(), "cairn-deploy-"));
  try {
    writeFileSync(configFile, rendered);
    const started = Date.now();
    const result = await wrangler(["deploy", "--dry-run", "--outdir", outdir, "--config", configFile]);
    if (result.code !== 0) throw new DeployError(`wrangler could not bundle the production configuration:\n${outputOf(result)}`);
    const files = existsSync(outdir) ? filesUnder(outdir).filter((file) => !file.endsWith(".map") && path.basename(file) !== "README.md") : [];
    if (files.length === 0) throw new DeployError(`wrangler deploy --dry-run wrote no bundle:\n${outputOf(result)}`);
    let total = 0;
    let gzipped = 0;
    for (const file of files) {
      const bytes = readFileSync(file);
      total += bytes.length;
      gzipped += gzipSync(bytes).length;
    }
    log(
      `\nBundle check (wrangler deploy --dry-run, ${((Date.now() - started) / 1000).toFixed(1)} s): OK, ${kib(total)}, ${kib(gzipped)} gzipped` +
        " (Workers limits: 3 MiB gzipped on Free, 10 MiB on Paid).",
    );
    const warnings = outputOf(result)
      .split("\n")
      .filter((line) => /warn|▲/i.test(line));
    if (warnings.length > 0) log(`wrangler warnings:\n${warnings.join("\n")}`);
    return { dryRun: true, rendered };
  } finally {
    rmSync(configFile, { force: true });
    rmSync(outdir, { recursive: true, force: true });
  }
}


/** Worker secrets a deployment cannot run without: a first deploy generates each one missing and sets it. */
export const REQUIRED_SECRETS = [
  {
    name: "WEBHOOK_SECRET_KEYS",
    what: "the key that seals webhook signing secrets at rest (AES-256-GCM)",
    /** A key the Worker accepts: an id, a colon, 32 random bytes in base64. */
    generate: () => `k1:${randomBytes(32).toString("base64")}`,
    keep:
      "Keep a copy somewhere safe (a password manager): Cloudflare never shows a secret again, and without it no webhook signing secret can be unsealed. " +
      `To rotate it, put a new key first and keep the old one after it — printf '%s' "k2:<new key>,k1:<this key>" | npx wrangler secret put WEBHOOK_SECRET_KEYS --config ${PRODUCTION_CONFIG_FILE} — ` +
      "the cron seals every secret with the new key within a day, after which the old one may go.",
  },
];

/**
 * Sets every required secret the Worker lacks (before any migration or upload), generating its value through the same
 * wrangler seam (`wrangler secret put`, the value on stdin) and printing it once with how to keep and rotate it. A
 * Worker not uploaded yet has no secrets: `wrangler secret put` creates it with the secret. One already set is kept.
 */
async function ensureSecrets({ wrangler, inAccount, configFile, log }) {
  const listed = await wrangler(["secret", "list", "--format=json", "--config", configFile], inAccount());
  let names = [];
  if (listed.code === 0) {
    const parsed = parseJsonOutput(listed, "wrangler secret list");
    names = Array.isArray(parsed) ? parsed.map((secret) => String(secret?.name)) : [];
  } else if (!/not found|does not exist|10007/i.test(outputOf(listed))) {
    throw new DeployError(`wrangler secret list failed:\n${outputOf(listed)}`);
  }
  for (const secret of REQUIRED_SECRETS) {
    if (names.includes(secret.name)) {
      log(`  ${secret.name}: set`);
      continue;
    }
    const value = secret.generate();
    const put = await wrangler(["secret", "put", secret.name, "--config", configFile], inAccount(), { input: value });
    if (put.code !== 0) {
      throw new DeployError(`Setting the secret ${secret.name} (${secret.what}) failed, so nothing was migrated or uploaded; run \`npm run deploy\` again:\n${outputOf(put)}`);
    }
    log(`  ${secret.name}: generated and set (${secret.what}). Shown this once:\n\n    ${value}\n\n  ${secret.keep}`);
  }
}

/** Finds a resource in a wrangler listing by its recorded id or, failing that, by name; creates it if neither. */
async function ensureResource({ what, recordedId, list, matchesName, idOf, create, log }) {
  const found = await list();
  if (recordedId) {
    if (found.some((item) => idOf(item) === recordedId)) return { id: recordedId, created: false };
    throw new DeployError(
      `The ${what} recorded in ${SETTINGS_FILE} (id ${recordedId}) is not in this Cloudflare account. ` +
        "Log in to the account that holds it (or set accountId), or remove the id from the file to start a new, empty one.",
    );
  }
  const existing = found.find(matchesName);
  if (existing) {
    log(`  ${what}: found ${idOf(existing)}`);
    return { id: idOf(existing), created: false };
  }
  await create();
  const created = (await list()).find(matchesName);
  if (!created) throw new DeployError(`wrangler reported the ${what} created, but it is not listed afterwards.`);
  log(`  ${what}: created ${idOf(created)}`);
  return { id: idOf(created), created: true };
}

/**
 * Deploys (or upgrades) Cairn. Writes cairn.deploy.json and wrangler.production.toml
 * in `root`, and nothing else on disk.
 * @param {{ root?: string, dryRun?: boolean, overrides?: Record<string, string>, wrangler?: ReturnType<typeof import("./deploy-wrangler.mjs").wranglerRunner>,
 *   env?: NodeJS.ProcessEnv, log?: (line: string) => void, now?: () => number }} options
 */
export async function deploy({ root, dryRun: planOnly = false, overrides = {}, wrangler, env = process.env, log = console.log, now = Date.now }) {
  const { baseToml, stored, settings } = loadSettings(root, overrides);
  const local = localDatabasesLeftOut(baseToml).removed;
  if (local.length > 0) {
    log(`Note: wrangler.toml declares ${local.join(", ")} for local development; a deployment binds only DB and the databases ${SETTINGS_FILE} lists ("databases").`);
  }
  if (planOnly) return dryRun({ root, baseToml, stored, settings, wrangler, log });

  // Once the account is known, every call names it: wrangler would otherwise ask which one.
  const inAccount = () => (settings.accountId ? { CLOUDFLARE_ACCOUNT_ID: settings.accountId } : {});
  const call = async (args, what) => {
    const result = await wrangler(args, inAccount());
    if (result.code !== 0) throw new DeployError(`${what} failed:\n${outputOf(result)}`);
    return result;
  };

  log("› Checking the Cloudflare login…");
  const whoami = await wrangler(["whoami", "--json"]);
  const identity = whoami.code === 0 ? parseJsonOutput(whoami, "wrangler whoami") : { loggedIn: false };
  if (!identity.loggedIn) throw new DeployError("Not logged in to Cloudflare: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN), then `npm run deploy` again.");
  const accounts = Array.isArray(identity.accounts) ? identity.accounts : [];
  if (!settings.accountId) {
    const fromEnv = env.CLOUDFLARE_ACCOUNT_ID;
    if (fromEnv) settings.accountId = fromEnv;
    else if (accounts.length === 1) settings.accountId = accounts[0].id;
    else if (accounts.length > 1) {
      throw new DeployError(
        `This login reaches ${accounts.length} accounts; choose one with --account-id (it is recorded in ${SETTINGS_FILE}):\n` +
          accounts.map((account) => `  ${account.id}  ${account.name}`).join("\n"),
      );
    }
  }
  log(`  logged in${identity.email ? ` as ${identity.email}` : ""}${settings.accountId ? `, account ${settings.accountId}` : ""}`);

  log("› Finding or creating the D1 database and KV namespace…");
  const d1 = await ensureResource({
    what: `D1 database "${settings.d1.name}"`,
    recordedId: settings.d1.id,
    list: async () => parseJsonOutput(await call(["d1", "list", "--json"], "wrangler d1 list"), "wrangler d1 list"),
    matchesName: (db) => db.name === settings.d1.name,
    idOf: (db) => db.uuid,
    create: () => call(["d1", "create", settings.d1.name], "wrangler d1 create"),
    log,
  });
  const kv = await ensureResource({
    what: `KV namespace "${settings.kv.title}"`,
    recordedId: settings.kv.id,
    list: async () => parseJsonOutput(await call(["kv", "namespace", "list"], "wrangler kv namespace list"), "wrangler kv namespace list"),
    matchesName: (ns) => ns.title === settings.kv.title,
    idOf: (ns) => ns.id,
    create: () => call(["kv", "namespace", "create", settings.kv.title], "wrangler kv namespace create"),
    log,
  });
  settings.d1.id = d1.id;
  settings.kv.id = kv.id;
  for (const db of settings.databases) {
    const found = await ensureResource({
      what: `D1 database "${db.name}" (${db.binding})`,
      recordedId: db.id,
      list: async () => parseJsonOutput(await call(["d1", "list", "--json"], "wrangler d1 list"), "wrangler d1 list"),
      matchesName: (candidate) => candidate.name === db.name,
      idOf: (candidate) => candidate.uuid,
      create: () => call(["d1", "create", db.name], "wrangler d1 create"),
      log,
    });
    db.id = found.id;
  }

  log("› Finding or creating the webhook queues…");
  const queues = webhookQueueNames(settings.workerName);
  const sources = sourceCheckResourceNames(settings.workerName);
  for (const name of [queues.main, queues.deadLetter, sources.queue, sources.deadLetter]) {
    const info = await wrangler(["queues", "info", name], inAccount());
    if (info.code === 0) {
      log(`  queue "${name}": found`);
      continue;
    }
    await call(["queues", "create", name], `wrangler queues create ${name}`);
    log(`  queue "${name}": created`);
  }
  log("› Finding or creating the bucket of source snapshots…");
  if ((await wrangler(["r2", "bucket", "info", sources.bucket], inAccount())).code === 0) {
    log(`  bucket "${sources.bucket}": found`);
  } else {
    await call(["r2", "bucket", "create", sources.bucket], `wrangler r2 bucket create ${sources.bucket}`);
    log(`  bucket "${sources.bucket}": created`);
  }

  const settingsFile = path.join(root, SETTINGS_FILE);
  const configFile = path.join(root, PRODUCTION_CONFIG_FILE);
  const save = () => writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
  save();
  writeFileSync(configFile, renderProductionConfig(baseToml, settings));
  log(`  recorded in ${SETTINGS_FILE}; configuration written to ${PRODUCTION_CONFIG_FILE}`);

  log("› Checking the Worker's secrets…");
  await ensureSecrets({ wrangler, inAccount, configFile, log });

  const bindings = deploymentBindings(settings);
  log(`› Applying D1 migrations to the deployed ${bindings.length === 1 ? "database" : "databases"} (before the new code)…`);
  for (const binding of bindings) {
    const migrated = await wrangler(["d1", "migrations", "apply", binding, "--remote", "--config", configFile], inAccount());
    if (migrated.code !== 0) {
      throw new DeployError(
        `D1 migrations of ${binding} failed, so nothing was uploaded: the running version is unchanged.\n${outputOf(migrated)}\n\n` +
          "Migrations are forward-only: fix the cause (see the message above) and run `npm run deploy` again; " +
          "migrations that were applied before the failure stay applied and are skipped next time.",
      );
    }
    log(`  ${binding}: ${/No migrations to apply/i.test(outputOf(migrated)) ? "already up to date" : "applied"}`);
  }

  const counted = await call(
    ["d1", "execute", "DB", "--remote", "--config", configFile, "--json", "--command", "SELECT home_database AS home, COUNT(*) AS n FROM orgs GROUP BY home_database"],
    "Counting orgs",
  );
  const homes = parseJsonOutput(counted, "wrangler d1 execute")?.[0]?.results ?? [];
  const firstDeploy = homes.reduce((sum, row) => sum + Number(row.n ?? 0), 0) === 0;
  // An org whose database the new version would not bind could no longer be served: refuse before uploading.
  const stranded = homes.filter((row) => row.home !== null && row.home !== undefined && !bindings.includes(String(row.home)));
  if (stranded.length > 0) {
    throw new DeployError(
      `${stranded.map((row) => `${row.n} org(s) live in ${row.home}`).join(", ")}, which ${SETTINGS_FILE} no longer lists in "databases": ` +
        "nothing was uploaded. Put the database back (their research is there), or move those orgs out first (export, import, delete).",
    );
  }
  const adminEmail = settings.firstOrg.adminEmail ?? (identity.email ? String(identity.email).toLowerCase() : null);
  if (firstDeploy && !adminEmail) {
    throw new DeployError("The first deploy creates the first admin, and this login has no e-mail: pass --admin-email you@example.com.");
  }

  log("› Uploading the Worker…");
  const uploaded = await call(["deploy", "--config", configFile], "wrangler deploy");
  const origin = connectorOrigin(settings, outputOf(uploaded));

  let admin = null;
  if (firstDeploy) {
    log(`› Creating the first org "${settings.firstOrg.slug}" and its admin ${adminEmail}…`);
    const password = generatePassword();
    const { sql } = await firstOrgStatements({ slug: settings.firstOrg.slug, name: settings.firstOrg.name, adminEmail, password, now: now() });
    const created = await call(["d1", "execute", "DB", "--remote", "--config", configFile, "--json", "--command", sql], "Creating the first org");
    const rows = parseJsonOutput(created, "wrangler d1 execute");
    const row = Array.isArray(rows) ? rows.at(-1)?.results?.[0] : undefined;
    admin = row ? { email: String(row.email), org: String(row.slug), password } : null;
    if (!admin) log("  an org appeared meanwhile; nothing created.");
    settings.firstOrg.adminEmail = adminEmail;
  }
  settings.url = origin;
  save();
  log(summary({ origin, settings, admin }));
  return { dryRun: false, origin, settings, admin, firstDeploy };
}

function summary({ origin, settings, admin }) {
  const bar = "─".repeat(72);
  const base = origin ?? "https://<your-worker-hostname>";
  const lines = [
    "",
    bar,
    `  Cairn is deployed${origin ? "" : " (wrangler reported no URL: workers_dev is off and no custom domain is set)"}`,
    "",
    `  MCP endpoint     ${base}/mcp`,
    `  Dashboard        ${base}/dashboard`,
    `  REST API         ${base}/api/v1`,
  ];
  if (admin) {
    lines.push(
      "",
      `  First admin      ${admin.email} (org "${admin.org}")`,
      `  Password         ${admin.password}`,
      "                   shown once: sign in to the dashboard and keep it somewhere safe",
    );
  }
  lines.push(
    "",
    "  Claude (claude.ai, Desktop): Settings → Connectors → Add custom connector,",
    `    URL ${base}/mcp`,
    "  Claude Code:",
    `    claude mcp add --transport http cairn ${base}/mcp`,
    "  ChatGPT: Settings → Apps & Connectors → Advanced → Developer mode → Create,",
    `    URL ${base}/mcp, authentication OAuth`,
    "",
    `  Logs: npx wrangler tail --config ${PRODUCTION_CONFIG_FILE}`,
    `  Upgrade later: git pull && npm install && npm run deploy (${settings.workerName}, same database)`,
    bar,
  );
  return lines.join("\n");
}
