import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { addUser, applyMigrations, createApiKey, createOrg, findFreePort, startDevServer } from "../../scripts/lib/local.mjs";

export interface E2EServer {
  url: string;
  orgSlug: string;
  email: string;
  password: string;
  apiKey: string;
  readOnlyKey: string;
  /** An integration acting for people: the admin's key with `plans:approve`, which no assistant's credential carries. */
  approverKey: string;
  persistTo: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    server: E2EServer;
  }
}

/**
 * One real local server for the end-to-end suite: `wrangler dev` on a free port
 * with its own state directory, migrated and seeded through the operator tooling.
 */
export default async function setup(project: TestProject) {
  const persistTo = mkdtempSync(join(tmpdir(), "cairn-e2e-"));
  await applyMigrations({ persistTo });
  const orgSlug = "e2e";
  const email = "e2e-admin@cairn.test";
  const password = "e2e-password-correct-horse";
  // The server starts while the org, admin and keys are written (each a `wrangler d1 execute` of its own, as an
  // operator would run them beside a running server): a minute or two less on a loaded machine than one after the other.
  // announce: the operator CLI, run by a test without --url, uses this server as it would a running `npm start`.
  const starting = startDevServer({ port: await findFreePort(), persistTo, inspectorPort: await findFreePort(), logFile: join(persistTo, "wrangler.log"), announce: true });
  const seeded = (async () => {
    await createOrg({ slug: orgSlug, name: "End to end" }, { persistTo });
    await addUser({ org: orgSlug, email, name: "E2E Admin", role: "admin", password }, { persistTo });
    const { key: apiKey } = await createApiKey({ org: orgSlug, userEmail: email, name: "e2e", scopes: ["research:read", "research:write"] }, { persistTo });
    const { key: readOnlyKey } = await createApiKey({ org: orgSlug, userEmail: email, name: "e2e-read", scopes: ["research:read"] }, { persistTo });
    const { key: approverKey } = await createApiKey({ org: orgSlug, userEmail: email, name: "e2e-approver", scopes: ["research:read", "research:write", "plans:approve"] }, { persistTo });
    return { apiKey, readOnlyKey, approverKey };
  })();
  const [started, keys] = await Promise.allSettled([starting, seeded]);
  if (started.status === "rejected" || keys.status === "rejected") {
    if (started.status === "fulfilled") await started.value.stop();
    throw started.status === "rejected" ? started.reason : (keys as PromiseRejectedResult).reason;
  }
  const server = started.value;
  const { apiKey, readOnlyKey, approverKey } = keys.value;
  project.provide("server", { url: server.url, orgSlug, email, password, apiKey, readOnlyKey, approverKey, persistTo });
  return async () => {
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
}
