/**
 * Clients name this server's OAuth resource in different ways: the protected
 * resource metadata's value (the origin), the connector URL (`…/mcp`), either
 * with a trailing slash, or the REST base. All of them mean this one resource,
 * so they are rewritten to the canonical origin before the provider compares
 * them exactly. Anything else is left alone, and the provider refuses it
 * (`invalid_target`).
 */
const ALIAS_PATHS = new Set(["/", "/mcp", "/mcp/", "/mcp/core", "/mcp/core/", "/api/v1", "/api/v1/"]);

export const canonicalOrigin = (publicUrl: string): string => new URL(publicUrl).origin;

/**
 * This deployment's public origin for one request: PUBLIC_URL when it is set,
 * else the origin the request arrived on. On Cloudflare a request reaches the
 * Worker only through a hostname routed to it (workers.dev or a custom domain),
 * so the origin is one of the deployment's own; tokens and OAuth metadata are
 * bound to it exactly as to a pinned PUBLIC_URL, and a token issued on one
 * hostname is refused on another.
 */
export const publicOrigin = (publicUrl: string | undefined, requestUrl: string): string =>
  publicUrl ? canonicalOrigin(publicUrl) : new URL(requestUrl).origin;

export function normalizeResource(value: string, origin: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  const sameOrigin = url.origin.toLowerCase() === origin.toLowerCase();
  return sameOrigin && !url.search && !url.hash && ALIAS_PATHS.has(url.pathname) ? origin : value;
}

/** The same parameters with a single `resource` value normalized; several values are left for the provider to refuse. */
export function normalizeResourceParams(params: URLSearchParams, origin: string): URLSearchParams | null {
  const values = params.getAll("resource");
  const value = values[0];
  if (values.length !== 1 || value === undefined) return null;
  const normalized = normalizeResource(value, origin);
  if (normalized === value) return null;
  const next = new URLSearchParams(params);
  next.set("resource", normalized);
  return next;
}

/** A token request whose `resource` names one of this server's aliases, rewritten to the canonical origin. */
export async function normalizeTokenRequest(request: Request, origin: string): Promise<Request> {
  const type = request.headers.get("content-type") ?? "";
  if (request.method !== "POST" || !type.startsWith("application/x-www-form-urlencoded")) return request;
  const params = new URLSearchParams(new TextDecoder().decode(await request.clone().arrayBuffer()));
  const normalized = normalizeResourceParams(params, origin);
  if (!normalized) return request;
  return new Request(request, { body: normalized.toString() });
}

const PATH_INSERTED_PREFIX = "/.well-known/oauth-protected-resource";
const CONNECT_PATHS = new Set(["/mcp", "/mcp/core", "/api/v1"]);

/**
 * RFC 9728 documents for the paths clients connect to. A client that looks up
 * `/.well-known/oauth-protected-resource/mcp` expects it to name `…/mcp`; the
 * authorization and token endpoints map that name to the canonical origin. The
 * provider serves only the origin's own document, so these are answered first.
 */
export function protectedResourceAlias(pathname: string, origin: string, requiredScopes: readonly string[]): Response | null {
  if (!pathname.startsWith(PATH_INSERTED_PREFIX)) return null;
  const path = pathname.slice(PATH_INSERTED_PREFIX.length);
  if (!CONNECT_PATHS.has(path)) return null;
  const document = {
    resource: `${origin}${path}`,
    authorization_servers: [origin],
    scopes_supported: requiredScopes,
    bearer_methods_supported: ["header"],
    resource_name: "Cairn",
  };
  return new Response(JSON.stringify(document), {
    headers: { "content-type": "application/json", "access-control-allow-origin": "*", "cache-control": "public, max-age=3600" },
  });
}

/**
 * A challenge from `/mcp` or `/mcp/core` names that path's own metadata document. The provider names the
 * origin's, whose `resource` is the origin: RFC 9728 §3.3 tells a client to discard metadata whose resource
 * is not the one it asked for, so a strict client connecting to `…/mcp` would throw that away. The path's
 * document names `…/mcp`, which the authorization and token endpoints map to the canonical origin.
 */
export function challengeNamingPath(response: Response, pathname: string, origin: string): Response {
  const challenge = response.headers.get("www-authenticate");
  if (!challenge || !CONNECT_PATHS.has(pathname) || !pathname.startsWith("/mcp")) return response;
  const rootDocument = `resource_metadata="${origin}${PATH_INSERTED_PREFIX}"`;
  if (!challenge.includes(rootDocument)) return response;
  const headers = new Headers(response.headers);
  headers.set("www-authenticate", challenge.replace(rootDocument, `resource_metadata="${origin}${PATH_INSERTED_PREFIX}${pathname}"`));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
