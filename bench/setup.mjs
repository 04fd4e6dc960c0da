/**
 * What every bench run does before it loads anything: start Cairn and the bare
 * Worker in one workerd, migrate and seed D1, get an OAuth token through the
 * real flow, write a few executions so the read returns a full page; and the
 * child process that generates load (bench/load.mjs).
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { obtainTokens } from "../test/support/oauth-flow.ts";
import { seedExecutions } from "./cases.mjs";
import { applyMigrations, findWorkerdPid, projectRoot, seedTenant, startRuntime } from "./harness.mjs";
import { setupAllowanceS } from "./load.mjs";
import { obtainTemplateToken } from "./template-flow.mjs";

/** Starts the runtime on `persistDir` and prepares the tenant; the caller disposes `runtime.mf`. */
export async function prepareRuntime({ cairnBundle, bareCode, templateCode, config, persistDir, log }) {
  const runtime = await startRuntime({ cairnBundle, bareCode, templateCode, config, persistDir });
  const { mf, publicUrl, cairnPort, barePort, templatePort } = runtime;
  const workerdPid = findWorkerdPid();
  log(`workerd pid ${workerdPid ?? "?"}; cairn ${publicUrl} (direct), bare http://localhost:${barePort} (direct)`);
  try {
    const db = await mf.getD1Database("DB", "cairn");
    const migrations = await applyMigrations(db, config.migrationsDir);
    const tenant = await seedTenant(db);
    log(`migrated (${migrations.join(", ")}); seeded org, admin and API key`);
    // The real OAuth flow against the running Worker, over its direct socket.
    const flow = await obtainTokens((request) => fetch(request), publicUrl, { email: tenant.email, password: tenant.password });
    log(`OAuth token obtained (scope "${flow.tokens.scope}", resource ${flow.tokens.resource ?? "?"})`);
    await seedExecutions(publicUrl, flow.tokens.access_token);
    const templateUrl = templatePort ? `http://localhost:${templatePort}` : null;
    const templateToken = templateUrl ? await obtainTemplateToken(templateUrl, tenant.email) : null;
    if (templateToken) log(`template token obtained (${templateUrl})`);
    return {
      ...runtime,
      workerdPid,
      tenant,
      accessToken: flow.tokens.access_token,
      templateToken,
      urls: { cairn: publicUrl, bare: `http://localhost:${barePort}`, template: templateUrl },
      ports: { cairn: cairnPort, bare: barePort, template: templatePort },
    };
  } catch (error) {
    await mf.dispose();
    throw error;
  }
}

/**
 * What bench/load.mjs is given for one run of `testCase` against `runtime`
 * (prepareRuntime's answer): the request, the load, and the workerd to sample.
 */
export function loadSpec(testCase, runtime, { concurrency, durationS, warmupS, setupBudgetS }) {
  const port = runtime.ports[testCase.target];
  return {
    port,
    host: `localhost:${port}`,
    method: testCase.method,
    path: testCase.path,
    headers: testCase.headers,
    body: testCase.body,
    expect: testCase.expect,
    ...(testCase.mode === "cycle" ? { mode: "cycle", cycle: testCase.cycle, setupBudgetS } : {}),
    concurrency,
    durationS,
    warmupS,
    serverPid: runtime.workerdPid,
  };
}

/** One load run in a child process. Rejects only if the child itself fails; request failures come back counted. */
export function runChild(spec) {
  const budgetMs = (spec.warmupS + spec.durationS + setupAllowanceS(spec)) * 1000 + 40_000;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(projectRoot, "bench", "load.mjs"), JSON.stringify(spec)],
      { timeout: budgetMs, killSignal: "SIGKILL", maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`load.mjs failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split("\n").pop()));
      },
    );
  });
}
