import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";

declare module "vitest" {
  interface TaskMeta {
    /** Round trips before the answer, per call: `npm run bench` reads them from the JSON reporter and prints them. */
    roundTrips?: Record<string, number>;
  }
}
import worker from "../../src/index";
import type { Env } from "../../src/env";
import { completeNextStep, createPlan, ok, REPORT } from "../support/plans";
import { mcpRequest, readJsonRpc, seedApiKey, seedTenant, seedUser, tokensFor } from "../support/worker";

/**
 * Storage round trips on the critical path of a call, counted by wrapping the
 * real bindings the Worker is given: D1 statements, KV reads and writes,
 * Durable Object calls. Writes the Worker hands to waitUntil (the tool-call
 * log, an API key's last use) happen after the answer and are listed apart.
 */

interface Trip {
  binding: string;
  what: string;
}

const BACKGROUND = [/^INSERT INTO tool_call_log/i, /^UPDATE api_keys SET last_used_at/i];

function countingD1(db: D1Database, trips: Trip[]): D1Database {
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const record = () => trips.push({ binding: "DB", what: sql.replace(/\s+/g, " ").trim().slice(0, 200) });
    return new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        if (property === "__real") return target;
        if (property === "__sql") return sql;
        const value = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        if (["first", "all", "run", "raw"].includes(String(property))) {
          return (...args: unknown[]) => {
            record();
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
  };
  return new Proxy(db, {
    get(target, property) {
      // REST and MCP calls read through a session of the binding (read replicas): its statements count the same.
      if (property === "withSession") return (constraint: string) => countingD1(target.withSession(constraint) as unknown as D1Database, trips);
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          const first = (statements[0] as unknown as { __sql?: string } | undefined)?.__sql ?? "";
          trips.push({ binding: "DB", what: `${first.replace(/\s+/g, " ").trim().slice(0, 200)}${statements.length > 1 ? ` (batch of ${statements.length})` : ""}` });
          return target.batch(statements.map((s) => (s as unknown as { __real?: D1PreparedStatement }).__real ?? s));
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function countingKv(kv: KVNamespace, trips: Trip[]): KVNamespace {
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        trips.push({ binding: "KV", what: `${String(property)} ${String(args[0]).split(":")[0]}` });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

function countingNamespace<T extends Rpc.DurableObjectBranded | undefined>(ns: DurableObjectNamespace<T>, name: string, trips: Trip[]): DurableObjectNamespace<T> {
  const stubOf = (stub: DurableObjectStub<T>) =>
    new Proxy(stub, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== "function" || property === "then") return value;
        return (...args: unknown[]) => {
          trips.push({ binding: name, what: String(property) });
          // Reflect.apply: on an RPC stub, `.apply` would be a remote method of that name.
          return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        };
      },
    });
  return new Proxy(ns, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "get" || property === "getByName") return (...args: unknown[]) => stubOf((value as (...a: unknown[]) => DurableObjectStub<T>).apply(target, args));
      return value.bind(target);
    },
  });
}

/** The request as a client sends it (with its Host header). */
function mcpCall(token: string, name: string, args: Record<string, unknown>): Request<unknown, IncomingRequestCfProperties> {
  const request = mcpRequest(token, "tools/call", { name, arguments: args });
  const headers = new Headers(request.headers);
  headers.set("host", new URL(request.url).host);
  return new Request(request, { headers }) as Request<unknown, IncomingRequestCfProperties>;
}

/** One Env for a run of calls (the Worker keeps per-env state, as it does across requests). */
function countingEnv() {
  const trips: Trip[] = [];
  const base = env as unknown as Env;
  const wrapped: Env = {
    ...base,
    DB: countingD1(base.DB, trips),
    OAUTH_KV: countingKv(base.OAUTH_KV, trips),
    PLAN: countingNamespace(base.PLAN, "PLAN", trips),
    SEARCH_SESSION: countingNamespace(base.SEARCH_SESSION, "SEARCH_SESSION", trips),
  };
  return {
    env: wrapped,
    /** Calls `name` and returns the trips it took before answering, and the ones it left to waitUntil. */
    async call(token: string, name: string, args: Record<string, unknown>) {
      trips.length = 0;
      const ctx = createExecutionContext();
      const response = await worker.fetch(mcpCall(token, name, args), wrapped, ctx);
      const body = await readJsonRpc(response);
      if (body.error || (body.result as { isError?: boolean } | undefined)?.isError) throw new Error(`${name} failed: ${JSON.stringify(body)}`);
      const beforeAnswer = trips.filter((trip) => !(trip.binding === "DB" && BACKGROUND.some((pattern) => pattern.test(trip.what))));
      await waitOnExecutionContext(ctx);
      const background = trips.filter((trip) => !beforeAnswer.includes(trip));
      return { critical: beforeAnswer.map((t) => `${t.binding}: ${t.what}`), background: background.map((t) => `${t.binding}: ${t.what}`), result: body.result };
    },
    /** GETs a REST path and returns the trips it took before answering. */
    async get(token: string, path: string) {
      trips.length = 0;
      const ctx = createExecutionContext();
      const request = new Request(`http://localhost:8787/api/v1${path}`, { headers: { authorization: `Bearer ${token}`, host: "localhost:8787" } });
      const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, wrapped, ctx);
      if (!response.ok) throw new Error(`GET ${path} failed: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      const beforeAnswer = trips.filter((trip) => !(trip.binding === "DB" && BACKGROUND.some((pattern) => pattern.test(trip.what))));
      await waitOnExecutionContext(ctx);
      return { critical: beforeAnswer.map((t) => `${t.binding}: ${t.what}`), position: response.headers.get("Cairn-Bookmark") };
    },
  };
}

const storage = (trips: string[], binding: string) => trips.filter((trip) => trip.startsWith(`${binding}:`));

/** Before a plan's object is reached, the org's plan index is asked whether it holds the id: one read by primary key. */
const PLAN_LOOKUP = "DB: SELECT 1 AS held FROM plans WHERE plan_id = ? AND org_id = ?";

describe("round trips on the critical path", () => {
  it("an OAuth token verified in the last 30 s costs nothing to check; a plan read or a step transition is one indexed D1 read and one Durable Object call; a list one D1 query", async ({ task }) => {
    const { orgId, apiKey } = await seedTenant();
    const user = await seedUser(orgId, "admin");
    const { tokens } = await tokensFor({ email: user.email, password: user.password });
    const { planId } = await createPlan(apiKey);
    const counting = countingEnv();

    const first = await counting.call(tokens.access_token, "get_plan_status", { planId });
    // The first time: the provider reads the token from KV, and the membership is read.
    expect(storage(first.critical, "KV").length).toBeGreaterThanOrEqual(1);
    expect(storage(first.critical, "PLAN")).toEqual(["PLAN: read"]);
    expect(first.critical.filter((trip) => trip === PLAN_LOOKUP)).toHaveLength(1);

    const again = await counting.call(tokens.access_token, "get_plan_status", { planId });
    expect(again.critical).toEqual([PLAN_LOOKUP, "PLAN: read"]);
    expect(again.background).toHaveLength(1);
    expect(again.background[0]).toMatch(/^DB: INSERT INTO tool_call_log/i);

    const next = await counting.call(tokens.access_token, "get_next_step", { planId });
    expect(next.critical).toEqual([PLAN_LOOKUP, "PLAN: run"]);
    const step = next.result as { structuredContent: { step: { stepId: string }; claimId: string } };
    const submitted = await counting.call(tokens.access_token, "submit_step_result", {
      planId,
      stepId: step.structuredContent.step.stepId,
      claimId: step.structuredContent.claimId,
      result: { done: true },
      confidence: 0.8,
      stepExecutionReport: REPORT,
    });
    expect(submitted.critical).toEqual([PLAN_LOOKUP, "PLAN: run"]);

    const listed = await counting.call(tokens.access_token, "list_active_plans", {});
    expect(storage(listed.critical, "DB")).toHaveLength(1);
    expect(listed.critical).toHaveLength(1);
    // The same list over REST reads through a D1 session (so replicas may answer): still one query.
    const overRest = await counting.get(tokens.access_token, "/plans");
    expect(overRest.critical).toHaveLength(1);
    // The plans list, with whether each is a scheduled run still due, in the one query (its text is cut at 200 characters).
    expect(overRest.critical[0]).toMatch(/^DB: SELECT \*, \(completed_steps = 0 .*FROM plan_series_runs r WHERE r\.org_id = plans\.org_id/);
    expect(overRest.position).toMatch(/^DB:/);
    task.meta.roundTrips = {
      "OAuth token check, verified < 30 s": again.critical.filter((trip) => !trip.startsWith("PLAN:") && trip !== PLAN_LOOKUP).length,
      get_plan_status: again.critical.length,
      get_next_step: next.critical.length,
      submit_step_result: submitted.critical.length,
      list_active_plans: listed.critical.length,
      "list_active_plans over REST (D1 session)": overRest.critical.length,
    };
  });

  it("an API key verified in the last 30 s costs nothing to check either, and search is counted", async ({ task }) => {
    const { apiKey: setupKey, orgId, admin } = await seedTenant();
    const { planId } = await createPlan(setupKey);
    await completeNextStep(setupKey, planId);
    // A key this isolate has not seen yet.
    const apiKey = (await seedApiKey(orgId, admin.userId)).key;
    await ok(setupKey, "store_research", { title: "Heat pump COP at -20 C", content: { cop: 3.1 }, contentText: "Ground-source heat pumps keep a COP above 3 at -20 C.", artifactType: "finding", planId });
    const counting = countingEnv();
    const first = await counting.call(apiKey, "get_plan_status", { planId });
    expect(storage(first.critical, "DB").some((trip) => trip.includes("FROM api_keys"))).toBe(true);
    const again = await counting.call(apiKey, "get_plan_status", { planId });
    expect(again.critical).toEqual([PLAN_LOOKUP, "PLAN: read"]);
    const searched = await counting.call(apiKey, "search_sources", { query: "heat pump" });
    // Artifacts (with whether their ranking window was full), deliverables and claims in one D1 batch: one round trip.
    // An org whose artifacts are all in the recent index is answered from it alone.
    expect(searched.critical).toHaveLength(1);
    expect(searched.critical[0]).toMatch(/^DB: WITH win AS MATERIALIZED \(SELECT artifacts_recent_fts\.rowid .*\(batch of 3\)$/);
    expect(JSON.stringify(searched.result)).toContain("Heat pump COP at -20 C");
    // A query none of whose results has every term asks once more for any term: a second round trip, only then.
    const loose = await counting.call(apiKey, "search_sources", { query: "heat pump tram" });
    expect(loose.critical).toHaveLength(2);
    // With a word long enough to begin longer ones, the words are first tried as heads ("zeppelin" → "zeppelinwerft"):
    // a third round trip, taken only when the words as written find fewer than asked for.
    const heads = await counting.call(apiKey, "search_sources", { query: "heat pump zeppelin" });
    expect(heads.critical).toHaveLength(3);
    // A prefix: its hits' snippets are read next, each looked up with its own words (one more round trip, one batch).
    const prefixed = await counting.call(apiKey, "search_sources", { query: "heat pum*" });
    expect(prefixed.critical).toHaveLength(2);
    expect(prefixed.critical[1]).toMatch(/^DB: SELECT snippet\(artifacts_fts/);
    expect(JSON.stringify(prefixed.result)).toContain("«pumps»");
    task.meta.roundTrips = {
      "API key check, verified < 30 s": again.critical.filter((trip) => !trip.startsWith("PLAN:") && trip !== PLAN_LOOKUP).length,
      search_sources: searched.critical.length,
      "search_sources, no result with every term": loose.critical.length,
      "search_sources, no result with every term, a word tried as a head": heads.critical.length,
      "search_sources with a prefix (snippets read next)": prefixed.critical.length,
    };
  });

  it("forgets within the bound what it must: a revoked API key and a removed member are refused", async () => {
    const { orgId } = await seedTenant();
    const member = await seedUser(orgId, "member");
    const key = await seedApiKey(orgId, member.userId);
    const counting = countingEnv();
    await counting.call(key.key, "list_active_plans", {});
    // Revoked in D1 by another isolate (or the CLI): this isolate trusts its memory for at most 30 s ...
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(Date.now(), key.id).run();
    await counting.call(key.key, "list_active_plans", {});
    // ... but a removed member is out within the membership bound (5 s), API key or not.
    await env.DB.prepare("DELETE FROM memberships WHERE org_id = ? AND user_id = ?").bind(orgId, member.userId).run();
    // The Worker shares this isolate and reads the time through Date.now: the clock moves on 5.1 s instead of the test sleeping them.
    const later = Date.now() + 5_100;
    vi.spyOn(Date, "now").mockImplementation(() => later);
    try {
      const ctx = createExecutionContext();
      const refused = await worker.fetch(mcpCall(key.key, "list_active_plans", {}), counting.env, ctx);
      expect(refused.status).toBe(401);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
