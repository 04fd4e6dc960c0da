import { d1ResearchSearch } from "../storage/research-search";
import { queuePublisher } from "./webhooks/producer";
import type { OAuthResourceContext } from "@cloudflare/workers-oauth-provider";
import { touchApiKey } from "../auth/credentials";
import { canonicalOrigin } from "../auth/resource";
import type { Principal } from "../domain/principal";
import type { Services } from "../domain/ports";
import { sessionConfig } from "../domain/sessions/config";
import type { Env } from "../env";
import type { CallRecord } from "../operations/invoke";
import type { OperationContext } from "../operations/operation";
import { d1ArtifactRepository } from "../storage/artifact-repository";
import { d1AuditLog } from "../storage/audit-log";
import { d1Completions } from "../storage/completion-repository";
import { d1EvidenceLedger } from "../storage/ledger-repository";
import { d1FeedbackRepository, d1OutputRepository } from "../storage/output-repository";
import { openDatabase } from "../storage/database";
import { d1PlanIndex, durablePlanEngine } from "../storage/plan-engine";
import { durableSearchSessions } from "../storage/search-sessions";
import { d1SkillExecutionRepository } from "../storage/skill-execution-repository";
import { ToolCallLog } from "../storage/tool-call-log";
import { platformExtraction } from "./extraction";
import { configuredSearchProviders } from "./search-providers";

const now = () => Date.now();

interface Wiring {
  services: Services;
  toolCalls: ToolCallLog;
}

/** Where this deployment answers: parsed once per public URL rather than on every call. */
interface Place {
  origin: string;
  hostname: string;
  /** Development only: /mcp also accepts localhost as Host and Origin (a local client on another port). */
  localHosts: boolean;
}

// A deployment has one public URL, or a few hostnames when it is taken from the request.
const places = new Map<string, Place>();

function placeOf(env: Env): Place {
  const key = `${env.CAIRN_ENV ?? ""} ${env.PUBLIC_URL}`;
  let place = places.get(key);
  if (!place) {
    if (places.size >= 16) places.clear();
    place = { origin: canonicalOrigin(env.PUBLIC_URL), hostname: new URL(env.PUBLIC_URL).hostname, localHosts: env.CAIRN_ENV !== "production" };
    places.set(key, place);
  }
  return place;
}

// One set of repositories per D1 binding object: building them per request is waste.
const wiringByBinding = new WeakMap<D1Database, Wiring>();

function wiringFor(env: Env): Wiring {
  let wiring = wiringByBinding.get(env.DB);
  if (!wiring) {
    const db = openDatabase(env.DB);
    wiring = {
      services: {
        artifacts: d1ArtifactRepository(env.DB),
        ledger: d1EvidenceLedger(env.DB),
        outputs: d1OutputRepository(env.DB),
        feedback: d1FeedbackRepository(env.DB),
        skillExecutions: d1SkillExecutionRepository(db),
        audit: d1AuditLog(db, now),
        plans: durablePlanEngine(env),
        planIndex: d1PlanIndex(env.DB),
        extraction: platformExtraction,
        sessions: durableSearchSessions(env, sessionConfig(env)),
        searchProviders: configuredSearchProviders(env),
        completions: d1Completions(env.DB),
        webhookEvents: queuePublisher(env.WEBHOOK_QUEUE),
        researchSearch: d1ResearchSearch(env.DB),
      },
      toolCalls: new ToolCallLog(env.DB),
    };
    wiringByBinding.set(env.DB, wiring);
  }
  return wiring;
}

/** The shared services, for the dashboard's pages that act as the signed-in person (same wiring as the API). */
export function webServices(env: Env): { services: Services; origin: string; now: () => number } {
  return { services: wiringFor(env).services, origin: placeOf(env).origin, now };
}

/** Everything one protected request needs to run operations, built from the verified caller. */
export interface RequestRuntime {
  principal: Principal;
  /** This deployment's public hostname: the one non-local Host and Origin /mcp accepts. */
  hostname: string;
  /** Whether /mcp also accepts localhost (development only). */
  localHosts: boolean;
  contextFor(correlationId: string): OperationContext;
  /** Records a finished call after the response, never delaying it. */
  record(call: CallRecord): void;
}

export function requestRuntime(env: Env, ctx: OAuthResourceContext<unknown>, principal: Principal): RequestRuntime {
  const { services, toolCalls } = wiringFor(env);
  const { origin, hostname, localHosts } = placeOf(env);
  if (principal.apiKeyId) ctx.waitUntil(touchApiKey(env.DB, principal.apiKeyId, now()).catch((error) => logBackgroundFailure(error, null)));

  return {
    principal,
    hostname,
    localHosts,
    contextFor: (correlationId) => ({ principal, services, correlationId, origin, now }),
    record(call) {
      ctx.waitUntil(toolCalls.record(principal, call, now()).catch((error) => logBackgroundFailure(error, call.correlationId)));
    },
  };
}

function logBackgroundFailure(error: unknown, correlationId: string | null): void {
  console.error(JSON.stringify({ level: "error", correlationId, message: "background write failed", error: String(error) }));
}

export const newCorrelationId = (): string => crypto.randomUUID();
