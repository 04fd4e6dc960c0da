
import { env } from "cloudflare:workers";
import { WEBHOOK_EVENT_TYPES } from "../../src/domain/webhooks/events";
import type { Env } from "../../src/env";
import { homeDatabase } from "../../src/platform/org-homes";
import { createWebhook } from "../../src/platform/webhooks/admin";
import type { FaultPlan } from "./faults";
import type { FetchLike } from "./oauth-flow";
import { REPORT, steps } from "./plans";
import { mcpRequest, ORIGIN, readJsonRpc, seedApiKey, seedTenant } from "./worker";

/**
 * The battery's scenarios for every write operation of the registry (the platform's own writers are in
 * platform-fault-scenarios.ts). Each prepares a fresh org over the harness with no fault armed, then
 * `act`s once; the battery arms a fault around `act`.
 */

export const ADMIN_SCOPES = ["research:read", "research:write", "org:admin"] as const;

/** One org of the battery: an admin's API key with every scope, and a webhook subscription for every event. */
export interface Tenant {
  orgId: string;
  userId: string;
  key: string;
  slug: string;
}

export interface Harness {
  plan: FaultPlan;
  env: Env;
  fetch: FetchLike;
}

export interface Outcome {
  failed: boolean;
  detail: string;
}

export interface Scenario {
  name: string;
  /** After a reset (the call ran, the caller saw an error) the call may be answered by repeating the call (the operation says it is idempotent, or the platform repeats it). */
  repeatable: boolean;
  prepare(h: Harness, t: Tenant): Promise<Record<string, unknown>>;
  /** After the preparation has settled (alarms run, queue drained), what the platform scenario acts on. */
  stage?(h: Harness, t: Tenant, prepared: Record<string, unknown>): Promise<void>;
  act(h: Harness, t: Tenant, prepared: Record<string, unknown>): Promise<Outcome>;
  /** What must hold after this scenario beyond the battery's invariants. */
  check?(h: Harness, t: Tenant, prepared: Record<string, unknown>): Promise<string[]>;
  /** The org is gone afterwards (erasure): its export is compared as empty, and nothing of it may be left. */
  erases?: boolean;
  /**
   * A member's write that may race this operation: it runs at each storage call in turn; `thenThrow`
   * fails the call after it (an operation that undoes itself on failure). A write the client was told
   * succeeded must be `kept` afterwards (unless the org is erased).
   */
  race?: {
    thenThrow: boolean;
    write(h: Harness, t: Tenant): Promise<Outcome>;
    kept(t: Tenant): Promise<boolean>;
    /** How the operation may refuse, and keep refusing, once the racing write is in (a clear answer, nothing lost). */
    refusal?: RegExp;
  };
}

export const hookPath = (orgId: string) => `/hooks/${orgId}`;

export async function newTenant(): Promise<Tenant> {
  const tenant = await seedTenant();
  const admin = await seedApiKey(tenant.orgId, tenant.admin.userId, [...ADMIN_SCOPES]);
  await createWebhook(env as unknown as Env, tenant.orgId, tenant.admin.userId, ORIGIN, { url: `https://hooks.example.com${hookPath(tenant.orgId)}`, events: [...WEBHOOK_EVENT_TYPES] }, Date.now());
  const slug = String(await env.DB.prepare("SELECT slug FROM orgs WHERE id = ?").bind(tenant.orgId).first("slug"));
  return { orgId: tenant.orgId, userId: tenant.admin.userId, key: admin.key, slug };
}

/** One MCP tool call over the harness; failed when the client would see a failure. */
export async function call(h: Harness, key: string, name: string, args: Record<string, unknown>): Promise<Outcome & { body: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await h.fetch(mcpRequest(key, "tools/call", { name, arguments: args }));
  } catch (error) {
    // The Worker threw: the platform answers 500.
    return { failed: true, detail: `threw: ${String(error).slice(0, 200)}`, body: {} };
  }
  if (response.status >= 400) return { failed: true, detail: `HTTP ${response.status}`, body: {} };
  const message = await readJsonRpc(response);
  if (message.error) return { failed: true, detail: `JSON-RPC ${message.error.code}: ${message.error.message}`, body: {} };
  const text = message.result?.content?.[0]?.text ?? "null";
  const body = JSON.parse(text) as Record<string, unknown>;
  return { failed: message.result?.isError === true, detail: message.result?.isError ? JSON.stringify(body).slice(0, 300) : "ok", body };
}

/** A call that must work (scenario preparation, no fault armed). */
export async function must(h: Harness, key: string, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await call(h, key, name, args);
  if (result.failed) throw new Error(`${name} failed while preparing: ${result.detail}`);
  return result.body;
}

const tool =
  (name: string, args: (prepared: Record<string, unknown>) => Record<string, unknown>) =>
  (h: Harness, t: Tenant, prepared: Record<string, unknown>) =>
    call(h, t.key, name, args(prepared));

export const planArgs = (stepList = steps("search", "analyze")) => ({
  name: "[Scan] Tidal power",
  researchQuestion: "Is tidal power viable for small islands?",
  steps: stepList,
  planDesignRationale: "Search, then analyze",
});

export async function plan(h: Harness, t: Tenant, stepList = steps("search", "analyze")): Promise<string> {
  return String((await must(h, t.key, "create_research_plan", planArgs(stepList))).planId);
}

export async function claimed(h: Harness, t: Tenant, planId: string): Promise<{ stepId: string; claimId: string }> {
  const next = (await must(h, t.key, "get_next_step", { planId })) as { step: { stepId: string }; claimId: string };
  return { stepId: next.step.stepId, claimId: next.claimId };
}

export const source = (n: number) => ({ url: `https://example.org/tidal-${n}`, title: `Tidal source ${n}`, facts: `Lagoon ${n} yields 3 MW.`, fetchedAt: "2026-11-20T10:00:00Z", subtopic: "Yield", query: "tidal yield" });

/** Every operation of the registry that writes, by name. */
export const OPERATION_SCENARIOS: Scenario[] = [
  {
    name: "log_skill_execution",
    repeatable: false,
    prepare: async () => ({}),
    act: tool("log_skill_execution", () => ({ skillName: "research-deep", metadata: { topic: "Tidal power" } })),
  },
  {
    name: "create_research_plan",
    repeatable: false,
    prepare: async () => ({}),
    act: tool("create_research_plan", () => planArgs()),
  },
  {
    name: "get_next_step",
    repeatable: true,
    prepare: async (h, t) => ({ planId: await plan(h, t) }),
    act: tool("get_next_step", (p) => ({ planId: p.planId })),
  },
  {
    name: "submit_step_result",
    repeatable: true,
    // A one-step plan: the submission completes it, so plan.completed leaves through the outbox.
    prepare: async (h, t) => {
      const planId = await plan(h, t, steps("search"));
      return { planId, ...(await claimed(h, t, planId)) };
    },
    act: tool("submit_step_result", (p) => ({ planId: p.planId, stepId: p.stepId, claimId: p.claimId, result: { lagoons: 3 }, confidence: 0.8, stepExecutionReport: REPORT })),
  },
  {
    name: "modify_plan",
    repeatable: false,
    prepare: async (h, t) => ({ planId: await plan(h, t) }),
    act: tool("modify_plan", (p) => ({ planId: p.planId, action: "add", modificationRationale: "Costs matter", steps: [{ stepType: "analyze", instructions: "Compare costs" }] })),
  },
  {
    name: "request_user_review",
    repeatable: false,
    prepare: async (h, t) => {
      const planId = await plan(h, t, [{ stepType: "checkpoint", instructions: "Confirm scope" }, ...steps("synthesize")]);
      return { planId, ...(await claimed(h, t, planId)) };
    },
    act: tool("request_user_review", (p) => ({ planId: p.planId, stepId: p.stepId, claimId: p.claimId, presentation: "Scope: islands under 10k people", questions: ["Include estuaries?"] })),
  },
  {
    name: "submit_review",
    repeatable: false,
    prepare: async (h, t) => {
      const planId = await plan(h, t, [{ stepType: "checkpoint", instructions: "Confirm scope" }, ...steps("synthesize")]);
      const step = await claimed(h, t, planId);
      await must(h, t.key, "request_user_review", { planId, stepId: step.stepId, claimId: step.claimId, presentation: "Scope?", questions: ["Estuaries?"] });
      return { planId, stepId: step.stepId };
    },
    act: tool("submit_review", (p) => ({ planId: p.planId, stepId: p.stepId, decision: "approve", feedback: "Go ahead" })),
  },
  {
    name: "cancel_plan",
    repeatable: true,
    prepare: async (h, t) => ({ planId: await plan(h, t) }),
    act: tool("cancel_plan", (p) => ({ planId: p.planId, reason: "Out of scope" })),
  },
  {
    name: "sequential_search",
    repeatable: false,
    prepare: async () => ({}),
    act: tool("sequential_search", () => ({ stepNumber: 1, researchGoal: "Tidal power for islands", searchStep: "Step 1 findings", nextStepNeeded: true })),
  },
  {
    name: "sequential_search (a later step)",
    repeatable: true,
    prepare: async (h, t) => {
      const first = await must(h, t.key, "sequential_search", { stepNumber: 1, researchGoal: "Tidal power for islands", searchStep: "Step 1 findings", nextStepNeeded: true });
      return { sessionId: first.sessionId };
    },
    act: tool("sequential_search", (p) => ({ sessionId: p.sessionId, stepNumber: 2, searchStep: "Step 2 findings", nextStepNeeded: true })),
  },
  {
    name: "store_research",
    repeatable: false,
    prepare: async (h, t) => ({ planId: await plan(h, t) }),
    act: tool("store_research", (p) => ({ artifactType: "finding", title: "Lagoon yield", content: { mw: 3 }, contentText: "Tidal lagoons yield 3 MW each", planId: p.planId })),
  },
  {
    name: "store_research (a new version)",
    repeatable: false,
    prepare: async (h, t) => {
      const stored = await must(h, t.key, "store_research", { artifactType: "finding", title: "Lagoon yield", content: { mw: 3 }, contentText: "Tidal lagoons yield 3 MW each" });
      return { artifactId: stored.artifactId };
    },
    act: tool("store_research", (p) => ({ artifactId: p.artifactId, artifactType: "finding", title: "Lagoon yield (revised)", content: { mw: 4 }, contentText: "Tidal lagoons yield 4 MW each" })),
  },
  {
    name: "delete_artifact",
    repeatable: false,
    prepare: async (h, t) => {
      const stored = await must(h, t.key, "store_research", { artifactType: "finding", title: "Lagoon yield", content: { mw: 3 }, contentText: "Tidal lagoons yield 3 MW each" });
      return { artifactId: stored.artifactId };
    },
    act: tool("delete_artifact", (p) => ({ artifactId: p.artifactId, reason: "Superseded" })),
  },
  {
    name: "extract_data",
    repeatable: false,
    prepare: async () => ({}),
    act: tool("extract_data", () => ({ records: [{ site: "Swansea", mw: 320 }], schema: { type: "object", properties: { site: { type: "string" }, mw: { type: "number" } }, required: ["site"] }, storeAs: { title: "Lagoon sites" } })),
  },
  {
    name: "store_research_output",
    repeatable: false,
    prepare: async (h, t) => ({ planId: await plan(h, t) }),
    act: tool("store_research_output", (p) => ({ planId: p.planId, title: "Tidal report", mediaType: "markdown", content: "# Tidal power\nViable." })),
  },
  {
    name: "record_evidence",
    repeatable: true,
    prepare: async (h, t) => ({ planId: await plan(h, t) }),
    act: tool("record_evidence", (p) => ({ planId: p.planId, subtopics: ["Yield"], evidence: [source(1), source(2)] })),
  },
  {
    name: "record_evidence (with the text the assistant read)",
    repeatable: true,
    prepare: async (h, t) => ({ planId: await plan(h, t) }),
    act: tool("record_evidence", (p) => ({ planId: p.planId, evidence: [{ ...source(1), sourceText: "Lagoon 1 yields 3 MW, the operator said." }, { ...source(2), sourceText: "Lagoon 2 yields 3 MW." }] })),
    // The org's count of page bytes is the bytes it keeps, whatever failed and was retried: each text counted once.
    check: async (_h, t) => {
      const home = await homeDatabase(env as unknown as Env, t.orgId);
      const counted = (await home.prepare("SELECT snapshot_bytes FROM orgs WHERE id = ?").bind(t.orgId).first<{ snapshot_bytes: number }>())?.snapshot_bytes;
      const kept = (await env.SOURCE_SNAPSHOTS.list({ prefix: `orgs/${t.orgId}/` })).objects.filter((o) => !o.key.includes("/urls/")).reduce((sum, o) => sum + o.size, 0);
      return counted === kept ? [] : [`the org counts ${counted} page bytes and keeps ${kept}`];
    },
  },
  {
    name: "record_claims",
    repeatable: true,
    prepare: async (h, t) => {
      const planId = await plan(h, t);
      await must(h, t.key, "record_evidence", { planId, subtopics: ["Yield"], evidence: [source(1)] });
      return { planId };
    },
    act: tool("record_claims", (p) => ({ planId: p.planId, claims: [{ subtopic: "Yield", text: "Lagoons yield 3 MW", evidenceRefs: ["E1"], workerId: "w1", confidence: 0.8 }] })),
  },
  {
    name: "record_verdicts",
    repeatable: true,
    prepare: async (h, t) => {
      const planId = await plan(h, t);
      await must(h, t.key, "record_evidence", { planId, subtopics: ["Yield"], evidence: [source(1)] });
      await must(h, t.key, "record_claims", { planId, claims: [{ subtopic: "Yield", text: "Lagoons yield 3 MW", evidenceRefs: ["E1"], workerId: "w1", confidence: 0.8 }] });
      return { planId };
    },
    act: tool("record_verdicts", (p) => ({ planId: p.planId, verdicts: [{ claim: "C1", kind: "reviewer", judge: "r1", shard: 1, verdict: "SUPPORTED" }] })),
  },
  {
    name: "submit_research_feedback",
    repeatable: false,
    prepare: async (h, t) => ({ planId: await plan(h, t) }),
    act: tool("submit_research_feedback", (p) => ({ planId: p.planId, phase: "initial", satisfaction: 4, summary: "Useful" })),
  },
];
