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
  await createOrg({ slug: orgSlug, name: "End to end" }, { persistTo });
  await addUser({ org: orgSlug, email, name: "E2E Admin", role: "admin", password }, { persistTo });
  const { key: apiKey } = await createApiKey({ org: orgSlug, userEmail: email, name: "e2e", scopes: ["research:read", "research:write"] }, { persistTo });
  const { key: readOnlyKey } = await createApiKey({ org: orgSlug, userEmail: email, name: "e2e-read", scopes: ["research:read"] }, { persistTo });
  const { key: approverKey } = await createApiKey({ org: orgSlug, userEmail: email, name: "e2e-approver", scopes: ["research:read", "research:write", "plans:approve"] }, { persistTo });
  const port = await findFreePort();
  // announce: the operator CLI, run by a test without --url, uses this server as it would a running `npm start`.
  const server = await startDevServer({ port, persistTo, inspectorPort: await findFreePort(), logFile: join(persistTo, "wrangler.log"), announce: true });
  project.provide("server", { url: server.url, orgSlug, email, password, apiKey, readOnlyKey, approverKey, persistTo });
  return async () => {
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
}
