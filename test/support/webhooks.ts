import { env } from "cloudflare:workers";
import { afterAll, beforeAll, expect } from "vitest";
import type { Env } from "../../src/env";
import { completeNextStep, createPlan } from "./plans";
import { rest, seedApiKey, seedTenant } from "./worker";

/**
 * Webhook receivers for the workers tests: stand-ins at their HTTP edge (`fetch` to
 * hooks.example.com, swapped in for the file's duration) that record what arrives and
 * answer as each path is told; the tests check every signature with the Standard
 * Webhooks reference library. Plus the few steps every webhook test takes.
 */

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export const received: Received[] = [];
/** How each receiver path answers its n-th request (1-based); unset paths answer 200. */
export const answers = new Map<string, (n: number) => number>();
const counts = new Map<string, number>();

/** Swaps the stand-in receivers in for the calling test file. */
export function useStandInReceivers(): void {
  const realFetch = globalThis.fetch;
  beforeAll(() => {
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.hostname !== "hooks.example.com") return realFetch(input, init);
      const n = (counts.get(url.pathname) ?? 0) + 1;
      counts.set(url.pathname, n);
      received.push({ path: url.pathname, headers: Object.fromEntries(request.headers), body: await request.text() });
      const status = answers.get(url.pathname)?.(n) ?? 200;
      return new Response(status === 200 ? "ok" : "receiver trouble", { status });
    };
  });
  afterAll(() => {
    globalThis.fetch = realFetch;
  });
}

export const at = (path: string) => received.filter((r) => r.path === path);

/**
 * Asks `probe` every 100 ms until it answers, and returns the answer. The deadline only bounds a wait that will never
 * end: an event that comes takes the time it takes, more on a loaded machine (60 s by default, within the test's 90 s).
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A tenant with an admin key (org:admin) beside the member key seedTenant gives. */
export async function adminOf() {
  const tenant = await seedTenant();
  const admin = await seedApiKey(tenant.orgId, tenant.admin.userId, ["research:read", "research:write", "org:admin"]);
  return { ...tenant, adminKey: admin.key };
}

export async function subscribe(adminKey: string, path: string, events: string[]) {
  const response = await rest(adminKey, "/webhooks", { method: "POST", body: JSON.stringify({ url: `https://hooks.example.com${path}`, events, description: "test receiver" }) });
  expect(response.status).toBe(201);
  return (await response.json()) as { subscription: { id: string }; secret: string };
}

export interface DeliveryRow {
  id: string;
  status: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  event_type: string;
  event_id: string;
  dead_lettered_at: number | null;
}

export const deliveriesOf = (subscriptionId: string) =>
  env.DB.prepare("SELECT * FROM webhook_deliveries WHERE subscription_id = ? ORDER BY created_at").bind(subscriptionId).all<DeliveryRow>();

export async function runPlanToCompletion(apiKey: string, stepCount = 1) {
  const { planId } = await createPlan(apiKey, { steps: Array.from({ length: stepCount }, (_, i) => ({ stepType: "search", instructions: `Search ${i + 1}` })) });
  for (let i = 0; i < stepCount; i++) await completeNextStep(apiKey, planId);
  return planId;
}

/**
 * A workerd binding seen through a proxy: its methods stay bound to the real one, and `replace`
 * swaps the ones a test steps in on. A new object, so the Worker's per-binding caches start afresh.
 */
export function wrapBinding<T extends object>(target: T, replace: Partial<Record<keyof T, unknown>> = {}): T {
  return new Proxy(target, {
    get(real, property) {
      if (Object.hasOwn(replace, property)) return replace[property as keyof T];
      const value: unknown = Reflect.get(real, property, real);
      return typeof value === "function" ? value.bind(real) : value;
    },
  });
}

const isD1 = (value: unknown): value is D1Database => typeof value === "object" && value !== null && "prepare" in value && "batch" in value && "withSession" in value;

/**
 * The test bindings with a webhook queue that refuses every send, over fresh views of every D1 database
 * (see wrapBinding): the Worker's services for an org's home, cached per database binding, start afresh with it.
 */
export function envWithRefusingQueue(): Env {
  const base = env as unknown as Env;
  const refuse = async () => {
    throw new Error("Queue send failed: the queue is unavailable");
  };
  const databases = Object.fromEntries(Object.entries(base).flatMap(([name, value]) => (isD1(value) ? [[name, wrapBinding(value)]] : [])));
  return { ...base, ...databases, WEBHOOK_QUEUE: wrapBinding(base.WEBHOOK_QUEUE, { send: refuse, sendBatch: refuse }) };
}
