import { OAuthError, OAuthProvider, type OAuthProviderOptions } from "@cloudflare/workers-oauth-provider";
import { OAUTH_SCOPES, scopesAllowedForRole } from "../domain/scopes";
import type { Env } from "../env";
import { roleIn } from "../storage/accounts";
import { type GrantProps, resolveApiKey } from "./credentials";

export const AUTHORIZE_PATH = "/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";

/** The scopes a client asks for first: enough to research. `org:admin` comes by step-up. */
export const BASELINE_SCOPES = ["research:read", "research:write"] as const;

type Handler = { fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> };

interface Handlers {
  mcp: Handler;
  rest: Handler;
  web: Handler;
}

/**
 * The Worker as its own OAuth 2.1 authorization server and as the resource
 * server for `/mcp` and `/api/v1`. The resource is the origin, so one token
 * serves both faces.
 */
export function createOAuthProvider(origin: string, handlers: Handlers): OAuthProvider<Env> {
  return new OAuthProvider<Env>(oauthProviderOptions(origin, handlers));
}

const NOT_HERE: Handler = { fetch: () => new Response("Not found", { status: 404 }) };

/**
 * The provider with only its own endpoints (token, revocation, helpers): what
 * the grant guard runs refreshes through and revokes grants with, without the
 * faces (they never serve these requests).
 */
export const tokenEndpointOptions = (origin: string): OAuthProviderOptions<Env> => oauthProviderOptions(origin, { mcp: NOT_HERE, rest: NOT_HERE, web: NOT_HERE });

function oauthProviderOptions(origin: string, handlers: Handlers): OAuthProviderOptions<Env> {
  return {
    apiHandlers: { "/mcp": handlers.mcp, "/api/v1/": handlers.rest },
    defaultHandler: handlers.web,
    authorizeEndpoint: AUTHORIZE_PATH,
    tokenEndpoint: TOKEN_PATH,
    clientRegistrationEndpoint: REGISTER_PATH,
    resourceMetadata: {
      resource: origin,
      authorization_servers: [origin],
      bearer_methods_supported: ["header"],
      resource_name: "Cairn",
    },
    scopesSupported: [...OAUTH_SCOPES],
    requiredScopes: [...BASELINE_SCOPES],
    clientIdMetadataDocumentEnabled: true,
    accessTokenTTL: 3600,
    resolveExternalToken: ({ token, env }) => resolveApiKey(env.DB, token, origin),
    // A refresh re-reads the membership: a removed member's grant dies at its next
    // refresh, and a changed role changes the scopes the new token may carry.
    async tokenExchangeCallback({ grantType, props, requestedScope, env }) {
      if (grantType !== "refresh_token") return undefined;
      const grant = props as GrantProps;
      const role = await roleIn(env.DB, grant.orgId, grant.userId);
      if (!role) throw new OAuthError("invalid_grant", { description: "The user is no longer a member of this organization." });
      const allowed = scopesAllowedForRole(role);
      const current: GrantProps = { ...grant, role };
      // The scopes this refresh asked for (the provider has already cut them to the grant's), and of those only
      // what the role allows now. A request for more than the grant is refused before this (grant guard).
      return { newProps: current, accessTokenProps: current, accessTokenScope: requestedScope.filter((s) => (allowed as string[]).includes(s)) };
    },
  };
}
