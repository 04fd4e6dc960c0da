import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CairnError } from "../../src/domain/errors";
import type { Env } from "../../src/env";
import { importOrg } from "../../src/platform/org-data/import";
import { homeName } from "../../src/platform/org-homes";
import { createPlan, ok } from "../support/plans";
import { startSession } from "../support/search-sessions";
import { fetchWorker, ORIGIN, seedApiKey, seedOrg, seedTenant, seedUser } from "../support/worker";

/**
 * An import whose Worker dies half-way: simulated by an import whose file stops coming after some lines
 * (its Worker no longer acts, as a killed one), with its heartbeat then set a minute and more into the past.
 * The org's next import or erasure must finish the job or take the dead one back, and touch nothing else.
 */

const ADMIN_SCOPES = ["research:read", "research:write", "org:admin"] as const;
const secondDb = (env as unknown as { RESEARCH_DB_2: D1Database }).RESEARCH_DB_2;

const api = (key: string, path: string, init: RequestInit = {}) => {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${key}`);
  return fetchWorker(new Request(`${ORIGIN}/api/v1${path}`, { ...init, headers }));
};

async function emptyOrg(): Promise<{ orgId: string; key: string }> {
  const orgId = await seedOrg();
  const admin = await seedUser(orgId, "admin");
  return { orgId, key: (await seedApiKey(orgId, admin.userId, [...ADMIN_SCOPES])).key };
}

/** An org with plans (their objects), artifacts and a search session, and its export's lines. */
async function sourceOrg(): Promise<{ orgId: string; adminKey: string; lines: string[] }> {
  const tenant = await seedTenant();
  const adminKey = (await seedApiKey(tenant.orgId, tenant.admin.userId, [...ADMIN_SCOPES])).key;
  for (const name of ["[Deep] First topic", "[Scan] Second topic"]) {
    const plan = await createPlan(tenant.apiKey, { name });
    await ok(tenant.apiKey, "store_research", { artifactType: "finding", title: `${name} finding`, content: { n: 1 }, contentText: `${name} finding text`, planId: plan.planId });
  }
  await startSession(tenant.apiKey);
  return { orgId: tenant.orgId, adminKey, lines: (await exportText(adminKey)).split("\n").filter(Boolean) };
}

async function exportText(key: string): Promise<string> {
  const response = await api(key, "/org/export");
  expect(response.status).toBe(200);
  return response.text();
}

/** An export as content: no header, members or keys, and every id replaced by its order of first appearance. */
function canonical(text: string): string {
  const seen = new Map<string, string>();
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((r) => r.type !== "header" && r.type !== "member" && !(r.type === "row" && r.table === "api_keys"))
    .map((r) => (r.type === "end" ? { ...r, counts: { ...(r.counts as object), member: "-", api_keys: "-" } } : r))
    .map((r) =>
      JSON.stringify(r).replace(/\b(org|plan|step|art|out|exec|claim|clm|cond|aud|srch|fb|call)_[0-9a-z]{25}\b/g, (id, kind: string) => {
        if (!seen.has(id)) seen.set(id, `${kind}#${seen.size}`);
        return seen.get(id) ?? id;
      }),
    )
    .join("\n");
}

/**
 * An import of `lines` that reads the first `count` and then waits for the rest, as a Worker killed
 * mid-read: `stalled` resolves once every line before the stall has been written; `resume(true)` feeds
 * the rest (a Worker that was only slow), `resume(false)` ends the file there.
 */
function stalledImport(orgId: string, lines: string[], count: number) {
  let resume: (more: boolean) => void = () => undefined;
  const more = new Promise<boolean>((resolve) => {
    resume = resolve;
  });
  let reached: () => void = () => undefined;
  const stalled = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const outcome = importOrg(
    env as unknown as Env,
    orgId,
    (async function* () {
      yield* lines.slice(0, count);
      reached();
      if (await more) yield* lines.slice(count);
    })(),
  ).then(
    () => null,
    (error: unknown) => error as CairnError,
  );
  return { stalled, resume, outcome };
}

const declareDead = (orgId: string) => env.DB.prepare("UPDATE orgs SET import_heartbeat_at = ? WHERE id = ?").bind(Date.now() - 61_000, orgId).run();

async function orgTables(): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'").all<{ name: string }>();
  const withOrg: string[] = [];
  for (const { name } of results) {
    const { results: columns } = await env.DB.prepare(`PRAGMA table_info("${name}")`).all<{ name: string }>();
    if (columns.some((column) => column.name === "org_id")) withOrg.push(name);
  }
  return withOrg;
}

async function rowsOfOrg(orgId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const db of [env.DB, secondDb]) {
    for (const table of await orgTables()) {
      const n = Number(await db.prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE org_id = ?`).bind(orgId).first("n"));
      if (n > 0) counts[table] = (counts[table] ?? 0) + n;
    }
  }
  return counts;
}

const journaledPlans = async (orgId: string) =>
  (await env.DB.prepare("SELECT object_id FROM org_import_journal WHERE org_id = ? AND table_name = 'plan_object'").bind(orgId).all<{ object_id: string }>()).results.map(
    (row) => row.object_id,
  );

describe("an org import whose Worker died half-way", () => {
  it("holds the org while its heartbeat is fresh, then is taken back by the retry, which imports the file's records exactly once", async () => {
    const source = await sourceOrg();
    const other = await sourceOrg();
    const otherBefore = canonical(await exportText(other.adminKey));
    const target = await emptyOrg();
    // Everything but the end line: every row and object of the file written, the import not finished.
    const dead = stalledImport(target.orgId, source.lines, source.lines.length - 1);
    await dead.stalled;
    expect((await rowsOfOrg(target.orgId)).plans).toBe(2);
    const deadPlans = await journaledPlans(target.orgId);
    expect(deadPlans).toHaveLength(2);

    // While its heartbeat is fresh, it holds: a retry waits.
    const post = () => api(target.key, "/org/import", { method: "POST", body: source.lines.join("\n") });
    const early = await post();
    expect(early.status).toBe(409);
    expect(early.headers.get("retry-after")).toBe("30");

    await declareDead(target.orgId);
    const retry = await post();
    expect(retry.status).toBe(200);
    expect(canonical(await exportText(target.key))).toBe(canonical(source.lines.join("\n")));
    const counts = await rowsOfOrg(target.orgId);
    expect(counts.plans).toBe(2);
    expect(counts.artifacts).toBe(2);
    expect(counts.search_sessions).toBe(1);
    expect(counts.org_import_journal).toBeUndefined();
    // The dead import's objects are gone; the retry recreated its own.
    for (const planId of deadPlans) expect(await env.PLAN.getByName(`${target.orgId}:${planId}`).exportState()).toBeNull();

    // The "dead" import was only slow: once it reads on, it finds its lock gone, writes nothing, and takes nothing of the retry's back.
    dead.resume(true);
    expect(await dead.outcome).toMatchObject({ code: "conflict" });
    expect(canonical(await exportText(target.key))).toBe(canonical(source.lines.join("\n")));
    expect(await env.DB.prepare("SELECT importing_since FROM orgs WHERE id = ?").bind(target.orgId).first("importing_since")).toBeNull();
    // Other orgs are untouched.
    expect(canonical(await exportText(other.adminKey))).toBe(otherBefore);
  });

  it("is taken back by an import of another file, which then finds the org empty", async () => {
    const source = await sourceOrg();
    const target = await emptyOrg();
    // Half-way: some rows written, perhaps no object yet.
    const dead = stalledImport(target.orgId, source.lines, Math.ceil(source.lines.length / 2));
    await dead.stalled;
    expect(Object.keys(await rowsOfOrg(target.orgId)).length).toBeGreaterThan(1);
    await declareDead(target.orgId);
    const retry = await api(target.key, "/org/import", { method: "POST", body: source.lines.join("\n") });
    expect(retry.status).toBe(200);
    expect(canonical(await exportText(target.key))).toBe(canonical(source.lines.join("\n")));
    // Ended at the stall: the file is incomplete, and nothing of the retry's is taken back.
    dead.resume(false);
    expect(await dead.outcome).not.toBeNull();
    expect(canonical(await exportText(target.key))).toBe(canonical(source.lines.join("\n")));
  });

  it("is taken back in both databases when the org's home is not the directory", async () => {
    const source = await sourceOrg();
    const target = await emptyOrg();
    // Placed (first use) while the deployment lists only the second database for new orgs.
    expect(await homeName({ ...env, ORG_DATABASES: "RESEARCH_DB_2" } as never, target.orgId)).toBe("RESEARCH_DB_2");
    const dead = stalledImport(target.orgId, source.lines, source.lines.length - 1);
    await dead.stalled;
    const journalIn = async (db: D1Database) => Number(await db.prepare("SELECT COUNT(*) AS n FROM org_import_journal WHERE org_id = ?").bind(target.orgId).first("n"));
    // Row ranges are journaled where the rows are, the recreated objects in the directory.
    expect(await journalIn(secondDb)).toBeGreaterThan(0);
    expect(await journalIn(env.DB)).toBeGreaterThan(0);
    expect(Number(await secondDb.prepare("SELECT COUNT(*) AS n FROM plans WHERE org_id = ?").bind(target.orgId).first("n"))).toBe(2);

    await declareDead(target.orgId);
    const retry = await api(target.key, "/org/import", { method: "POST", body: source.lines.join("\n") });
    expect(retry.status).toBe(200);
    expect(canonical(await exportText(target.key))).toBe(canonical(source.lines.join("\n")));
    expect(Number(await secondDb.prepare("SELECT COUNT(*) AS n FROM plans WHERE org_id = ?").bind(target.orgId).first("n"))).toBe(2);
    expect(Number(await env.DB.prepare("SELECT COUNT(*) AS n FROM plans WHERE org_id = ?").bind(target.orgId).first("n"))).toBe(0);
    expect(await journalIn(secondDb)).toBe(0);
    expect(await journalIn(env.DB)).toBe(0);
    dead.resume(true);
    expect(await dead.outcome).toMatchObject({ code: "conflict" });
    expect(canonical(await exportText(target.key))).toBe(canonical(source.lines.join("\n")));
  });

  it("is taken back by the org's erasure, objects its rows never named included, and other orgs are untouched", async () => {
    const source = await sourceOrg();
    const sourceBefore = canonical(await exportText(source.adminKey));
    const target = await emptyOrg();
    const slug = String(await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(target.orgId).first("slug"));
    const dead = stalledImport(target.orgId, source.lines, source.lines.length - 1);
    await dead.stalled;
    const deadPlans = await journaledPlans(target.orgId);
    expect(deadPlans).toHaveLength(2);
    // An object its rows do not name: as if the Worker died between recreating it and writing its index row.
    await env.DB.prepare("DELETE FROM plans WHERE org_id = ? AND plan_id = ?").bind(target.orgId, deadPlans[0]).run();

    const erase = () => api(target.key, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) });
    expect((await erase()).status).toBe(409);
    await declareDead(target.orgId);
    expect((await erase()).status).toBe(200);
    expect(await rowsOfOrg(target.orgId)).toEqual({});
    for (const planId of deadPlans) expect(await env.PLAN.getByName(`${target.orgId}:${planId}`).exportState()).toBeNull();
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM orgs WHERE id = ?").bind(target.orgId).first("n")).toBe(0);

    dead.resume(false);
    expect(await dead.outcome).not.toBeNull();
    expect(await rowsOfOrg(target.orgId)).toEqual({});
    expect(canonical(await exportText(source.adminKey))).toBe(sourceBefore);
  });
});
