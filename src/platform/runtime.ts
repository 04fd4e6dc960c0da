import type { OAuthResourceContext } from "@cloudflare/workers-oauth-provider";
import { touchApiKey } from "../auth/credentials";
import { canonicalOrigin } from "../auth/resource";
import { isDevelopment } from "../domain/deployment-mode";
import type { Services } from "../domain/ports";
import type { Principal } from "../domain/principal";
import { newerBookmark, type ReadPosition } from "../domain/read-position";
import { sessionConfig } from "../domain/sessions/config";
import { snapshotBytesCap } from "../domain/sources/snapshot-quota";
import type { CallRecord } from "../domain/tool-calls";
import type { Env } from "../env";
import type { OperationContext } from "../operations/operation";
import { d1ArtifactRepository } from "../storage/artifact-repository";
import { d1AuditLog } from "../storage/audit-log";
import { d1Completions } from "../storage/completion-repository";
import { type D1Queries, openDatabase } from "../storage/database";
import { d1EvidenceLedger } from "../storage/ledger-repository";
import { d1OrgMembers } from "../storage/org-members";
import { d1OrgSettings } from "../storage/org-settings";
import { d1FeedbackRepository, d1OutputRepository } from "../storage/output-repository";
import { d1PlanIndex, durablePlanEngine } from "../storage/plan-engine";
import { d1PlanSeries } from "../storage/plan-schedules";
import { d1ResearchSearch } from "../storage/research-search";
import { durableSearchSessions } from "../storage/search-sessions";
import { d1SkillExecutionRepository } from "../storage/skill-execution-repository";
import { d1SnapshotBytes } from "../storage/snapshot-bytes";
import { ToolCallLog } from "../storage/tool-call-log";
import { learnPosition, sessionFrom } from "./database-positions";
import { platformExtraction } from "./extraction";
import { bindingOf, homeDatabase, homeName } from "./org-homes";
import { configuredSearchProviders } from "./search-providers";
import { clientTextStore } from "./sources/client-texts";
import { sourceCheckQueue } from "./sources/producer";
import { snapshotTexts } from "./sources/snapshot-texts";
import { outboxPublisher } from "./webhooks/producer";
import { d1CommentRepository } from "../storage/comment-repository";

const now = () => Date.now();

/** Where this deployment answers: parsed once per public URL rather than on every call. */
interface Place {
  origin: string;
  hostname: string;
  /** Development only (CAIRN_ENV exactly "development"): /mcp also accepts localhost as Host and Origin (a local client on another port). */
  localHosts: boolean;
}

// A deployment has one public URL, or a few hostnames when it is taken from the request.
const places = new Map<string, Place>();

function placeOf(env: Env): Place {
  const key = `${env.CAIRN_ENV ?? ""} ${env.PUBLIC_URL}`;
  let place = places.get(key);
  if (!place) {
    if (places.size >= 16) places.clear();
    place = { origin: canonicalOrigin(env.PUBLIC_URL), hostname: new URL(env.PUBLIC_URL).hostname, localHosts: isDevelopment(env.CAIRN_ENV) };
    places.set(key, place);
  }
  return place;
}

// One set of services per home database binding object (research there, the rest in the directory): building them per request is waste.
const servicesByHome = new WeakMap<D1Database, Services>();
// One tool-call log per directory binding, so entries of every org batch together.
const toolCallsByDirectory = new WeakMap<D1Database, ToolCallLog>();

function servicesFor(env: Env, home: D1Database): Services {
  let services = servicesByHome.get(home);
  if (!services) {
    services = {
      ...homeRepositories(home),
      plans: durablePlanEngine(env, () => home),
      extraction: platformExtraction,
      // The search-session index is in the directory (DB): it counts sessions per org and member.
      sessions: durableSearchSessions(env, sessionConfig(env)),
      searchProviders: configuredSearchProviders(env),
      // Events are written to the home database's outbox with their change; this sends them on at once.
      webhookEvents: outboxPublisher(env.WEBHOOK_QUEUE, home),
      // Org settings are in the directory (DB), beside the org's row.
      orgSettings: d1OrgSettings(env.DB),
      members: d1OrgMembers(env.DB),
      sourceChecks: sourceCheckQueue(env),
      // Texts assistants send count with the org's page snapshots, on its row in its home database.
      clientTexts: clientTextStore(env.SOURCE_SNAPSHOTS, { bytes: d1SnapshotBytes(home), cap: snapshotBytesCap(env.SOURCE_SNAPSHOT_BYTES_PER_ORG) }),
      sourceSnapshots: snapshotTexts(env.SOURCE_SNAPSHOTS),
    };
    servicesByHome.set(home, services);
  }
  return services;
}

/** The services that read and write the org's home database: over its binding, or over one request's session of it. */
function homeRepositories(home: D1Queries) {
  const db = openDatabase(home);
  return {
    artifacts: d1ArtifactRepository(home),
    ledger: d1EvidenceLedger(home),
    outputs: d1OutputRepository(home),
    feedback: d1FeedbackRepository(home),
    comments: d1CommentRepository(home),
    skillExecutions: d1SkillExecutionRepository(db),
    audit: d1AuditLog(db, now),
    planIndex: d1PlanIndex(home),
    completions: d1Completions(home),
    researchSearch: d1ResearchSearch(home),
    series: d1PlanSeries(home),
  } satisfies Partial<Services>;
}

function toolCallsFor(env: Env): ToolCallLog {
  let log = toolCallsByDirectory.get(env.DB);
  if (!log) {
    log = new ToolCallLog(env.DB);
    toolCallsByDirectory.set(env.DB, log);
  }
  return log;
}

/**
 * The services of one org, for the dashboard's pages that act as the signed-in person (same wiring as the API),
 * with the org's home database for the pages' own research queries.
 */
export async function webServices(env: Env, orgId: string): Promise<{ services: Services; home: D1Database; origin: string; now: () => number }> {
  const home = await homeDatabase(env, orgId);
  return { services: servicesFor(env, home), home, origin: placeOf(env).origin, now };
}

/** This deployment's canonical public origin. */
export const publicOrigin = (env: Env): string => placeOf(env).origin;

/** A request's operation context over a D1 session, and where the caller stands after it. */
export interface RequestSession {
  context: OperationContext;
  position(): ReadPosition | null;
}

/** Everything one protected request needs to run operations, built from the verified caller. */
export interface RequestRuntime {
  principal: Principal;
  /** This deployment's public hostname: the one non-local Host and Origin /mcp accepts. */
  hostname: string;
  /** Whether /mcp also accepts localhost (development only). */
  localHosts: boolean;
  /** The operation context, over the caller's org home database (found in the directory on first use). */
  contextFor(correlationId: string): Promise<OperationContext>;
  /**
   * As contextFor, but over a D1 session of the home database that starts at the caller's position
   * (or on the primary), so replicas may serve its reads; `position()` is where the caller stands after.
   * Throws a validation error naming `carrier` (where the position came from) for a position newer
   * than the database has reached.
   */
  sessionContextFor(correlationId: string, from: ReadPosition | null, carrier: string): Promise<RequestSession>;
  /** Records a finished call after the response, never delaying it. */
  record(call: CallRecord): void;
}

export function requestRuntime(env: Env, ctx: OAuthResourceContext<unknown>, principal: Principal): RequestRuntime {
  const toolCalls = toolCallsFor(env);
  const { origin, hostname, localHosts } = placeOf(env);
  if (principal.apiKeyId) ctx.waitUntil(touchApiKey(env.DB, principal.apiKeyId, now()).catch((error) => logBackgroundFailure(error, null)));

  return {
    principal,
    hostname,
    localHosts,
    async contextFor(correlationId) {
      return { principal, services: servicesFor(env, await homeDatabase(env, principal.orgId)), correlationId, origin, now };
    },
    async sessionContextFor(correlationId, from, carrier) {
      const database = await homeName(env, principal.orgId);
      const home = bindingOf(env, database);
      const session = await sessionFrom(home, database, from, carrier);
      // A plan command that waited for its index write reports that write's bookmark: the position must cover it.
      let indexWrite: string | null = null;
      // The plan index lookup before a plan's object reads the primary (the binding), not the session: a plan just created is found.
      const plans = durablePlanEngine(env, () => home, (bookmark) => (indexWrite = newerBookmark(indexWrite, bookmark)));
      const services: Services = { ...servicesFor(env, home), ...homeRepositories(session), plans };
      const context = { principal, services, correlationId, origin, now };
      return {
        context,
        position() {
          const bookmark = newerBookmark(session.getBookmark(), indexWrite);
          // The session started at a checked position (or the primary): where it ended is real.
          learnPosition(database, bookmark);
          return bookmark ? { database, bookmark } : null;
        },
      };
    },
    record(call) {
      ctx.waitUntil(toolCalls.record(principal, call, now()).catch((error) => logBackgroundFailure(error, call.correlationId)));
    },
  };
}

function logBackgroundFailure(error: unknown, correlationId: string | null): void {
  console.error(JSON.stringify({ level: "error", correlationId, message: "background write failed", error: String(error) }));
}

export const newCorrelationId = (): string => crypto.randomUUID();
