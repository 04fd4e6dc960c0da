import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import type { PlanObject } from "../../src/durable-objects/plan-object";
import { forgetHome, homeName } from "../../src/platform/org-homes";
import { completeNextStep, createPlan, ok } from "../support/plans";
import { callTool, seedOrg, seedTenant } from "../support/worker";

/**
 * Org → database routing with two real local D1 databases: DB (the directory,
 * and a home) and RESEARCH_DB_2 (a second home, vitest.workers.config.ts).
 */
const secondDb = (env as unknown as { RESEARCH_DB_2: D1Database }).RESEARCH_DB_2;
const listing = (setting: string) => ({ ...env, ORG_DATABASES: setting }) as unknown as Env;
const directoryHome = (orgId: string) => env.DB.prepare("SELECT home_database FROM orgs WHERE id = ?").bind(orgId).first<string>("home_database");
const rowsOf = (db: D1Database, table: string, orgId: string) => db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE org_id = ?`).bind(orgId).first<number>("n");

/** The same research in any org: an execution, a plan run one step, an artifact with a shared word, a deliverable. */
async function research(key: string, label: string) {
  await ok(key, "log_skill_execution", { skillName: "research", metadata: { topic: `Perovskite ${label}` } });
  const plan = await createPlan(key, { name: `[Scan] Perovskite ${label}` });
  await completeNextStep(key, plan.planId);
  const artifact = (await ok(key, "store_research", { artifactType: "finding", title: `Perovskite ${label}`, content: { label }, contentText: `Perovskite tandem cells (${label}) reach 33 percent.` })) as {
    artifactId: string;
  };
  await ok(key, "store_research_output", { planId: plan.planId, title: `Perovskite report ${label}`, mediaType: "markdown", content: `# Perovskite ${label}` });
  return { planId: plan.planId, artifactId: artifact.artifactId };
}

describe("org → database routing", () => {
  it("places new orgs evenly over the listed databases and records the choice in the directory, once", async () => {
    const first = await seedOrg();
    const second = await seedOrg();
    const third = await seedOrg();
    expect(await directoryHome(first)).toBeNull();
    // Unlisted: the directory's own database.
    expect(await homeName(env as never, first)).toBe("DB");
    // DB holds one placed org, RESEARCH_DB_2 none: the emptier one; then a tie goes to the first listed.
    expect(await homeName(listing("DB, RESEARCH_DB_2"), second)).toBe("RESEARCH_DB_2");
    expect(await homeName(listing("DB, RESEARCH_DB_2"), third)).toBe("DB");
    expect(await directoryHome(second)).toBe("RESEARCH_DB_2");
    // The home keeps a copy of the org row (its foreign keys name the org); the directory's copy is the record.
    expect(await secondDb.prepare("SELECT home_database FROM orgs WHERE id = ?").bind(second).first("home_database")).toBe("RESEARCH_DB_2");
    // A choice is never revisited: another listing, or a forgetful isolate, reads the same home.
    forgetHome(second);
    expect(await homeName(listing("DB"), second)).toBe("RESEARCH_DB_2");
  });

  it("keeps every read and write of an org in its home: lists, search, plan index, audit; the other org's database never sees it", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    expect(await homeName(env as never, a.orgId)).toBe("DB");
    expect(await homeName(listing("RESEARCH_DB_2"), b.orgId)).toBe("RESEARCH_DB_2");
    const ofA = await research(a.apiKey, "alpha");
    const ofB = await research(b.apiKey, "beta");

    for (const table of ["skill_executions", "plans", "artifacts", "artifact_versions", "research_outputs", "audit_log"]) {
      expect(await rowsOf(secondDb, table, b.orgId), table).toBeGreaterThan(0);
      expect(await rowsOf(env.DB, table, b.orgId), table).toBe(0);
      expect(await rowsOf(env.DB, table, a.orgId), table).toBeGreaterThan(0);
      expect(await rowsOf(secondDb, table, a.orgId), table).toBe(0);
    }
    // The plan object wrote its index row (progress after the step) into the org's home.
    expect(await secondDb.prepare("SELECT progress FROM plans WHERE org_id = ? AND plan_id = ?").bind(b.orgId, ofB.planId).first<number>("progress")).toBeGreaterThan(0);
    // The tool-call log stays in the directory for every org.
    expect(await rowsOf(env.DB, "tool_call_log", b.orgId)).toBeGreaterThan(0);
    expect(await rowsOf(secondDb, "tool_call_log", b.orgId)).toBe(0);

    for (const [tenant, own, other] of [
      [a, ofA, ofB],
      [b, ofB, ofA],
    ] as const) {
      const hits = JSON.stringify(await ok(tenant.apiKey, "search_sources", { query: "perovskite tandem" }));
      expect(hits).toContain(own.artifactId);
      expect(hits).not.toContain(other.artifactId);
      const plans = (await ok(tenant.apiKey, "list_active_plans", {})) as { plans: { planId: string }[] };
      expect(plans.plans.map((p) => p.planId)).toEqual([own.planId]);
      expect(((await ok(tenant.apiKey, "list_artifacts", {})) as { artifacts: unknown[] }).artifacts).toHaveLength(1);
      expect(((await ok(tenant.apiKey, "list_skill_executions", {})) as { executions: unknown[] }).executions).toHaveLength(1);
      // Another org's ids are not found, whichever database holds them.
      expect((await callTool(tenant.apiKey, "get_artifact", { artifactId: other.artifactId })).isError).toBe(true);
    }

    // The isolate forgets (as a restarted one would): the directory still routes B to its home.
    forgetHome(b.orgId);
    const again = JSON.stringify(await ok(b.apiKey, "search_sources", { query: "perovskite" }));
    expect(again).toContain(ofB.artifactId);
    expect(again).not.toContain(ofA.artifactId);
  });

  it("lets no plan object outlive its org: a command on a plan of an org the directory no longer holds is refused, the object erases itself, and nothing is retried or indexed", async () => {
    const orgId = "org_gone";
    const planId = `plan_gone_${crypto.randomUUID().slice(0, 8)}`;
    const stub = env.PLAN.getByName(`${orgId}:${planId}`);
    const input = { planId, orgId, name: "[Scan] Gone", researchQuestion: "q", steps: [{ stepType: "search" as const, instructions: "look" }], branchingConditions: [], planDesignRationale: "r", outputFormattingNotes: null, sessionId: null, executionId: null };
    expect(await stub.run({ kind: "create", input }, { userId: "usr_gone", clientId: "cli_gone" }, Date.now())).toMatchObject({ ok: false, error: { code: "org_erasing" } });
    expect(await stub.exportState()).toBeNull();
    const waiting = await runInDurableObject(stub, (_instance: PlanObject, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM outbox").one().n);
    expect(waiting).toBe(0);
    for (const db of [env.DB, secondDb]) expect(await rowsOf(db, "plans", orgId)).toBe(0);
  });

  it("answers a clear error, and changes nothing, when the directory names a database this deployment does not bind", async () => {
    const tenant = await seedTenant();
    await env.DB.prepare("UPDATE orgs SET home_database = 'RESEARCH_DB_9' WHERE id = ?").bind(tenant.orgId).run();
    forgetHome(tenant.orgId);
    const response = await callTool(tenant.apiKey, "list_artifacts", {}).catch((error: Error) => ({ isError: true, body: { message: error.message } }));
    expect(response.isError).toBe(true);
    expect(await directoryHome(tenant.orgId)).toBe("RESEARCH_DB_9");
    expect(await rowsOf(env.DB, "artifacts", tenant.orgId)).toBe(0);
    await expect(homeName(env as never, tenant.orgId)).rejects.toThrow(/RESEARCH_DB_9/);
    forgetHome(tenant.orgId);
  });
});
