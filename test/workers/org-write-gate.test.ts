import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CairnError } from "../../src/domain/errors";
import type { Env } from "../../src/env";
import { invoke } from "../../src/operations/invoke";
import type { OperationContext } from "../../src/operations/operation";
import { findOperation } from "../../src/operations/registry";
import { importOrg } from "../../src/platform/org-data/import";
import { homeDatabase } from "../../src/platform/org-homes";
import { webServices } from "../../src/platform/runtime";
import { durablePlanEngine } from "../../src/storage/plan-engine";
import { hookedD1, latch } from "../support/d1-hooks";
import { Visitor } from "../support/dashboard";
import { createPlan, ok, steps } from "../support/plans";
import { callTool, fetchWorker, fetchWorkerOver, mcpRequest, ORIGIN, seedApiKey, seedOrg, seedTenant, seedUser, tokensFor } from "../support/worker";

/**
 * The org-wide write gate: while an import runs into an org, or once its erasure has begun, every write
 * (MCP tools/call, REST, the dashboard's forms, plan commands) is refused with a typed error; reads go on
 * during an import. A write that passed the gate just before the mark and lands after it is never lost to a
 * failed import, and never outlives an erasure.
 */

const ADMIN_SCOPES = ["research:read", "research:write", "org:admin"] as const;
const secondDb = (env as unknown as { RESEARCH_DB_2: D1Database }).RESEARCH_DB_2;

const api = (key: string, path: string, init: RequestInit = {}, over: Env = env as unknown as Env) => {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${key}`);
  if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json");
  return fetchWorkerOver(over)(new Request(`${ORIGIN}/api/v1${path}`, { ...init, headers }));
};
const post = (key: string, path: string, body: unknown, over?: Env) => api(key, path, { method: "POST", body: JSON.stringify(body) }, over);
const artifact = (title: string) => ({ artifactType: "finding", title, content: { n: 1 }, contentText: `${title}: a finding` });

/** An export of an org holding a plan and an artifact, as lines. */
async function exportLines(): Promise<string[]> {
  const source = await seedTenant();
  const adminKey = (await seedApiKey(source.orgId, source.admin.userId, [...ADMIN_SCOPES])).key;
  await createPlan(source.apiKey);
  await ok(source.apiKey, "store_research", artifact("Imported finding"));
  const response = await api(adminKey, "/org/export");
  expect(response.status).toBe(200);
  return (await response.text()).split("\n").filter(Boolean);
}

/** An empty org to import into, with its admin's key (every admin scope) and a member's key. */
async function targetOrg(over: Env = env as unknown as Env) {
  const orgId = await seedOrg();
  const admin = await seedUser(orgId, "admin");
  const member = await seedUser(orgId, "member");
  // Placed now (in the home the bindings choose), as an org is at its first call.
  await homeDatabase(over, orgId);
  return {
    orgId,
    admin,
    member,
    adminKey: (await seedApiKey(orgId, admin.userId, [...ADMIN_SCOPES])).key,
    memberKey: (await seedApiKey(orgId, member.userId)).key,
  };
}

const rowsOf = async (db: D1Database, table: string, orgId: string) => Number(await db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE org_id = ?`).bind(orgId).first("n"));

async function untilImporting(orgId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await env.DB.prepare("SELECT importing_since FROM orgs WHERE id = ?").bind(orgId).first("importing_since")) !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the import never took its lock");
}

describe("writes while an import runs", () => {
  it("are refused on every face with 409 import_in_progress and Retry-After, reads go on, and a failed import leaves the org as it was", async () => {
    const lines = await exportLines();
    const target = await targetOrg();
    // Before the import: a member's key and OAuth token in use (so this isolate remembers both).
    const oauth = await tokensFor({ email: target.member.email, password: target.member.password });
    expect((await api(target.memberKey, "/plans")).status).toBe(200);
    const visitor = new Visitor();
    await visitor.signIn(target.member.email, target.member.password);
    const csrf = await visitor.csrf();
    const adminVisitor = new Visitor();
    await adminVisitor.signIn(target.admin.email, target.admin.password);
    const adminCsrf = await adminVisitor.csrf("/dashboard/admin");
    const leaving = await seedUser(target.orgId, "member");

    // The import stops after its header, as a slow upload would, then turns out to be incomplete (no end line).
    const held = latch();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const encoder = new TextEncoder();
        controller.enqueue(encoder.encode(`${lines[0]}\n`));
        await held.promise;
        controller.enqueue(encoder.encode(`${lines.slice(1, -1).join("\n")}\n`));
        controller.close();
      },
    });
    const importing = api(target.adminKey, "/org/import", { method: "POST", body, duplex: "half", headers: { "content-type": "application/x-ndjson" } } as RequestInit);
    await untilImporting(target.orgId);

    // REST: a new plan and a new artifact are refused, with when to retry.
    const writes = [
      ["/plans", { name: "[Scan] Heat pumps", researchQuestion: "Which heat pump fits?", steps: steps("search", "synthesize"), planDesignRationale: "Search, then synthesize" }],
      ["/artifacts", artifact("Written during the import")],
    ] as const;
    for (const [path, input] of writes) {
      const refused = await post(target.memberKey, path, input);
      expect(refused.status, path).toBe(409);
      expect(refused.headers.get("retry-after"), path).toBe("30");
      const problem = (await refused.json()) as { code: string; detail: string };
      expect(problem.code).toBe("import_in_progress");
      expect(problem.detail).toContain("being imported");
    }
    // MCP, with the OAuth token this isolate had verified before the import: a tool error that says the same.
    const tool = await callTool(oauth.tokens.access_token, "store_research", artifact("Over MCP during the import"));
    expect(tool.isError).toBe(true);
    expect(tool.body).toMatchObject({ error: { code: "import_in_progress", retryAfterSeconds: 30 } });
    // The dashboard's review form (a plan command) waits too.
    const review = await visitor.post("/dashboard/plans/pln_aaaaaaaaaaaaaaaaaaaaaaaaa/steps/stp_aaaaaaaaaaaaaaaaaaaaaaaaa/review", { csrf, decision: "approve" });
    expect(review.status).toBe(409);
    expect(review.headers.get("retry-after")).toBe("30");
    expect(await review.text()).toContain("being imported");
    // So does a new API key; taking access away never waits.
    const key = await adminVisitor.post("/dashboard/admin/keys", { csrf: adminCsrf, name: "During the import", scope: "research:read" });
    expect(key.status).toBe(409);
    expect(await key.text()).toContain("being imported");
    expect((await adminVisitor.post(`/dashboard/admin/members/${leaving.userId}/remove`, { csrf: adminCsrf })).status).toBe(303);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM memberships WHERE org_id = ? AND user_id = ?").bind(target.orgId, leaving.userId).first("n")).toBe(0);
    // An admin's webhook subscription waits as well.
    const webhook = await post(target.adminKey, "/webhooks", { url: "https://hooks.example.com/cairn", events: ["plan.completed"] });
    expect(webhook.status).toBe(409);
    expect(webhook.headers.get("retry-after")).toBe("30");
    // And an admin's re-check of the org's sources (it writes verdicts and the audit log): one gate for every REST route.
    const recheck = await post(target.adminKey, "/sources/recheck", {});
    expect(recheck.status).toBe(409);
    expect(recheck.headers.get("retry-after")).toBe("30");
    // Reads go on.
    expect((await api(target.memberKey, "/plans")).status).toBe(200);
    expect((await api(target.adminKey, "/webhooks")).status).toBe(200);
    expect((await callTool(oauth.tokens.access_token, "list_artifacts", {})).isError).toBe(false);

    held.open();
    expect((await importing).status).toBe(400);
    for (const table of ["plans", "artifacts"]) expect(await rowsOf(env.DB, table, target.orgId), table).toBe(0);
    // The lock is gone and so is the refusal, at once in this isolate: the same writes go through.
    for (const [path, input] of writes) expect((await post(target.memberKey, path, input)).status, path).toBe(201);
  });

  it("keeps a write that passed the gate before the import's lock and landed after its emptiness check, when the import then fails", async () => {
    const lines = await exportLines();
    const target = await targetOrg();
    // The member's artifact is admitted and on its way, then held just before its rows are written.
    const arrived = latch();
    const land = latch();
    const holding: D1Database = hookedD1(env.DB, {
      async before(sql) {
        if (/INSERT INTO artifacts\b/.test(sql)) {
          arrived.open();
          await land.promise;
        }
      },
    });
    const writing = post(target.memberKey, "/artifacts", artifact("Written by a member"), { ...(env as unknown as Env), DB: holding });
    await arrived.promise;

    // The import takes its lock and finds the org empty; while it reads its file, the member's write lands.
    const checked = latch();
    const go = latch();
    const importing = importOrg(
      env as unknown as Env,
      target.orgId,
      (async function* () {
        yield lines[0] ?? "";
        checked.open();
        await go.promise;
        // Every line but the end line: the file is incomplete, so the import fails and takes back what it wrote.
        yield* lines.slice(1, -1);
      })(),
    ).catch((error: unknown) => error as CairnError);
    await checked.promise;
    land.open();
    const written = await writing;
    expect(written.status).toBe(201);
    const { artifactId } = (await written.json()) as { artifactId: string };
    go.open();
    expect(await importing).toMatchObject({ code: "validation" });

    // The member's artifact is there, whole and found; nothing of the import is.
    const read = await api(target.memberKey, `/artifacts/${artifactId}`);
    expect(read.status).toBe(200);
    expect(await read.text()).toContain("Written by a member");
    expect(await rowsOf(env.DB, "artifacts", target.orgId)).toBe(1);
    expect(await rowsOf(env.DB, "artifact_versions", target.orgId)).toBe(1);
    expect(await rowsOf(env.DB, "plans", target.orgId)).toBe(0);
  });

  it("takes back every row of a failed import however many it wrote, in chunks D1 accepts", async () => {
    const lines = await exportLines();
    const row = lines.find((line) => line.includes('"table":"artifacts"')) ?? "";
    const version = lines.find((line) => line.includes('"table":"artifact_versions"')) ?? "";
    const id = (JSON.parse(row) as { row: { id: string } }).row.id;
    // 230 artifacts with a version each: more than two chunks of rowids, several batches of rows.
    const many = Array.from({ length: 230 }, (_, i) => {
      const copy = `art_${String(i).padStart(25, "0")}`;
      return [row.replaceAll(id, copy), version.replaceAll(id, copy)];
    }).flat();
    const target = await targetOrg();
    let written = 0;
    const outcome = await importOrg(env as unknown as Env, target.orgId, (async function* () {
      yield lines[0] ?? "";
      yield* many;
      written = await rowsOf(env.DB, "artifacts", target.orgId);
      yield "not json";
    })()).catch((error: unknown) => error as CairnError);
    expect(outcome).toMatchObject({ code: "validation" });
    expect(written).toBeGreaterThan(200);
    expect(await rowsOf(env.DB, "artifacts", target.orgId)).toBe(0);
    expect(await rowsOf(env.DB, "artifact_versions", target.orgId)).toBe(0);
    // The full-text index followed the rows out: the org's search finds none of them.
    const found = await callTool(target.memberKey, "search_sources", { query: "Imported finding" });
    expect(JSON.stringify(found.body)).not.toContain("Imported finding");
  });
});

/**
 * What a call already admitted (before the erasure's mark) holds: its operation context, built then. The plan
 * objects it reaches are noted in `plans`, so the test can look into each afterwards.
 */
async function inFlightContext(over: Env, orgId: string, userId: string, plans: string[]): Promise<OperationContext> {
  const { services, origin, now } = await webServices(over, orgId);
  const noting = new Proxy(env.PLAN, {
    get(target, property) {
      if (property === "getByName") {
        return (name: string) => {
          plans.push(name);
          return target.getByName(name);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const planEngine = durablePlanEngine({ ...over, PLAN: noting } as Env, () => homeDatabase(over, orgId));
  return { principal: { orgId, userId, role: "member", scopes: ["research:read", "research:write"] }, services: { ...services, plans: planEngine }, correlationId: crypto.randomUUID(), origin, now };
}

const LATE_INPUTS = {
  store_research: (title: string) => artifact(title),
  log_skill_execution: (title: string) => ({ skillName: "research-scan", metadata: { topic: title } }),
  create_research_plan: (title: string) => ({ name: `[Scan] ${title}`, researchQuestion: "Late?", steps: steps("search"), planDesignRationale: "Search" }),
};

async function lateWrite(context: OperationContext, name: keyof typeof LATE_INPUTS, title: string): Promise<string> {
  const operation = findOperation(name);
  if (!operation) throw new Error(`no operation ${name}`);
  const result = await invoke(operation, LATE_INPUTS[name](title), context, "rest", () => {});
  return result.ok ? "written" : result.error.code;
}

describe("writes racing an org erasure", () => {
  it.each([
    ["the directory", undefined],
    ["a second database", "RESEARCH_DB_2"],
  ])("are refused from the mark on, access is cut before anything is deleted, and a late write at any stage leaves nothing behind (research in %s)", async (_where, databases) => {
    const over = { ...(env as unknown as Env), ...(databases ? { ORG_DATABASES: databases } : {}) } as Env;
    const target = await targetOrg(over);
    const home = databases ? secondDb : env.DB;
    const slug = String(await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(target.orgId).first("slug"));
    const { planId } = await createPlan(target.memberKey);
    await ok(target.memberKey, "store_research", artifact("Before the erasure"));
    // Verified and remembered by this isolate before the erasure: a member's OAuth token and key.
    const oauth = await tokensFor({ email: target.member.email, password: target.member.password });
    expect((await callTool(oauth.tokens.access_token, "list_active_plans", {})).isError).toBe(false);
    expect((await api(target.memberKey, "/plans")).status).toBe(200);
    // Calls admitted before the mark, still running: their contexts were built then.
    const latePlans: string[] = [];
    const inFlight = await inFlightContext(over, target.orgId, target.member.userId, latePlans);

    const seen: Record<string, unknown> = {};
    const atStage = async (stage: string, sql: string) => {
      if (stage === "marked" && /SELECT user_id FROM memberships WHERE org_id = \?$/.test(sql) && !seen.marked) {
        // Marked, credentials not revoked yet: nothing is served from the org any more, with the erasure's error.
        const refused = await post(target.memberKey, "/artifacts", artifact("After the mark"));
        const problem = (await refused.json()) as { code: string; detail: string };
        const plan = await post(target.memberKey, `/plans/${planId}/next-step`, {});
        const overMcp = await fetchWorker(mcpRequest(oauth.tokens.access_token, "tools/call", { name: "store_research", arguments: artifact("Over MCP after the mark") }));
        seen.marked = {
          status: refused.status,
          code: problem.code,
          detail: problem.detail,
          plan: plan.status,
          read: (await api(target.memberKey, "/plans")).status,
          mcp: overMcp.status,
          mcpMessage: ((await overMcp.json()) as { error: { message: string } }).error.message,
        };
      }
      if (stage === "cut" && /FROM plans WHERE org_id = \?1 AND rowid > \?2/.test(sql) && !seen.cut) {
        // Access is cut before the first deletion: the token this isolate had verified is revoked at once; a key is
        // refused everything but running the erasure again (it is deleted with the org, in the last batch).
        seen.cut = {
          key: (await api(target.memberKey, "/plans")).status,
          oauth: (await fetchWorker(new Request(`${ORIGIN}/api/v1/plans`, { headers: { authorization: `Bearer ${oauth.tokens.access_token}` } }))).status,
          keys: await rowsOf(env.DB, "api_keys", target.orgId),
          late: await lateWrite(inFlight, "store_research", "Late, before the deletions"),
        };
      }
      if (stage === "deleted" && /DELETE FROM audit_log WHERE org_id/.test(sql) && !seen.deleted) {
        // Research deleted, the org not yet: a late artifact and a late execution are refused by the database.
        seen.deleted = {
          artifact: await lateWrite(inFlight, "store_research", "Late, after the research went"),
          execution: await lateWrite(inFlight, "log_skill_execution", "Late execution"),
          plan: await lateWrite(inFlight, "create_research_plan", "Late plan"),
        };
      }
    };
    const hooks = {
      before: async (sql: string) => {
        await atStage("marked", sql);
        await atStage("deleted", sql);
      },
      after: (sql: string) => atStage("cut", sql),
    };
    const erasing = { ...over, DB: hookedD1(env.DB, hooks), ...(databases ? { RESEARCH_DB_2: hookedD1(secondDb, hooks) } : {}) } as Env;
    const erased = await api(target.adminKey, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) }, erasing);
    expect(erased.status, await erased.clone().text()).toBe(200);

    expect(seen.marked).toMatchObject({ status: 409, code: "org_erasing", plan: 409, read: 409, mcp: 409 });
    for (const text of [(seen.marked as { detail: string }).detail, (seen.marked as { mcpMessage: string }).mcpMessage]) expect(text).toContain("This organization is being erased");
    expect(seen.cut).toEqual({ key: 409, oauth: 401, keys: 2, late: "org_erasing" });
    expect(seen.deleted).toEqual({ artifact: "org_erasing", execution: "org_erasing", plan: "org_erasing" });
    // After the erasure: a call that was admitted before it all and lands only now writes nothing either.
    expect(await lateWrite(inFlight, "store_research", "Late, after the erasure")).toBe("org_erasing");
    expect(await lateWrite(inFlight, "log_skill_execution", "Late execution, after the erasure")).toBe("org_erasing");
    expect(await lateWrite(inFlight, "create_research_plan", "Late plan, after the erasure")).toBe("org_erasing");
    // The late plans' objects erased themselves when their org refused their index rows.
    expect(latePlans).toHaveLength(2);
    for (const name of latePlans) expect(await env.PLAN.getByName(name).exportState(), name).toBeNull();

    for (const db of [env.DB, home]) {
      for (const table of ["artifacts", "artifact_versions", "skill_executions", "plans", "audit_log", "api_keys", "memberships"]) {
        expect(await rowsOf(db, table, target.orgId), table).toBe(0);
      }
      expect(Number(await db.prepare("SELECT COUNT(*) AS n FROM orgs WHERE id = ?").bind(target.orgId).first("n"))).toBe(0);
    }
  });

  it("lets no one sign in or consent into an org whose erasure has begun, and ends its dashboard sessions", async () => {
    const target = await targetOrg();
    const visitor = new Visitor();
    await visitor.signIn(target.member.email, target.member.password);
    expect((await visitor.get("/dashboard/plans")).status).toBe(200);
    // As an erasure whose Worker stopped right after its mark.
    await env.DB.prepare("UPDATE orgs SET erasing_since = ? WHERE id = ?").bind(Date.now(), target.orgId).run();
    expect((await visitor.get("/dashboard/plans")).status).toBe(303);
    const again = new Visitor();
    const signIn = await again.signIn(target.member.email, target.member.password);
    expect(signIn.status).toBe(403);
    // Its admin can still finish it (the operator's CLI does so through an admin's membership).
    const slug = String(await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(target.orgId).first("slug"));
    expect((await api(target.adminKey, "/org", { method: "DELETE", body: JSON.stringify({ confirm: slug }) })).status).toBe(200);
  });

  it("skips, rather than fails, a marked org's tool-call log entries written in one batch with another org's", async () => {
    const [erasing, other] = [await seedTenant(), await seedTenant()];
    await env.DB.prepare("UPDATE orgs SET erasing_since = ? WHERE id = ?").bind(Date.now(), erasing.orgId).run();
    const entry = (orgId: string, userId: string) =>
      env.DB.prepare(
        "INSERT INTO tool_call_log (id, org_id, user_id, face, operation, duration_ms, outcome, correlation_id, created_at) VALUES (?, ?, ?, 'mcp', 'list_active_plans', 3, 'ok', ?, ?), (?, ?, ?, 'mcp', 'list_active_plans', 3, 'ok', ?, ?)",
      ).bind(crypto.randomUUID(), orgId, userId, crypto.randomUUID(), Date.now(), crypto.randomUUID(), other.orgId, other.admin.userId, crypto.randomUUID(), Date.now());
    await env.DB.batch([entry(erasing.orgId, erasing.admin.userId)]);
    expect(await rowsOf(env.DB, "tool_call_log", erasing.orgId)).toBe(0);
    expect(await rowsOf(env.DB, "tool_call_log", other.orgId)).toBe(1);
  });
});
