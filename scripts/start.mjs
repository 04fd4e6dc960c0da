#!/usr/bin/env node
/**
 * `npm start`: local development only.
 *   1. apply the D1 migrations to each local database wrangler.toml declares,
 *   2. seed the demo org, admin and API key (kept in .wrangler/cairn-demo.json),
 *   3. run `wrangler dev` in the foreground on PORT (default 8787) and, once
 *      GET /health answers, print the URLs and demo credentials.
 * Ctrl-C stops wrangler. This script never touches a remote database.
 *
 * Flags: --port N (or PORT=N), --persist-to DIR, --help.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  const local = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../node_modules/.bin/node");
  if (!existsSync(local) || process.env.CAIRN_REEXEC) {
    console.error(`npm start needs Node.js 22.18 or newer (this is ${process.version}); run \`npm ci\` first.`);
    process.exit(1);
  }
  const result = spawnSync(local, process.argv.slice(1), { stdio: "inherit", env: { ...process.env, CAIRN_REEXEC: "1" } });
  process.exit(result.status ?? 1);
}

const USAGE = `Usage: npm start [-- --port N] [-- --persist-to DIR]

Applies local D1 migrations, seeds a demo org/user/API key, and runs wrangler dev
in the foreground (PORT env or --port, default 8787). Local only: it never
touches a deployed database.`;

let values;
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      port: { type: "string" },
      "persist-to": { type: "string" },
      remote: { type: "boolean", short: "r" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  console.error(`npm start: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
// Refuse anything that implies production: seeding a demo admin there would be a backdoor.
if (values.remote || process.env.CAIRN_ENV === "production" || process.env.CLOUDFLARE_ENV === "production") {
  console.error(
    "npm start is for local development only: it seeds a demo admin and never runs against a remote database.\n" +
      "Use `npm run cairn -- … --remote` to administer a deployment.",
  );
  process.exit(2);
}
const portText = values.port ?? process.env.PORT ?? "8787";
const port = Number(portText);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`npm start: invalid port "${portText}".`);
  process.exit(2);
}
const persistTo = values["persist-to"];

const lib = await import("./lib/local.mjs");

try {
  console.log("› Applying D1 migrations to the local databases…");
  const migrated = await lib.applyMigrations({ persistTo });
  for (const db of migrated.databases) console.log(`  ${db.binding}: ${db.upToDate ? "already up to date" : "migrated"}`);
  console.log("› Seeding the demo org, user and API key…");
  const demo = await lib.seedDemo({ persistTo });
  console.log(demo.changed.length > 0 ? `  updated: ${demo.changed.join(", ")}` : "  (already in place)");
  console.log(`› Starting wrangler dev on http://localhost:${port} …\n`);

  // The first Ctrl-C goes to the whole foreground group, wrangler included;
  // this process only waits for wrangler to finish and exits with its code (130 for a stop by Ctrl-C).
  let interrupted = false;
  process.on("SIGINT", () => {
    interrupted = true;
  });
  process.on("SIGTERM", () => {});

  // announce: the operator CLI run beside it uses this server rather than starting a second one on the same state.
  const server = await lib.startDevServer({ port, persistTo, foreground: true, timeoutMs: 90_000, announce: true });
  const base = server.url;
  const bar = "─".repeat(72);
  console.log(`
${bar}
  Cairn is running (local development)

  MCP endpoint     ${base}/mcp
  Dashboard        ${base}/dashboard
  REST API         ${base}/api/v1
  OpenAPI          ${base}/api/v1/openapi.json
  Health           ${base}/health
  Crons, by hand   ${base}/__scheduled?cron=*/5+*+*+*+*  (every 5 min: webhooks, notifications,
                   pending sources, scheduled runs)
                   ${base}/__scheduled?cron=23+3+*+*+*  (daily: those sweeps, retention, source re-checks)
                   (the crons never run by themselves here: open one to run it; see docs/development.md)

  Demo sign-in     ${demo.email}
  Demo password    ${demo.password}
  Demo API key     ${demo.apiKey}
                   (org "${demo.orgSlug}", scopes ${lib.DEMO_KEY_SCOPES.join(" ")};
                    kept in .wrangler/cairn-demo.json and reused on every start)
                   The key is the assistant's: it never approves. Approve plans (and
                   share, schedule, loosen settings) signed in to the dashboard.

  Connect Claude Code:
    claude mcp add --transport http cairn ${base}/mcp

  Try it with the MCP Inspector:
    npx @modelcontextprotocol/inspector --cli ${base}/mcp --transport http --header "Authorization: Bearer ${demo.apiKey}" --method tools/list

  Press Ctrl-C to stop.
${bar}
`);
  const { code, signal } = await server.exited;
  // After a Ctrl-C, wrangler ends either by the signal or by its own exit code for one (130, or 143 when its
  // shutdown passes through SIGTERM, depending on timing): all are a stop the person asked for, reported as
  // the shell's code for Ctrl-C. Any other code is wrangler's own failure and is passed on.
  const stoppedByCtrlC = interrupted && (signal !== null || code === 0 || code === 130 || code === 143);
  process.exit(stoppedByCtrlC ? 130 : (code ?? (signal === "SIGINT" ? 130 : 1)));
} catch (error) {
  console.error(`\nnpm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
