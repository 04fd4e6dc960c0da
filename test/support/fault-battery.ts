import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { drainQueue, type FaultKind, faultHarness, runAlarms, type StorageCall } from "./faults";
import { hookPath, newTenant, type Outcome, type Scenario, type Tenant } from "./fault-scenarios";
import { canonicalExport, danglingReferences, exportDifference, ftsProblems, planIndexMismatches, sessionIndexMismatches } from "./org-invariants";

/**
 * The fault battery: for every write operation of the registry and every writer the platform runs
 * (webhook consumer, plan alarm, org import and erasure, retention cron, the source-check consumer and a
 * re-check after delivery), each storage call the operation makes is failed in turn — D1, KV, R2, a queue
 * send, a plan or session object call (thrown before it runs; for objects also a reset after it ran) —
 * then the call is retried as a client or the platform would, the platform's follow-up work runs (plan alarms, queue redelivery),
 * and the org must be as if nothing had failed: its plan index equals its plan objects, no row names
 * a missing one, every event decided is delivered and none twice, the full-text indexes pass their
 * integrity check, and its export equals the export of the same calls run without a fault.
 *
 * Its scenarios are run by two test files (test/workers/fault-battery*.test.ts), each in a runtime of its own, so
 * that on two cores both halves run at once; each file calls `faultBatteryTests` with its scenarios (split by
 * PLATFORM_SCENARIOS_WITH_OPERATIONS).
 */

/**
 * The platform's writers run in fault-battery.test.ts beside the operations, so the two files take about as long
 * (measured alone: the operations 279 s, org import 189 s, retention cron 222 s, org erasure 92 s, webhook consumer
 * 37 s); the rest of the platform's are fault-battery-platform.test.ts's. The two files filter by this one set, so
 * every scenario runs in exactly one of them.
 */
export const PLATFORM_SCENARIOS_WITH_OPERATIONS: ReadonlySet<string> = new Set(["org erasure", "webhook consumer"]);

const h = faultHarness();
const realFetch = globalThis.fetch;
/** Webhook deliveries received, by receiver path. */
const received = new Map<string, { id: string; type: string }[]>();

const orgPlans = async (orgId: string) =>
  (await env.DB.prepare("SELECT plan_id FROM plans WHERE org_id = ?").bind(orgId).all<{ plan_id: string }>()).results.map((row) => `${orgId}:${row.plan_id}`);

const ofOrg = (names: Set<string>, t: Tenant) => [...names].filter((name) => name.startsWith(`${t.orgId}:`));

/** The webhook sweep cron (src/index.ts), as it runs every five minutes. */
const SWEEP_CRON = "*/5 * * * *";
/** Far enough ahead that every event waiting in an outbox and every delivery left pending is due for the sweep. */
const SWEEP_AHEAD_MS = 3 * 60 * 60 * 1000;

/**
 * The platform's follow-up work until nothing is left: object alarms (outbox and index retries), the webhook
 * sweep cron (events left in an outbox, deliveries left pending), then the queue.
 */
async function settle(t: Tenant): Promise<void> {
  for (let round = 0; round < 3; round++) {
    await runAlarms(h.env, "PLAN", new Set([...(await orgPlans(t.orgId)), ...ofOrg(h.plan.objects.PLAN, t)]));
    await runAlarms(h.env, "SEARCH_SESSION", ofOrg(h.plan.objects.SEARCH_SESSION, t));
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now() + SWEEP_AHEAD_MS, cron: SWEEP_CRON }), h.env as never);
    await drainQueue(h.plan, h.env);
  }
}

/** Events received for the org: distinct webhook-ids per type (a repeated id is one event delivered again). */
function eventsOf(t: Tenant): Record<string, number> {
  const ids = new Map<string, string>();
  for (const delivery of received.get(hookPath(t.orgId)) ?? []) ids.set(delivery.id, delivery.type);
  const byType: Record<string, number> = {};
  for (const type of ids.values()) byType[type] = (byType[type] ?? 0) + 1;
  return byType;
}

async function undelivered(t: Tenant): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT event_type, status, last_error FROM webhook_deliveries WHERE org_id = ? AND status <> 'delivered'")
    .bind(t.orgId)
    .all<{ event_type: string; status: string; last_error: string | null }>();
  return results.map((row) => `a ${row.event_type} delivery is left ${row.status}${row.last_error ? ` (${row.last_error})` : ""}`);
}

/** Nothing of an erased org is left anywhere it lived (its plans and sessions: those it had, and any the Worker wrote to). */
async function leftOfErasedOrg(t: Tenant, planIds: string[]): Promise<string[]> {
  const problems: string[] = [];
  const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%org_id%' AND name NOT LIKE '%_fts%'").all<{ name: string }>();
  for (const { name } of results) {
    const n = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${name} WHERE org_id = ?`).bind(t.orgId).first<number>("n");
    if (n) problems.push(`${n} row(s) of ${name} left`);
  }
  if (await env.DB.prepare("SELECT 1 FROM orgs WHERE id = ?").bind(t.orgId).first()) problems.push("the org row is left");
  const real = env as unknown as Env;
  for (const name of new Set([...planIds.map((id) => `${t.orgId}:${id}`), ...ofOrg(h.plan.objects.PLAN, t)])) {
    if (await real.PLAN.getByName(name).exportState()) problems.push(`plan object ${name.split(":")[1]} still holds its plan`);
  }
  for (const name of ofOrg(h.plan.objects.SEARCH_SESSION, t)) {
    if (await real.SEARCH_SESSION.getByName(name).exportState()) problems.push(`search session object ${name.split(":")[1]} still holds its session`);
  }
  return problems;
}

interface Run {
  calls: StorageCall[];
  first: Outcome;
  retried: Outcome | null;
  problems: string[];
  export: string[];
  events: Record<string, number>;
}

/** One run of a scenario in a fresh org: prepare, act with the fault armed, retry, settle, check. */
async function runOnce(scenario: Scenario, failAt: number | null, kind: FaultKind, baseline: Run | null): Promise<Run> {
  const t = await newTenant();
  // Source checks another run sent (its operations' sends) are not this run's to drain.
  h.plan.sourceChecks.length = 0;
  const prepared = await scenario.prepare(h, t);
  await settle(t);
  await scenario.stage?.(h, t, prepared);
  received.delete(hookPath(t.orgId));
  // A reset of a call the client may not repeat: the call must have happened whole or not at all.
  const before = kind === "reset" && !scenario.repeatable ? await canonicalExport(t.orgId) : null;
  const planIds = (await orgPlans(t.orgId)).map((name) => name.split(":")[1] ?? "");
  let raced: Outcome | null = null;
  const race = kind === "race" && scenario.race ? scenario.race : null;
  const raceWrite = async () => {
    if (race) raced = await race.write(h, t);
  };
  h.plan.arm(failAt, kind, race ? { thenThrow: race.thenThrow, write: raceWrite } : null);
  const first = await scenario.act(h, t, prepared);
  const calls = h.plan.disarm();
  const problems: string[] = [];
  // A failure is answered, as any error is: problem details or a tool error with a correlation id, never the platform's page.
  if (first.detail.startsWith("threw:")) problems.push(`the Worker threw instead of answering: ${first.detail}`);
  let retried: Outcome | null = null;
  // A client retries what failed; after a reset only what it may safely repeat. The platform always retries its own work.
  if (first.failed && (kind !== "reset" || scenario.repeatable)) {
    retried = await scenario.act(h, t, prepared);
    const refused = race?.refusal?.test(retried.detail) === true && raced !== null && !(raced as Outcome).failed;
    if (retried.failed && !refused) problems.push(`the retry failed: ${retried.detail}`);
  }
  await settle(t);
  if (scenario.erases) {
    problems.push(...(await leftOfErasedOrg(t, planIds)));
  } else {
    problems.push(...(await planIndexMismatches(t.orgId, h.plan.objects.PLAN)));
    problems.push(...(await sessionIndexMismatches(t.orgId, h.plan.objects.SEARCH_SESSION)));
    problems.push(...(await danglingReferences(t.orgId)));
    problems.push(...(await undelivered(t)));
  }
  problems.push(...(await ftsProblems()));
  if (scenario.check) problems.push(...(await scenario.check(h, t, prepared)));
  const acknowledged = race !== null && raced !== null && !(raced as Outcome).failed;
  if (acknowledged && !scenario.erases && !(await race.kept(t))) problems.push(`a write acknowledged while ${scenario.name} ran was lost`);
  const exported = scenario.erases ? [] : await canonicalExport(t.orgId);
  const events = eventsOf(t);
  // A write that raced in and was kept changes what the export holds: the other checks still apply.
  if (baseline && !(acknowledged && !scenario.erases)) {
    // Without a retry, "not at all" is as good as "whole": then nothing may have been sent either.
    const untouched = before !== null && exportDifference(before, exported) === null;
    const expected = untouched ? {} : baseline.events;
    const difference = exportDifference(baseline.export, exported);
    if (difference && !untouched) problems.push(`the export differs from the fault-free run's: ${difference}`);
    for (const type of new Set([...Object.keys(expected), ...Object.keys(events)])) {
      const want = expected[type] ?? 0;
      const got = events[type] ?? 0;
      if (got < want) problems.push(`${type}: ${want - got} event(s) decided were never delivered`);
      if (got > want) problems.push(`${type}: ${got} distinct events delivered where the fault-free run decides ${want}`);
    }
  }
  return { calls, first, retried, problems, export: exported, events };
}

interface PairResult {
  scenario: string;
  n: number;
  kind: FaultKind;
  call: string;
  problems: string[];
}


/**
 * Pairs that fail today for a reason not yet fixed, each named with why (printed as "known gap", not failing the
 * test). The gaps the battery found before (an event lost when the queue refused its send, a delivery left pending,
 * writes racing an import or an erasure, a re-check's audit row lost) are closed.
 */
const KNOWN_GAPS: { scenario: RegExp; kind: FaultKind; call: RegExp; why: string }[] = [
  {
    // src/platform/sources/imported.ts runs after the import has committed, best effort: when its read of the
    // check budget or its marking of the sources as pending fails, the import still answers 200 (nothing to
    // retry: the org now holds research), and the imported sources keep no verdict and are never queued.
    scenario: /^org import$/,
    kind: "throw",
    call: /verification_requested_at/,
    why: "the imported sources' checks are not queued when that step fails after the import committed: they stay unchecked",
  },
  // The same for rebuildDeliveredSources (src/storage/delivered-sources.ts), run after the commit and best effort: when
  // it fails, the imported deliverables record no cited sources, so their sources are never re-checked.
  ...(["throw", "race"] as const).map((kind) => ({
    scenario: /^org import$/,
    kind,
    call: /FROM research_outputs o JOIN evidence_ledg|SELECT n FROM ledger_evidence WHERE org_id = \? AND plan_id = \?|INSERT INTO research_output_sources/,
    why: "the imported deliverables' cited sources are not recorded when that step fails after the import committed",
  })),
];

const knownGap = (pair: PairResult) => KNOWN_GAPS.find((gap) => gap.scenario.test(pair.scenario) && gap.kind === pair.kind && gap.call.test(pair.call));

async function battery(scenario: Scenario, results: PairResult[]): Promise<void> {
  const baseline = await runOnce(scenario, null, "throw", null);
  expect(baseline.first.failed, `${scenario.name} without a fault: ${baseline.first.detail}`).toBe(false);
  expect(baseline.problems, `${scenario.name} without a fault`).toEqual([]);
  expect(baseline.calls.length, `${scenario.name} makes storage calls`).toBeGreaterThan(0);
  const failures: string[] = [];
  for (const call of baseline.calls) {
    const kinds: FaultKind[] = [
      "throw",
      ...(call.binding === "PLAN" || call.binding === "SEARCH_SESSION" ? (["reset"] as const) : []),
      ...(scenario.race ? (["race"] as const) : []),
    ];
    for (const kind of kinds) {
      const run = await runOnce(scenario, call.n, kind, baseline);
      const injected = h.plan.injected;
      const at = injected ? `${injected.binding}: ${injected.what}` : `(not reached; fault-free call ${call.binding}: ${call.what})`;
      const label = kind === "race" ? `${call.binding}: ${call.what}${scenario.race?.thenThrow && injected ? `, then a throw at ${at}` : ""}` : at;
      const pair: PairResult = { scenario: scenario.name, n: call.n, kind, call: label, problems: run.problems };
      results.push(pair);
      if (run.problems.length && !knownGap(pair)) failures.push(`#${call.n} ${kind} at ${pair.call} (first: ${run.first.detail.slice(0, 120)})\n    ${run.problems.join("\n    ")}`);
    }
  }
  expect(failures, `${scenario.name}: pairs that lost or doubled something`).toEqual([]);
}

/**
 * The battery's tests for `scenarios`: one test per scenario (its fault-free run, then every pair), and after them a
 * line of what was tried. Call inside the file's describe.
 */
export function faultBatteryTests(scenarios: readonly Scenario[]): void {
  const results: PairResult[] = [];
  const startedAt = Date.now();
  beforeAll(() => {
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.hostname !== "hooks.example.com") return realFetch(input, init);
      const body = JSON.parse(await request.text()) as { type: string };
      const list = received.get(url.pathname) ?? [];
      list.push({ id: request.headers.get("webhook-id") ?? "", type: body.type });
      received.set(url.pathname, list);
      return new Response("ok");
    };
  });
  afterAll(() => {
    globalThis.fetch = realFetch;
  });

  for (const scenario of scenarios) {
    it(scenario.name, () => battery(scenario, results), 600_000);
  }

  afterAll(() => {
    const failing = results.filter((pair) => pair.problems.length > 0);
    console.log(
      [
        `fault battery: ${results.length} (operation × fault point) pairs tried in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (${["throw", "reset", "race"].map((kind) => `${results.filter((pair) => pair.kind === kind).length} ${kind}`).join(", ")}; ${results.filter((pair) => pair.call.startsWith("(not reached")).length} whose call did not come); ${failing.length} failing`,
        ...results.filter((pair) => pair.call.startsWith("(not reached")).map((pair) => `  not reached: ${pair.scenario} #${pair.n} ${pair.kind} ${pair.call}`),
        ...failing.map((pair) => `  ${knownGap(pair) ? "known gap" : "FAILS"}: ${pair.scenario} #${pair.n} ${pair.kind} at ${pair.call}: ${pair.problems[0]?.slice(0, 300)}`),
      ].join("\n"),
    );
  });
}
