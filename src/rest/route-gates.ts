import type { OAuthResourceContext } from "@cloudflare/workers-oauth-provider";
import { CairnError, forbidden, isCairnError, validationError } from "../domain/errors";
import { refusedByDatabaseGate, writeRefusal } from "../domain/org-data/write-gate";
import type { Principal } from "../domain/principal";
import type { Env } from "../env";
import { hasScope, type Scope } from "../domain/scopes";
import { readBoundedText } from "../platform/request-body";
import { insufficientScopeResponse, problemResponse } from "./problem";

/**
 * A REST route of its own (not an operation: export, webhooks, settings, comments…): the answer for the paths it
 * serves, or null for the next route. `relativePath` is the path after /api/v1.
 */
export type OwnRoute = (
  request: Request,
  relativePath: string,
  env: Env,
  ctx: OAuthResourceContext<unknown>,
  principal: Principal,
  correlationId: string,
) => Promise<Response | null>;

/**
 * The one preamble of REST's own routes (those that are not MCP tools: webhooks, notifications, shares, schedules,
 * downloads, org data and settings): the method (405 with `Allow`), the scope (403 with the step-up challenge MCP and
 * OAuth clients act on), for admin routes the role, and for a change the org's write gate (an import running, an
 * erasure begun); then a bounded JSON body, and the refusals a route's work throws mapped to problems, once.
 */

function methodRefusal(request: Request, methods: readonly string[], correlationId: string): Response | null {
  if (methods.includes(request.method)) return null;
  return problemResponse(new CairnError("method_not_allowed", `${request.method} is not allowed here; use ${methods.join(", ")}.`, { allow: [...methods] }), correlationId);
}

/** A change waits while the org's import runs and ends with the org, as every operation's does. */
function writeGate(request: Request, principal: Principal, correlationId: string): Response | null {
  const closed = request.method === "GET" ? null : writeRefusal(principal.orgMarks, Date.now());
  return closed ? problemResponse(closed, correlationId) : null;
}

/**
 * The gate in front of an org admin's route: the method, the org:admin scope, the admin role and (unless the route
 * says `writeGate: false`, as erasing and importing an org do, which keep their own) the org's write gate. Null when
 * the caller may go on.
 */
export function adminGate(
  request: Request,
  methods: readonly string[],
  ctx: OAuthResourceContext<unknown>,
  principal: Principal,
  correlationId: string,
  refusal: { scope: string; role: string; writeGate?: boolean },
): Response | null {
  const method = methodRefusal(request, methods, correlationId);
  if (method) return method;
  if (!hasScope(principal.scopes, "org:admin")) return insufficientScopeResponse(ctx.auth, ["org:admin"], refusal.scope, correlationId);
  if (principal.role !== "admin") return problemResponse(forbidden(refusal.role), correlationId);
  return refusal.writeGate === false ? null : writeGate(request, principal, correlationId);
}

/**
 * The gate in front of a member's route: the method, research:read to read (GET) or research:write to change, and
 * the org's write gate for a change. `scopeRefusal` says what needs the scope ("Downloads need the research:read
 * scope"). Null when the caller may go on.
 */
export function memberGate(
  request: Request,
  methods: readonly string[],
  ctx: OAuthResourceContext<unknown>,
  principal: Principal,
  correlationId: string,
  scopeRefusal: (scope: Scope) => string,
): Response | null {
  const method = methodRefusal(request, methods, correlationId);
  if (method) return method;
  const scope: Scope = request.method === "GET" ? "research:read" : "research:write";
  if (!hasScope(principal.scopes, scope)) return insufficientScopeResponse(ctx.auth, [scope], scopeRefusal(scope), correlationId);
  return writeGate(request, principal, correlationId);
}

/**
 * The request's JSON body, at most `limit` bytes (413 past it); an empty body is `empty`. `notJson` is the route's
 * own hint of what to send.
 */
export async function jsonBody(request: Request, limit: number, options: { notJson?: string; empty?: unknown } = {}): Promise<unknown> {
  const text = (await readBoundedText(request, limit)).trim();
  if (text === "") return options.empty === undefined ? {} : options.empty;
  try {
    return JSON.parse(text);
  } catch {
    throw validationError(options.notJson ?? "The body is not JSON.");
  }
}

/** A body that must be a JSON object of only `fields` (a field the route does not know is refused, not ignored). */
export function onlyFields(value: unknown, fields: readonly string[], notObject = "The body must be a JSON object."): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw validationError(notObject);
  const unknown = Object.keys(value).filter((key) => !fields.includes(key));
  if (unknown.length) throw validationError(`Unknown fields: ${unknown.map((k) => k.slice(0, 40)).join(", ")}.`, unknown.map((k) => ({ path: k.slice(0, 40), message: "Not a field" })));
  return value as Record<string, unknown>;
}

/**
 * Runs a route's work, answering what it refuses as a problem: Cairn's own errors, the org's database gate (a write
 * refused mid-import), and a path that is not valid percent-encoding. Anything else is a fault, thrown on.
 */
export async function answering(correlationId: string, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof URIError) return problemResponse(validationError("The path is not valid percent-encoding."), correlationId);
    const refused = isCairnError(error) ? error : refusedByDatabaseGate(error);
    if (refused) return problemResponse(refused, correlationId);
    throw error;
  }
}
