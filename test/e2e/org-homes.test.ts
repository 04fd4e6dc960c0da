import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import {
  addUser,
  applyMigrations,
  createApiKey,
  createOrg,
  type DevServer,
  findFreePort,
  listOrgs,
  projectRoot,
  runSql,
  startDevServer,
} from "../../scripts/lib/local.mjs";

/**
 * Org → database routing on the real local server with two D1 databases: the
 * directory (`DB`) and `RESEARCH_DB_2`, declared in a configuration beside
 * the project's own. Two orgs placed by the Worker at first use and a third
 * pinned by the operator keep their research in their own database, and
 * after `wrangler dev` stops and starts again (a new isolate that has
 * forgotten everything) the directory still sends every call to the same
 * database. This file runs its own server on its own persist dir, because it
 * restarts it.
 */

const persistTo = mkdtempSync(join(tmpdir(), "cairn-e2e-homes-"));
const configDir = mkdtempSync(join(tmpdir(), "cairn-e2e-homes-config-"));
const config = join(configDir, "wrangler.toml");
const target = { persistTo, config };
const SECOND = "RESEARCH_DB_2";

/** The project's wrangler.toml with a second D1 database; paths made absolute, since they resolve from the file's directory. */
function twoDatabaseConfig(): string {
  const base = readFileSync(join(projectRoot, "wrangler.toml"), "utf8");
  const migrations = JSON.stringify(join(projectRoot, "migrations"));
  const withMain = base.replace(/^main = "src\/index.ts"$/m, `main = ${JSON.stringify(join(projectRoot, "src/index.ts"))}`);
  const second = `migrations_dir = ${migrations}\n\n[[d1_databases]]\nbinding = "${SECOND}"\ndatabase_name = "cairn-research-2"\ndatabase_id = "00000000-0000-4000-8000-000000000002"\nmigrations_dir = ${migrations}`;
  const rendered = withMain.replace(/^migrations_dir = "migrations"$/m, second);
  if (rendered === base || !rendered.includes(SECOND) || rendered.includes('main = "src/index.ts"')) throw new Error("wrangler.toml changed shape: update twoDatabaseConfig()");
  return rendered;
}

interface Tenant {
  slug: string;
  key: string;
  orgId: string;
}
const tenants: Record<"alpha" | "beta" | "gamma", Tenant> = {
  alpha: { slug: "alpha", key: "", orgId: "" },
  beta: { slug: "beta", key: "", orgId: "" },
  gamma: { slug: "gamma", key: "", orgId: "" },
};

let server: DevServer | null = null;

/** The org, its admin and an API key, through the operator library (wrangler on the local files). */
async function enrol(tenant: Tenant, database?: string): Promise<void> {
  tenant.orgId = (await createOrg({ slug: tenant.slug, name: tenant.slug, ...(database ? { database } : {}) }, target)).id;
  const email = `${tenant.slug}-admin@cairn.test`;
  await addUser({ org: tenant.slug, email, name: `${tenant.slug} admin`, role: "admin", password: `${tenant.slug}-password-correct-horse` }, target);
  tenant.key = (await createApiKey({ org: tenant.slug, userEmail: email, name: "homes", scopes: ["research:read", "research:write"] }, target)).key;
}

async function call<T>(tenant: Tenant, method: "GET" | "POST", path: string, body?: unknown, expected = 200): Promise<T> {
  if (!server) throw new Error("no server");
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${tenant.key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${tenant.slug}: ${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

const createPlan = (tenant: Tenant, name: string) =>
  call<{ planId: string }>(
    tenant,
    "POST",
    "/plans",
    { name, researchQuestion: `What does ${tenant.slug} know?`, steps: [{ stepType: "search", instructions: "Look" }], planDesignRationale: "One look" },
    201,
  );
const storeArtifact = (tenant: Tenant, word: string) =>
  call<{ artifactId: string }>(tenant, "POST", "/artifacts", { artifactType: "note", title: `${word} note`, content: { word }, contentText: `Only ${tenant.slug} wrote about the ${word}.` }, 201);
const activePlans = async (tenant: Tenant) => (await call<{ plans: { planId: string }[] }>(tenant, "GET", "/plans")).plans.map((plan) => plan.planId);
const searchIds = async (tenant: Tenant, query: string) => (await call<{ results: { id: string }[] }>(tenant, "GET", `/search?query=${encodeURIComponent(query)}`)).results.map((hit) => hit.id);
/** Plan index rows of each org in one database, read from disk by wrangler (not through the Worker). */
async function indexedPlans(database: "DB" | typeof SECOND): Promise<Record<string, number>> {
  const rows = await runSql("SELECT org_id, COUNT(*) AS n FROM plans GROUP BY org_id", { ...target, database });
  return Object.fromEntries(rows.map((row) => [String(row.org_id), Number(row.n)]));
}

const start = async (label: string) => {
  server = await startDevServer({
    persistTo,
    config,
    vars: { ORG_DATABASES: `DB,${SECOND}` },
    inspectorPort: await findFreePort(),
    logFile: join(configDir, `wrangler-${label}.log`),
    timeoutMs: 90_000,
  });
};

describe("two D1 databases on the local server", () => {
  beforeAll(async () => {
    writeFileSync(config, twoDatabaseConfig());
    const migrated = await applyMigrations(target);
    expect(migrated.databases.map((db) => db.binding)).toEqual(["DB", SECOND]);
    await enrol(tenants.alpha);
    await enrol(tenants.beta);
    await start("first");
  }, 240_000);

  afterAll(async () => {
    try {
      await server?.stop();
    } finally {
      server = null;
      rmSync(persistTo, { recursive: true, force: true });
      rmSync(configDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("the operator pins an org only to a database the configuration binds", async () => {
    await expect(createOrg({ slug: "delta", name: "Delta", database: "RESEARCH_DB_3" }, target)).rejects.toThrow(
      "--database RESEARCH_DB_3: the configuration binds DB, RESEARCH_DB_2; declare the database there first",
    );
    expect(await runSql("SELECT COUNT(*) AS n FROM orgs WHERE slug = 'delta'", target)).toEqual([{ n: 0 }]);
  });

  it(
    "places orgs at first use, keeps each org's research in its database, and routes the same way after a restart",
    async () => {
      onTestFailed(() => console.error(`wrangler output:\n${server?.log().slice(-20_000) ?? "(none)"}`));
      const { alpha, beta, gamma } = tenants;
      // First use, one after the other: alpha to DB (a tie goes to the first listed), beta to the emptier second.
      const alphaPlan = await createPlan(alpha, "[Scan] Alpha");
      const betaPlan = await createPlan(beta, "[Scan] Beta");
      const alphaNote = await storeArtifact(alpha, "quokka");
      const betaNote = await storeArtifact(beta, "narwhal");
      const homes = Object.fromEntries((await listOrgs(target)).map((org) => [org.slug, org.database]));
      expect(homes).toEqual({ alpha: "DB", beta: SECOND });

      expect(await indexedPlans("DB")).toEqual({ [alpha.orgId]: 1 });
      expect(await indexedPlans(SECOND)).toEqual({ [beta.orgId]: 1 });
      expect(await runSql(`SELECT COUNT(*) AS n FROM artifacts WHERE org_id = '${beta.orgId}'`, target)).toEqual([{ n: 0 }]);
      expect(await runSql(`SELECT COUNT(*) AS n FROM artifacts WHERE org_id = '${beta.orgId}'`, { ...target, database: SECOND })).toEqual([{ n: 1 }]);

      // A restart: a new workerd whose isolates remember nothing; the directory on disk is all there is.
      await server?.stop();
      await start("second");

      expect(await activePlans(alpha)).toEqual([alphaPlan.planId]);
      expect(await activePlans(beta)).toEqual([betaPlan.planId]);
      expect(await searchIds(alpha, "quokka")).toEqual([alphaNote.artifactId]);
      expect(await searchIds(beta, "narwhal")).toEqual([betaNote.artifactId]);
      expect(await searchIds(beta, "quokka")).toEqual([]);
      expect(await searchIds(alpha, "narwhal")).toEqual([]);

      // Written after the restart: same homes. Gamma, created now, goes where the operator pinned it
      // although the policy alone would send it to DB (one org each, a tie).
      await enrol(gamma, SECOND);
      const betaSecond = await createPlan(beta, "[Scan] Beta again");
      const gammaPlan = await createPlan(gamma, "[Scan] Gamma");
      expect(await activePlans(beta)).toEqual(expect.arrayContaining([betaPlan.planId, betaSecond.planId]));
      expect(await activePlans(gamma)).toEqual([gammaPlan.planId]);
      expect(await indexedPlans("DB")).toEqual({ [alpha.orgId]: 1 });
      expect(await indexedPlans(SECOND)).toEqual({ [beta.orgId]: 2, [gamma.orgId]: 1 });
    },
    240_000,
  );
});
