/**
 * Local development: the demo org, admin and API key `npm start` seeds, and
 * `wrangler dev` as a child process (started, health-checked, stopped with its
 * whole process group).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { API_KEY_PREFIX, generateApiKey, hashApiKey, looksLikeApiKey } from "../../src/auth/api-keys.ts";
import { hashPassword, PASSWORD_MIN_LENGTH, verifyPassword } from "../../src/auth/password.ts";
import { newId } from "../../src/domain/ids.ts";
import { localBrowserEnv } from "./local-browser.mjs";
import { generatePassword } from "./operators.mjs";
import { NO_COLOR_ENV, nodeBinary, OperatorError, projectRoot, runSqlAll, sleep, sqlInt, sqlString, UsageError, wranglerEnv } from "./wrangler.mjs";

/** Where local development keeps its webhook secret key (under the gitignored .wrangler/), made on first start. */
export const DEV_WEBHOOK_KEYS_FILE = path.join(projectRoot, ".wrangler", "cairn-dev-webhook-keys");

/**
 * The WEBHOOK_SECRET_KEYS of local development, as a `--var` for wrangler dev: the environment's if set, none
 * when .dev.vars sets it (wrangler reads that itself), else a key generated once into DEV_WEBHOOK_KEYS_FILE and
 * reused, so subscriptions made in one run still sign in the next. Never a deployment's key.
 */
export function devWebhookSecretKeys({ file = DEV_WEBHOOK_KEYS_FILE, devVars = path.join(projectRoot, ".dev.vars"), environment = process.env } = {}) {
  if (environment.WEBHOOK_SECRET_KEYS) return { WEBHOOK_SECRET_KEYS: environment.WEBHOOK_SECRET_KEYS };
  if (existsSync(devVars) && /^\s*WEBHOOK_SECRET_KEYS\s*=/m.test(readFileSync(devVars, "utf8"))) return {};
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `dev1:${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
  }
  return { WEBHOOK_SECRET_KEYS: readFileSync(file, "utf8").trim() };
}

/** Where `seedDemo` keeps the demo password and key (under the gitignored .wrangler/). */
export const DEFAULT_DEMO_STATE_FILE = path.join(projectRoot, ".wrangler", "cairn-demo.json");
const wranglerJs = path.join(projectRoot, "node_modules", "wrangler", "bin", "wrangler.js");

// ---------------------------------------------------------------------------
// Development seed

const DEMO = Object.freeze({ orgSlug: "demo", orgName: "Demo Org", email: "demo@cairn.local", displayName: "Demo Admin", keyName: "demo" });

/**
 * The demo key's scopes, exactly as the banner prints them. The key is the assistant's (Claude Code, the Inspector):
 * never the person scope plans:approve, so it cannot approve a plan or take any other person-level action; the person
 * does those in the dashboard with the demo sign-in.
 */
export const DEMO_KEY_SCOPES = Object.freeze(["research:read", "research:write", "org:admin"]);

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
 * "demo" with DEMO_KEY_SCOPES (an older key holding more is brought back to them). The password and key are kept in `stateFile`
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
     SELECT id, revoked_at, scopes FROM api_keys WHERE key_hash = ${sqlString(keyHash)}`,
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
               ${sqlString(JSON.stringify(DEMO_KEY_SCOPES))}, ${sqlInt(now)}, NULL, NULL)
       ON CONFLICT(key_hash) DO NOTHING`,
      // Exactly one live "demo" key: any other (its secret lost with an old state file) is revoked.
      `UPDATE api_keys SET revoked_at = ${sqlInt(now)}
        WHERE org_id = ${orgId} AND name = ${sqlString(DEMO.keyName)} AND revoked_at IS NULL AND key_hash <> ${sqlString(keyHash)}`,
    );
  } else if (key.scopes !== JSON.stringify(DEMO_KEY_SCOPES)) {
    // A key made by an earlier version held every scope, plans:approve included: it keeps only the banner's.
    changed.push("apiKey scopes");
    statements.push(`UPDATE api_keys SET scopes = ${sqlString(JSON.stringify(DEMO_KEY_SCOPES))} WHERE key_hash = ${sqlString(keyHash)}`);
  }
  // The file first: if the database write fails, the next run retries with the same secrets.
  writeDemoState(stateFile, state);
  if (statements.length > 0) await runSqlAll(statements.join(";\n"), options);
  return { email: state.email, password: state.password, apiKey: state.apiKey, orgSlug: state.orgSlug, changed };
}

// ---------------------------------------------------------------------------
// wrangler dev

/**
 * Where a running `wrangler dev` (npm start, the end-to-end suite's server) says it is serving a local state: a
 * file in that state's directory (wrangler's default, .wrangler/state, or --persist-to). The operator CLI reads it
 * and calls that server instead of starting a second `wrangler dev` on the same files (slow, and two runtimes
 * writing one SQLite database now and then answer SQLITE_BUSY).
 * @param {string | undefined} persistTo
 */
export function runningServerFile(persistTo) {
  return path.join(path.resolve(persistTo ?? path.join(projectRoot, ".wrangler", "state")), "cairn-dev-server.json");
}

const isAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error?.code === "EPERM";
  }
};

/**
 * The URL of the `wrangler dev` serving this local state right now, or null: its file names a loopback URL, a
 * live process and the same configuration, and GET /health answers 200 there within a few seconds.
 * @param {{ persistTo?: string, config?: string }} [target]
 * @returns {Promise<string | null>}
 */
export async function runningDevServer({ persistTo, config } = {}) {
  let record;
  try {
    record = JSON.parse(readFileSync(runningServerFile(persistTo), "utf8"));
  } catch {
    return null;
  }
  const url = typeof record?.url === "string" ? record.url : "";
  let host = "";
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  if (!["localhost", "127.0.0.1"].includes(host)) return null;
  if ((record.config ?? null) !== (config ? path.resolve(config) : null)) return null;
  if (!Number.isInteger(record.pid) || !isAlive(record.pid)) return null;
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status === 200 ? url : null;
  } catch {
    return null;
  }
}

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
 * Starts `wrangler dev` on localhost:`port` with `PUBLIC_URL=http://localhost:PORT`,
 * waits until `GET /health` answers 200, and returns a handle.
 *
 * Background mode (default): own process group, output collected (and
 * appended to `logFile` if given); `stop()` ends the whole group.
 * Foreground mode (`foreground: true`, for `npm start`): stdio inherited and
 * the same process group, so Ctrl-C reaches wrangler directly.
 *
 * `announce`: once it answers, say so in the state's directory (runningServerFile) until it stops, so the operator
 * CLI uses this server (npm start, the end-to-end suite's server; not the CLI's own short-lived one).
 *
 * @param {{ port?: number, persistTo?: string, vars?: Record<string, string>, inspectorPort?: number, logFile?: string,
 *   config?: string, timeoutMs?: number, foreground?: boolean, extraArgs?: string[], announce?: boolean }} [options]
 * @returns {Promise<{ url: string, port: number, child: import("node:child_process").ChildProcess, log: () => string,
 *   exited: Promise<{ code: number | null, signal: string | null }>, stop: () => Promise<void> }>}
 */
export async function startDevServer({ port, persistTo, vars = {}, inspectorPort, logFile, config, timeoutMs = 60_000, foreground = false, extraArgs = [], announce = false } = {}) {
  const listenPort = port ?? (await findFreePort());
  const devtoolsPort = inspectorPort ?? (await findFreePort());
  const url = `http://localhost:${listenPort}`;
  // Listening on "localhost", wrangler's own "Ready on" line names the same host as PUBLIC_URL, Cairn's banner and the
  // docs (OAuth tokens are bound to the host they were issued on: one name keeps a newcomer on it).
  const args = [wranglerJs, "dev", "--port", String(listenPort), "--ip", "localhost", "--inspector-port", String(devtoolsPort)];
  // --test-scheduled: local dev never fires the cron, so wrangler would warn about it on every start;
  // with this flag it doesn't, and GET /__scheduled runs the scheduled handler (the daily clean-up) by hand.
  args.push("--show-interactive-dev-session=false", "--test-scheduled");
  if (config) args.push("--config", path.resolve(config));
  if (persistTo) args.push("--persist-to", path.resolve(persistTo));
  for (const [name, value] of Object.entries({ PUBLIC_URL: url, ...devWebhookSecretKeys(), ...vars })) args.push("--var", `${name}:${value}`);
  args.push(...extraArgs);

  const child = spawn(nodeBinary(), args, {
    cwd: projectRoot,
    // No dev registry: Cairn binds to no other local Worker, and its own entry there (the webhook queue's
    // consumer) would make wrangler print the bindings table a second time ("Connection status updated").
    // It also keeps several `wrangler dev` of Cairn (npm start, the e2e suite) from competing for one entry.
    // The Browser Rendering binding (PDF downloads) starts this machine's Chromium (local-browser.mjs), never a download.
    env: wranglerEnv({ ...(foreground ? {} : NO_COLOR_ENV), WRANGLER_REGISTRY_PATH: "", ...(await localBrowserEnv()).env }),
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
  const record = runningServerFile(persistTo);
  let announced = false;
  const withdraw = () => {
    if (!announced) return;
    announced = false;
    try {
      // Only our own record: another server may have announced itself on this state meanwhile.
      if (JSON.parse(readFileSync(record, "utf8")).pid === child.pid) rmSync(record, { force: true });
    } catch {
      // gone already
    }
  };
  const exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      exitInfo = { code, signal };
      liveGroups.delete(child.pid);
      withdraw();
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
  if (announce && child.pid) {
    mkdirSync(path.dirname(record), { recursive: true });
    writeFileSync(record, `${JSON.stringify({ url, pid: child.pid, config: config ? path.resolve(config) : null })}\n`);
    announced = true;
    process.on("exit", withdraw);
  }
  return { url, port: listenPort, child, log: () => output, exited, stop };
}
