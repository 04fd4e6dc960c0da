#!/usr/bin/env node
/**
 * A stand-in for `wrangler` that plays a Cloudflare account at its edge, for
 * the deploy tests: put a copy named `wrangler` first on PATH. It appends every
 * call (argv, account env, and for `deploy` the configuration it was given) to
 * FAKE_WRANGLER_LOG and keeps the account in FAKE_WRANGLER_STATE (JSON):
 *   { loggedIn, email, accounts, databases: [{uuid,name}], namespaces: [{id,title}], queues: [name], buckets: [name],
 *     orgs, orgHomes, appliedMigrations (DB; "appliedMigrations:BINDING" for the others), failMigrations, workersDev,
 *     secrets: [name] (the Worker's secrets; none and no deploy yet: the Worker does not exist), secretValues: {name: value} (what secret put set) }
 * Anything it does not know answers exit 1, so an unexpected call fails the test.
 */
import { randomBytes } from "node:crypto";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const statePath = process.env.FAKE_WRANGLER_STATE;
const state = JSON.parse(readFileSync(statePath, "utf8"));
const save = () => writeFileSync(statePath, JSON.stringify(state, null, 2));
const flag = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const config = flag("--config");
appendFileSync(
  process.env.FAKE_WRANGLER_LOG,
  `${JSON.stringify({ args, account: process.env.CLOUDFLARE_ACCOUNT_ID ?? null, config: args[0] === "deploy" && config ? readFileSync(config, "utf8") : undefined })}\n`,
);
const out = (text) => process.stdout.write(`${text}\n`);
const fail = (text) => {
  process.stderr.write(`✘ [ERROR] ${text}\n`);
  process.exit(1);
};
const hex = (n) => randomBytes(n).toString("hex").slice(0, n);
const command = args.filter((arg) => !arg.startsWith("-")).slice(0, 3).join(" ");

if (args[0] === "whoami") {
  if (!state.loggedIn) {
    out(JSON.stringify({ loggedIn: false }));
    process.exit(1);
  }
  out(JSON.stringify({ loggedIn: true, authType: "OAuth Token", email: state.email, accounts: state.accounts }));
} else if (command === "d1 list") {
  out(JSON.stringify(state.databases.map((db) => ({ ...db, created_at: "2026-11-24T00:00:00Z", version: "production" }))));
} else if (command.startsWith("d1 create")) {
  const name = args[2];
  if (state.databases.some((db) => db.name === name)) fail(`A database with name "${name}" already exists`);
  const uuid = `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
  state.databases.push({ uuid, name });
  save();
  out(`✅ Successfully created DB '${name}' in region WEUR\nCreated your new D1 database.\n\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "${name}"\ndatabase_id = "${uuid}"`);
} else if (command === "kv namespace list") {
  out(JSON.stringify(state.namespaces));
} else if (command.startsWith("kv namespace create")) {
  const title = args[3];
  if (state.namespaces.some((ns) => ns.title === title)) fail(`A KV namespace with the title "${title}" already exists.`);
  const id = hex(32);
  state.namespaces.push({ id, title, supports_url_encoding: true });
  save();
  out(`🌀 Creating namespace with title "${title}"\n✨ Success!`);
} else if (command.startsWith("queues info")) {
  const name = args[2];
  if (!(state.queues ?? []).includes(name)) fail(`Queue "${name}" does not exist. To create it, run: wrangler queues create ${name}`);
  out(`Queue Name: ${name}\nQueue ID: ${hex(32)}`);
} else if (command.startsWith("queues create")) {
  const name = args[2];
  state.queues = state.queues ?? [];
  if (state.queues.includes(name)) fail(`A queue with the name "${name}" already exists.`);
  state.queues.push(name);
  save();
  out(`🌀 Creating queue '${name}'\n✅ Created queue '${name}'`);
} else if (command.startsWith("r2 bucket info")) {
  const name = args[3];
  if (!(state.buckets ?? []).includes(name)) fail(`The bucket "${name}" does not exist. [code: 10006]`);
  out(`name: ${name}\nlocation: WEUR`);
} else if (command.startsWith("r2 bucket create")) {
  const name = args[3];
  state.buckets = state.buckets ?? [];
  if (state.buckets.includes(name)) fail(`The bucket you tried to create already exists, and you own it. [code: 10004]`);
  state.buckets.push(name);
  save();
  out(`Creating bucket '${name}'...\n✅ Created bucket '${name}' with default storage class of Standard.`);
} else if (command.startsWith("secret list")) {
  const secrets = state.secrets ?? [];
  if (secrets.length === 0 && !state.deploys) fail("This Worker does not exist on your account. [code: 10007]");
  out(JSON.stringify(secrets.map((name) => ({ name, type: "secret_text" }))));
} else if (command.startsWith("secret put")) {
  // As wrangler does without a terminal: the value is read from stdin; a Worker not uploaded yet is created for it.
  const name = args[2];
  if (state.failSecretPut) fail("Authentication error [code: 10000]");
  const value = readFileSync(0, "utf8").trimEnd();
  if (!value) fail("Secret value is empty");
  state.secrets = [...new Set([...(state.secrets ?? []), name])];
  state.secretValues = { ...(state.secretValues ?? {}), [name]: value };
  save();
  out(`🌀 Creating the secret for the Worker "cairn"\n✨ Success! Uploaded secret ${name}`);
} else if (command === "d1 migrations apply") {
  // failMigrations: true fails every database; a binding name fails only that one.
  const binding = args[3];
  if (state.failMigrations === true || state.failMigrations === binding) {
    fail("Migration 0007_search_sessions.sql failed with the following errors: table search_sessions already exists");
  }
  const total = readdirSync(path.join(process.cwd(), "migrations")).filter((name) => name.endsWith(".sql")).length;
  const key = binding === "DB" ? "appliedMigrations" : `appliedMigrations:${binding}`;
  const pending = Math.max(0, total - (state[key] ?? 0));
  state[key] = total;
  save();
  out(pending === 0 ? "✅ No migrations to apply!" : `Migrations to be applied: ${pending}\n✅ Applied ${pending} migrations.`);
} else if (command.startsWith("d1 execute")) {
  const sql = flag("--command") ?? "";
  if (/COUNT\(\*\) AS n FROM orgs GROUP BY home_database/.test(sql)) {
    // orgHomes: { BINDING: count } where the account's orgs live; else all of them in DB.
    const homes = state.orgHomes ?? (state.orgs > 0 ? { DB: state.orgs } : {});
    out(JSON.stringify([{ results: Object.entries(homes).map(([home, n]) => ({ home, n })), success: true }]));
  } else if (/INSERT INTO orgs/.test(sql)) {
    const created = state.orgs === 0;
    if (created) state.orgs = 1;
    save();
    const userId = /u\.id = '([^']+)'/.exec(sql)?.[1];
    const email = /WHERE email = '([^']+)'/.exec(sql)?.[1];
    const slug = /SELECT 'org_[^']+', '([^']+)'/.exec(sql)?.[1];
    out(JSON.stringify([{ results: [] }, { results: [] }, { results: [] }, { results: created ? [{ user_id: userId, email, slug }] : [] }]));
  } else {
    fail(`fake wrangler: unexpected SQL ${sql.slice(0, 80)}`);
  }
} else if (args[0] === "deploy" && args.includes("--dry-run")) {
  const outdir = flag("--outdir");
  mkdirSync(outdir, { recursive: true });
  writeFileSync(path.join(outdir, "index.js"), "export default {};\n".repeat(100));
  out("Total Upload: 1.00 KiB / gzip: 0.50 KiB\n--dry-run: exiting now.");
} else if (args[0] === "deploy") {
  state.deploys = (state.deploys ?? 0) + 1;
  save();
  out(`Total Upload: 1234.00 KiB / gzip: 300.00 KiB\nUploaded cairn (3.21 sec)\nDeployed cairn triggers (1.02 sec)\n${state.workersDev === false ? "" : "  https://cairn.example-team.workers.dev\n"}Current Version ID: 1b2c3d4e`);
} else {
  fail(`fake wrangler: unexpected command ${args.join(" ")}`);
}
