/**
 * Local tooling shared by the operator CLI (`scripts/cairn.mjs`), `npm start`
 * (`scripts/start.mjs`), `npm run check:deploy` and the end-to-end tests.
 *
 * Everything here drives the project's own wrangler (never a global one) with
 * the offline flags set, and talks to D1 only through `wrangler d1 execute`:
 * `--local` (optionally `--persist-to DIR`) by default, `--remote` on request.
 *
 * Needs Node ≥ 22.18 (wrangler needs 22; the `.ts` imports below need native
 * type stripping). `npm run …` / `npx …` put `node_modules/.bin/node` (22.23.3)
 * first on PATH, so that is what runs these scripts there.
 *
 * SQL is built as text because wrangler's `--command` takes no bind
 * parameters: every value goes through `sqlString` / `sqlInt`, never raw.
 */
import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
// These three modules import nothing, so Node loads them directly (type stripping).
import { API_KEY_PREFIX, generateApiKey, hashApiKey, looksLikeApiKey } from "../../src/auth/api-keys.ts";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from "../../src/auth/password.ts";
import { newId } from "../../src/domain/ids.ts";

/** Absolute path of the project (the directory holding wrangler.toml). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The D1 binding in wrangler.toml; `d1 execute` / `migrations apply` accept the binding name. */
export const D1_BINDING = "DB";

/** Must match `SCOPES` in src/domain/scopes.ts (the e2e test checks that they agree). */
export const SCOPES = Object.freeze(["research:read", "research:write", "org:admin"]);
/** Scopes a key gets when none are asked for (src/domain/scopes.ts `DEFAULT_SCOPES`). */
export const DEFAULT_SCOPES = Object.freeze(["research:read", "research:write"]);
export const ROLES = Object.freeze(["member", "admin"]);

/** Offline / quiet settings for every wrangler child process. */
export const OFFLINE_ENV = Object.freeze({
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  X_LOCAL_OBSERVABILITY: "false",
});

/** For output that is captured rather than shown on a terminal. */
const NO_COLOR_ENV = Object.freeze({ FORCE_COLOR: "0", NO_COLOR: "1" });

/** Where `seedDemo` keeps the demo password and key (under the gitignored .wrangler/). */
export const DEFAULT_DEMO_STATE_FILE = path.join(projectRoot, ".wrangler", "cairn-demo.json");

const binDir = path.join(projectRoot, "node_modules", ".bin");
const wranglerJs = path.join(projectRoot, "node_modules", "wrangler", "bin", "wrangler.js");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Local D1 failures that mean "busy, try again" (nothing was committed). */
const TRANSIENT_LOCAL_ERROR = /Failed to get session commit token|SQLITE_BUSY|database is locked/;
/** Linux caps one argv string at 128 KiB; longer SQL goes through `--file`. */
const MAX_COMMAND_BYTES = 100_000;

// ---------------------------------------------------------------------------
// Errors

/** Bad input from the operator (unknown scope, malformed e-mail, …). The CLI exits 2. */
export class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = "UsageError";
    this.exitCode = 2;
  }
}

/** The request was well-formed but cannot be done (unknown org, refused scope, wrangler failed, …). The CLI exits 1. */
export class OperatorError extends Error {
  /** @param {string} message @param {{ code?: string, output?: string }} [details] */
  constructor(message, { code = "failed", output } = {}) {
    super(message);
    this.name = "OperatorError";
    this.code = code;
    this.exitCode = 1;
    if (output !== undefined) this.output = output;
  }
}

// ---------------------------------------------------------------------------
// Processes

/** The Node binary for wrangler: this one if it is ≥ 22, else the project's `node` package. */
export function nodeBinary() {
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= 22) return process.execPath;
  const local = path.join(binDir, "node");
  if (existsSync(local)) return local;
  throw new OperatorError(`wrangler needs Node.js 22 or newer (running ${process.version}); run \`npm ci\` to install the project's Node.`);
}

/**
 * `process.env` plus the offline flags, with `node_modules/.bin` first on PATH
 * (so anything wrangler spawns through `env node` is the project's Node 22).
 * @param {Record<string, string>} [extra]
 */
export function wranglerEnv(extra = {}) {
  return { ...process.env, ...OFFLINE_ENV, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ""}`, ...extra };
}

/**
 * Runs wrangler to completion with stdin closed (so any confirmation prompt
 * takes its non-interactive default) and returns its exit code and output.
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, cwd?: string }} [options]
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string }>}
 */
export function runWrangler(args, { env = {}, cwd = projectRoot } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBinary(), [wranglerJs, ...args], { cwd, env: wranglerEnv({ ...NO_COLOR_ENV, ...env }), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    // Some wrangler messages are coloured whatever FORCE_COLOR says (esbuild formatting).
    child.on("close", (code, signal) => resolve({ code, signal, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) }));
  });
}

/** Arguments selecting the database: `--local [--persist-to DIR]` or `--remote`. */
function targetArgs({ remote = false, persistTo, config } = {}) {
  const args = [];
  if (config) args.push("--config", path.resolve(config));
  if (remote) {
    if (persistTo) throw new UsageError("--persist-to applies to the local database only; drop it or drop --remote.");
    args.push("--remote");
  } else {
    args.push("--local");
    if (persistTo) args.push("--persist-to", path.resolve(persistTo));
  }
  return args;
}

// ---------------------------------------------------------------------------
// SQL

/**
 * A SQL string literal: single quotes doubled; `NULL` for null/undefined.
 * Numbers and booleans are quoted as text too; use `sqlInt` for integers.
 * @param {unknown} value
 */
export function sqlString(value) {
  if (value === null || value === undefined) return "NULL";
  const text = String(value);
  if (text.includes("\u0000")) throw new UsageError("Text values must not contain NUL characters.");
  return `'${text.replaceAll("'", "''")}'`;
}

/** A SQL integer literal (`NULL` for null/undefined); anything but a safe integer throws. @param {unknown} value */
export function sqlInt(value) {
  if (value === null || value === undefined) return "NULL";
  if (!Number.isSafeInteger(value)) throw new TypeError(`Not a safe integer: ${String(value)}`);
  return String(value);
}

/**
 * Turns wrangler's failure output into one readable message. With `--json`,
 * wrangler prints `{"error":{"text":…}}` on stdout and little or nothing on stderr.
 */
function wranglerFailure(what, { code, signal, stdout, stderr }) {
  let text = "";
  try {
    text = JSON.parse(stdout.trim())?.error?.text ?? "";
  } catch {
    // not JSON: fall back to the raw output
  }
  if (!text) text = [stderr.trim(), stdout.trim()].filter(Boolean).join("\n") || `exit ${code ?? signal}`;
  let hint = "";
  if (/no such table: (orgs|users|memberships|api_keys)/.test(text)) hint = "\nHint: apply the migrations first (`npm run cairn -- migrate`).";
  return new OperatorError(`${what} failed: ${text}${hint}`, { code: "wrangler", output: `${stdout}\n${stderr}` });
}

/**
 * Runs one or more `;`-separated statements through `wrangler d1 execute DB
 * --json` and returns one array of row objects per statement, in order.
 * Locally the statements run as one batch (D1 `batch()`, i.e. a transaction:
 * if one fails, none is applied). Throws an `OperatorError` carrying wrangler's
 * message on failure.
 * @param {string} sql
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<Array<Array<Record<string, unknown>>>>}
 */
export async function runSqlAll(sql, options = {}) {
  const args = ["d1", "execute", D1_BINDING, ...targetArgs(options), "--json", "--yes"];
  let tempDir;
  if (Buffer.byteLength(sql) > MAX_COMMAND_BYTES) {
    // Note: remotely, `--file` goes through D1's import API, which returns no rows.
    tempDir = mkdtempSync(path.join(os.tmpdir(), "cairn-sql-"));
    const file = path.join(tempDir, "query.sql");
    writeFileSync(file, sql);
    args.push("--file", file);
  } else {
    args.push("--command", sql);
  }
  try {
    let result = await runWrangler(args);
    // Several local processes on one persist dir (CLI next to `wrangler dev`, parallel
    // tests) now and then collide inside workerd's SQLite. The error is raised inside the
    // transaction, which is rolled back, so running the batch again is safe.
    for (let attempt = 1; attempt < 6 && result.code !== 0 && !options.remote && TRANSIENT_LOCAL_ERROR.test(result.stdout + result.stderr); attempt++) {
      await sleep(150 * attempt + randomInt(150));
      result = await runWrangler(args);
    }
    if (result.code !== 0) throw wranglerFailure("wrangler d1 execute", result);
    let parsed;
    try {
      parsed = JSON.parse(result.stdout.trim());
    } catch {
      throw new OperatorError(`wrangler d1 execute printed something other than JSON:\n${result.stdout}\n${result.stderr}`, { code: "wrangler" });
    }
    if (!Array.isArray(parsed)) throw wranglerFailure("wrangler d1 execute", { ...result, code: 1 });
    return parsed.map((statement) => statement?.results ?? []);
  } finally {
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}

/**
 * Like `runSqlAll`, but returns only the rows of the LAST statement
 * (convenient for "write …; SELECT …" batches and for plain SELECTs).
 * @param {string} sql
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<Array<Record<string, unknown>>>}
 */
export async function runSql(sql, options = {}) {
  const all = await runSqlAll(sql, options);
  return all.at(-1) ?? [];
}

/**
 * `wrangler d1 migrations apply DB --local|--remote [--persist-to DIR]`. It
 * asks for confirmation only on a TTY; stdin is closed here, so wrangler takes
 * its non-interactive default ("yes") and never waits. Returns wrangler's output.
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<string>}
 */
export async function applyMigrations(options = {}) {
  const result = await runWrangler(["d1", "migrations", "apply", D1_BINDING, ...targetArgs(options)]);
  if (result.code !== 0) throw wranglerFailure("wrangler d1 migrations apply", result);
  return `${result.stdout}${result.stderr}`;
}

// ---------------------------------------------------------------------------
// Validation

const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

function requireText(value, label, max) {
  const text = typeof value === "string" ? value.trim() : "";
  if (!text) throw new UsageError(`${label} must not be empty.`);
  if (text.length > max) throw new UsageError(`${label} must be at most ${max} characters.`);
  if (CONTROL_CHARS.test(text)) throw new UsageError(`${label} must not contain control characters.`);
  return text;
}

/** @param {unknown} slug */
export function normalizeSlug(slug) {
  const text = typeof slug === "string" ? slug.trim() : "";
  if (!SLUG_PATTERN.test(text)) {
    throw new UsageError(`Invalid org slug ${JSON.stringify(slug)}: use 1–40 lower-case letters, digits and inner hyphens (e.g. "acme-research").`);
  }
  return text;
}

/** Trimmed and lower-cased, as stored. @param {unknown} email */
export function normalizeEmail(email) {
  const text = typeof email === "string" ? email.trim().toLowerCase() : "";
  if (text.length > 254 || !EMAIL_PATTERN.test(text)) throw new UsageError(`Invalid e-mail address ${JSON.stringify(email)}.`);
  return text;
}

/** @param {unknown} role */
export function normalizeRole(role) {
  if (!ROLES.includes(role)) throw new UsageError(`Invalid role ${JSON.stringify(role)}: use one of ${ROLES.join(", ")}.`);
  return role;
}

/**
 * Accepts an array or a comma/space separated string; returns the known scopes,
 * de-duplicated, in canonical order. Unknown scopes throw.
 * @param {string | string[] | undefined} scopes
 */
export function normalizeScopes(scopes) {
  if (scopes === undefined || scopes === null) return [...DEFAULT_SCOPES];
  const list = (Array.isArray(scopes) ? scopes : String(scopes).split(/[\s,]+/)).map((s) => String(s).trim()).filter(Boolean);
  if (list.length === 0) throw new UsageError(`No scopes given; choose from ${SCOPES.join(", ")}.`);
  const unknown = list.filter((s) => !SCOPES.includes(s));
  if (unknown.length > 0) throw new UsageError(`Unknown scope(s) ${unknown.join(", ")}; choose from ${SCOPES.join(", ")}.`);
  return SCOPES.filter((s) => list.includes(s));
}

function checkPassword(password) {
  if (typeof password !== "string" || password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new UsageError(`Passwords must be ${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} characters long.`);
  }
  return password;
}

const PASSWORD_ALPHABET = "23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";

/** A strong random password: four groups of six unambiguous characters (≈ 137 bits). */
export function generatePassword() {
  const groups = [];
  for (let g = 0; g < 4; g++) {
    let group = "";
    for (let i = 0; i < 6; i++) group += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join("-");
}

const parseScopes = (text) => {
  try {
    const value = JSON.parse(String(text));
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
};

/**
 * The database target of an action: `{ remote, persistTo, config }` may be given
 * as the second argument or inside the first (`createOrg({ slug, name, persistTo })`).
 */
function targetOf(input, options) {
  const pick = ({ remote, persistTo, config } = {}) => Object.fromEntries(Object.entries({ remote, persistTo, config }).filter(([, v]) => v !== undefined));
  return { ...pick(input ?? {}), ...pick(options ?? {}) };
}

function notFoundOrg(slug) {
  return new OperatorError(`No org with slug "${slug}". List orgs with \`npm run cairn -- org list\`.`, { code: "not_found" });
}

// ---------------------------------------------------------------------------
// Operator actions. Each takes `{ remote, persistTo }` (plus `config`, a
// wrangler.toml path, for tests) and is safe to repeat.

/**
 * Creates an org, or returns the existing one with that slug (its name is left as it is).
 * @param {{ slug: string, name: string }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<{ id: string, slug: string, name: string, createdAt: number, created: boolean }>}
 */
export async function createOrg(input, options = {}) {
  const { slug, name } = input ?? {};
  const target = targetOf(input, options);
  const s = normalizeSlug(slug);
  const n = requireText(name, "Org name", 100);
  const id = newId("org");
  const now = Date.now();
  const [row] = await runSql(
    `INSERT INTO orgs (id, slug, name, created_at) VALUES (${sqlString(id)}, ${sqlString(s)}, ${sqlString(n)}, ${sqlInt(now)})
       ON CONFLICT(slug) DO NOTHING;
     SELECT id, slug, name, created_at FROM orgs WHERE slug = ${sqlString(s)}`,
    target,
  );
  if (!row) throw new OperatorError(`Creating org "${s}" failed: the row is missing afterwards.`);
  return { id: String(row.id), slug: String(row.slug), name: String(row.name), createdAt: Number(row.created_at), created: row.id === id };
}

/**
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<Array<{ id: string, slug: string, name: string, createdAt: number, members: number, admins: number, activeKeys: number }>>}
 */
export async function listOrgs(options = {}) {
  const rows = await runSql(
    `SELECT o.id, o.slug, o.name, o.created_at,
            (SELECT COUNT(*) FROM memberships m WHERE m.org_id = o.id) AS members,
            (SELECT COUNT(*) FROM memberships m WHERE m.org_id = o.id AND m.role = 'admin') AS admins,
            (SELECT COUNT(*) FROM api_keys k WHERE k.org_id = o.id AND k.revoked_at IS NULL) AS active_keys
       FROM orgs o ORDER BY o.slug`,
    options,
  );
  return rows.map((r) => ({
    id: String(r.id),
    slug: String(r.slug),
    name: String(r.name),
    createdAt: Number(r.created_at),
    members: Number(r.members),
    admins: Number(r.admins),
    activeKeys: Number(r.active_keys),
  }));
}

/**
 * Adds a user to an org (creating the user if the e-mail is new) with the given
 * role, or changes the role of an existing membership.
 *
 * Passwords: a new user gets `password`, or a generated one (returned in
 * `password`). An existing user's password is changed only with
 * `resetPassword: true` (to `password`, or a generated one); otherwise a
 * differing `password` is ignored and `passwordIgnored` is true.
 *
 * @param {{ org: string, email: string, name?: string, role: "member" | "admin", password?: string, resetPassword?: boolean }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<{ userId: string, email: string, displayName: string, orgId: string, orgSlug: string, role: string,
 *   previousRole: string | null, userCreated: boolean, password: string | null, passwordGenerated: boolean,
 *   passwordChanged: boolean, passwordIgnored: boolean }>}
 */
export async function addUser(input, options = {}) {
  const { org, email, name, role, password, resetPassword = false } = input ?? {};
  const target = targetOf(input, options);
  const slug = normalizeSlug(org);
  const mail = normalizeEmail(email);
  const r = normalizeRole(role);
  const displayName = name === undefined || name === null ? undefined : requireText(name, "Name", 100);
  if (password !== undefined && password !== null) checkPassword(password);

  const [orgRows, userRows, roleRows] = await runSqlAll(
    `SELECT id FROM orgs WHERE slug = ${sqlString(slug)};
     SELECT id, email, display_name, password_hash FROM users WHERE email = ${sqlString(mail)};
     SELECT m.role FROM memberships m JOIN orgs o ON o.id = m.org_id JOIN users u ON u.id = m.user_id
      WHERE o.slug = ${sqlString(slug)} AND u.email = ${sqlString(mail)}`,
    target,
  );
  const orgRow = orgRows?.[0];
  if (!orgRow) throw notFoundOrg(slug);
  const existing = userRows?.[0];
  const previousRole = roleRows?.[0] ? String(roleRows[0].role) : null;

  let newPassword = null;
  let passwordGenerated = false;
  let passwordIgnored = false;
  if (!existing) {
    if (displayName === undefined) throw new UsageError(`${mail} is a new user: a name is required (--name).`);
    newPassword = password ?? generatePassword();
    passwordGenerated = password === undefined || password === null;
  } else if (resetPassword) {
    newPassword = password ?? generatePassword();
    passwordGenerated = password === undefined || password === null;
  } else if (password !== undefined && password !== null) {
    passwordIgnored = !(await verifyPassword(password, String(existing.password_hash)));
  }

  const now = Date.now();
  const userId = existing ? String(existing.id) : newId("user");
  const statements = [];
  if (!existing) {
    statements.push(
      `INSERT INTO users (id, email, display_name, password_hash, created_at)
       VALUES (${sqlString(userId)}, ${sqlString(mail)}, ${sqlString(displayName)}, ${sqlString(await hashPassword(newPassword))}, ${sqlInt(now)})`,
    );
  } else if (newPassword !== null) {
    statements.push(`UPDATE users SET password_hash = ${sqlString(await hashPassword(newPassword))} WHERE id = ${sqlString(userId)}`);
  }
  statements.push(
    `INSERT INTO memberships (org_id, user_id, role, created_at)
     VALUES (${sqlString(orgRow.id)}, ${sqlString(userId)}, ${sqlString(r)}, ${sqlInt(now)})
     ON CONFLICT(org_id, user_id) DO UPDATE SET role = excluded.role`,
    `SELECT u.id, u.email, u.display_name, m.role FROM users u JOIN memberships m ON m.user_id = u.id
      WHERE u.id = ${sqlString(userId)} AND m.org_id = ${sqlString(orgRow.id)}`,
  );
  const [row] = await runSql(statements.join(";\n"), target);
  if (!row) throw new OperatorError(`Adding ${mail} to "${slug}" failed: the membership is missing afterwards.`);
  return {
    userId,
    email: String(row.email),
    displayName: String(row.display_name),
    orgId: String(orgRow.id),
    orgSlug: slug,
    role: String(row.role),
    previousRole,
    userCreated: !existing,
    password: passwordGenerated ? newPassword : null,
    passwordGenerated,
    passwordChanged: Boolean(existing) && newPassword !== null,
    passwordIgnored,
  };
}

/**
 * Members of an org.
 * @param {{ org: string }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<Array<{ id: string, email: string, displayName: string, role: string, joinedAt: number }>>}
 */
export async function listUsers(input, options = {}) {
  const { org } = input ?? {};
  const target = targetOf(input, options);
  const slug = normalizeSlug(org);
  const [orgRows, rows] = await runSqlAll(
    `SELECT id FROM orgs WHERE slug = ${sqlString(slug)};
     SELECT u.id, u.email, u.display_name, m.role, m.created_at FROM memberships m
       JOIN users u ON u.id = m.user_id JOIN orgs o ON o.id = m.org_id
      WHERE o.slug = ${sqlString(slug)} ORDER BY u.email`,
    target,
  );
  if (!orgRows?.[0]) throw notFoundOrg(slug);
  return (rows ?? []).map((r) => ({ id: String(r.id), email: String(r.email), displayName: String(r.display_name), role: String(r.role), joinedAt: Number(r.created_at) }));
}

/**
 * Creates an API key acting as `userEmail` in `org`. The key itself is only in
 * the return value (the database keeps its SHA-256). `org:admin` needs an admin.
 * An active key with the same name in the org is refused, so a retried command
 * does not leave a second live key behind.
 * @param {{ org: string, userEmail: string, name: string, scopes?: string | string[] }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<{ id: string, key: string, prefix: string, name: string, scopes: string[], orgSlug: string, userEmail: string, createdAt: number }>}
 */
export async function createApiKey(input, options = {}) {
  const { org, userEmail, name, scopes } = input ?? {};
  const target = targetOf(input, options);
  const slug = normalizeSlug(org);
  const mail = normalizeEmail(userEmail);
  const keyName = requireText(name, "Key name", 100);
  const wanted = normalizeScopes(scopes);

  const [orgRows, userRows, sameName] = await runSqlAll(
    `SELECT id FROM orgs WHERE slug = ${sqlString(slug)};
     SELECT u.id, m.role FROM users u
       LEFT JOIN memberships m ON m.user_id = u.id AND m.org_id = (SELECT id FROM orgs WHERE slug = ${sqlString(slug)})
      WHERE u.email = ${sqlString(mail)};
     SELECT k.id FROM api_keys k JOIN orgs o ON o.id = k.org_id
      WHERE o.slug = ${sqlString(slug)} AND k.name = ${sqlString(keyName)} AND k.revoked_at IS NULL`,
    target,
  );
  const orgRow = orgRows?.[0];
  if (!orgRow) throw notFoundOrg(slug);
  const user = userRows?.[0];
  if (!user) throw new OperatorError(`No user with e-mail ${mail}. Add one with \`npm run cairn -- user add\`.`, { code: "not_found" });
  if (!user.role) throw new OperatorError(`${mail} is not a member of "${slug}".`, { code: "forbidden" });
  if (wanted.includes("org:admin") && user.role !== "admin") {
    throw new OperatorError(`Refused: the org:admin scope needs an admin of "${slug}", and ${mail} is a ${user.role}.`, { code: "forbidden" });
  }
  if (sameName?.[0]) {
    throw new OperatorError(`"${slug}" already has an active key named "${keyName}" (${sameName[0].id}). Revoke it first or choose another name.`, {
      code: "conflict",
    });
  }

  const { key, prefix, hash } = await generateApiKey();
  const id = newId("key");
  const now = Date.now();
  const [row] = await runSql(
    `INSERT INTO api_keys (id, org_id, user_id, name, prefix, key_hash, scopes, created_at, last_used_at, revoked_at)
     VALUES (${sqlString(id)}, ${sqlString(orgRow.id)}, ${sqlString(user.id)}, ${sqlString(keyName)}, ${sqlString(prefix)},
             ${sqlString(hash)}, ${sqlString(JSON.stringify(wanted))}, ${sqlInt(now)}, NULL, NULL);
     SELECT id FROM api_keys WHERE id = ${sqlString(id)}`,
    target,
  );
  if (!row) throw new OperatorError("Creating the key failed: the row is missing afterwards.");
  return { id, key, prefix, name: keyName, scopes: wanted, orgSlug: slug, userEmail: mail, createdAt: now };
}

/**
 * Keys of an org, oldest first, without their hashes.
 * @param {{ org: string }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<Array<{ id: string, name: string, prefix: string, scopes: string[], userEmail: string, createdAt: number, lastUsedAt: number | null, revokedAt: number | null }>>}
 */
export async function listApiKeys(input, options = {}) {
  const { org } = input ?? {};
  const target = targetOf(input, options);
  const slug = normalizeSlug(org);
  const [orgRows, rows] = await runSqlAll(
    `SELECT id FROM orgs WHERE slug = ${sqlString(slug)};
     SELECT k.id, k.name, k.prefix, k.scopes, u.email, k.created_at, k.last_used_at, k.revoked_at
       FROM api_keys k JOIN orgs o ON o.id = k.org_id JOIN users u ON u.id = k.user_id
      WHERE o.slug = ${sqlString(slug)} ORDER BY k.created_at, k.id`,
    target,
  );
  if (!orgRows?.[0]) throw notFoundOrg(slug);
  const num = (v) => (v === null || v === undefined ? null : Number(v));
  return (rows ?? []).map((r) => ({
    id: String(r.id),
    name: String(r.name),
    prefix: String(r.prefix),
    scopes: parseScopes(r.scopes),
    userEmail: String(r.email),
    createdAt: Number(r.created_at),
    lastUsedAt: num(r.last_used_at),
    revokedAt: num(r.revoked_at),
  }));
}

/**
 * Revokes a key of an org. Revoking a revoked key changes nothing (`alreadyRevoked`).
 * @param {{ org: string, id: string }} input
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<{ id: string, name: string, prefix: string, revokedAt: number, alreadyRevoked: boolean }>}
 */
export async function revokeApiKey(input, options = {}) {
  const { org, id } = input ?? {};
  const target = targetOf(input, options);
  const slug = normalizeSlug(org);
  const keyId = requireText(id, "Key id", 100);
  const now = Date.now();
  const [orgRows, , rows] = await runSqlAll(
    `SELECT id FROM orgs WHERE slug = ${sqlString(slug)};
     UPDATE api_keys SET revoked_at = ${sqlInt(now)}
      WHERE id = ${sqlString(keyId)} AND revoked_at IS NULL AND org_id = (SELECT id FROM orgs WHERE slug = ${sqlString(slug)});
     SELECT k.id, k.name, k.prefix, k.revoked_at FROM api_keys k JOIN orgs o ON o.id = k.org_id
      WHERE k.id = ${sqlString(keyId)} AND o.slug = ${sqlString(slug)}`,
    target,
  );
  if (!orgRows?.[0]) throw notFoundOrg(slug);
  const row = rows?.[0];
  if (!row) throw new OperatorError(`No key with id "${keyId}" in org "${slug}". List them with \`npm run cairn -- key list --org ${slug}\`.`, { code: "not_found" });
  const revokedAt = Number(row.revoked_at);
  return { id: String(row.id), name: String(row.name), prefix: String(row.prefix), revokedAt, alreadyRevoked: revokedAt !== now };
}

// ---------------------------------------------------------------------------
// Development seed

const DEMO = Object.freeze({ orgSlug: "demo", orgName: "Demo Org", email: "demo@cairn.local", displayName: "Demo Admin", keyName: "demo" });

function readDemoState(file) {
  try {
    const state = JSON.parse(readFileSync(file, "utf8"));
    if (typeof state?.password === "string" && state.password.length >= PASSWORD_MIN_LENGTH && looksLikeApiKey(String(state.apiKey))) return state;
  } catch {
    // missing or unreadable: start afresh
  }
  return null;
}

function writeDemoState(file, state) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

/**
 * Development only (never remote): makes sure the local database has org
 * `demo` ("Demo Org"), its admin `demo@cairn.local`, and an active API key
 * "demo" with all scopes. The password and key are kept in `stateFile`
 * (default `.wrangler/cairn-demo.json`) and re-used on later runs; the
 * database is brought in line with that file (user re-created or password
 * reset, key hash re-inserted). A key revoked in the app is replaced by a new one.
 * @param {{ persistTo?: string, stateFile?: string, config?: string, remote?: boolean }} [options]
 * @returns {Promise<{ email: string, password: string, apiKey: string, orgSlug: string, changed: string[] }>}
 */
export async function seedDemo({ persistTo, stateFile = DEFAULT_DEMO_STATE_FILE, config, remote } = {}) {
  if (remote) throw new UsageError("seedDemo is for local development only; it never touches a remote database.");
  const options = { persistTo, config };
  const state = readDemoState(stateFile) ?? { email: DEMO.email, password: generatePassword(), apiKey: (await generateApiKey()).key, orgSlug: DEMO.orgSlug };
  state.email = DEMO.email;
  state.orgSlug = DEMO.orgSlug;
  let keyHash = await hashApiKey(state.apiKey);

  const [orgRows, userRows, roleRows, keyRows] = await runSqlAll(
    `SELECT id FROM orgs WHERE slug = ${sqlString(DEMO.orgSlug)};
     SELECT id, password_hash FROM users WHERE email = ${sqlString(DEMO.email)};
     SELECT m.role FROM memberships m JOIN orgs o ON o.id = m.org_id JOIN users u ON u.id = m.user_id
      WHERE o.slug = ${sqlString(DEMO.orgSlug)} AND u.email = ${sqlString(DEMO.email)};
     SELECT id, revoked_at FROM api_keys WHERE key_hash = ${sqlString(keyHash)}`,
    options,
  );
  const changed = [];
  const now = Date.now();
  const statements = [];
  const orgId = `(SELECT id FROM orgs WHERE slug = ${sqlString(DEMO.orgSlug)})`;
  const userId = `(SELECT id FROM users WHERE email = ${sqlString(DEMO.email)})`;

  if (!orgRows?.[0]) {
    changed.push("org");
    statements.push(
      `INSERT INTO orgs (id, slug, name, created_at) VALUES (${sqlString(newId("org"))}, ${sqlString(DEMO.orgSlug)}, ${sqlString(DEMO.orgName)}, ${sqlInt(now)})
       ON CONFLICT(slug) DO NOTHING`,
    );
  }
  const user = userRows?.[0];
  if (!user) {
    changed.push("user");
    statements.push(
      `INSERT INTO users (id, email, display_name, password_hash, created_at)
       VALUES (${sqlString(newId("user"))}, ${sqlString(DEMO.email)}, ${sqlString(DEMO.displayName)}, ${sqlString(await hashPassword(state.password))}, ${sqlInt(now)})
       ON CONFLICT(email) DO NOTHING`,
    );
  } else if (!(await verifyPassword(state.password, String(user.password_hash)))) {
    changed.push("password");
    statements.push(`UPDATE users SET password_hash = ${sqlString(await hashPassword(state.password))} WHERE email = ${sqlString(DEMO.email)}`);
  }
  if (roleRows?.[0]?.role !== "admin") {
    changed.push("membership");
    statements.push(
      `INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (${orgId}, ${userId}, 'admin', ${sqlInt(now)})
       ON CONFLICT(org_id, user_id) DO UPDATE SET role = 'admin'`,
    );
  }
  const key = keyRows?.[0];
  if (!key || key.revoked_at !== null) {
    let prefix = state.apiKey.slice(0, API_KEY_PREFIX.length + 6); // as generateApiKey() does
    if (key) {
      // Revoked in the app: respect that and issue a fresh key.
      const fresh = await generateApiKey();
      state.apiKey = fresh.key;
      keyHash = fresh.hash;
      prefix = fresh.prefix;
    }
    changed.push("apiKey");
    statements.push(
      `INSERT INTO api_keys (id, org_id, user_id, name, prefix, key_hash, scopes, created_at, last_used_at, revoked_at)
       VALUES (${sqlString(newId("key"))}, ${orgId}, ${userId}, ${sqlString(DEMO.keyName)}, ${sqlString(prefix)}, ${sqlString(keyHash)},
               ${sqlString(JSON.stringify(SCOPES))}, ${sqlInt(now)}, NULL, NULL)
       ON CONFLICT(key_hash) DO NOTHING`,
      // Exactly one live "demo" key: any other (its secret lost with an old state file) is revoked.
      `UPDATE api_keys SET revoked_at = ${sqlInt(now)}
        WHERE org_id = ${orgId} AND name = ${sqlString(DEMO.keyName)} AND revoked_at IS NULL AND key_hash <> ${sqlString(keyHash)}`,
    );
  }
  // The file first: if the database write fails, the next run retries with the same secrets.
  writeDemoState(stateFile, state);
  if (statements.length > 0) await runSqlAll(statements.join(";\n"), options);
  return { email: state.email, password: state.password, apiKey: state.apiKey, orgSlug: state.orgSlug, changed };
}

// ---------------------------------------------------------------------------
// wrangler dev

/** A TCP port free on 127.0.0.1 right now. */
export function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

const liveGroups = new Set();
let exitHookInstalled = false;
function trackGroup(pid) {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Never leave a wrangler/workerd tree behind if the parent exits without stop().
    process.on("exit", () => {
      for (const group of liveGroups) {
        try {
          process.kill(-group, "SIGKILL");
        } catch {
          // already gone
        }
      }
    });
  }
}

/**
 * Starts `wrangler dev` on 127.0.0.1:`port` with `PUBLIC_URL=http://localhost:PORT`,
 * waits until `GET /health` answers 200, and returns a handle.
 *
 * Background mode (default): own process group, output collected (and
 * appended to `logFile` if given); `stop()` ends the whole group.
 * Foreground mode (`foreground: true`, for `npm start`): stdio inherited and
 * the same process group, so Ctrl-C reaches wrangler directly.
 *
 * @param {{ port?: number, persistTo?: string, vars?: Record<string, string>, inspectorPort?: number, logFile?: string,
 *   config?: string, timeoutMs?: number, foreground?: boolean, extraArgs?: string[] }} [options]
 * @returns {Promise<{ url: string, port: number, child: import("node:child_process").ChildProcess, log: () => string,
 *   exited: Promise<{ code: number | null, signal: string | null }>, stop: () => Promise<void> }>}
 */
export async function startDevServer({ port, persistTo, vars = {}, inspectorPort, logFile, config, timeoutMs = 60_000, foreground = false, extraArgs = [] } = {}) {
  const listenPort = port ?? (await findFreePort());
  const devtoolsPort = inspectorPort ?? (await findFreePort());
  const url = `http://localhost:${listenPort}`;
  const args = [wranglerJs, "dev", "--port", String(listenPort), "--ip", "127.0.0.1", "--inspector-port", String(devtoolsPort)];
  args.push("--show-interactive-dev-session=false");
  if (config) args.push("--config", path.resolve(config));
  if (persistTo) args.push("--persist-to", path.resolve(persistTo));
  for (const [name, value] of Object.entries({ PUBLIC_URL: url, ...vars })) args.push("--var", `${name}:${value}`);
  args.push(...extraArgs);

  const child = spawn(nodeBinary(), args, {
    cwd: projectRoot,
    env: wranglerEnv(foreground ? {} : NO_COLOR_ENV),
    stdio: foreground ? "inherit" : ["ignore", "pipe", "pipe"],
    detached: !foreground,
  });
  let output = "";
  const MAX_LOG = 2_000_000;
  if (!foreground) {
    trackGroup(child.pid);
    const file = logFile ? createWriteStream(path.resolve(logFile), { flags: "a" }) : null;
    const collect = (text) => {
      const chunk = stripVTControlCharacters(text);
      output += chunk;
      if (output.length > MAX_LOG) output = output.slice(-MAX_LOG / 2);
      file?.write(chunk);
    };
    child.stdout.setEncoding("utf8").on("data", collect);
    child.stderr.setEncoding("utf8").on("data", collect);
    child.on("close", () => file?.end());
  }
  let exitInfo = null;
  const exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      exitInfo = { code, signal };
      liveGroups.delete(child.pid);
      resolve(exitInfo);
    });
  });
  child.on("error", (error) => {
    output += `\n[spawn error] ${error.message}\n`;
  });

  const stop = async () => {
    if (!exitInfo) {
      const signalTree = (signal) => {
        try {
          if (foreground) child.kill(signal);
          else process.kill(-child.pid, signal);
        } catch {
          // already gone
        }
      };
      signalTree("SIGTERM");
      const timer = setTimeout(() => signalTree("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (!foreground) {
      try {
        process.kill(-child.pid, "SIGKILL"); // stragglers (workerd) in the group, if any
      } catch {
        // none left
      }
    }
  };

  const deadline = Date.now() + timeoutMs;
  const describe = () => (foreground ? "(see wrangler's output above)" : `wrangler output:\n${output}`);
  for (;;) {
    if (exitInfo) {
      throw new OperatorError(`wrangler dev exited early (code ${exitInfo.code ?? exitInfo.signal}) ${describe()}`, { code: "dev_server", output });
    }
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new OperatorError(`wrangler dev did not answer GET ${url}/health with 200 within ${timeoutMs / 1000} s ${describe()}`, { code: "dev_server", output });
    }
    await sleep(250);
  }
  return { url, port: listenPort, child, log: () => output, exited, stop };
}
