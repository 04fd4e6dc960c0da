import { admitCaller } from "../auth/admission";
import { protectedContext } from "../auth/credentials";
import { REQUEST_LIMIT_RETRY_AFTER_SECONDS } from "../domain/auth/request-limits";
import { CairnError, INTERNAL_MESSAGE, rateLimited } from "../domain/errors";
import { formatReadPosition, parseReadPosition, READ_POSITION_HEADER, type ReadPosition } from "../domain/read-position";
import { hasScope } from "../domain/scopes";
import type { Env } from "../env";
import { invoke } from "../operations/invoke";
import type { AnyOperation } from "../operations/operation";
import { OPERATIONS } from "../operations/registry";
import { newCorrelationId, type RequestSession, requestRuntime } from "../platform/runtime";
import { jsonBody, queryInput } from "./input";
import { insufficientScopeResponse, problemResponse } from "./problem";
import { orgDataRoute } from "./org-data";
import { notificationsRoute } from "./notifications";
import { webhooksRoute } from "./webhooks";
import { orgSettingsRoute } from "./org-settings";
import { reviewAssigneeRoute } from "./review-assignee";
import { orgSsoRoute } from "./org-sso";
import { sourceRecheckRoute } from "./source-recheck";
import { promptsRoute } from "./prompts";
import { schedulesRoute } from "./schedules";
import { outputDownloadRoute } from "./output-download";
import { sharesRoute } from "./shares";
import { commentsRoute } from "./comments";
import type { OwnRoute } from "./route-gates";

export const REST_BASE = "/api/v1";

interface Route {
  operation: AnyOperation;
  method: string;
  pattern: RegExp;
  params: string[];
}

/** `/skill-executions/{executionId}` → a matcher and its parameter names. */
function compile(operation: AnyOperation): Route {
  const params: string[] = [];
  // Paths are plain (`[a-z0-9-/{}]`, checked by the registry test), so only `{name}` needs translating.
  const source = operation.rest.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    params.push(name);
    return "([^/]+)";
  });
  return { operation, method: operation.rest.method.toUpperCase(), pattern: new RegExp(`^${REST_BASE}${source}/?$`), params };
}

const ROUTES = OPERATIONS.map(compile);

/** The routes of their own, asked in this order before the operations' routes (each answers only its own paths). */
const OWN_ROUTES: readonly OwnRoute[] = [
  orgDataRoute,
  webhooksRoute,
  notificationsRoute,
  orgSettingsRoute,
  orgSsoRoute,
  sourceRecheckRoute,
  schedulesRoute,
  outputDownloadRoute,
  reviewAssigneeRoute,
  sharesRoute,
  commentsRoute,
];

const json = (value: unknown, status: number) =>
  new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

/**
 * `/api/v1/*`, behind the OAuth provider: each operation of the registry at its
 * REST binding. Input is assembled from path, query and JSON body, then runs
 * through the same `invoke` as an MCP tool call.
 */
export const restApiHandler = {
  async fetch(request: Request, env: Env, executionContext: ExecutionContext): Promise<Response> {
    const correlationId = newCorrelationId();
    try {
      return await handle(request, env, executionContext, correlationId);
    } catch (error) {
      // Whatever escaped the operations' own mapping: logged with the id, never shown.
      const detail = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(error);
      console.error(JSON.stringify({ level: "error", correlationId, face: "rest", error: detail }));
      return problemResponse(new CairnError("internal", INTERNAL_MESSAGE), correlationId);
    }
  },
};

/** A path parameter, percent-decoded; malformed encoding (`%ZZ`) is the caller's error, not ours. */
function decodePathSegment(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new CairnError("validation", `The ${name} in the path is not valid percent-encoding.`, {
      issues: [{ path: name, message: "Malformed percent-encoding" }],
    });
  }
}

async function handle(request: Request, env: Env, executionContext: ExecutionContext, correlationId: string): Promise<Response> {
  const ctx = protectedContext(executionContext);
  const url = new URL(request.url);
  // The org's erasure is the one call still served once it has begun: a stopped erasure is finished by sending it again.
  const forErasure = request.method === "DELETE" && url.pathname.replace(/\/$/, "") === `${REST_BASE}/org`;
  const admission = await admitCaller(env, ctx, { requestOrigin: url.origin, forErasure });
  if (!admission.ok) {
    if (admission.reason === "unauthorized") return new Response("Unauthorized", { status: 401 });
    if (admission.reason === "org_erasing") return problemResponse(admission.error, correlationId);
    const limited = rateLimited("Too many requests for this credential.", REQUEST_LIMIT_RETRY_AFTER_SECONDS);
    return problemResponse(limited, correlationId);
  }
  const { principal } = admission;
  // The skills as prompts: not operations (no MCP tool), so they have their own small route.
  const prompts = promptsRoute(request, url.pathname.slice(REST_BASE.length), ctx, principal, correlationId);
  if (prompts) return prompts;
  // Routes of their own, not operations: the org's data as a whole (export, import, erasure), webhooks, settings…
  for (const ownRoute of OWN_ROUTES) {
    const answer = await ownRoute(request, url.pathname.slice(REST_BASE.length), env, ctx, principal, correlationId);
    if (answer) return answer;
  }
  const candidates = ROUTES.filter((route) => route.pattern.test(url.pathname));
  const route = candidates.find((candidate) => candidate.method === request.method);
  if (!route) {
    const allow = candidates.map((c) => c.method);
    const error = allow.length
      ? new CairnError("method_not_allowed", `${request.method} is not allowed here; use ${allow.join(", ")}.`, { allow })
      : new CairnError("not_found", `No route ${url.pathname}. The API is described at ${REST_BASE}/openapi.json.`);
    return problemResponse(error, correlationId);
  }
  const { operation } = route;
  if (!hasScope(principal.scopes, operation.scope)) {
    return insufficientScopeResponse(ctx.auth, [operation.scope], `${operation.name} needs the ${operation.scope} scope`, correlationId);
  }
  const runtime = requestRuntime(env, ctx, principal);
  let input: Record<string, unknown>;
  let session: RequestSession;
  try {
    const from = parseReadPosition(request.headers.get(READ_POSITION_HEADER));
    const body = request.method === "GET" || request.method === "DELETE" ? {} : await jsonBody(request);
    input = { ...queryInput(operation.input, url), ...body };
    const match = route.pattern.exec(url.pathname);
    route.params.forEach((name, index) => {
      input[name] = decodePathSegment(name, match?.[index + 1] ?? "");
    });
    // Reads go through a D1 session from the caller's position; a position the database has not reached is refused here.
    session = await runtime.sessionContextFor(correlationId, from, READ_POSITION_HEADER);
  } catch (error) {
    if (error instanceof CairnError) return problemResponse(error, correlationId);
    throw error;
  }
  const { context, position } = session;
  const result = await invoke(operation, input, context, "rest", runtime.record);
  const response = result.ok ? success(operation, result.value, input) : problemResponse(result.error, correlationId);
  return withReadPosition(response, position());
}

/** 200, or for a create 201 with `Location` (what it made, where to read it). */
function success(operation: AnyOperation, value: unknown, input: Readonly<Record<string, unknown>>): Response {
  const { creates } = operation.rest;
  if (!creates || creates.isNew?.(value) === false) return json(value, 200);
  const response = json(value, 201);
  const location = creates.location?.(value, input);
  if (location) {
    response.headers.set("location", `${REST_BASE}${location}`);
    response.headers.append("Access-Control-Expose-Headers", "Location");
  }
  return response;
}

/** Hands the caller its read position: sent back on the next request, its reads may come from a replica and still show its writes. */
function withReadPosition(response: Response, position: ReadPosition | null): Response {
  if (!position) return response;
  response.headers.set(READ_POSITION_HEADER, formatReadPosition(position));
  response.headers.append("Access-Control-Expose-Headers", READ_POSITION_HEADER);
  return response;
}
