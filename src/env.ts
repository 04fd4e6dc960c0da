import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import type { PlanObject } from "./durable-objects/plan-object";

/** The Worker's bindings (wrangler.toml) plus what the OAuth provider injects. */
export interface Env {
  DB: D1Database;
  OAUTH_KV: KVNamespace;
  /** One Durable Object per research plan, named "<orgId>:<planId>". */
  PLAN: DurableObjectNamespace<PlanObject>;
  /** Public origin of this deployment: the OAuth issuer and resource. */
  PUBLIC_URL: string;
  CAIRN_ENV?: string;
  /** Injected by OAuthProvider into the default handler's env. */
  OAUTH_PROVIDER: OAuthHelpers;
}
