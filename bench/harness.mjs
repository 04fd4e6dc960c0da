/**
 * The runtime under test: Cairn's deployable bundle and a bare Hono Worker,
 * both in ONE Miniflare instance (so one workerd process), each with its own
 * direct socket. perf-baseline.md measured Miniflare's direct port at ~90 % of
 * a bare `workerd serve`, while Miniflare's entry socket and `wrangler dev`
 * put a proxy Worker in front that caps throughput — so the load goes to the
 * direct sockets only.
 *
 * Miniflare 5 takes a new option shape; the documented v4 shape (README:
 * `workers: [...]`, `modules`, `unsafeDirectSockets`, `d1Databases`, …) is
 * turned into it by `convertV4MiniflareOptions`, which the package exports for
 * exactly this.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { findFreePort } from "../scripts/lib/local.mjs";

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Offline, quiet wrangler (as in the notes §6). */
const WRANGLER_ENV = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_HIDE_BANNER: "true", NO_COLOR: "1" };

/** The project's resolved wrangler config (compatibility date/flags, vars, D1 migrations dir), read by wrangler itself. */
export async function readProjectConfig(root = projectRoot) {
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: path.join(root, "wrangler.toml") });
  const d1 = config.d1_databases.find((db) => db.binding === "DB");
  // Durable Object classes created by a `new_sqlite_classes` migration get SQLite storage, as in production.
  const sqliteClasses = new Set((config.migrations ?? []).flatMap((migration) => migration.new_sqlite_classes ?? []));
  const durableObjects = Object.fromEntries(
    (config.durable_objects?.bindings ?? [])
      .filter((binding) => !binding.script_name)
      .map((binding) => [binding.name, { className: binding.class_name, useSQLite: sqliteClasses.has(binding.class_name) }]),
  );
  // The Rate Limiting bindings as configured, except that the per-credential budget is lifted: the bench
  // drives one credential far past any production budget and measures the binding's cost, not its refusals.
  // BENCH_NO_API_LIMITER=1 leaves that binding out (Cairn then applies no per-credential limit), to measure without it.
  const ratelimits = Object.fromEntries(
    (config.ratelimits ?? []).filter((binding) => !(process.env.BENCH_NO_API_LIMITER && binding.name === "API_RATE_LIMITER")).map((binding) => [
      binding.name,
      { namespace_id: binding.namespace_id, simple: { ...binding.simple, ...(binding.name === "API_RATE_LIMITER" ? { limit: 1_000_000_000 } : {}) } },
    ]),
  );
  // The webhook queue and its dead-letter queue, produced to and consumed by the Worker as configured.
  const queueProducers = Object.fromEntries((config.queues?.producers ?? []).map((producer) => [producer.binding, { queueName: producer.queue }]));
  const queueConsumers = Object.fromEntries(
    (config.queues?.consumers ?? []).map((consumer) => [
      consumer.queue,
      {
        maxBatchSize: consumer.max_batch_size,
        maxBatchTimeout: consumer.max_batch_timeout,
        maxRetries: consumer.max_retries,
        deadLetterQueue: consumer.dead_letter_queue,
      },
    ]),
  );
  // R2 buckets (the source-check snapshots), simulated by Miniflare beside D1 and KV.
  const r2Buckets = Object.fromEntries((config.r2_buckets ?? []).map((bucket) => [bucket.binding, bucket.bucket_name]));
  return {
    compatibilityDate: config.compatibility_date,
    queueProducers,
    queueConsumers,
    r2Buckets,
    compatibilityFlags: config.compatibility_flags ?? [],
    vars: { ...config.vars },
    ratelimits,
    migrationsDir: path.resolve(root, d1?.migrations_dir ?? "migrations"),
    durableObjects,
  };
}

/**
 * `wrangler deploy --dry-run --outdir DIR`: the exact bundle a deployment would upload. Returns DIR/index.js.
 * `root` is the project (a scratch copy with instrumentation can be benched the same way).
 */
export function buildCairnBundle(outdir, root = projectRoot) {
  return new Promise((resolve, reject) => {
    const wrangler = path.join(projectRoot, "node_modules", "wrangler", "bin", "wrangler.js");
    const child = spawn(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", outdir], {
      cwd: root,
      env: { ...process.env, ...WRANGLER_ENV },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(path.join(outdir, "index.js"));
      else reject(new Error(`wrangler deploy --dry-run failed (exit ${code}):\n${output}`));
    });
  });
}

/**
 * A bench-only Worker bundled the way wrangler would bundle it: ESM, workerd
 * export conditions, the runtime's own `cloudflare:` and `node:` modules left
 * to workerd. `loader` adds text imports (the search Worker's SQL and Markdown).
 */
export async function bundleBenchWorker(entry, loader = {}) {
  const result = await build({
    entryPoints: [path.join(projectRoot, "bench", entry)],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:*", "node:*"],
    loader,
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

/** The bare Worker (row A). */
export const buildBareBundle = () => bundleBenchWorker("bare-worker.mjs");

/** Row T's Worker (bench/template-worker.mjs): the remote-MCP template pattern. */
export const buildTemplateBundle = () => bundleBenchWorker("template-worker.mjs");

/**
 * The modules of a `wrangler deploy --dry-run` bundle: `index.js` first, then the
 * extra modules wrangler wrote beside it for the project's `[[rules]]` (the plan
 * object's drizzle migrations are `.sql` imported as Text). Names are relative to
 * the bundle directory, exactly as the upload names them.
 */
export function bundleModules(cairnBundle) {
  const dir = path.dirname(cairnBundle);
  const typeOf = { ".sql": "Text", ".txt": "Text", ".md": "Text", ".html": "Text", ".wasm": "CompiledWasm", ".bin": "Data" };
  const extras = readdirSync(dir)
    .filter((name) => name !== path.basename(cairnBundle) && typeOf[path.extname(name)])
    .sort()
    .map((name) => ({ type: typeOf[path.extname(name)], path: path.join(dir, name) }));
  return [{ type: "ESModule", path: cairnBundle }, ...extras];
}

/**
 * Cairn as one Worker of a bench's Miniflare: the bundle's modules, the bindings of wrangler.toml (D1 `DB`, KV
 * `OAUTH_KV`, the Durable Objects, rate limits and, with `queues`, the queues and R2) with `PUBLIC_URL` and any
 * `bindings` the bench sets, served on a direct socket on `port` of 127.0.0.1.
 * @param {{ cairnBundle: string, config: Awaited<ReturnType<typeof readProjectConfig>>, port: number, publicUrl: string,
 *   bindings?: Record<string, string>, queues?: boolean }} options
 */
export function cairnWorker({ cairnBundle, config, port, publicUrl, bindings = {}, queues = true }) {
  return {
    name: "cairn",
    modules: bundleModules(cairnBundle),
    modulesRoot: path.dirname(cairnBundle),
    compatibilityDate: config.compatibilityDate,
    compatibilityFlags: config.compatibilityFlags,
    bindings: { ...config.vars, PUBLIC_URL: publicUrl, ...bindings },
    d1Databases: { DB: "cairn-bench" },
    kvNamespaces: { OAUTH_KV: "cairn-bench-oauth" },
    // One Durable Object per research plan (PLAN → PlanObject, SQLite-backed), persisted beside D1 and KV.
    durableObjects: config.durableObjects,
    ratelimits: config.ratelimits,
    ...(queues ? { queueProducers: config.queueProducers, queueConsumers: config.queueConsumers, r2Buckets: config.r2Buckets } : {}),
    unsafeDirectSockets: [{ host: "127.0.0.1", port }],
    unsafeRegisterWorker: false,
  };
}

/**
 * Starts both Workers. Cairn gets the bindings of wrangler.toml (D1 `DB`,
 * KV `OAUTH_KV`, the Durable Object namespace `PLAN`, its vars) with `PUBLIC_URL = http://localhost:PORT`: the OAuth
 * resource must equal the origin the load uses, host included.
 */
export async function startRuntime({ cairnBundle, bareCode, templateCode, config, persistDir }) {
  const [cairnPort, barePort, templatePort] = [await findFreePort(), await findFreePort(), await findFreePort()];
  const publicUrl = `http://localhost:${cairnPort}`;
  const options = convertV4MiniflareOptions({
    resourcePersistencePath: persistDir,
    logRequests: false, // the direct sockets bypass the entry Worker anyway
    cf: false, // placeholder `request.cf`, no network
    workers: [
      cairnWorker({ cairnBundle, config, port: cairnPort, publicUrl }),
      {
        name: "bare",
        modules: [{ type: "ESModule", path: path.join(projectRoot, "bench", "bare-worker.bundle.mjs"), contents: bareCode }],
        modulesRoot: path.join(projectRoot, "bench"),
        compatibilityDate: config.compatibilityDate,
        compatibilityFlags: config.compatibilityFlags,
        unsafeDirectSockets: [{ host: "127.0.0.1", port: barePort }],
        unsafeRegisterWorker: false,
      },
      // Row T: the template pattern, reading Cairn's D1 (the same rows) with its own OAuth store.
      ...(templateCode
        ? [
            {
              name: "template",
              modules: [{ type: "ESModule", path: path.join(projectRoot, "bench", "template-worker.bundle.mjs"), contents: templateCode }],
              modulesRoot: path.join(projectRoot, "bench"),
              compatibilityDate: config.compatibilityDate,
              compatibilityFlags: config.compatibilityFlags,
              bindings: { MCP_RESOURCE: `http://localhost:${templatePort}` },
              d1Databases: { DB: "cairn-bench" },
              kvNamespaces: { OAUTH_KV: "template-bench-oauth" },
              unsafeDirectSockets: [{ host: "127.0.0.1", port: templatePort }],
              unsafeRegisterWorker: false,
            },
          ]
        : []),
    ],
  });
  const mf = new Miniflare(options);
  await mf.ready;
  // The ports we asked for are the ports we got; ask Miniflare rather than assume.
  const cairnDirect = await mf.unsafeGetDirectURL("cairn");
  const bareDirect = await mf.unsafeGetDirectURL("bare");
  if (Number(cairnDirect.port) !== cairnPort || Number(bareDirect.port) !== barePort) {
    throw new Error(`direct sockets on unexpected ports: ${cairnDirect} ${bareDirect}`);
  }
  if (templateCode && Number((await mf.unsafeGetDirectURL("template")).port) !== templatePort) throw new Error("template direct socket on an unexpected port");
  return { mf, publicUrl, cairnPort, barePort, templatePort: templateCode ? templatePort : null };
}

/** The migration files of `migrationsDir` (migrations/*.sql), in the order they are applied. */
export const migrationFiles = (migrationsDir) =>
  readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort();

/** One migration file's statements, split where drizzle-kit marks them. */
export const migrationStatements = (migrationsDir, file) =>
  readFileSync(path.join(migrationsDir, file), "utf8")
    .split("--> statement-breakpoint")
    .map((statement) => statement.trim())
    .filter(Boolean);

/** Applies migrations/*.sql in name order, one D1 batch (a transaction) per file, as `wrangler d1 migrations apply` does. */
export async function applyMigrations(db, migrationsDir) {
  const files = migrationFiles(migrationsDir);
  for (const file of files) await db.batch(migrationStatements(migrationsDir, file).map((statement) => db.prepare(statement)));
  return files;
}

/**
 * One org, an admin with a password, and an API key with the research scopes,
 * written directly with SQL. The hashing and key helpers are the project's own
 * import-free modules, so the Worker accepts what is stored here.
 */
export async function seedTenant(db, { slug = "bench", email = "bench-admin@example.com" } = {}) {
  const { hashPassword } = await import("../src/auth/password.ts");
  const { generateApiKey } = await import("../src/auth/api-keys.ts");
  const { newId } = await import("../src/domain/ids.ts");
  const now = Date.now();
  const orgId = newId("org");
  const userId = newId("usr");
  const keyId = newId("key");
  const password = `bench-${crypto.randomUUID()}`;
  const apiKey = await generateApiKey();
  await db.batch([
    db.prepare("INSERT INTO orgs (id, slug, name, created_at) VALUES (?, ?, ?, ?)").bind(orgId, slug, slug === "bench" ? "Bench Org" : `Bench Org (${slug})`, now),
    db
      .prepare("INSERT INTO users (id, email, display_name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)")
      .bind(userId, email, "Bench Admin", await hashPassword(password), now),
    db.prepare("INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, 'admin', ?)").bind(orgId, userId, now),
    db
      .prepare("INSERT INTO api_keys (id, org_id, user_id, name, prefix, key_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .bind(keyId, orgId, userId, "bench", apiKey.prefix, apiKey.hash, JSON.stringify(["research:read", "research:write"]), now),
  ]);
  return { orgId, userId, email, password, apiKey: apiKey.key };
}

// ---------------------------------------------------------------------------
// Memory of the workerd process (optional, Linux only)

function parentOf(pid) {
  try {
    // /proc/PID/stat: "pid (comm) state ppid …"; comm may contain spaces, so split after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return -1;
  }
}

/** The pid of the workerd that this process (through Miniflare) started, or null. */
export function findWorkerdPid() {
  let pids;
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let comm;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    } catch {
      continue;
    }
    if (comm !== "workerd") continue;
    // Walk up a few levels: Miniflare may start workerd directly or through a shell.
    let ancestor = Number(pid);
    for (let depth = 0; depth < 4 && ancestor > 1; depth++) {
      ancestor = parentOf(ancestor);
      if (ancestor === process.pid) return Number(pid);
    }
  }
  return null;
}

/** Current and peak resident set size of a process in MB (VmRSS / VmHWM), or null. */
export function memoryOf(pid) {
  if (!pid) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
    return { rssMB: kb("VmRSS") / 1024, peakMB: kb("VmHWM") / 1024 };
  } catch {
    return null;
  }
}
