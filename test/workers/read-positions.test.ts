import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/domain/ids";
import type { CreatePlanInput } from "../../src/domain/plans/machine";
import type { Env } from "../../src/env";
import { durablePlanEngine } from "../../src/storage/plan-engine";
import { countRows, fetchWorkerOver, mcpRequest, ORIGIN, readJsonRpc, seedTenant } from "../support/worker";
import { steps } from "../support/plans";

/**
 * REST and MCP callers and D1 read replicas: a response carries the caller's
 * read position (REST: `Cairn-Bookmark`; MCP: the result's `_meta`), and a
 * request that sends it back reads through a D1 session starting there. Locally D1 has no replicas, so what is tested is
 * what the Worker asks of D1 (the session's starting point, recorded on the
 * real binding) and the positions it hands out.
 */

const POSITION = /^DB:[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** The Worker over the real bindings, with every `withSession` asked of the directory database recorded. */
function recordingEnv() {
  const sessions: string[] = [];
  const base = env as unknown as Env;
  const DB = new Proxy(base.DB, {
    get(target, property) {
      if (property === "withSession") {
        return (constraint: string) => {
          sessions.push(constraint);
          return target.withSession(constraint);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const wrapped: Env = { ...base, DB };
  return {
    sessions,
    fetch: fetchWorkerOver(wrapped),
    rest(key: string, path: string, init: RequestInit & { position?: string | null } = {}) {
      const headers = new Headers(init.headers);
      headers.set("authorization", `Bearer ${key}`);
      if (init.body) headers.set("content-type", "application/json");
      if (init.position) headers.set("Cairn-Bookmark", init.position);
      return this.fetch(new Request(`${ORIGIN}/api/v1${path}`, { ...init, headers }));
    },
  };
}

/** A tenant whose research lives in the directory database (the binding recorded here). */
async function tenantAtDirectory() {
  const tenant = await seedTenant();
  await env.DB.prepare("UPDATE orgs SET home_database = 'DB' WHERE id = ?").bind(tenant.orgId).run();
  return tenant;
}

const bookmarkOf = (position: string | null) => position?.slice("DB:".length) ?? "";

const ARTIFACT = { artifactType: "note", title: "Replica lag in D1", content: { text: "Sessions" }, contentText: "Sessions give sequential consistency across replicas." };

describe("read positions for REST callers", () => {
  it("hands out a position, starts the next call's session there, and moves it forward with each write", async () => {
    const { apiKey } = await tenantAtDirectory();
    const worker = recordingEnv();

    const first = await worker.rest(apiKey, "/plans");
    expect(first.status).toBe(200);
    // No position sent: the session starts on the primary, never stale.
    expect(worker.sessions).toEqual(["first-primary"]);
    const p1 = first.headers.get("Cairn-Bookmark");
    expect(p1).toMatch(POSITION);

    const stored = await worker.rest(apiKey, "/artifacts", { method: "POST", body: JSON.stringify(ARTIFACT), position: p1 });
    expect(stored.status).toBe(201);
    expect(worker.sessions[1]).toBe(bookmarkOf(p1));
    const p2 = stored.headers.get("Cairn-Bookmark");
    expect(p2).toMatch(POSITION);
    expect(bookmarkOf(p2) > bookmarkOf(p1)).toBe(true);

    const { artifactId } = (await stored.json()) as { artifactId: string };
    const read = await worker.rest(apiKey, `/artifacts/${artifactId}`, { position: p2 });
    expect(read.status).toBe(200);
    expect(worker.sessions[2]).toBe(bookmarkOf(p2));
    expect(bookmarkOf(read.headers.get("Cairn-Bookmark")) >= bookmarkOf(p2)).toBe(true);
  });

  it("a new plan's position covers its index entry, written by the plan's own object", async () => {
    const { apiKey } = await tenantAtDirectory();
    const worker = recordingEnv();
    const before = (await worker.rest(apiKey, "/plans")).headers.get("Cairn-Bookmark");
    const created = await worker.rest(apiKey, "/plans", {
      method: "POST",
      position: before,
      body: JSON.stringify({ name: "[Scan] Replicas", researchQuestion: "Do replicas help?", steps: steps("search", "synthesize"), planDesignRationale: "Search, then write" }),
    });
    expect(created.status).toBe(201);
    const after = created.headers.get("Cairn-Bookmark");
    expect(bookmarkOf(after) > bookmarkOf(before)).toBe(true);
    const { planId } = (await created.json()) as { planId: string };
    const listed = await worker.rest(apiKey, "/plans", { position: after });
    expect(((await listed.json()) as { plans: { planId: string }[] }).plans.map((p) => p.planId)).toContain(planId);
  });

  it("the plan engine reports the bookmark of an index write the command waited for, and only then", async () => {
    const { orgId, admin } = await tenantAtDirectory();
    const heard: string[] = [];
    const engine = durablePlanEngine(env as unknown as Env, () => env.DB, (bookmark) => heard.push(bookmark));
    const actor = { userId: admin.userId, clientId: "cli_positions" };
    const primary = env.DB.withSession("first-primary");
    await primary.prepare("SELECT 1").first();
    const start = primary.getBookmark() ?? "";

    const planId = newId("pln");
    const input: CreatePlanInput = {
      planId,
      orgId,
      name: "[Scan] Positions",
      researchQuestion: "Does the position cover the index?",
      steps: [
        { stepType: "search", instructions: "Search" },
        { stepType: "synthesize", instructions: "Write" },
      ],
      branchingConditions: [],
      planDesignRationale: "Search, then write",
      outputFormattingNotes: null,
      sessionId: null,
      executionId: null,
    };
    const created = await engine.run(orgId, planId, { kind: "create", input }, actor, Date.now());
    expect(created.state.plan.planId).toBe(planId);
    // Create waits for its index entry: the position is of that write, after everything before it.
    expect(heard).toHaveLength(1);
    expect((heard[0] ?? "") > start).toBe(true);

    // A claim answers before its index update: nothing to report (the update follows at once).
    const claimed = await engine.run(orgId, planId, { kind: "next", workerId: "wrk_positions" }, actor, Date.now());
    expect(claimed.outcome?.status).toBe("step");
    expect(heard).toHaveLength(1);

    const cancelled = await engine.run(orgId, planId, { kind: "cancel", reason: "done with it" }, actor, Date.now());
    expect(cancelled.state.plan.status).toBe("cancelled");
    expect(heard).toHaveLength(2);
    expect((heard[1] ?? "") > (heard[0] ?? "")).toBe(true);
  });

  it("refuses a position it did not hand out, with what to send instead, and writes nothing", async () => {
    const { apiKey } = await tenantAtDirectory();
    const worker = recordingEnv();
    const artifacts = await countRows("artifacts");
    for (const position of ["garbage", "DB:first-unconstrained", `DB:${"f".repeat(8)}-0-0-0`, `DB:${"0".repeat(300)}`]) {
      const response = await worker.rest(apiKey, "/artifacts", { method: "POST", body: JSON.stringify(ARTIFACT), position });
      expect(response.status, position).toBe(400);
      const problem = (await response.json()) as { code: string; detail: string; issues: { path: string }[] };
      expect(problem.code).toBe("validation");
      expect(problem.detail).toContain("Cairn-Bookmark");
      expect(problem.issues[0]?.path).toBe("Cairn-Bookmark");
    }
    expect(await countRows("artifacts")).toBe(artifacts);
    expect(worker.sessions).toEqual([]);
  });

  it("a position of another database (the org has moved) starts on the primary of the org's own", async () => {
    const { apiKey } = await tenantAtDirectory();
    const worker = recordingEnv();
    const response = await worker.rest(apiKey, "/plans", { position: `RESEARCH_DB_2:${"0".repeat(8)}-${"f".repeat(8)}-${"0".repeat(8)}-${"0".repeat(32)}` });
    expect(response.status).toBe(200);
    expect(worker.sessions).toEqual(["first-primary"]);
    expect(response.headers.get("Cairn-Bookmark")).toMatch(POSITION);
  });

  it("a browser client may read the position (exposed to CORS)", async () => {
    const { apiKey } = await tenantAtDirectory();
    const worker = recordingEnv();
    const response = await worker.rest(apiKey, "/plans", { headers: { Origin: "https://app.example" } });
    expect(response.status).toBe(200);
    const exposed = (response.headers.get("Access-Control-Expose-Headers") ?? "").split(",").map((h) => h.trim().toLowerCase());
    expect(exposed).toContain("cairn-bookmark");
  });

  it("MCP calls carry the same position in _meta: handed out on every result, and a session from it when sent back", async () => {
    const { apiKey } = await tenantAtDirectory();
    const worker = recordingEnv();
    const call = async (name: string, args: Record<string, unknown>, position?: unknown) => {
      const response = await worker.fetch(mcpRequest(apiKey, "tools/call", { name, arguments: args, ...(position === undefined ? {} : { _meta: { "cairn/bookmark": position } }) }));
      const message = await readJsonRpc(response);
      expect(message.error).toBeUndefined();
      expect(response.headers.get("Cairn-Bookmark")).toBeNull();
      const result = message.result as { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[]; _meta?: Record<string, unknown> };
      return { result, position: result._meta?.["cairn/bookmark"] as string | undefined };
    };

    const first = await call("list_active_plans", {});
    expect(worker.sessions).toEqual(["first-primary"]);
    expect(first.position).toMatch(POSITION);

    const stored = await call("store_research", ARTIFACT, first.position);
    expect(stored.result.isError).toBeFalsy();
    expect(worker.sessions[1]).toBe(bookmarkOf(first.position ?? null));
    expect(bookmarkOf(stored.position ?? null) > bookmarkOf(first.position ?? null)).toBe(true);

    // A plan made over MCP: the position it hands back covers its entry in the list.
    const created = await call(
      "create_research_plan",
      { name: "[Scan] Replicas over MCP", researchQuestion: "Do replicas help?", steps: steps("search", "synthesize"), planDesignRationale: "Search, then write" },
      stored.position,
    );
    expect(created.result.isError).toBeFalsy();
    expect(bookmarkOf(created.position ?? null) > bookmarkOf(stored.position ?? null)).toBe(true);
    const listed = await call("list_active_plans", {}, created.position);
    expect(worker.sessions.at(-1)).toBe(bookmarkOf(created.position ?? null));
    expect((listed.result.structuredContent as { plans: { planId: string }[] }).plans.map((p) => p.planId)).toContain(created.result.structuredContent?.planId);
  });

  it("MCP: a position it did not hand out is a tool error naming the _meta key, and nothing is written", async () => {
    const { apiKey } = await tenantAtDirectory();
    const worker = recordingEnv();
    const artifacts = await countRows("artifacts");
    for (const position of ["garbage", 42, { database: "DB" }, `DB:${"0".repeat(300)}`]) {
      const response = await worker.fetch(mcpRequest(apiKey, "tools/call", { name: "store_research", arguments: ARTIFACT, _meta: { "cairn/bookmark": position } }));
      const message = await readJsonRpc(response);
      const result = message.result as { isError?: boolean; content: { text: string }[] };
      expect(result.isError, JSON.stringify(position)).toBe(true);
      const { error } = JSON.parse(result.content[0]?.text ?? "{}") as { error: { code: string; message: string } };
      expect(error.code).toBe("validation");
      expect(error.message).toContain("cairn/bookmark");
    }
    expect(await countRows("artifacts")).toBe(artifacts);
    expect(worker.sessions).toEqual([]);
  });

  it("MCP: a position newer than the database has reached is a tool error naming the _meta key, nothing is written, and it does not stick", async () => {
    const { apiKey } = await tenantAtDirectory();
    const worker = recordingEnv();
    const artifacts = await countRows("artifacts");
    const response = await worker.fetch(mcpRequest(apiKey, "tools/call", { name: "store_research", arguments: ARTIFACT, _meta: { "cairn/bookmark": `DB:${FUTURE}` } }));
    const result = (await readJsonRpc(response)).result as { isError?: boolean; content: { text: string }[]; _meta?: Record<string, unknown> };
    expect(result.isError).toBe(true);
    const { error } = JSON.parse(result.content[0]?.text ?? "{}") as { error: { code: string; message: string } };
    expect(error.code).toBe("validation");
    expect(error.message).toContain("cairn/bookmark");
    expect(result._meta?.["cairn/bookmark"]).toBeUndefined();
    expect(await countRows("artifacts")).toBe(artifacts);
    // Only the primary was asked where it stands; no session ever started from the forged value.
    expect(worker.sessions).not.toContain(FUTURE);
  });
});

/** A well-formed D1 bookmark no database has reached. */
const FUTURE = `ffffffff-ffffffff-ffffffff-${"f".repeat(32)}`;

/** `bookmark` moved `ahead` commits past where it is (the second field counts commits). */
function aheadOf(bookmark: string, ahead: number): string {
  const [term = "", count = "", ...rest] = bookmark.split("-");
  return [term, (Number.parseInt(count, 16) + ahead).toString(16).padStart(8, "0"), ...rest].join("-");
}

describe("read positions from the future", () => {
  it("REST: refuses one newer than the database has reached with 400 naming the header, writes nothing, and hands out no position", async () => {
    const { apiKey } = await tenantAtDirectory();
    const worker = recordingEnv();
    const now = bookmarkOf((await worker.rest(apiKey, "/plans")).headers.get("Cairn-Bookmark"));
    const artifacts = await countRows("artifacts");
    for (const bookmark of [FUTURE, aheadOf(now, 1000)]) {
      const response = await worker.rest(apiKey, "/artifacts", { method: "POST", body: JSON.stringify(ARTIFACT), position: `DB:${bookmark}` });
      expect(response.status, bookmark).toBe(400);
      const problem = (await response.json()) as { code: string; detail: string; issues: { path: string }[] };
      expect(problem.code).toBe("validation");
      expect(problem.detail).toContain("Cairn-Bookmark");
      expect(problem.issues[0]?.path).toBe("Cairn-Bookmark");
      expect(response.headers.get("Cairn-Bookmark")).toBeNull();
      expect(worker.sessions).not.toContain(bookmark);
    }
    expect(await countRows("artifacts")).toBe(artifacts);
    // It did not stick: the next call, without it, is handed a position the database really reached.
    const next = await worker.rest(apiKey, "/plans");
    expect(bookmarkOf(next.headers.get("Cairn-Bookmark")) < FUTURE).toBe(true);
    expect(bookmarkOf(next.headers.get("Cairn-Bookmark")) < aheadOf(now, 1000)).toBe(true);
  });

  it("accepts a real position this Worker has not handed out itself (written elsewhere), checking it once against the primary", async () => {
    const { apiKey, orgId } = await tenantAtDirectory();
    const worker = recordingEnv();
    // A write through another path (another isolate, the CLI): its position is newer than any this Worker has seen.
    const elsewhere = env.DB.withSession("first-primary");
    await elsewhere.prepare("UPDATE orgs SET name = name WHERE id = ?").bind(orgId).run();
    const written = elsewhere.getBookmark() ?? "";
    const response = await worker.rest(apiKey, "/plans", { position: `DB:${written}` });
    expect(response.status).toBe(200);
    expect(worker.sessions).toEqual(["first-primary", written]);
    const handedOut = bookmarkOf(response.headers.get("Cairn-Bookmark"));
    expect(handedOut >= written).toBe(true);
    // Now known: sending it (or what came back) again asks the primary nothing.
    const again = await worker.rest(apiKey, "/plans", { position: `DB:${handedOut}` });
    expect(again.status).toBe(200);
    expect(worker.sessions).toEqual(["first-primary", written, handedOut]);
  });
});
