import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { fetchWorker, ORIGIN, seedApiKey, seedOrg, seedUser } from "./worker";

/**
 * What the org export and import tests share: the REST calls of an org's admin, an empty org to import into, and
 * the export file read as lines (NDJSON) and written back.
 */
export const ADMIN_SCOPES = ["research:read", "research:write", "org:admin"] as const;

/** A REST call to /api/v1 with the key as bearer. */
export const api = (key: string, path: string, init: RequestInit = {}) => {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${key}`);
  return fetchWorker(new Request(`${ORIGIN}/api/v1${path}`, { ...init, headers }));
};

/** An org with no research yet and an API key of its admin with every admin scope: where imports go. */
export async function emptyOrg(): Promise<{ orgId: string; key: string }> {
  const orgId = await seedOrg();
  const admin = await seedUser(orgId, "admin");
  return { orgId, key: (await seedApiKey(orgId, admin.userId, [...ADMIN_SCOPES])).key };
}

export const importInto = (key: string, body: string) => api(key, "/org/import", { method: "POST", body, headers: { "content-type": "application/x-ndjson" } });

/** The org's export, as its admin's key downloads it. */
export const exportText = async (key: string) => {
  const response = await api(key, "/org/export");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("application/x-ndjson");
  return response.text();
};

export type Line = Record<string, unknown> & { type: string; table?: string; row?: Record<string, unknown> };
export const parseLines = (text: string): Line[] =>
  text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line);
export const joinLines = (lines: Line[]) => lines.map((line) => JSON.stringify(line)).join("\n");

/** Keys under the org's prefix in the bucket of page snapshots and client texts. */
export const objectsOf = async (orgId: string) => (await env.SOURCE_SNAPSHOTS.list({ prefix: `orgs/${orgId}/` })).objects.map((o) => o.key).sort();
