/**
 * wrangler for the operator tooling: the process, its environment (offline and
 * quiet), and SQL through `wrangler d1 execute` (`--local`, optionally
 * `--persist-to DIR`, by default; `--remote` on request). Shared by the
 * operator CLI, `npm start`, the deploy and the end-to-end tests through
 * `local.mjs`.
 *
 * Needs Node ≥ 22.18 (wrangler needs 22; the `.ts` imports of the sibling
 * modules need native type stripping). `npm run …` / `npx …` put
 * `node_modules/.bin/node` (22.23.3) and the project's wrangler first on PATH.
 *
 * SQL is built as text because wrangler's `--command` takes no bind
 * parameters: every value goes through `sqlString` / `sqlInt`, never raw.
 */
import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { isBindingName } from "../../src/domain/org-data/placement.ts";
import { d1BindingsOf } from "./d1-bindings.mjs";
import { wranglerCommand } from "./wrangler-command.mjs";

/** Absolute path of the project (the directory holding wrangler.toml). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The D1 binding in wrangler.toml; `d1 execute` / `migrations apply` accept the binding name. */
export const D1_BINDING = "DB";

/** Offline / quiet settings for every wrangler child process. */
export const OFFLINE_ENV = Object.freeze({
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  X_LOCAL_OBSERVABILITY: "false",
});

/** For output that is captured rather than shown on a terminal. */
export const NO_COLOR_ENV = Object.freeze({ FORCE_COLOR: "0", NO_COLOR: "1" });

const binDir = path.join(projectRoot, "node_modules", ".bin");
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
    const { command, prefix } = wranglerCommand();
    const child = spawn(command, [...prefix, ...args], { cwd, env: wranglerEnv({ ...NO_COLOR_ENV, ...env }), stdio: ["ignore", "pipe", "pipe"] });
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
 * message on failure. `database` names another D1 binding than the directory's.
 * @param {string} sql
 * @param {{ remote?: boolean, persistTo?: string, config?: string, database?: string }} [options]
 * @returns {Promise<Array<Array<Record<string, unknown>>>>}
 */
export async function runSqlAll(sql, options = {}) {
  const database = options.database ?? D1_BINDING;
  if (!isBindingName(database)) throw new UsageError(`"${database}" is not a D1 binding name.`);
  const args = ["d1", "execute", database, ...targetArgs(options), "--json", "--yes"];
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
 * @param {{ remote?: boolean, persistTo?: string, config?: string, database?: string }} [options]
 * @returns {Promise<Array<Record<string, unknown>>>}
 */
export async function runSql(sql, options = {}) {
  const all = await runSqlAll(sql, options);
  return all.at(-1) ?? [];
}

/**
 * `wrangler d1 migrations apply BINDING --local|--remote [--persist-to DIR]`
 * for every D1 database the configuration declares (`DB` first, then each
 * research database: they all have the same tables). It asks for
 * confirmation only on a TTY; stdin is closed here, so wrangler takes its
 * non-interactive default ("yes") and never waits. A failure stops at that
 * database, naming it; those before it stay migrated (migrations are forward-only).
 * @param {{ remote?: boolean, persistTo?: string, config?: string }} [options]
 * @returns {Promise<{ output: string, databases: Array<{ binding: string, output: string, upToDate: boolean }> }>}
 */
export async function applyMigrations(options = {}) {
  const databases = [];
  for (const binding of configuredDatabases(options.config)) {
    const result = await runWrangler(["d1", "migrations", "apply", binding, ...targetArgs(options)]);
    if (result.code !== 0) throw wranglerFailure(`wrangler d1 migrations apply ${binding}`, result);
    const output = `${result.stdout}${result.stderr}`;
    databases.push({ binding, output, upToDate: /No migrations to apply/.test(output) });
  }
  const output = databases.length === 1 ? (databases[0]?.output ?? "") : databases.map((db) => `${db.binding}:\n${db.output.trimEnd()}\n`).join("\n");
  return { output, databases };
}

/** The D1 bindings of a wrangler configuration (default: the project's wrangler.toml); `DB` when it declares none. */
export function configuredDatabases(config) {
  const file = config ? path.resolve(config) : path.join(projectRoot, "wrangler.toml");
  if (!existsSync(file)) throw new OperatorError(`The configuration ${file} does not exist.`);
  const bindings = d1BindingsOf(readFileSync(file, "utf8"));
  return bindings.length > 0 ? bindings : [D1_BINDING];
}
