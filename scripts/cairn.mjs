#!/usr/bin/env node
/**
 * Cairn operator CLI: `npm run cairn -- <command> [flags]`.
 * Local D1 by default (wrangler's local state, or --persist-to DIR); --remote
 * targets the D1 database named in wrangler.toml. Run with --help for usage.
 *
 * Exit codes: 0 done, 1 the action failed (unknown org, refused scope, wrangler
 * error, …), 2 usage error (unknown command or flag, missing or invalid value).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

// The library imports .ts files (needs Node ≥ 22.18) and wrangler needs Node 22:
// under an older Node, re-run with the project's own (node_modules/.bin/node).
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  const local = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../node_modules/.bin/node");
  if (!existsSync(local) || process.env.CAIRN_REEXEC) {
    console.error(`cairn: needs Node.js 22.18 or newer (this is ${process.version}); run \`npm ci\` and use \`npm run cairn -- …\`.`);
    process.exit(1);
  }
  const result = spawnSync(local, process.argv.slice(1), { stdio: "inherit", env: { ...process.env, CAIRN_REEXEC: "1" } });
  process.exit(result.status ?? 1);
}

const lib = await import("./lib/local.mjs");
const { webhookCommands } = await import("./lib/webhook-commands.mjs");
const { notificationCommands } = await import("./lib/notification-commands.mjs");
const { orgDataCommands } = await import("./lib/org-data-commands.mjs");
const { sourceCommands } = await import("./lib/source-commands.mjs");
const { scheduleCommands } = await import("./lib/schedule-commands.mjs");
const { outputCommands } = await import("./lib/output-commands.mjs");
const { shareCommands } = await import("./lib/share-commands.mjs");
const { ssoCommands } = await import("./lib/sso-commands.mjs");
const { paperSizeFor } = await import("../src/domain/research/paper-size.ts");

const GLOBAL_OPTIONS = {
  remote: { type: "boolean" },
  "persist-to": { type: "string" },
  config: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
};
const OPTIONS = {
  ...GLOBAL_OPTIONS,
  slug: { type: "string" },
  name: { type: "string" },
  org: { type: "string" },
  email: { type: "string" },
  role: { type: "string" },
  password: { type: "string" },
  "reset-password": { type: "boolean" },
  user: { type: "string" },
  scopes: { type: "string" },
  id: { type: "string" },
  out: { type: "string" },
  in: { type: "string" },
  "tool-calls": { type: "boolean" },
  "restore-members": { type: "boolean" },
  url: { type: "string" },
  yes: { type: "boolean" },
  endpoint: { type: "string" },
  member: { type: "string" },
  kind: { type: "string" },
  address: { type: "string" },
  events: { type: "string" },
  description: { type: "string" },
  "plan-approval": { type: "string" },
  sharing: { type: "string" },
  locale: { type: "string" },
  "unset-locale": { type: "boolean" },
  days: { type: "string" },
  "block-domain": { type: "string", multiple: true },
  "unblock-domain": { type: "string", multiple: true },
  "prefer-domain": { type: "string", multiple: true },
  "unprefer-domain": { type: "string", multiple: true },
  delivery: { type: "string" },
  database: { type: "string" },
  every: { type: "string" },
  start: { type: "string" },
  until: { type: "string" },
  format: { type: "string" },
  issuer: { type: "string" },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  domain: { type: "string", multiple: true },
  "default-role": { type: "string" },
  required: { type: "boolean" },
};

const GLOBAL_HELP = `Global flags:
  --remote            act on the deployed D1 database (default: local); its configuration is
                      wrangler.production.toml, which \`npm run deploy\` writes
  --config FILE       another wrangler configuration for --remote
  --persist-to DIR    local state directory (default: wrangler's .wrangler/state)
  --json              machine-readable output
  -h, --help          help (also per command: cairn org create --help)`;

/** @type {Record<string, { usage: string, summary: string, flags: string[], required: string[], positionals?: string[], details?: string, run: (o: Record<string, any>, t: object) => Promise<void> }>} */
const COMMANDS = {
  "org create": {
    usage: "org create --slug SLUG --name NAME [--database BINDING]",
    summary: "create an org (an existing slug is left as it is)",
    flags: ["slug", "name", "database"],
    required: ["slug", "name"],
    details:
      "SLUG: 1–40 lower-case letters, digits and inner hyphens.\nBINDING: the D1 binding to keep the org's research in (e.g. RESEARCH_DB_2; to move an org, create one there and import its export); unset: the Worker chooses among ORG_DATABASES at first use.",
    run: async (o, t) => {
      const org = await lib.createOrg({ slug: o.slug, name: o.name, ...(o.database ? { database: o.database } : {}) }, t);
      emit(o, org, () => (org.created ? `Created org "${org.slug}" (${org.name}), id ${org.id}.` : `Org "${org.slug}" already exists (${org.name}), id ${org.id}; nothing changed.`));
    },
  },
  "org list": {
    usage: "org list",
    summary: "list orgs with their database and member and active-key counts",
    flags: [],
    required: [],
    run: async (o, t) => {
      const orgs = await lib.listOrgs(t);
      emit(o, orgs, () =>
        orgs.length === 0
          ? "No orgs yet. Create one with: npm run cairn -- org create --slug SLUG --name NAME"
          : table(
              ["SLUG", "NAME", "ID", "DATABASE", "MEMBERS", "ADMINS", "ACTIVE KEYS", "CREATED"],
              orgs.map((x) => [x.slug, x.name, x.id, x.database ?? "(first use)", x.members, x.admins, x.activeKeys, when(x.createdAt)]),
            ),
      );
    },
  },
  "user add": {
    usage: "user add --org SLUG --email EMAIL --name NAME --role member|admin [--password P] [--reset-password]",
    summary: "add a user to an org, or change their role there",
    flags: ["org", "email", "name", "role", "password", "reset-password"],
    required: ["org", "email", "role"],
    details: `A new e-mail creates the user (--name is then required); without --password a strong one is
generated and printed once. An existing user's password is changed only with --reset-password
(to --password, or to a generated one). In an org that requires single sign-on, --password makes this member a
break-glass admin whose password still signs in (written to the org's audit log); no one else's does.`,
    run: async (o, t) => {
      lib.normalizeRole(o.role);
      const r = await lib.addUser(
        { org: o.org, email: o.email, name: o.name, role: o.role, password: o.password, resetPassword: Boolean(o["reset-password"]) },
        t,
      );
      if (r.passwordIgnored) {
        console.error(`warning: ${r.email} already exists and has a different password; it was NOT changed (use --reset-password to change it).`);
      }
      emit(o, r, () => {
        const lines = [];
        if (r.userCreated) lines.push(`Created user ${r.email} (${r.displayName}), id ${r.userId}.`);
        if (r.previousRole === null) lines.push(`Added ${r.email} to "${r.orgSlug}" as ${r.role}.`);
        else if (r.previousRole !== r.role) lines.push(`Changed ${r.email}'s role in "${r.orgSlug}" from ${r.previousRole} to ${r.role}.`);
        else lines.push(`${r.email} is already ${article(r.role)} ${r.role} of "${r.orgSlug}"; role unchanged.`);
        if (r.passwordChanged) lines.push(`Password reset for ${r.email}.`);
        if (r.breakGlass) lines.push(`"${r.orgSlug}" requires single sign-on: ${r.email}'s password still signs in to it (break-glass; audited).`);
        if (r.password) lines.push("", `  Password: ${r.password}`, "", "Pass it on securely: it is not stored in clear and will not be shown again.");
        return lines.join("\n");
      });
    },
  },
  "user list": {
    usage: "user list --org SLUG",
    summary: "list the members of an org",
    flags: ["org"],
    required: ["org"],
    run: async (o, t) => {
      const users = await lib.listUsers({ org: o.org }, t);
      emit(o, users, () =>
        users.length === 0
          ? `"${o.org}" has no members yet.`
          : table(
              ["EMAIL", "NAME", "ROLE", "ID", "JOINED"],
              users.map((u) => [u.email, u.displayName, u.role, u.id, when(u.joinedAt)]),
            ),
      );
    },
  },
  "key create": {
    usage: "key create --org SLUG --user EMAIL --name NAME [--scopes research:read,research:write,org:admin]",
    summary: "create an API key acting as a member of the org",
    flags: ["org", "user", "name", "scopes"],
    required: ["org", "user", "name"],
    details: `Scopes default to research:read,research:write. org:admin is only for admins of the org.
The key is printed once; only its SHA-256 is stored.`,
    run: async (o, t) => {
      const scopes = lib.normalizeScopes(o.scopes);
      const k = await lib.createApiKey({ org: o.org, userEmail: o.user, name: o.name, scopes }, t);
      emit(o, k, () =>
        [
          `Created API key "${k.name}" (${k.id}) for ${k.userEmail} in "${k.orgSlug}".`,
          `Scopes: ${k.scopes.join(" ")}`,
          "",
          `  ${k.key}`,
          "",
          "Copy it now: this key is NOT shown again (only its hash is stored). Use it as",
          "`Authorization: Bearer <key>` on /mcp and /api/v1.",
        ].join("\n"),
      );
    },
  },
  "org settings": {
    usage:
      "org settings --org SLUG [--plan-approval required|optional] [--sharing members|admins|off] [--locale TAG | --unset-locale] [--block-domain D] [--unblock-domain D] [--prefer-domain D] [--unprefer-domain D]",
    summary: "show an org's settings, or change them",
    flags: ["org", "plan-approval", "sharing", "locale", "unset-locale", "block-domain", "unblock-domain", "prefer-domain", "unprefer-domain"],
    required: ["org"],
    details: `--plan-approval required: every new plan of the org waits for a person's approval before its first step
(create_research_plan can still say approval "optional"); optional (the default): plans start at once unless they ask.
--sharing: who may make share links of deliverables: members (the default), admins, or off (no one, and existing
links stop answering until sharing is on again).
--locale TAG: the org's locale, a BCP 47 language tag such as en-US, en-GB or ja-JP (stored canonical: en-us is en-US).
PDF downloads are printed on US Letter in Letter countries (the United States, Canada, Mexico…) and on A4 elsewhere;
--unset-locale removes it (A4).
--block-domain D: record_evidence refuses sources from D and its subdomains (example.com covers www.example.com,
not badexample.com); --unblock-domain D removes the rule. --prefer-domain D: the evidence ledger counts the sources
from D; --unprefer-domain D removes it. Each may be given more than once. A domain is written lower case and in
punycode; an IP address is refused; at most 500 of each; a domain is never both blocked and preferred.
Also PATCH /api/v1/org/settings {"planApproval": …, "sharing": …, "locale": …, "sourcePolicy": {"blockedDomains": […], "preferredDomains": […]}}
as an org admin, or the dashboard's Org admin → Settings.`,
    run: async (o, t) => {
      const r = await lib.orgSettings(
        {
          org: o.org,
          ...(o["plan-approval"] !== undefined ? { planApproval: o["plan-approval"] } : {}),
          ...(o.sharing !== undefined ? { sharing: o.sharing } : {}),
          ...(o.locale !== undefined ? { locale: o.locale } : {}),
          ...(o["unset-locale"] ? { unsetLocale: true } : {}),
          block: o["block-domain"] ?? [],
          unblock: o["unblock-domain"] ?? [],
          prefer: o["prefer-domain"] ?? [],
          unprefer: o["unprefer-domain"] ?? [],
        },
        t,
      );
      const list = (domains) => (domains.length ? domains.join(", ") : "none");
      emit(o, r, () =>
        [
          `${r.changed ? "Set. " : ""}"${r.org}": plan approval ${r.planApproval}; sharing ${r.sharing}.`,
          `Blocked domains: ${list(r.sourcePolicy.blockedDomains)}.`,
          `Preferred domains: ${list(r.sourcePolicy.preferredDomains)}.`,
          `Locale: ${r.locale ?? "none"} (PDF downloads on ${paperSizeFor(r.locale) === "Letter" ? "US Letter" : "A4"}).`,
        ].join("\n"),
      );
    },
  },
  "key list": {
    usage: "key list --org SLUG",
    summary: "list an org's API keys (never the keys or their hashes)",
    flags: ["org"],
    required: ["org"],
    run: async (o, t) => {
      const keys = await lib.listApiKeys({ org: o.org }, t);
      emit(o, keys, () =>
        keys.length === 0
          ? `"${o.org}" has no API keys.`
          : table(
              ["ID", "NAME", "PREFIX", "SCOPES", "USER", "CREATED", "LAST USED", "STATUS"],
              keys.map((k) => [
                k.id,
                k.name,
                `${k.prefix}…`,
                k.scopes.join(","),
                k.userEmail,
                when(k.createdAt),
                when(k.lastUsedAt),
                k.revokedAt === null ? "active" : `revoked ${when(k.revokedAt)}`,
              ]),
            ),
      );
    },
  },
  "key revoke": {
    usage: "key revoke --org SLUG --id KEY_ID",
    summary: "revoke an API key (takes effect on its next use)",
    flags: ["org", "id"],
    required: ["org", "id"],
    run: async (o, t) => {
      const r = await lib.revokeApiKey({ org: o.org, id: o.id }, t);
      emit(o, r, () =>
        r.alreadyRevoked
          ? `Key ${r.id} ("${r.name}") was already revoked at ${when(r.revokedAt)}.`
          : `Revoked key ${r.id} ("${r.name}", ${r.prefix}…). A running Worker that used it in the last 30 seconds may accept it until they are over.`,
      );
    },
  },
  ...orgDataCommands(emit),
  ...webhookCommands(emit),
  ...notificationCommands(emit),
  ...sourceCommands(emit),
  ...scheduleCommands(emit, lib.UsageError),
  ...ssoCommands(emit),
  ...outputCommands(emit),
  ...shareCommands(emit, table, when),
  migrate: {
    usage: "migrate",
    summary: "apply pending D1 migrations (migrations/) to every database of the configuration",
    flags: [],
    required: [],
    run: async (o, t) => {
      const { output, databases } = await lib.applyMigrations(t);
      emit(o, { ok: true, databases: databases.map(({ binding, upToDate }) => ({ binding, upToDate })), output }, () => output.trimEnd());
    },
  },
};

function article(word) {
  return /^[aeiou]/.test(word) ? "an" : "a";
}

function when(ms) {
  return ms === null || ms === undefined ? "-" : `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")}Z`;
}

function table(headers, rows) {
  const cells = rows.map((row) => row.map((cell) => String(cell ?? "")));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const line = (row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

function emit(options, value, human) {
  console.log(options.json ? JSON.stringify(value, null, 2) : human());
}

function mainHelp() {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.split(" --")[0].length));
  const lines = Object.values(COMMANDS).map((c) => `  ${c.usage.split(" --")[0].padEnd(width)}  ${c.summary}`);
  return `Cairn operator CLI

Usage: npm run cairn -- <command> [flags]

Commands:
${lines.join("\n")}

${GLOBAL_HELP}

Examples:
  npm run cairn -- migrate
  npm run cairn -- org create --slug acme --name "Acme Research"
  npm run cairn -- user add --org acme --email ada@example.com --name "Ada" --role admin
  npm run cairn -- key create --org acme --user ada@example.com --name ci --scopes research:read,research:write
  npm run cairn -- key list --org acme --remote`;
}

function commandHelp(name) {
  const c = COMMANDS[name];
  return `Usage: npm run cairn -- ${c.usage}

${c.summary[0].toUpperCase()}${c.summary.slice(1)}.${c.details ? `\n${c.details}` : ""}

${GLOBAL_HELP}`;
}

function groupHelp(group) {
  const names = Object.keys(COMMANDS).filter((n) => n.startsWith(`${group} `));
  return `Usage: npm run cairn -- ${group} <${[...new Set(names.map((n) => n.split(" ")[1]))].join("|")}> [flags]\n\n${names
    .map((n) => `  ${COMMANDS[n].usage}\n      ${COMMANDS[n].summary}`)
    .join("\n")}\n\n${GLOBAL_HELP}`;
}

function usageFail(message, hint) {
  console.error(`cairn: ${message}`);
  console.error(hint ?? "Run `npm run cairn -- --help` for usage.");
  process.exit(2);
}

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    usageFail(error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, ".") : String(error));
  }
  const { values, positionals } = parsed;
  const words = positionals[0] === "help" ? positionals.slice(1) : positionals;
  const wantsHelp = values.help || positionals[0] === "help";

  if (words.length === 0) {
    if (wantsHelp) {
      console.log(mainHelp());
      return 0;
    }
    usageFail("no command given.", mainHelp());
  }
  const groups = new Set(Object.keys(COMMANDS).map((n) => n.split(" ")[0]));
  let name = words.slice(0, 2).join(" ");
  let extra = words.slice(2);
  // Three-word commands (org channels add) before two-word ones.
  if (COMMANDS[words.slice(0, 3).join(" ")]) {
    name = words.slice(0, 3).join(" ");
    extra = words.slice(3);
  }
  if (!COMMANDS[name] && COMMANDS[words[0]]) {
    name = words[0];
    extra = words.slice(1);
  }
  if (!COMMANDS[name]) {
    if (groups.has(words[0]) && words.length === 1) {
      if (wantsHelp) {
        console.log(groupHelp(words[0]));
        return 0;
      }
      usageFail(`"${words[0]}" needs a subcommand.`, groupHelp(words[0]));
    }
    if (groups.has(words[0])) usageFail(`unknown command "${words.slice(0, 2).join(" ")}".`, groupHelp(words[0]));
    usageFail(`unknown command "${words[0]}".`);
  }
  const command = COMMANDS[name];
  if (wantsHelp) {
    console.log(commandHelp(name));
    return 0;
  }
  const hint = `Usage: npm run cairn -- ${command.usage}\nRun \`npm run cairn -- ${name} --help\` for details.`;
  // A command's positional arguments, in order (`shares revoke <outputId> <shareId>`); the command says which it needs.
  const positionalNames = command.positionals ?? [];
  if (extra.length > positionalNames.length) usageFail(`unexpected argument "${extra[positionalNames.length]}" for "${name}".`, hint);
  extra.forEach((value, i) => {
    values[positionalNames[i]] = value;
  });
  for (const flag of Object.keys(values)) {
    if (!(flag in GLOBAL_OPTIONS) && !command.flags.includes(flag) && !positionalNames.includes(flag)) usageFail(`"${name}" does not take --${flag}.`, hint);
  }
  const missing = command.required.filter((flag) => values[flag] === undefined || values[flag] === "");
  if (missing.length > 0) usageFail(`"${name}" needs ${missing.map((f) => `--${f}`).join(", ")}.`, hint);

  const target = { remote: Boolean(values.remote) };
  if (values["persist-to"] !== undefined) target.persistTo = values["persist-to"];
  if (values.config !== undefined && !values.remote) usageFail("--config applies to --remote only.", hint);
  if (values.remote) {
    // The tracked wrangler.toml holds local placeholder ids: a deployment is described by the file the deploy writes.
    target.config = values.config ?? path.join(lib.projectRoot, "wrangler.production.toml");
    if (!existsSync(target.config)) {
      console.error(`cairn: ${values.config ? `${values.config} does not exist.` : "no wrangler.production.toml here: run `npm run deploy` first, or pass --config FILE."}`);
      return 1;
    }
    if (!values.json) console.error(`(remote: the D1 database "DB" of ${path.relative(process.cwd(), target.config) || target.config})`);
  }
  try {
    await command.run(values, target);
    return 0;
  } catch (error) {
    if (error instanceof lib.UsageError) usageFail(error.message, hint);
    if (error instanceof lib.OperatorError) {
      console.error(`cairn: ${error.message}`);
      return error.exitCode ?? 1;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
