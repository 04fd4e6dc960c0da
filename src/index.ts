import type { OAuthProvider } from "@cloudflare/workers-oauth-provider";
import { screenRegistration } from "./auth/client-registration";
import { screenClientId } from "./auth/client-id-guard";
import { AUTHORIZE_PATH, BASELINE_SCOPES, createOAuthProvider, REGISTER_PATH, TOKEN_PATH } from "./auth/oauth-provider";
import { guardedRefresh } from "./auth/refresh";
import { challengeNamingPath, normalizeTokenRequest, protectedResourceAlias, publicOrigin } from "./auth/resource";
import { addressedForApiKey } from "./auth/api-key-origin";
import { protectedFaceOf, restoreVerifiedCaller } from "./auth/verified-callers";
import type { Env } from "./env";
import { mcpApiHandler } from "./mcp/handler";
import { REST_BASE, restApiHandler } from "./rest/app";
import { openApiDocument } from "./rest/openapi";
import { CairnError, INTERNAL_MESSAGE } from "./domain/errors";
import { applyRetention } from "./platform/retention";
import { newCorrelationId } from "./platform/runtime";
import { problemResponse } from "./rest/problem";
import { handleQueue } from "./platform/webhooks/consumer";
import { handleDeadSourceChecks, isSourceCheckDeadLetterQueue } from "./platform/sources/check-failures";
import { handleSourceChecks, isSourceCheckQueue } from "./platform/sources/consumer";
import { sweepPendingSources } from "./platform/sources/pending-sweep";
import { recheckDeliveredSources } from "./platform/sources/recheck";
import type { SourceCheckMessage } from "./domain/ports";
import { sweepNotifications } from "./platform/notifications/sweep";
import { sweepWebhooks } from "./platform/webhooks/sweeper";
import { runDueSchedules } from "./platform/schedules/cron";
import { indexPendingEverywhere } from "./platform/search-reindex";
import { webApp } from "./web/app";

export { GrantGuardObject } from "./durable-objects/grant-guard-object";
export { PlanObject } from "./durable-objects/plan-object";
export { SearchSessionObject } from "./durable-objects/search-session-object";
export { SignInThrottleObject } from "./durable-objects/sign-in-throttle-object";
export { SourceCheckerObject } from "./durable-objects/source-checker-object";

/** The frequent cron of wrangler.toml [triggers]: it sweeps webhooks and sources left pending. */
const WEBHOOK_SWEEP_CRON = "*/5 * * * *";

let provider: { origin: string; instance: OAuthProvider<Env> } | undefined;
let openApi: { origin: string; body: string } | undefined;

// Built on first use: the resource URL comes from the environment.
function providerFor(origin: string): OAuthProvider<Env> {
  if (provider?.origin !== origin) {
    provider = { origin, instance: createOAuthProvider(origin, { mcp: mcpApiHandler, rest: restApiHandler, web: webApp }) };
  }
  return provider.instance;
}

/** Per-hostname envs when PUBLIC_URL is unset: a handful of hostnames at most, bounded anyway. */
const envsByOrigin = new WeakMap<Env, Map<string, Env>>();
const MAX_DERIVED_ORIGINS = 16;

/**
 * The env every handler sees, with PUBLIC_URL set to this request's public
 * origin, so the provider, the MCP and REST faces and the dashboard all read
 * one origin. Reused per origin (the provider keeps its helpers on the env).
 */
function envFor(env: Env, origin: string): Env {
  if (env.PUBLIC_URL) return env;
  let byOrigin = envsByOrigin.get(env);
  if (!byOrigin) {
    byOrigin = new Map();
    envsByOrigin.set(env, byOrigin);
  }
  let derived = byOrigin.get(origin);
  if (!derived) {
    if (byOrigin.size >= MAX_DERIVED_ORIGINS) byOrigin.clear();
    derived = { ...env, PUBLIC_URL: origin };
    byOrigin.set(origin, derived);
  }
  return derived;
}

function openApiResponse(origin: string): Response {
  if (openApi?.origin !== origin) openApi = { origin, body: JSON.stringify(openApiDocument(origin)) };
  return new Response(openApi.body, { headers: { "content-type": "application/json", "access-control-allow-origin": "*" } });
}

/** Routes a request to the OAuth provider and the faces behind it. */
async function route(request: Request, baseEnv: Env, ctx: ExecutionContext): Promise<Response> {
  const origin = publicOrigin(baseEnv.PUBLIC_URL, request.url);
  const env = envFor(baseEnv, origin);
  const { pathname } = new URL(request.url);
  // The API description is public: integrations read it before they hold a token.
  if (pathname === `${REST_BASE}/openapi.json` && request.method === "GET") return openApiResponse(origin);
  const alias = request.method === "GET" ? protectedResourceAlias(pathname, origin, BASELINE_SCOPES) : null;
  if (alias) return alias;
  // Client ID Metadata Documents are fetched by the provider: their URLs pass the outbound-address guard first.
  if (pathname === AUTHORIZE_PATH || pathname === TOKEN_PATH) {
    const refused = await screenClientId(request, pathname, env.CAIRN_ENV);
    if (refused) return refused;
  }
  if (pathname === REGISTER_PATH && request.method === "POST") {
    const screened = await screenRegistration(request, env);
    if (screened instanceof Response) return screened;
    return providerFor(origin).fetch(screened, env, ctx);
  }
  const normalized = pathname === TOKEN_PATH ? await normalizeTokenRequest(request, origin) : request;
  if (pathname === TOKEN_PATH) {
    const refreshed = await guardedRefresh(normalized, env, origin);
    if (refreshed) return refreshed;
  }
  // A token this isolate verified moments ago goes straight to its face (auth/verified-callers.ts).
  const face = protectedFaceOf(pathname);
  if (face && (await restoreVerifiedCaller(normalized, env, ctx))) {
    const answered = await (face === "mcp" ? mcpApiHandler : restApiHandler).fetch(normalized, env, ctx);
    return face === "mcp" ? challengeNamingPath(answered, pathname, origin) : answered;
  }
  const answered = await providerFor(origin).fetch(face ? addressedForApiKey(normalized, origin) : normalized, env, ctx);
  return face === "mcp" ? challengeNamingPath(answered, pathname, origin) : answered;
}

export default {
  async fetch(request, baseEnv, ctx) {
    try {
      return await route(request, baseEnv, ctx);
    } catch (error) {
      // Each face maps its own errors; this catches what fails before a face runs (a credential's lookup when
      // storage is down): an answer with a correlation id instead of the platform's error page.
      const correlationId = newCorrelationId();
      console.error(JSON.stringify({ level: "error", correlationId, message: "request failed before reaching a face", error: String(error) }));
      return problemResponse(new CairnError("internal", INTERNAL_MESSAGE), correlationId);
    }
  },
  async queue(batch, env) {
    if (isSourceCheckQueue(batch.queue)) return handleSourceChecks(batch as MessageBatch<SourceCheckMessage>, env);
    if (isSourceCheckDeadLetterQueue(batch.queue)) return handleDeadSourceChecks(batch as MessageBatch<SourceCheckMessage>, env);
    await handleQueue(batch, env);
  },
  // The crons (wrangler.toml [triggers]): every run sweeps webhooks (outbox, stuck deliveries, secrets to seal); the
  // five-minute one also sweeps sources left pending (sent again once, then unchecked), makes plans' scheduled runs due and
  // gives artifacts, deliverables and claims stored before their words in every script were indexed (0039, 0042) their indexed forms;
  // the daily one also removes records that grow with use, past their retention, and re-checks cited sources.
  async scheduled(controller, env) {
    await sweepWebhooks(env, controller.scheduledTime);
    // Notifications ride on the webhook queue: their stuck deliveries and sealed channel URLs are swept with it.
    await sweepNotifications(env, controller.scheduledTime);
    // Every five minutes (the daily run falls between two of them); it throws nothing.
    if (controller.cron === WEBHOOK_SWEEP_CRON) await sweepPendingSources(env, controller.scheduledTime);
    // Plans' schedules: each due series gets its one run (bounded a tick; it throws nothing).
    if (controller.cron === WEBHOOK_SWEEP_CRON) await runDueSchedules(env, controller.scheduledTime);
    // Rows stored before their words in every script were indexed get their indexed forms (bounded a run; throws nothing).
    if (controller.cron === WEBHOOK_SWEEP_CRON) await indexPendingEverywhere(env);
    if (controller.cron !== WEBHOOK_SWEEP_CRON) {
      await applyRetention(env, controller.scheduledTime);
      // The sources stored deliverables cite are read again, oldest-checked first (changes announced by webhook).
      await recheckDeliveredSources(env, controller.scheduledTime);
    }
  },
} satisfies ExportedHandler<Env>;
