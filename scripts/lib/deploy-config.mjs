/**
 * The production configuration `npm run deploy` writes: pure functions, no I/O.
 *
 * The tracked `wrangler.toml` is the development configuration (local D1/KV ids,
 * `CAIRN_ENV = "development"`, `PUBLIC_URL` on localhost). A deployment's own
 * settings (resource ids, a pinned public URL, custom domains, variable
 * overrides) live in `cairn.deploy.json`, which the first deploy writes and
 * the operator may edit. Every deploy renders `wrangler.production.toml` from
 * the two, so an upgrade that adds a binding or a Durable Object migration to
 * `wrangler.toml` reaches the deployment without anyone merging files by hand.
 * Both files are gitignored: they describe one deployment, not the project.
 */
import { DIRECTORY_DATABASE, isBindingName, MAX_HOME_DATABASES, placementCandidates } from "../../src/domain/org-data/placement.ts";
import { withoutOtherDatabases } from "./d1-bindings.mjs";

/** Where the deployment's settings and the rendered configuration live (project root). */
export const SETTINGS_FILE = "cairn.deploy.json";
export const PRODUCTION_CONFIG_FILE = "wrangler.production.toml";

/** The names the first deploy chooses when the settings do not say otherwise. */
export function defaultSettings(workerName) {
  return {
    workerName,
    accountId: null,
    publicUrl: null,
    routes: [],
    vars: {},
    d1: { name: workerName, id: null },
    databases: [],
    kv: { title: `${workerName}-oauth`, id: null },
    firstOrg: { slug: "research", name: "Research", adminEmail: null },
    url: null,
  };
}

const WORKER_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
const VAR_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
const RESOURCE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const D1_ID = /^[0-9a-f-]{36}$/;
/** As many as the Worker places orgs in, the directory included. */
const MAX_EXTRA_DATABASES = MAX_HOME_DATABASES - 1;
/** Set by the deploy itself: an override would undo a production default or break the OAuth origin. */
const RESERVED_VARS = new Set(["CAIRN_ENV", "PUBLIC_URL"]);

/**
 * Checks settings read from `cairn.deploy.json` (an operator edits that file)
 * and returns them merged over the defaults; throws an Error naming the field.
 */
export function validateSettings(raw, workerNameFallback) {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new Error(`${SETTINGS_FILE} must hold a JSON object.`);
  const workerName = raw.workerName ?? workerNameFallback;
  if (typeof workerName !== "string" || !WORKER_NAME.test(workerName)) {
    throw new Error(`${SETTINGS_FILE}: workerName must be 1–63 lower-case letters, digits and inner hyphens.`);
  }
  const base = defaultSettings(workerName);
  const settings = {
    ...base,
    ...raw,
    workerName,
    d1: { ...base.d1, ...(raw.d1 ?? {}) },
    kv: { ...base.kv, ...(raw.kv ?? {}) },
    firstOrg: { ...base.firstOrg, ...(raw.firstOrg ?? {}) },
    vars: { ...(raw.vars ?? {}) },
    routes: raw.routes ?? [],
    databases: raw.databases ?? [],
  };
  if (settings.accountId !== null && !/^[0-9a-f]{32}$/.test(String(settings.accountId))) {
    throw new Error(`${SETTINGS_FILE}: accountId must be the 32-hex-digit Cloudflare account id.`);
  }
  if (settings.publicUrl !== null) settings.publicUrl = publicOriginOf(settings.publicUrl);
  if (!Array.isArray(settings.routes)) throw new Error(`${SETTINGS_FILE}: routes must be a list.`);
  settings.routes.forEach((route, index) => {
    if (typeof route?.pattern !== "string" || !/^[a-z0-9.*/-]+$/i.test(route.pattern)) {
      throw new Error(`${SETTINGS_FILE}: routes[${index}].pattern must be a hostname pattern such as "research.example.com".`);
    }
    if (route.custom_domain !== undefined && typeof route.custom_domain !== "boolean") {
      throw new Error(`${SETTINGS_FILE}: routes[${index}].custom_domain must be true or false.`);
    }
    if (route.zone_name !== undefined && (typeof route.zone_name !== "string" || !/^[a-z0-9.-]+$/i.test(route.zone_name))) {
      throw new Error(`${SETTINGS_FILE}: routes[${index}].zone_name must be a domain name.`);
    }
  });
  for (const [name, value] of Object.entries(settings.vars)) {
    if (!VAR_NAME.test(name)) throw new Error(`${SETTINGS_FILE}: vars.${name} is not a variable name (upper-case letters, digits, _).`);
    if (RESERVED_VARS.has(name)) throw new Error(`${SETTINGS_FILE}: vars.${name} is set by the deploy (use "publicUrl" to pin the public URL).`);
    if (typeof value !== "string") throw new Error(`${SETTINGS_FILE}: vars.${name} must be a string.`);
  }
  if (!SLUG.test(String(settings.firstOrg.slug))) throw new Error(`${SETTINGS_FILE}: firstOrg.slug must be 1–40 lower-case letters, digits and inner hyphens.`);
  if (typeof settings.firstOrg.name !== "string" || settings.firstOrg.name.trim() === "" || settings.firstOrg.name.length > 100) {
    throw new Error(`${SETTINGS_FILE}: firstOrg.name must be 1–100 characters.`);
  }
  if (settings.firstOrg.adminEmail !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(settings.firstOrg.adminEmail))) {
    throw new Error(`${SETTINGS_FILE}: firstOrg.adminEmail must be an e-mail address.`);
  }
  for (const [field, value] of [
    ["d1.name", settings.d1.name],
    ["kv.title", settings.kv.title],
  ]) {
    if (typeof value !== "string" || !RESOURCE_NAME.test(value)) throw new Error(`${SETTINGS_FILE}: ${field} must be 1–64 letters, digits, _ or -.`);
  }
  if (settings.d1.id !== null && !D1_ID.test(String(settings.d1.id))) throw new Error(`${SETTINGS_FILE}: d1.id is not a D1 database id.`);
  settings.databases = validateDatabases(settings.databases, settings.d1.name);
  if (settings.vars.ORG_DATABASES !== undefined) {
    // Read as the Worker reads it, so what passes here is what it will place orgs in.
    let listed;
    try {
      listed = placementCandidates(settings.vars.ORG_DATABASES);
    } catch (error) {
      throw new Error(`${SETTINGS_FILE}: vars.${error instanceof Error ? error.message : String(error)}`);
    }
    const bound = deploymentBindings(settings);
    const unbound = listed.filter((name) => !bound.includes(name));
    if (unbound.length > 0) {
      throw new Error(`${SETTINGS_FILE}: vars.ORG_DATABASES names ${unbound.join(", ")}, which "databases" does not list (the deployment binds ${bound.join(", ")}).`);
    }
  }
  if (settings.kv.id !== null && !/^[0-9a-f]{32}$/.test(String(settings.kv.id))) throw new Error(`${SETTINGS_FILE}: kv.id is not a KV namespace id.`);
  return settings;
}

/**
 * The deployment's research databases besides `DB`: `[{ binding, name, id }]`,
 * each a D1 database of the account (found by name or created; `id` recorded
 * by the deploy), bound to the Worker under `binding` with the same migrations.
 */
function validateDatabases(databases, directoryName) {
  if (!Array.isArray(databases)) throw new Error(`${SETTINGS_FILE}: databases must be a list of { "binding", "name" }.`);
  if (databases.length > MAX_EXTRA_DATABASES) throw new Error(`${SETTINGS_FILE}: databases lists ${databases.length}; at most ${MAX_EXTRA_DATABASES} besides DB.`);
  const bindings = new Set(["DB"]);
  const names = new Set([directoryName]);
  return databases.map((db, index) => {
    const where = `${SETTINGS_FILE}: databases[${index}]`;
    if (db === null || typeof db !== "object" || Array.isArray(db)) throw new Error(`${where} must be an object { "binding", "name" }.`);
    const { binding, name, id = null } = db;
    if (typeof binding !== "string" || !isBindingName(binding)) throw new Error(`${where}.binding must be a binding name such as RESEARCH_DB_2 (upper-case letters, digits, _).`);
    if (bindings.has(binding)) throw new Error(`${where}.binding "${binding}" is ${binding === "DB" ? "the directory database's" : "listed twice"}.`);
    if (typeof name !== "string" || !RESOURCE_NAME.test(name)) throw new Error(`${where}.name must be 1–64 letters, digits, _ or -.`);
    if (names.has(name)) throw new Error(`${where}.name "${name}" is already ${name === directoryName ? "the directory database's (d1.name)" : "used above"}.`);
    if (id !== null && !D1_ID.test(String(id))) throw new Error(`${where}.id is not a D1 database id.`);
    bindings.add(binding);
    names.add(name);
    return { binding, name, id };
  });
}

/** The D1 bindings a deployment has: the directory, then the research databases its settings list. */
export function deploymentBindings(settings) {
  return [DIRECTORY_DATABASE, ...settings.databases.map((db) => db.binding)];
}

/** An https origin (no path) for PUBLIC_URL; throws on anything else. */
export function publicOriginOf(value) {
  let url;
  try {
    url = new URL(String(value));
  } catch {
    throw new Error(`publicUrl "${value}" is not a URL.`);
  }
  if (url.protocol !== "https:") throw new Error(`publicUrl must be https (got ${url.protocol.replace(":", "")}).`);
  if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) {
    throw new Error(`publicUrl must be an origin such as https://research.example.com, without a path.`);
  }
  return url.origin;
}

/** wrangler.toml split where its first table starts: top-level keys live only in the head. */
function splitTopLevel(toml) {
  const firstTable = toml.search(/^\[/m);
  return firstTable < 0 ? [toml, ""] : [toml.slice(0, firstTable), toml.slice(firstTable)];
}

/** The worker name wrangler.toml declares (its top-level `name = "…"`). */
export function workerNameOf(baseToml) {
  const match = /^name\s*=\s*"([^"]+)"\s*$/m.exec(splitTopLevel(baseToml)[0]);
  if (!match) throw new Error('wrangler.toml has no top-level `name = "…"`.');
  return match[1];
}

/** TOML basic string: JSON's escapes are a subset TOML accepts. */
const tomlString = (value) => JSON.stringify(String(value));

function replaceOnce(text, pattern, replacement, what) {
  const matches = text.match(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`));
  if (matches?.length !== 1) {
    throw new Error(`wrangler.toml no longer has exactly one ${what}; update scripts/lib/deploy-config.mjs to its new shape.`);
  }
  return text.replace(pattern, replacement);
}

/**
 * `wrangler.production.toml`: `wrangler.toml` with the deployment's ids, the
 * production environment, no development PUBLIC_URL (the Worker then takes its
 * origin from each request's hostname) unless one is pinned, and the
 * operator's routes and variable overrides. Pure: the same inputs give the same
 * text, so a redeploy with unchanged settings writes an identical file.
 */
export function renderProductionConfig(baseToml, settings) {
  if (!settings.d1.id || !settings.kv.id) throw new Error("The D1 database and KV namespace ids must be known before the configuration is rendered.");
  const missing = settings.databases.filter((db) => !db.id).map((db) => db.binding);
  if (missing.length > 0) throw new Error(`The ids of the databases ${missing.join(", ")} must be known before the configuration is rendered.`);
  // Databases wrangler.toml declares besides DB are local ones: a deployment's come from its settings.
  let [head, toml] = splitTopLevel(localDatabasesLeftOut(baseToml).toml);
  head = replaceOnce(head, /^name\s*=\s*"[^"]*"\s*$/m, `name = ${tomlString(settings.workerName)}`, "top-level name");
  toml = replaceOnce(toml, /^database_name\s*=\s*"[^"]*"\s*$/m, `database_name = ${tomlString(settings.d1.name)}`, "D1 database_name");
  toml = replaceOnce(toml, /^database_id\s*=\s*"[^"]*"\s*$/m, `database_id = ${tomlString(settings.d1.id)}`, "D1 database_id");
  toml = replaceOnce(
    toml,
    /(\[\[kv_namespaces\]\]\s*\nbinding\s*=\s*"OAUTH_KV"\s*\nid\s*=\s*)"[^"]*"/,
    `$1${tomlString(settings.kv.id)}`,
    "OAUTH_KV namespace id",
  );
  // Queue names are per account: each deployment's follow its Worker's name.
  const queues = webhookQueueNames(settings.workerName);
  // wrangler.toml names each queue twice: the producer and consumer of the main queue, the dead-letter target and its consumer.
  for (const name of ["cairn-webhooks", "cairn-webhooks-dlq"]) {
    if (toml.split(`"${name}"`).length !== 3) throw new Error(`wrangler.toml no longer names queue "${name}" exactly twice; update scripts/lib/deploy-config.mjs to its new shape.`);
  }
  toml = toml.replaceAll('"cairn-webhooks-dlq"', tomlString(queues.deadLetter)).replaceAll('"cairn-webhooks"', tomlString(queues.main));
  // The source-check queue (producer and consumer), its dead-letter queue (target, consumer, and the producer orgs'
  // checkers send spent checks with) and the bucket of page snapshots, named after the Worker too.
  const sources = sourceCheckResourceNames(settings.workerName);
  for (const [name, times] of [["cairn-source-checks", 2], ["cairn-source-checks-dlq", 3]]) {
    if (toml.split(`"${name}"`).length !== times + 1) throw new Error(`wrangler.toml no longer names queue "${name}" exactly ${times} times; update scripts/lib/deploy-config.mjs to its new shape.`);
  }
  if (toml.split('"cairn-source-snapshots"').length !== 2) throw new Error('wrangler.toml no longer names bucket "cairn-source-snapshots" once; update scripts/lib/deploy-config.mjs to its new shape.');
  toml = toml
    .replaceAll('"cairn-source-checks-dlq"', tomlString(sources.deadLetter))
    .replaceAll('"cairn-source-checks"', tomlString(sources.queue))
    .replaceAll('"cairn-source-snapshots"', tomlString(sources.bucket));
  toml = replaceOnce(toml, /^CAIRN_ENV\s*=\s*"[^"]*"\s*$/m, 'CAIRN_ENV = "production"', "CAIRN_ENV variable");
  toml = replaceOnce(
    toml,
    /^PUBLIC_URL\s*=\s*"[^"]*"\s*$/m,
    settings.publicUrl
      ? `PUBLIC_URL = ${tomlString(settings.publicUrl)}`
      : "# PUBLIC_URL unset: the Worker's public origin is the hostname each request arrives on.",
    "PUBLIC_URL variable",
  );
  if (settings.databases.length > 0) {
    const blocks = settings.databases.map((db) =>
      [
        "[[d1_databases]]",
        `binding = ${tomlString(db.binding)}`,
        `database_name = ${tomlString(db.name)}`,
        `database_id = ${tomlString(db.id)}`,
        `migrations_dir = "migrations"`,
      ].join("\n"),
    );
    // Right after DB's table (its last key), each with the same migrations.
    toml = replaceOnce(toml, /^migrations_dir\s*=\s*"[^"]*"[ \t]*$/m, `$&\n\n${blocks.join("\n\n")}`, "D1 migrations_dir");
  }
  // New orgs may be placed in every database of the deployment unless the operator lists fewer;
  // always said, so a local setting in wrangler.toml never names a database the deployment lacks.
  const vars = { ORG_DATABASES: deploymentBindings(settings).join(","), ...settings.vars };
  for (const [name, value] of Object.entries(vars).sort(([a], [b]) => a.localeCompare(b))) {
    const line = new RegExp(`^${name}\\s*=\\s*"[^"]*"\\s*$`, "m");
    toml = line.test(toml) ? toml.replace(line, `${name} = ${tomlString(value)}`) : replaceOnce(toml, /^\[vars\]\s*$/m, `[vars]\n${name} = ${tomlString(value)}`, "[vars] table");
  }
  // Top-level keys must come before the first table: after workers_dev.
  const topLevel = [];
  if (settings.accountId) topLevel.push(`account_id = ${tomlString(settings.accountId)}`);
  if (settings.routes.length > 0) {
    const routes = settings.routes.map((route) => {
      const fields = [`pattern = ${tomlString(route.pattern)}`];
      if (route.custom_domain !== undefined) fields.push(`custom_domain = ${route.custom_domain}`);
      if (route.zone_name !== undefined) fields.push(`zone_name = ${tomlString(route.zone_name)}`);
      return `{ ${fields.join(", ")} }`;
    });
    topLevel.push(`routes = [${routes.join(", ")}]`);
  }
  if (topLevel.length > 0) head = replaceOnce(head, /^(workers_dev\s*=\s*\w+)[ \t]*$/m, `$1\n${topLevel.join("\n")}`, "workers_dev setting");
  const header = [
    "# Generated by `npm run deploy` from wrangler.toml and cairn.deploy.json: edit those,",
    "# not this file (the next deploy writes it again).",
    "",
  ].join("\n");
  return `${header}${head}${toml}`;
}

/** wrangler.toml without the D1 databases it declares besides DB (local development's), and their bindings. */
export function localDatabasesLeftOut(baseToml) {
  return withoutOtherDatabases(baseToml, "DB");
}

/** The webhook queue and its dead-letter queue for a Worker of this name (wrangler.toml's are for the name "cairn"). */
export function webhookQueueNames(workerName) {
  return { main: `${workerName}-webhooks`, deadLetter: `${workerName}-webhooks-dlq` };
}

/** The source-check queue, its dead-letter queue and the R2 bucket of page snapshots for a Worker of this name (wrangler.toml's are for "cairn"). */
export function sourceCheckResourceNames(workerName) {
  return { queue: `${workerName}-source-checks`, deadLetter: `${workerName}-source-checks-dlq`, bucket: `${workerName}-source-snapshots` };
}

/** The workers.dev URL `wrangler deploy` reports for the Worker, or null when it reports none (workers_dev off). */
export function workersDevUrl(output) {
  const match = /https:\/\/[a-z0-9.-]+\.workers\.dev\b/i.exec(output);
  return match ? match[0] : null;
}

/**
 * The URL people use: the pinned public URL, else the first custom domain, else workers.dev.
 * @returns {string | null}
 */
export function connectorOrigin(settings, deployOutput) {
  if (settings.publicUrl) return settings.publicUrl;
  const domain = settings.routes.find((route) => route.custom_domain && !route.pattern.includes("*") && !route.pattern.includes("/"));
  if (domain) return `https://${domain.pattern}`;
  return workersDevUrl(deployOutput);
}
