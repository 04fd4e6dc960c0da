#!/usr/bin/env node
/**
 * `npm run deploy`: deploys Cairn to the Cloudflare account wrangler is logged
 * in to, or upgrades it in place (see scripts/lib/deploy.mjs for the steps).
 * `npm run deploy -- --dry-run` prints the plan and checks the bundle, offline.
 *
 * Exit codes: 0 deployed (or planned), 1 the deploy failed (the message says
 * where and what to do), 2 usage error.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

// wrangler and the .ts imports of the library need Node ≥ 22.18: re-run with the project's Node if older.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  const local = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../node_modules/.bin/node");
  if (!existsSync(local) || process.env.CAIRN_REEXEC) {
    console.error(`npm run deploy needs Node.js 22.18 or newer (this is ${process.version}); run \`npm install\` first.`);
    process.exit(1);
  }
  const result = spawnSync(local, process.argv.slice(1), { stdio: "inherit", env: { ...process.env, CAIRN_REEXEC: "1" } });
  process.exit(result.status ?? 1);
}

const USAGE = `Usage: npm run deploy [-- flags]

Deploys Cairn to the Cloudflare account of \`npx wrangler login\`, or upgrades
the deployment in place. Creates the D1 database and KV namespace if missing,
applies D1 migrations before uploading the code, and on the first deploy creates
the first org and admin (password shown once). Settings are kept in
cairn.deploy.json; wrangler.production.toml is generated from it.

Flags:
  --dry-run              print the plan and check that the bundle builds; changes nothing
  --public-url URL       pin the public origin (default: the hostname of each request)
  --account-id ID        the Cloudflare account, when the login reaches several
  --org SLUG             first deploy: the first org's slug (default "research")
  --org-name NAME        first deploy: its name (default "Research")
  --admin-email EMAIL    first deploy: its admin (default: the wrangler login's e-mail)
  -h, --help             this help`;

let values;
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      "dry-run": { type: "boolean" },
      "public-url": { type: "string" },
      "account-id": { type: "string" },
      org: { type: "string" },
      "org-name": { type: "string" },
      "admin-email": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  console.error(`npm run deploy: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const { deploy } = await import("./lib/deploy.mjs");
const { wranglerRunner } = await import("./lib/deploy-wrangler.mjs");
const { projectRoot } = await import("./lib/local.mjs");

const overrides = Object.fromEntries(
  Object.entries({
    publicUrl: values["public-url"],
    accountId: values["account-id"],
    orgSlug: values.org,
    orgName: values["org-name"],
    adminEmail: values["admin-email"],
  }).filter(([, value]) => value !== undefined),
);

try {
  await deploy({ root: projectRoot, dryRun: Boolean(values["dry-run"]), overrides, wrangler: wranglerRunner() });
} catch (error) {
  console.error(`\nnpm run deploy: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(error?.exitCode ?? 1);
}
